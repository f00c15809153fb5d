// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "blog",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "blog", targets: ["blog"]),
        .library(name: "BlogBuild", targets: ["BlogBuild"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Exactly 2.1.1: the compiled renderer (BlogRender/CompiledTemplates) reads its parsed tokens by reflection;
        // another version could lay them out otherwise (then every page renders through swift-mustache, slower).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        // cmark-gfm and its GFM extensions, from the system (Debian: libcmark-gfm-dev, libcmark-gfm-extensions-dev;
        // macOS: Homebrew's cmark-gfm). scripts/build-static links their static libraries for the release binary.
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]
        ),
        // System calls Foundation lacks (swapping two folders atomically, syncfs, removing a tree from a
        // descriptor), memmem, the hook that keeps cmark-gfm's special characters when parsing on all cores,
        // the per-thread arena cmark-gfm allocates in, and SSE2 byte tests (csystem.h, inlined into Swift).
        .target(name: "CSystem"),
        // Turns themes/default into Swift source at build time, so the binary carries the default theme.
        .executableTarget(name: "embed-theme", path: "Sources/embed-theme"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["embed-theme"]),
        // The engine: one target per pipeline stage, bottom to top. A target sees only the targets it depends on,
        // so a stage cannot reach into a later one: what another target uses is `package`, and `public` only
        // what the blog command uses (see docs/architecture.md, Targets).
        // Core: diagnostics and the small helpers every stage shares: source positions, escaping, byte search,
        // slugs, paths, URLs resolved, dates as text, work on all cores, in folders named by what they hold (HTML/,
        // Text/, Web/, Files/, Work/, Dates/); and the plain values one stage hands another without pulling it in
        // (Model/: a header value, a rendered body, an output file).
        .target(name: "BlogCore", dependencies: ["CSystem"]),
        // YAML: the one YAML reader (BoundedYAML: Yams' tree once the aliases are known to stay small), YAML as
        // header values (YAMLValue), and its errors as diagnostics: shared by Config and Content.
        .target(
            name: "BlogYAML",
            dependencies: ["BlogCore", .product(name: "Yams", package: "Yams")]
        ),
        // Config: blog.yml, read and checked.
        .target(
            name: "BlogConfig",
            dependencies: ["BlogCore", "BlogYAML", .product(name: "Yams", package: "Yams")]
        ),
        // Content: the content folder scanned, and each post read (headers, dates, slugs) into a Post.
        .target(
            name: "BlogContent",
            dependencies: [
                "BlogCore",
                "BlogYAML",
                .product(name: "Yams", package: "Yams"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            // TOMLKit extends Int, String, Array… with members; only files that import it should see them.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // Highlight: code in a known language as HTML with its tokens in spans (syntax highlighting at build
        // time): a small lexer engine over UTF-8 bytes, and one file of rules per language (Languages/).
        .target(name: "BlogHighlight", dependencies: ["BlogCore"]),
        // Liquid: the template languages of a post's body, which need no cmark: the Liquid interpreter (tags,
        // filters, values) and Hugo's shortcodes (the scanner, the built-ins, the marks their HTML waits behind).
        .target(name: "BlogLiquid", dependencies: ["BlogCore", "BlogContent"]),
        // Markdown: a post's body to HTML: Liquid and Hugo shortcodes (BlogLiquid), then cmark-gfm in the dialect
        // of the generator the post was written for. The stage (MarkdownStage) renders every placed post on all
        // cores; what it needs from the site (links, Liquid's page) comes in as closures.
        .target(name: "BlogMarkdown", dependencies: ["BlogCore", "BlogConfig", "BlogContent", "BlogHighlight", "BlogLiquid", "CCmarkGFM", "CSystem"]),
        // Site: the posts placed (order, URLs, tags, archives, pages), and the links between them.
        .target(name: "BlogSite", dependencies: ["BlogCore", "BlogConfig", "BlogContent"]),
        // Output: writes the rendered files into the output folder and swaps it in, under the build lock that
        // every build of a blog holds.
        .target(name: "BlogOutput", dependencies: ["BlogCore", "CSystem"]),
        // Render: the site through the Mustache templates, feeds, sitemap and redirects, as files to write.
        .target(
            name: "BlogRender",
            dependencies: [
                "BlogCore",
                "BlogConfig",
                "BlogContent",
                "BlogSite",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedTheme"]
        ),
        // Scaffold: `blog init` (a new blog folder) and `blog new` (a new post in the blog's header form), beside the
        // stages: it reads the config and the posts, and writes starter files.
        .target(name: "BlogScaffold", dependencies: ["BlogCore", "BlogConfig", "BlogContent", "BlogOutput"]),
        // Check: the links of a built site, checked in its folder (how it was built is BlogBuild's business).
        .target(name: "BlogCheck", dependencies: ["BlogCore", "BlogConfig"]),
        // Incremental: the optional layer on top of the stages: the state in cache_dir, and the build in place
        // when only post bodies changed. Render reports to it through one hook (RenderHook) where the bodies
        // landed; no stage knows it exists.
        .target(
            name: "BlogIncremental",
            dependencies: [
                "BlogCore",
                "BlogConfig",
                "BlogContent",
                "BlogLiquid",
                "BlogMarkdown",
                "BlogSite",
                "BlogRender",
                "BlogOutput",
            ]
        ),
        // Build: the pipeline that runs the stages in order (Pipeline.swift), with the incremental layer at one
        // place, and `blog check`'s build.
        .target(
            name: "BlogBuild",
            dependencies: [
                "BlogCore",
                "CSystem",
                "BlogYAML",
                "BlogConfig",
                "BlogContent",
                "BlogLiquid",
                "BlogMarkdown",
                "BlogSite",
                "BlogRender",
                "BlogOutput",
                "BlogCheck",
                "BlogIncremental",
                "BlogScaffold",
            ]
        ),
        // Serve: `blog serve`, a layer on top of the pipeline: it runs builds into a private folder, serves them over
        // HTTP (its own bounded HTTP/1.1 reader on FlyingFox's FlyingSocks), watches the sources and reloads open
        // pages. No stage knows it exists.
        .target(
            name: "BlogServe",
            dependencies: [
                "BlogBuild",
                "BlogCheck",
                "BlogConfig",
                "CSystem",
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        // The command line: BlogBuild for the stages' commands, BlogServe for `blog serve`.
        .executableTarget(
            name: "blog",
            dependencies: [
                "BlogBuild",
                "BlogServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Unit tests per stage, and end-to-end tests that run the `blog` executable (hence the dependency).
        // Fixtures/ holds data files the tests find through #filePath (see Fixtures/SOURCES.md).
        .testTarget(name: "BlogKitTests", dependencies: [
            "BlogCore", "BlogYAML", "BlogConfig", "BlogContent", "BlogHighlight", "BlogLiquid", "BlogMarkdown", "BlogSite", "BlogRender", "BlogOutput", "BlogCheck", "BlogIncremental", "BlogScaffold", "BlogBuild", "BlogServe", "blog",
        ], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v5]
)

// libFuzzer targets, one per parser (Fuzz/<Name>/main.swift), only when BLOG_FUZZ is set: they need the fuzzer
// runtime, which a plain build does not link. Run them with scripts/fuzz (see CONTRIBUTING.md, Fuzzing).
if Context.environment["BLOG_FUZZ"] != nil {
    let fuzzers: [(name: String, stage: Target.Dependency)] = [
        ("FuzzSlug", "BlogCore"),
        ("FuzzHTMLAttributes", "BlogCore"),
        ("FuzzSanitizer", "BlogMarkdown"),
        ("FuzzPelicanHeader", "BlogContent"),
        ("FuzzFencedHeader", "BlogContent"),
        ("FuzzPostReader", "BlogContent"),
        ("FuzzDate", "BlogContent"),
        ("FuzzLiquid", "BlogLiquid"),
        ("FuzzMarkdown", "BlogMarkdown"),
    ]
    // What every fuzz target shares: the call into libFuzzer's driver.
    package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"))
    for fuzzer in fuzzers {
        package.targets.append(.executableTarget(name: fuzzer.name, dependencies: ["FuzzDriver", fuzzer.stage],
                                                 path: "Fuzz/\(fuzzer.name)"))
        package.products.append(.executable(name: fuzzer.name, targets: [fuzzer.name]))
    }
}
