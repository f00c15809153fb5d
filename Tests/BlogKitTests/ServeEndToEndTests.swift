import Foundation
import XCTest

/// `blog serve` as a user runs it: a real process, a real HTTP client (curl), real file edits.
final class ServeEndToEndTests: XCTestCase {
    /// A running `blog serve`, stopped at the end of the test.
    final class Server {
        let process = Process()
        let log: URL
        let errors: URL
        private(set) var url = ""

        init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
            log = folder.appendingPathComponent("serve.out")
            errors = folder.appendingPathComponent("serve.err")
            try Data().write(to: log)
            try Data().write(to: errors)
            process.executableURL = BlogCLI.executable
            process.arguments = ["serve"] + arguments
            process.currentDirectoryURL = folder
            process.standardOutput = try FileHandle(forWritingTo: log)
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardInput = FileHandle.nullDevice
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            try process.run()
        }

        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        var errorOutput: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        /// Waits until the server says where it serves; fails after `seconds`.
        func waitUntilServing(seconds: Double = 30) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Serving ") }),
                   let range = line.range(of: #"http://[^ ]+"#, options: .regularExpression) {
                    url = String(line[range])
                    return
                }
                guard process.isRunning else { throw Failure("blog serve exited: \(output) \(errorOutput)") }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw Failure("blog serve did not start: \(output) \(errorOutput)")
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ text: String) { description = text }
    }

    /// `curl` on `url`: status, headers (lower-cased names) and body.
    static func fetch(_ url: String, _ extra: [String] = []) throws -> (status: Int, headers: [String: String], body: String) {
        let result = try BlogCLI.run(["-s", "-i", "--path-as-is", "--max-time", "10"] + extra + [url],
                                     in: FileManager.default.temporaryDirectory, program: URL(fileURLWithPath: "/usr/bin/curl"))
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Waits until `condition` holds; fails after `seconds`.
    static func eventually(_ seconds: Double = 10, _ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure("timed out waiting: \(what)")
    }

    /// A small blog under `/blog/`, in a new temporary folder.
    static func makeBlog() throws -> TempSite {
        let site = try TempSite()
        _ = try site.write("blog.yml", "title: Served\nbase_url: https://example.org/blog/\n")
        _ = try site.write("content/posts/first.md", "Title: First post\nDate: 2024-01-02\nTags: one\n\nThe first body.\n")
        _ = try site.write("content/posts/second.md", "Title: Second post\nDate: 2024-01-03\n\nThe second body.\n")
        return site
    }

    func testServesTheSiteUnderItsBasePathAndRebuildsOnEveryChange() throws {
        let site = try Self.makeBlog()
        defer { site.remove() }
        let server = try Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing()
        XCTAssertTrue(server.url.hasPrefix("http://127.0.0.1:") && server.url.hasSuffix("/blog/"), server.url)

        let page = try Self.fetch(server.url + "posts/first-post/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.body.contains("The first body."))
        XCTAssertTrue(page.body.contains("<script src=\"/__blog/livereload.js\"></script></body>"))
        // Links point at the server, and nothing was written into the blog folder.
        let feed = try Self.fetch(server.url + "feed.xml")
        XCTAssertTrue(feed.body.contains(server.url + "posts/first-post/"), feed.body)
        XCTAssertFalse(site.exists("public"))
        XCTAssertEqual(try Self.fetch(server.url + "posts/first-post").headers["location"], "/blog/posts/first-post/")
        XCTAssertEqual(try Self.fetch(server.url + "no/such/page/").status, 404)
        XCTAssertEqual(try Self.fetch(server.url.replacingOccurrences(of: "/blog/", with: "/") + "../../etc/passwd").status, 400)
        XCTAssertEqual(try Self.fetch(server.url + "%2e%2e/%2e%2e/etc/passwd").status, 400)
        let tag = try XCTUnwrap(try Self.fetch(server.url + "style.css").headers["etag"])
        XCTAssertEqual(try Self.fetch(server.url + "style.css", ["-H", "If-None-Match: \(tag)"]).status, 304)
        XCTAssertEqual(try Self.fetch(server.url + "__blog/livereload.js".replacingOccurrences(of: "blog/__blog", with: "__blog")).status, 404)
        let script = try Self.fetch(server.url.replacingOccurrences(of: "/blog/", with: "/__blog/livereload.js"))
        XCTAssertEqual(script.status, 200)
        XCTAssertTrue(script.body.contains("new WebSocket"))

        // A body edit.
        _ = try site.write("content/posts/first.md", "Title: First post\nDate: 2024-01-02\nTags: one\n\nAn edited body.\n")
        try Self.eventually(10, "the edited body is served") { try Self.fetch(server.url + "posts/first-post/").body.contains("An edited body.") }
        // A title edit reaches the list pages.
        _ = try site.write("content/posts/second.md", "Title: Renamed post\nDate: 2024-01-03\n\nThe second body.\n")
        try Self.eventually(10, "the new title is on the home page") { try Self.fetch(server.url).body.contains("Renamed post") }
        // A broken post: the error is printed with its place, and the last good site is still served.
        _ = try site.write("content/posts/second.md", "Title: Renamed post\nDate: 2024-02-31\n\nBroken.\n")
        try Self.eventually(10, "the error is printed") { server.errorOutput.contains("content/posts/second.md:2:7: error:") }
        XCTAssertTrue(try Self.fetch(server.url).body.contains("Renamed post"))
        XCTAssertFalse(try Self.fetch(server.url + "posts/renamed-post/").body.contains("Broken."))
        // Fixed: served again.
        _ = try site.write("content/posts/second.md", "Title: Renamed post\nDate: 2024-01-03\n\nFixed.\n")
        try Self.eventually(10, "the fixed post is served") { try Self.fetch(server.url + "posts/renamed-post/").body.contains("Fixed.") }
        // A new post, then a theme change.
        _ = try site.write("content/posts/third.md", "Title: Third post\nDate: 2024-01-04\n\nThird.\n")
        try Self.eventually(10, "the new post is served") { try Self.fetch(server.url + "posts/third-post/").status == 200 }
        _ = try site.write("themes/default/static/style.css", "body { color: rebeccapurple }\n")
        try Self.eventually(10, "the theme's stylesheet is served") { try Self.fetch(server.url + "style.css").body.contains("rebeccapurple") }
        // A template of the theme, added then edited: serve keeps its theme between builds only while its files are as
        // they were.
        _ = try site.write("themes/default/templates/post.mustache", "{{<base}}{{$content}}<p class=\"one\">{{post.title}}</p>{{/content}}{{/base}}")
        try Self.eventually(10, "the added template shows") { try Self.fetch(server.url + "posts/third-post/").body.contains("<p class=\"one\">Third post</p>") }
        _ = try site.write("content/posts/first.md", "Title: First post\nDate: 2024-01-02\nTags: one, two\n\nAn edited body.\n")
        try Self.eventually(10, "the new tag is served") { try Self.fetch(server.url + "tags/two/").body.contains("First post") }
        _ = try site.write("themes/default/templates/post.mustache", "{{<base}}{{$content}}<p class=\"two\">{{post.title}}</p>{{/content}}{{/base}}")
        try Self.eventually(10, "the edited template shows") { try Self.fetch(server.url + "posts/third-post/").body.contains("<p class=\"two\">Third post</p>") }
    }

    func testAPortInUseIsAnErrorNamingIt() throws {
        let site = try Self.makeBlog()
        defer { site.remove() }
        let first = try Server(["--port", "0"], in: site.root)
        defer { first.stop() }
        try first.waitUntilServing()
        let port = try XCTUnwrap(URL(string: first.url)?.port)
        let second = try BlogCLI.run(["serve", "--port", String(port)], in: site.root)
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("error: cannot listen on 127.0.0.1 port \(port): it is in use"), second.stderr)
    }
}

/// Live reload in a real browser: headless Chromium driven over its DevTools protocol
/// (`Fixtures/livereload_browser.py`; `scripts/test` installs chromium and Python's websocket-client).
final class LiveReloadBrowserTests: XCTestCase {
    func testAnOpenPageFollowsEditsErrorsAndStylesheets() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        // The blog has its own stylesheet, which the test then edits.
        _ = try site.write("themes/default/static/style.css", "body { color: black }\n")
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/livereload_browser.py")
        let result = try BlogCLI.run(["python3", script.path, server.url + "posts/first-post/",
                                      site.root.appendingPathComponent("content/posts/first.md").path,
                                      site.root.appendingPathComponent("themes/default/static/style.css").path],
                                     in: site.root, program: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr + "\nserver: " + server.output + server.errorOutput)
        print("live reload in Chromium: \(result.stdout)")
    }
}
