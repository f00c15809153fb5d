import Foundation
import XCTest

/// Hostile headers and bodies (issue 26): each is a small blog built by the real `blog` binary in a temporary
/// folder, which must end in time with a message at the file, line and column at fault, or build as written;
/// never crash, stall or grow without bound.
final class SecurityInputTests: BuiltSiteTestCase {
    /// A post every blog of these tests has, so that a build has something to publish.
    func writeBlog(_ extra: [String: String] = [:]) throws {
        try site.write("content/posts/hello.md", "Title: Hello\nDate: 2020-01-01\n\nHello.\n")
        for (path, text) in extra { try site.write(path, text) }
    }

    /// `blog arguments…` in the site, which must end within `seconds`.
    func run(_ arguments: [String], within seconds: Double = 10, file: StaticString = #filePath,
             line: UInt = #line) throws -> BlogCLI.Result {
        let start = Date()
        let result = try BlogCLI.run(arguments, in: site.root)
        let took = Date().timeIntervalSince(start)
        XCTAssertLessThan(took, seconds, "blog \(arguments.joined(separator: " ")) took \(took) s", file: file, line: line)
        return result
    }

    // MARK: Files in one-character folders

    /// A file that is not a post, in a folder of content/ whose name is one character (or a file `content/x`), is
    /// copied as it is: Linux's Foundation stopped the process on the one-character folder name.
    func testFilesInOneCharacterFoldersAreCopied() throws {
        try writeBlog(["content/a/x.png": "png", "content/2/p.jpg": "jpg", "content/x": "x", "content/é/y.txt": "y"])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(site.read("public/a/x.png"), "png")
        XCTAssertEqual(site.read("public/2/p.jpg"), "jpg")
        XCTAssertEqual(site.read("public/x"), "x")
        XCTAssertEqual(site.read("public/é/y.txt"), "y")
    }

    /// `blog serve` builds the same site, and serves the file.
    func testServeCopiesFilesInOneCharacterFolders() throws {
        try writeBlog(["content/a/x.png": "png"])
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing(seconds: 10)
        let fetched = try ServeEndToEndTests.fetch(server.url + "a/x.png")
        XCTAssertEqual(fetched.status, 200, server.errorOutput)
        XCTAssertEqual(fetched.body, "png")
        XCTAssertTrue(server.process.isRunning, server.errorOutput)
    }
}
