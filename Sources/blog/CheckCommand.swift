import ArgumentParser
import BlogBuild
import Foundation

/// `blog check`: every internal link, image and anchor of the site must point somewhere.
struct Check: ParsableCommand, ColorChoosing {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report every link, image or anchor inside the site that points nowhere.",
        discussion: """
        Without --output, builds the site into a temporary folder (deleted afterwards) and checks it; \
        with --output, checks that folder as it is. Links to other sites are not fetched. \
        Exit codes: 0 nothing broken, 1 a broken link or a failed build, 2 bad usage.
        """
    )

    @OptionGroup var colorArguments: ColorArguments

    @Option(name: .long, help: ArgumentHelp("The blog folder (holds blog.yml, content/, themes/).", valueName: "dir"))
    var source: String = "."

    @Option(name: .long, help: ArgumentHelp("Check this already built folder instead of building.", valueName: "dir"))
    var output: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Where the site is published, e.g. https://example.org/blog/.", valueName: "url"))
    var baseURL: String?

    func run() throws {
        let options = BuildOptions(source: source, baseURL: baseURL)
        let report: SiteCheck.Report
        do {
            report = try SiteCheck.run(options, existingOutput: output)
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            Console.error(output == nil ? "build failed; nothing was checked" : "nothing was checked")
            throw ExitCode(1)
        }
        Console.printDiagnostics(report.warnings)
        let links = report.links
        let summary = "Checked \(links.pages) pages, \(links.links) links"
        if links.broken.isEmpty {
            print(summary + ": no broken links")
        } else {
            Console.printDiagnostics(links.broken + report.hints)
            print(summary + ": \(links.broken.count) broken")
            throw ExitCode(1)
        }
    }
}
