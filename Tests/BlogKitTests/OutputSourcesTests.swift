import Foundation
import XCTest

/// `output_sources` (Pelican's `OUTPUT_SOURCES`): each published post's and page's own file copied
/// beside its page.
final class OutputSourcesTests: XCTestCase {
    func testAnEditedPostIsCopiedAgainAndARemovedOnesCopyIsGone() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("blog.yml", "title: T\npermalinks: pelican\noutput_sources: true\n")
        try site.write("content/a.md", "Title: A\nDate: 2021-01-01\n\nFirst words.\n")
        try site.write("content/b.md", "Title: B\nDate: 2021-01-02\n\nB.\n")
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        XCTAssertEqual(site.read("public/a.text"), "Title: A\nDate: 2021-01-01\n\nFirst words.\n")

        // The body only (what a quick build patches), then the title (what a partial build renders).
        for edited in ["Title: A\nDate: 2021-01-01\n\nOther words.\n", "Title: A\nDate: 2021-01-01\nTags: new\n\nOther words.\n"] {
            try site.write("content/a.md", edited)
            let build = try BlogCLI.run(["build"], in: site.root)
            XCTAssertEqual(build.status, 0, build.stderr)
            XCTAssertEqual(site.read("public/a.text"), edited)
            XCTAssertTrue(site.read("public/a.html")?.contains("Other words.") == true)
        }

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/a.md"))
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertFalse(site.exists("public/a.text"))
        XCTAssertFalse(site.exists("public/a.html"))
        XCTAssertEqual(site.read("public/b.text"), "Title: B\nDate: 2021-01-02\n\nB.\n")
    }

    func testABadEndingIsAnErrorAtItsLineAndACollisionNamesBoth() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("content/a.md", "Title: A\nDate: 2021-01-01\n\nA.\n")
        try site.write("blog.yml", "title: T\noutput_sources: true\noutput_sources_extension: /x\n")
        let bad = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("blog.yml:3:27: error: `output_sources_extension` must end a file's name"), bad.stderr)

        // A file of the content folder at the copy's path: both are named, nothing is written.
        try site.write("blog.yml", "title: T\npermalinks: pelican\noutput_sources: true\n")
        try site.write("content/a.text", "mine\n")
        let collided = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(collided.status, 1, collided.stderr)
        XCTAssertTrue(collided.stderr.contains("URL /a.text is also wanted by"), collided.stderr)
        XCTAssertTrue(collided.stderr.contains("(`output_sources`)"), collided.stderr)
    }
}
