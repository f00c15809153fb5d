import ArgumentParser
import BlogBuild
import Foundation

/// `blog`: a static blog generator. Exit codes: 0 success, 1 the build failed, 2 bad usage.
/// Each command names itself (`commandName`): a name argument-parser makes from the type's name
/// (`String(describing:)`, then Foundation's trimming) cost 10 M instructions at every start
/// (`unknownCommand` asks each command's name), 6% of a body edit at 1,000 posts.
struct Blog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blog",
        abstract: "Build a static blog from markdown posts.",
        discussion: "Exit codes: 0 success, 1 the build failed (the messages say why), 2 bad usage.",
        version: blogVersion,
        subcommands: [Init.self, New.self, Build.self, Serve.self, List.self, Check.self, Version.self]
    )
}

/// `blog version`: what `blog --version` prints.
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the version (as --version does).")

    func run() {
        print(blogVersion)
    }
}

/// Options shared by the commands that read a blog.
struct SiteArguments: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The blog folder (holds blog.yml, content/, themes/).", valueName: "dir"))
    var source: String = "."

    @Flag(name: [.customLong("drafts"), .customLong("draft")], help: "Include drafts (either spelling).")
    var drafts = false

    @Flag(name: .long, help: "Include posts dated in the future.")
    var future = false
}

struct Build: ParsableCommand, ColorChoosing {
    static let configuration = CommandConfiguration(commandName: "build", abstract: "Build the site into the output folder (default ./public).")

    @OptionGroup var site: SiteArguments
    @OptionGroup var colorArguments: ColorArguments

    @Option(name: .long, help: ArgumentHelp("The output folder (default: `output` of blog.yml, else public).", valueName: "dir"))
    var output: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Where the site is published, e.g. https://example.org/blog/.", valueName: "url"))
    var baseURL: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .long, help: "Print the seconds spent in each stage.")
    var timings = false

    @Flag(name: .long, help: "Fail (exit 1, nothing written) when there is any warning; for CI.")
    var strict = false

    @Flag(name: .customLong("no-cache"), help: "Build everything, without reading or writing the state of the last build (cache_dir).")
    var noCache = false

    @Flag(name: .customLong("relative-urls"), help: "Write every link relative to its page, folders with index.html, so the site works opened as files (relative_urls in blog.yml).")
    var relativeURLs = false

    func run() throws {
        let start = Date()
        var options = BuildOptions(source: site.source, output: output, baseURL: baseURL, drafts: site.drafts, future: site.future)
        options.strict = strict
        options.cache = !noCache
        options.relativeURLs = relativeURLs
        options.releasesMemory = false
        do {
            let report = try Pipeline.build(options)
            if !quiet {
                Console.printDiagnostics(report.warnings)
                let seconds = String(format: "%.2f", Date().timeIntervalSince(start))
                print("Built " + Count.of(report.posts, "post") + (report.leftOut.note().map { " (\($0))" } ?? "") + ", " + Count.of(report.contentPages, "page") + ", " + Count.of(report.tags, "tag") + ", \(report.pages) HTML pages "
                      + "(\(report.files.written) files written, \(report.files.unchanged) unchanged) in \(seconds) s into \(report.output)/")
            }
            if timings {
                for (stage, seconds) in report.timings {
                    print(String(format: "%8.3f s  %@", seconds, stage))
                }
                if let summary = report.cacheSummary { print("cache: \(summary)") }
            }
        } catch let failure as BuildFailure {
            Console.printDiagnostics(quiet ? failure.diagnostics.filter { $0.severity == .error } : failure.diagnostics)
            Console.error("build failed; the output folder was not changed")
            throw ExitCode(1)
        }
    }
}

struct List: ParsableCommand, ColorChoosing {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the posts, newest first.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var site: SiteArguments
    @OptionGroup var colorArguments: ColorArguments

    @Option(name: .long, help: "table (for people) or json (for programs).")
    var format: Format = .table

    func run() throws {
        let options = BuildOptions(source: site.source, drafts: site.drafts, future: site.future)
        let listing: PostListing
        do {
            let warnings: [Diagnostic]
            (listing, warnings) = try Pipeline.listing(options)
            Console.printDiagnostics(warnings)
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            throw ExitCode(1)
        }
        switch format {
        case .json: print(listing.json())
        case .table: print(listing.table(), terminator: "")
        }
    }
}

/// Messages on standard error, coloured as ``MessageColor`` decides.
enum Console {
    /// The command's `--color`; `auto` until a command is parsed.
    nonisolated(unsafe) static var choice = ColorChoice.auto

    /// The style for output on the file descriptor `fd` (1 or 2).
    static func color(for fd: Int32) -> MessageColor {
        MessageColor(enabled: MessageColor.decide(choice, environment: ProcessInfo.processInfo.environment, isTerminal: isatty(fd) == 1))
    }

    static func printDiagnostics(_ diagnostics: [Diagnostic]) {
        let color = color(for: 2)
        for diagnostic in diagnostics { FileHandle.standardError.write(Data((color.text(diagnostic) + "\n").utf8)) }
    }

    static func error(_ message: String, prefixed: Bool = true) {
        let line = (prefixed ? "blog: error: " : "") + message
        FileHandle.standardError.write(Data((color(for: 2).text(line: line) + "\n").utf8))
    }
}

/// `--color`, which every command that prints messages takes.
struct ColorArguments: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Colour messages: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never.", valueName: "when"))
    var color: When = .auto

    enum When: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    /// The choice, as BlogCore names it.
    var choice: ColorChoice { ColorChoice(rawValue: color.rawValue) ?? .auto }
}

/// A command with `--color`.
protocol ColorChoosing {
    var colorArguments: ColorArguments { get }
}

/// A first argument that is no command and no option (`blog biuld`): the nearest command, when one is near.
/// argument-parser itself would say only "Unexpected argument".
func unknownCommand(_ arguments: [String]) -> String? {
    guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
    let names = Blog.configuration.subcommands.map { $0._commandName }
    guard !names.contains(first), first != "help" else { return nil }
    if let near = EditDistance.nearest(first, among: names) {
        return "error: unknown command `\(first)`; did you mean `\(near)`?"
    }
    return "error: unknown command `\(first)`; the commands are " + names.map { "`\($0)`" }.joined(separator: ", ")
}

// Bad usage exits with 2 (argument-parser's own default is 64).
if let message = unknownCommand(Array(CommandLine.arguments.dropFirst())) {
    FileHandle.standardError.write(Data((message + "\nSee 'blog --help' for more information.\n").utf8))
    exit(2)
}
do {
    var command = try Blog.parseAsRoot()
    if let chooser = command as? ColorChoosing { Console.choice = chooser.colorArguments.choice }
    try command.run()
} catch {
    let code = Blog.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((Blog.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
    Blog.exit(withError: error)
}
