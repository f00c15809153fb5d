@testable import BlogConfig
@testable import BlogContent
@testable import BlogCore
@testable import BlogMarkdown
@testable import BlogSite
import XCTest

/// `permalinks:` presets and `redirects:` in blog.yml, read and applied to the site model.
final class PermalinkPresetTests: XCTestCase {
    func post(_ title: String, path: String, day: Int = 1, tags: [String] = [], categories: [String] = [],
              slug: String? = nil, lang: String? = nil, kind: PostKind = .post, bundle: Bool = false) -> RenderedPost {
        var p = Post(source: "content/" + path, title: title, date: Date(timeIntervalSince1970: 1_577_923_200 + Double(day) * 86_400),
                     tags: tags.map(Tag.init(name:)), slug: slug ?? Slug.make(title), status: .published, body: "")
        p.contentPath = path
        p.categories = categories.map(Tag.init(name:))
        p.lang = lang
        p.kind = kind
        p.isBundle = bundle
        if let slug { p.meta["slug"] = .string(slug) }
        return RenderedPost(post: p, rendered: RenderedMarkdown(html: "", summaryHTML: "", headings: []))
    }

    func build(_ posts: [RenderedPost], _ yml: String) throws -> Site {
        let (config, _) = try ConfigLoader.parse(yml, path: "blog.yml")
        return try SiteBuilder.build(posts: posts, config: config, options: SiteOptions(now: Date(timeIntervalSince1970: 2_000_000_000)))
    }

    func testAPresetIsANameOrAMappingKeyThatOtherKeysOverride() throws {
        XCTAssertEqual(try ConfigLoader.parse("permalinks: pelican\n", path: "blog.yml").0.permalinks, PermalinkPreset.pelican.permalinks)
        let (mixed, _) = try ConfigLoader.parse("permalinks:\n  post: \"{year}/{slug}.html\"\n  preset: pelican\n", path: "blog.yml")
        XCTAssertEqual(mixed.permalinks.post, "{year}/{slug}.html", "an explicit pattern wins over the preset's, whatever the order")
        XCTAssertEqual(mixed.permalinks.tag, "tag/{slug}.html")
        XCTAssertEqual(mixed.permalinks.preset, .pelican)
        XCTAssertThrowsError(try ConfigLoader.parse("permalinks: wordpress\n", path: "blog.yml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:1:13: error: `permalinks` must name a preset (`pelican`, `jekyll`, `jekyll-pretty`, `hugo`)"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("permalinks:\n  preset: zola\n", path: "blog.yml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:2:11: error: `permalinks.preset` must be one of"), "\(error)")
        }
    }

    func testPelicanPreset() throws {
        let site = try build([
            post("Ünïcode Café", path: "posts/a.md", day: 1, tags: ["Café", "Python"]),
            post("Bonjour", path: "posts/b.md", day: 2, slug: "unicode-cafe", lang: "fr"),
            post("Given Slug", path: "posts/c.md", day: 3, slug: "Ça-Va"),
            post("About Me", path: "pages/about.md", kind: .page),
            post("À propos", path: "pages/apropos.md", slug: "about-me", lang: "fr", kind: .page),
        ] + (4...6).map { post("Filler \($0)", path: "posts/f\($0).md", day: $0, tags: ["Python"]) }, "permalinks: pelican\npaginate: 2\n")
        let urls = Set(site.pages.map(\.url))
        for url in ["unicode-cafe.html", "unicode-cafe-fr.html", "Ça-Va.html", "pages/about-me.html", "pages/about-me-fr.html",
                    "tag/cafe.html", "tag/python.html", "tag/python2.html", "", "index2.html", "index3.html", "tags.html", "archives.html"] {
            XCTAssertTrue(urls.contains(url), "\(url) in \(urls.sorted())")
        }
        XCTAssertFalse(urls.contains("tag/café.html"))
    }

    func testJekyllCategoriesAreLowerCasedSegmentsAndVanishWhenNone() throws {
        let site = try build([
            post("A", path: "2020-01-02-Hello-World.md", day: 0, categories: ["Swift", "News", "swift"], slug: "Hello-World"),
            post("B", path: "2020-01-03-plain.md", day: 1, slug: "plain"),
            post("C", path: "2020-01-04-release.md", day: 2, categories: ["Release Notes"], slug: "release"),
        ], "permalinks: jekyll\n")
        XCTAssertEqual(site.posts.map(\.url).sorted(), ["2020/01/03/plain.html", "release notes/2020/01/04/release.html", "swift/news/2020/01/02/Hello-World.html"])
        let pretty = try build([post("B", path: "2020-01-03-plain.md", day: 1, slug: "plain")], "permalinks: jekyll-pretty\n")
        XCTAssertEqual(pretty.posts[0].url, "2020/01/03/plain/")
    }

    func testHugoPresetUsesTheFolderAndLowerCases() throws {
        let site = try build([
            post("A", path: "posts/Hello-World.md", day: 1, slug: "Hello-World"),
            post("B", path: "notes/2021/Deep.md", day: 2),
            post("C", path: "posts/My-Bundle/index.md", day: 3, slug: "My-Bundle", bundle: true),
            post("D", path: "about.md", day: 4),
            post("E", path: "pages/Contact.md", kind: .page),
        ], "permalinks: hugo\npaginate: 2\n")
        XCTAssertEqual(site.posts.map(\.url).sorted(), ["d/", "notes/2021/b/", "pages/e/", "posts/hello-world/", "posts/my-bundle/"])
        XCTAssertEqual(Set(site.redirects.map(\.url)), ["page/1/", "posts/page/1/", "notes/page/1/", "pages/page/1/"],
                       "Hugo's first page of each list (the home page's, each section's) also answers at page/1/")
        XCTAssertEqual(site.sections.map(\.url), ["notes/", "pages/", "posts/"], "a section per top folder, the top's posts in none")
        XCTAssertEqual(site.redirects[0].location, "")
    }

    func testHugoTermURLs() {
        XCTAssertEqual(Slug.hugoTerm("C++"), "c++")
        XCTAssertEqual(Slug.hugoTerm("Node.js"), "node.js")
        XCTAssertEqual(Slug.hugoTerm("  Go   Lang "), "go-lang")
        XCTAssertEqual(Slug.hugoTerm("Café au lait!"), "café-au-lait")
        XCTAssertEqual(Slug.hugoTerm("a/b#c"), "abc", "path-breaking characters Hugo keeps are dropped")
        XCTAssertNil(Slug.hugoTerm(".."))
        XCTAssertNil(Slug.hugoTerm("!!!"))
    }

    func testListPageURLs() {
        XCTAssertEqual(SiteBuilder.listPageURL("", 2, style: .folders), "page/2/")
        XCTAssertEqual(SiteBuilder.listPageURL("tags/x/", 3, style: .folders), "tags/x/page/3/")
        XCTAssertEqual(SiteBuilder.listPageURL("", 2, style: .numberedFiles), "index2.html")
        XCTAssertEqual(SiteBuilder.listPageURL("tag/x.html", 2, style: .numberedFiles), "tag/x2.html")
        XCTAssertEqual(SiteBuilder.listPageURL("blog/", 2, style: .numberedFiles), "blog/index2.html")
        XCTAssertEqual(SiteBuilder.listPageURL("v1.0/list", 2, style: .numberedFiles), "v1.0/list2")
        XCTAssertEqual(SiteBuilder.listPageURL("", 2, style: .numberedFolders), "page2/")
        XCTAssertEqual(SiteBuilder.listPageURL("x.html", 1, style: .numberedFiles), "x.html")
    }

    func testAsciiSlugs() {
        XCTAssertEqual(Slug.ascii("ünïcode-café"), "unicode-cafe")
        XCTAssertEqual(Slug.ascii("straße-æon"), "strasse-aeon")
        XCTAssertEqual(Slug.ascii("plain-ascii"), "plain-ascii")
        XCTAssertEqual(Slug.ascii("日本"), "ri-ben", "Chinese characters read as Unidecode reads them")
        XCTAssertEqual(Slug.ascii("café-日本"), "cafe-ri-ben")
        XCTAssertEqual(Slug.ascii("スマホsms"), "sumahosms")
        XCTAssertEqual(Slug.ascii("🙂"), "🙂", "nothing Latin left: kept as it was")
    }

    func testRedirectsMapToAURLOrAPostsFile() throws {
        let yml = """
        redirects:
          /old-post.html: content/posts/a.md
          old/about.html: /pages/about/
          gone/: https://example.org/elsewhere/

        """
        let site = try build([post("A", path: "posts/a.md")], yml)
        XCTAssertEqual(site.redirects.map(\.url), ["old-post.html", "old/about.html", "gone/"])
        XCTAssertEqual(site.redirects.map(\.outputPath), ["old-post.html", "old/about.html", "gone/index.html"])
        XCTAssertEqual(site.redirects[0].target, 0)
        XCTAssertEqual(site.redirects[1].location, "pages/about/")
        XCTAssertEqual(site.redirects[2].location, "https://example.org/elsewhere/")
        let short = try build([post("A", path: "posts/a.md")], "redirects:\n  x.html: posts/a.md\n")
        XCTAssertEqual(short.redirects[0].target, 0, "a file under content/ may be named without content/")
    }

    func testRedirectProblemsAreErrorsAtTheirLine() throws {
        let posts = [post("A", path: "posts/a.md")]
        XCTAssertThrowsError(try build(posts, "title: x\nredirects:\n  posts/a/: /elsewhere/\n")) { error in
            XCTAssertEqual((error as! BuildFailure).diagnostics.map(\.description),
                           ["blog.yml:3:3: error: URL /posts/a/ is also wanted by content/posts/a.md: two pages can't share a URL; change or remove this `redirects` entry"])
        }
        XCTAssertThrowsError(try build(posts, "redirects:\n  x.html: posts/missing.md\n")) { error in
            XCTAssertTrue((error as! BuildFailure).diagnostics[0].description.hasPrefix("blog.yml:2:3: error: `redirects`: no post or page is built from \"posts/missing.md\""))
        }
        XCTAssertThrowsError(try build(posts, "redirects:\n  ../x.html: /y/\n")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:2:3: error: `redirects`: \"../x.html\" is not a path inside the site"), "\(error)")
        }
        XCTAssertThrowsError(try build(posts, "redirects: [a, b]\n")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:1:12: error: `redirects` must be a mapping"), "\(error)")
        }
    }
}
