@testable import BlogServe
import Foundation
import XCTest

/// What the preview server answers, rule by rule, on a real folder.
final class SiteResponderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("blog-responder-\(UUID().uuidString)")
        let files = [
            "index.html": "<html><body><h1>Home</h1></body></html>",
            "posts/a/index.html": "<html><BODY><p>A</p></BODY></html>",
            "404.html": "<html><body>Lost</body></html>",
            "style.css": "body{}", "feed.xml": "<feed/>", "x.json": "{}", "pic.png": "png", "f.woff2": "font", "notes.txt": "t",
            "a b.svg": "<svg/>",
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try Data("secret".utf8).write(to: folder.deletingLastPathComponent().appendingPathComponent("blog-responder-secret.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func get(_ path: String, base: String = "/", method: String = "GET", headers: [String: String] = [:]) -> SiteResponder.Response {
        SiteResponder(folder: folder, basePath: base, injection: "<script src=\"/__blog/livereload.js\"></script>")
            .respond(to: .init(method: method, path: path, headers: headers))
    }

    private func text(_ response: SiteResponder.Response) -> String { String(decoding: response.body, as: UTF8.self) }

    func testFolderURLsServeTheirIndexAndAFolderWithoutSlashRedirects() {
        let home = get("/")
        XCTAssertEqual(home.status, 200)
        XCTAssertEqual(text(home), "<html><body><h1>Home</h1><script src=\"/__blog/livereload.js\"></script></body></html>")
        XCTAssertEqual(get("/posts/a/").status, 200)
        XCTAssertEqual(text(get("/posts/a/")), "<html><BODY><p>A</p><script src=\"/__blog/livereload.js\"></script></BODY></html>")
        let redirect = get("/posts/a")
        XCTAssertEqual(redirect.status, 301)
        XCTAssertEqual(redirect.headers["Location"], "/posts/a/")
    }

    func testTypesAndTheScriptOnlyInHTML() {
        let expected = ["/style.css": "text/css; charset=utf-8", "/feed.xml": "application/xml", "/x.json": "application/json",
                        "/pic.png": "image/png", "/f.woff2": "font/woff2", "/notes.txt": "text/plain; charset=utf-8",
                        "/a%20b.svg": "image/svg+xml", "/": "text/html; charset=utf-8"]
        for (path, type) in expected {
            let response = get(path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.headers["Content-Type"], type, path)
            XCTAssertEqual(text(response).contains("livereload"), path == "/", path)
        }
        XCTAssertEqual(ContentTypes.type(ofFile: "photo.JPG"), "image/jpeg")
        XCTAssertEqual(ContentTypes.type(ofFile: "image.webp"), "image/webp")
        XCTAssertEqual(ContentTypes.type(ofFile: "app.js"), "text/javascript; charset=utf-8")
    }

    func testAMissingPathGetsThe404PageWithStatus404() {
        let missing = get("/nothing/here/")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(text(missing).hasPrefix("<html><body>Lost"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("404.html"))
        XCTAssertEqual(get("/nothing").status, 404)
    }

    func testPathsCannotLeaveTheFolder() {
        for path in ["/../blog-responder-secret.txt", "/%2e%2e/blog-responder-secret.txt", "/%2E%2E/%2e%2e/etc/passwd",
                     "/posts/..%2f..%2fblog-responder-secret.txt", "/./index.html", "/a%00b", "/..%5c..%5cetc"] {
            let response = get(path)
            XCTAssertEqual(response.status, 400, path)
            XCTAssertFalse(text(response).contains("secret"), path)
        }
    }

    func testTheBasePathOfBaseURLIsWhereTheSiteIs() {
        XCTAssertEqual(get("/blog/", base: "/blog/").status, 200)
        XCTAssertEqual(get("/blog/style.css", base: "/blog/").status, 200)
        XCTAssertEqual(get("/blog", base: "/blog/").headers["Location"], "/blog/")
        XCTAssertEqual(get("/style.css", base: "/blog/").status, 404)
    }

    func testHeadHasTheLengthOfGetAndNoBody() {
        let head = get("/", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, Data())
        XCTAssertEqual(head.headers["Content-Length"], String(get("/").body.count))
        XCTAssertEqual(get("/", method: "POST").status, 405)
    }

    func testETagAndLastModifiedGive304WhileTheFileIsTheSame() throws {
        let first = get("/style.css")
        let tag = try XCTUnwrap(first.headers["ETag"])
        let modified = try XCTUnwrap(first.headers["Last-Modified"])
        XCTAssertEqual(get("/style.css", headers: ["if-none-match": tag]).status, 304)
        XCTAssertEqual(get("/style.css", headers: ["If-Modified-Since": modified]).status, 304)
        XCTAssertEqual(get("/style.css", headers: ["If-Modified-Since": HTTPDate.format(seconds: 0)]).status, 200)
        // A page's tag differs from its file's: the served page has the script.
        XCTAssertTrue(try XCTUnwrap(get("/").headers["ETag"]).hasSuffix("-r\""))
        Thread.sleep(forTimeInterval: 0.01)
        try Data("body{color:red}".utf8).write(to: folder.appendingPathComponent("style.css"))
        XCTAssertEqual(get("/style.css", headers: ["If-None-Match": tag]).status, 200)
        XCTAssertEqual(HTTPDate.parse(HTTPDate.format(seconds: 1_772_357_415)), 1_772_357_415)
        XCTAssertEqual(HTTPDate.format(seconds: 784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
