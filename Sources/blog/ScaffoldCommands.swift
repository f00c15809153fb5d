import ArgumentParser
import BlogBuild
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a new blog: blog.yml, a welcome post, .gitignore and a CI workflow.",
        discussion: "Refuses a folder that is not empty (hidden entries such as .git aside) unless --force; never overwrites a file."
    )

    @Argument(help: ArgumentHelp("The new blog's folder (made when missing).", valueName: "dir"))
    var folder: String = "."

    @Flag(name: .long, help: "Add the files that are missing to a folder that is not empty (existing files are kept).")
    var force = false

    func run() throws {
        let folder = BlogFolder(self.folder)
        let shown = folder.display.isEmpty ? "." : String(folder.display.dropLast())
        do {
            let report = try NewBlog.create(in: folder.url, display: shown, force: force, now: BuildOptions.defaultNow())
            for path in report.kept { print("kept \(folder.display)\(path) (it exists)") }
            print("Created a blog in \(shown)/: \(report.written.joined(separator: ", "))")
            let enter = folder.display.isEmpty ? "" : "cd \(shown) && "
            print("Next: \(enter)blog new \"A title\", then blog build")
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            throw ExitCode(1)
        }
    }
}

struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a new post dated now, and print its path.",
        discussion: "The header takes the form most posts of the blog use, or new_post_format of blog.yml. Never overwrites a file. $EDITOR \"$(blog new 'A title')\" opens it."
    )

    @Argument(help: "The post's title.")
    var title: String

    @Option(name: .long, help: ArgumentHelp("The blog folder (holds blog.yml, content/).", valueName: "dir"))
    var source: String = "."

    @Option(name: .long, help: ArgumentHelp("Tags, separated by commas.", valueName: "a,b"))
    var tags: String?

    @Option(name: .long, help: "The post's category.")
    var category: String?

    @Flag(name: .long, help: "Make it a draft (built only with --drafts).")
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
