import ArgumentParser
import BlogBuild
import Foundation

struct Init: ParsableCommand, ColorChoosing {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a new blog: blog.yml, a welcome post, .gitignore and a GitHub Pages workflow, in a git repository; or, with --from, blog.yml for an existing blog.",
        discussion: "Refuses a folder that is not empty (hidden entries such as .git aside) unless --force; never overwrites a file. --from DIR tells Pelican (pelicanconf.py), Jekyll (_config.yml) and Hugo (hugo.toml, config.toml) blogs, else by their posts' headers, and writes DIR/blog.yml with that generator's permalinks preset and the few settings it can carry over."
    )

    @OptionGroup var colorArguments: ColorArguments

    @Argument(help: ArgumentHelp("The new blog's folder (made when missing).", valueName: "dir"))
    var folder: String = "."

    @Flag(name: .long, help: "Add the files that are missing to a folder that is not empty (existing files are kept).")
    var force = false

    @Option(name: .long, help: ArgumentHelp("Write only blog.yml into an existing Pelican, Jekyll or Hugo blog, with its generator's URLs (never overwrites a blog.yml).", valueName: "dir"))
    var from: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Where the site will be published, for blog.yml's base_url (default: the GitHub Pages address of the git remote origin, else a placeholder that blog build --strict refuses).", valueName: "url"))
    var baseURL: String?

    func validate() throws {
        if from != nil, baseURL != nil { throw ValidationError("--from DIR writes blog.yml for an existing blog: set base_url there, not with --base-url") }
        if from != nil, folder != "." || force { throw ValidationError("--from DIR writes blog.yml into DIR itself: give no other folder and no --force") }
    }

    func run() throws {
        if let from {
            let folder = BlogFolder(from)
            let shown = folder.display.isEmpty ? "." : String(folder.display.dropLast())
            do {
                let found = try ExistingBlog.writeConfig(in: folder.url, display: shown)
                Console.printDiagnostics(found.warnings)
                print("Found a \(found.preset.generator) blog (\(found.evidence)); wrote \(folder.display)blog.yml with `permalinks: \(found.preset.rawValue)`")
                print("Next: blog serve --source \(shown) --open (a preview; it counts broken links), then blog check --source \(shown)")
            } catch let failure as BuildFailure {
                Console.printDiagnostics(failure.diagnostics)
                throw ExitCode(1)
            }
            return
        }
        let folder = BlogFolder(self.folder)
        let shown = folder.display.isEmpty ? "." : String(folder.display.dropLast())
        do {
            let report = try NewBlog.create(in: folder.url, display: shown, force: force, now: BuildOptions.defaultNow(),
                                            baseURL: baseURL, version: blogVersion)
            for path in report.kept { print("kept \(folder.display)\(path) (it exists)") }
            print("Created a blog in \(shown)/: \(report.written.joined(separator: ", "))")
            switch report.baseURLSource {
            case .given: print("base_url: \(report.baseURL)")
            case .remote(let remote): print("base_url: \(report.baseURL) (GitHub Pages of \(remote))")
            case .placeholder:
                print("base_url: \(report.baseURL) is a placeholder: set base_url in \(folder.display)blog.yml to where the site will be published (blog build --strict refuses the placeholder; the publish workflow passes GitHub Pages' address)")
            }
            if report.madeRepository { print("Made \(shown)/ a git repository (git init)") }
            let enter = folder.display.isEmpty ? "" : "cd \(shown) && "
            print("Next: \(enter)blog serve --open (a preview that follows your edits), blog new \"A title\" in another terminal, then blog build; then commit and git push: .github/workflows/publish.yml publishes the site on GitHub Pages (Settings > Pages > Source: GitHub Actions)")
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            throw ExitCode(1)
        }
    }
}

struct New: ParsableCommand, ColorChoosing {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new post dated now, and print its path.",
        discussion: "The header takes the form most posts of the blog use, or new_post_format of blog.yml. Never overwrites a file. $EDITOR \"$(blog new 'A title')\" opens it."
    )

    @OptionGroup var colorArguments: ColorArguments

    @Argument(help: "The post's title.")
    var title: String

    @Option(name: .long, help: ArgumentHelp("The blog folder (holds blog.yml, content/).", valueName: "dir"))
    var source: String = "."

    @Option(name: .long, help: ArgumentHelp("Tags, separated by commas.", valueName: "a,b"))
    var tags: String?

    @Option(name: .long, help: "The post's category.")
    var category: String?

    @Flag(name: [.customLong("draft"), .customLong("drafts")], help: "Make it a draft (built only with --drafts; blog serve shows it).")
    var draft = false

    @Option(name: .long, help: "The header form: pelican (Key: value), yaml (---) or toml (+++).")
    var format: NewPostFormat?

    @Flag(name: .long, help: "Make the post a folder of its own (slug/index.md), for its images.")
    var bundle = false

    func run() throws {
        var post = NewPost(title: title)
        post.tags = (tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        post.category = category.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        post.draft = draft
        post.format = format
        post.bundle = bundle
        do {
            print(try post.create(source: source, now: BuildOptions.defaultNow()))
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            throw ExitCode(1)
        }
    }
}

extension NewPostFormat: ExpressibleByArgument {}
