@testable import BlogIncremental
@testable import BlogOutput
@testable import BlogRender
@testable import BlogSite
import Foundation
import XCTest

/// Render's one hook (``RenderHook``): Render calls it where a post's body becomes a value and
/// where a page's or feed's text becomes bytes; without it, templates and feeds get the plain
/// body. The incremental layer's hook (``BodyHoles``) gives the bytes of a render without it.
final class RenderHookTests: XCTestCase {
    /// A hook that tags what it is asked for, and records which files it finished.
    final class Tagging: RenderHook, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var pages: [Int] = []
        private(set) var feeds: [String: Bool] = [:]

        func templateBody(post: Int, html: String) -> Any { "[body of \(post)]" }
        func feedBody(post: Int) -> String { "[feed body of \(post)]" }
        func pageBytes(number: Int, text: String) -> Data {
            lock.lock()
            pages.append(number)
            lock.unlock()
            return Data("page \(number): \(text)".utf8)
        }
        func feedBytes(path: String, json: Bool, text: String) -> Data {
            lock.lock()
            feeds[path] = json
            lock.unlock()
            return Data(text.utf8)
        }
    }

    /// The pages and feeds of `site`, made now.
    func render(_ site: Site, theme: Theme, hook: RenderHook?) throws -> [String: String] {
        let files = SiteRenderer.pages(site, theme: theme, hook: hook) + Feeds.render(site, hook: hook)
        return Dictionary(uniqueKeysWithValues: try files.map { file in
            switch file.contents {
            case .made(let maker): return (file.path, String(decoding: try maker.make(), as: UTF8.self))
            case .bytes(let data): return (file.path, String(decoding: data, as: UTF8.self))
            default: return (file.path, "")
            }
        })
    }

    var defaultTheme: Theme {
        get throws { try Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/none")) }
    }

    func testRenderAsksTheHookForBodiesAndBytes() throws {
        let site = RenderFixture.site()
        let hook = Tagging()
        let files = try render(site, theme: defaultTheme, hook: hook)
        let post = try XCTUnwrap(files["posts/swift-6/index.html"])
        XCTAssertTrue(post.hasPrefix("page "), post)
        XCTAssertTrue(post.contains("[body of 0]"), post)
        XCTAssertFalse(post.contains("Body <em>zero</em>"), post)
        XCTAssertEqual(hook.pages.sorted(), Array(site.pages.indices))
        XCTAssertTrue(try XCTUnwrap(files["feed.xml"]).contains("[feed body of 0]"))
        XCTAssertEqual(hook.feeds["feed.json"], true)
        XCTAssertEqual(hook.feeds["feed.xml"], false)
        XCTAssertEqual(hook.feeds["rss.xml"], false)
    }

    func testWithoutAHookTemplatesAndFeedsGetThePlainBody() throws {
        let site = RenderFixture.site()
        let files = try render(site, theme: defaultTheme, hook: nil)
        XCTAssertTrue(try XCTUnwrap(files["posts/swift-6/index.html"]).contains("<p>Body <em>zero</em></p>"))
        XCTAssertTrue(try XCTUnwrap(files["feed.xml"]).contains("&lt;p&gt;Body &lt;em&gt;zero&lt;/em&gt;&lt;/p&gt;"))
        for (path, text) in files {
            XCTAssertFalse(text.unicodeScalars.contains { (0xE000...0xF8FF).contains($0.value) }, "a private-use character in \(path)")
        }
        // The library's render has no hook.
        let library = try SiteRenderer.render(site, theme: defaultTheme).map { file -> String in
            guard case .bytes(let data) = file.contents else { return "" }
            return String(decoding: data, as: UTF8.self)
        }
        XCTAssertEqual(library, site.pages.map { files[$0.outputPath] ?? "" })
    }

    /// The incremental layer's hook: the same bytes as without a hook, and each hole it records
    /// holds its post's body in the form it says.
    func testBodyHolesGiveTheBytesOfARenderWithoutAHook() throws {
        let site = RenderFixture.site()
        XCTAssertEqual(site.config.feedContent, .full)
        let holes = BodyHoles(site: site)
        let with = try render(site, theme: defaultTheme, hook: holes)
        XCTAssertEqual(with, try render(site, theme: defaultTheme, hook: nil))
        let found = holes.found
        XCTAssertFalse(found.pages.joined().isEmpty)
        XCTAssertFalse(found.feeds.isEmpty)
        var checked = 0
        for (page, pageHoles) in zip(site.pages, found.pages) {
            let bytes = Array(try XCTUnwrap(with[page.outputPath]).utf8)
            for hole in pageHoles {
                XCTAssertEqual(String(decoding: bytes[hole.offset..<hole.offset + hole.length], as: UTF8.self),
                               hole.form.apply(site.posts[hole.post].rendered.html))
                checked += 1
            }
        }
        for (path, feedHoles) in found.feeds {
            let bytes = Array(try XCTUnwrap(with[path]).utf8)
            for hole in feedHoles {
                XCTAssertEqual(String(decoding: bytes[hole.offset..<hole.offset + hole.length], as: UTF8.self),
                               hole.form.apply(site.posts[hole.post].rendered.html))
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, site.posts.count)
    }
}
