@testable import BlogCore
@testable import BlogIncremental
@testable import BlogOutput
@testable import BlogRender
@testable import BlogSite
import Foundation
import XCTest

/// Render's one hook (``RenderHook``): Render tells it where each post's body landed in the pages
/// and feeds it makes, with the bytes of a render without it; without it, templates and feeds get the
/// plain body. The incremental layer's hook (``BodyHoles``) keeps what it is told.
final class RenderHookTests: XCTestCase {
    /// A hook that records what Render tells it.
    final class Recording: RenderHook, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var pages: [Int: [BodyHole]] = [:]
        private(set) var feeds: [String: [BodyHole]] = [:]
        private(set) var transformed: [Int] = []

        func page(_ number: Int, holds holes: [BodyHole]) { lock.withLock { pages[number] = holes } }
        func feed(_ path: String, holds holes: [BodyHole]) { lock.withLock { feeds[path] = holes } }
        func bodyTransformed(post: Int) { lock.withLock { transformed.append(post) } }
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

    /// Render reports each body's place and form: the bytes there are the body in that form, and
    /// the files are those of a render without a hook. A feed's body is made by the one function the
    /// feed writer uses (``BodyForm/apply(_:)``, ``Feeds/content(_:base:)``).
    func testRenderReportsWhereEachBodyLanded() throws {
        let site = RenderFixture.site()
        let hook = Recording()
        let files = try render(site, theme: defaultTheme, hook: hook)
        XCTAssertEqual(files, try render(site, theme: defaultTheme, hook: nil))
        let post = try XCTUnwrap(site.pages.firstIndex { $0.outputPath == "posts/swift-6/index.html" })
        XCTAssertEqual(hook.pages[post]?.map(\.post), [0])
        XCTAssertEqual(hook.pages[post]?.first?.form, .html)
        XCTAssertTrue(hook.transformed.isEmpty, "the default theme prints bodies")
        var checked = 0
        for (number, holes) in hook.pages {
            let bytes = Array(try XCTUnwrap(files[site.pages[number].outputPath]).utf8)
            for hole in holes {
                XCTAssertEqual(String(decoding: bytes[hole.offset..<hole.offset + hole.length], as: UTF8.self),
                               hole.form.apply(site.posts[hole.post].rendered.html))
                checked += 1
            }
        }
        for path in ["feed.xml", "rss.xml", "feed.json"] {
            let holes = try XCTUnwrap(hook.feeds[path], path)
            let bytes = Array(try XCTUnwrap(files[path]).utf8)
            for hole in holes {
                let base = AbsoluteURLs.url(site.posts[hole.post].url, config: site.config)
                XCTAssertEqual(hole.form, path == "feed.json" ? .feedJSON(base: base) : .feedXML(base: base))
                XCTAssertEqual(String(decoding: bytes[hole.offset..<hole.offset + hole.length], as: UTF8.self),
                               hole.form.apply(site.posts[hole.post].rendered.html))
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, site.posts.count)
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

    /// The holes of `hook` checked against `files` (pages by index into `site.pages`): each holds its post's body in
    /// the form it says. Returns how many were checked.
    func checkPageHoles(_ hook: Recording, site: Site, files: [String: String], file: StaticString = #filePath,
                        line: UInt = #line) throws -> Int {
        var checked = 0
        for (number, holes) in hook.pages {
            let bytes = Array(try XCTUnwrap(files[site.pages[number].outputPath]).utf8)
            for hole in holes {
                XCTAssertEqual(String(decoding: bytes[hole.offset..<hole.offset + hole.length], as: UTF8.self),
                               hole.form.apply(site.posts[hole.post].rendered.html), file: file, line: line)
                checked += 1
            }
        }
        return checked
    }

    /// A theme's own templates: the compiled render writes each body where the template prints it (as it is,
    /// escaped, inside an indented partial, as a section's value), and the bytes are a render's without a hook.
    func testBodiesWrittenInPlaceWhereverATemplatePrintsThem() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("render-hook-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ name: String, _ text: String) throws {
            let url = root.appendingPathComponent("themes/default/templates/\(name).mustache")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("post", "{{<base}}{{$content}}{{#post}}<pre>{{html}}</pre>\n<main>\n  {{>body}}\n</main>\n{{#html}}[{{{.}}}]{{/html}}{{/post}}{{/content}}{{/base}}\n")
        try write("body", "<div>\n{{{html}}}\n</div>\n")
        let site = RenderFixture.site()
        let theme = try Theme.load(name: "default", siteRoot: root)
        let hook = Recording()
        let files = try render(site, theme: theme, hook: hook)
        XCTAssertEqual(files, try render(site, theme: theme, hook: nil))
        let post = try XCTUnwrap(site.pages.firstIndex { $0.outputPath == "posts/swift-6/index.html" })
        XCTAssertEqual(hook.pages[post]?.map(\.form), [.escaped, .html, .html])
        let page = try XCTUnwrap(files["posts/swift-6/index.html"])
        XCTAssertTrue(page.contains("<pre>&lt;p&gt;Body &lt;em&gt;zero&lt;/em&gt;&lt;/p&gt;"), page)
        XCTAssertTrue(page.contains("\n  <div>\n  <p>Body <em>zero</em></p>"), page)
        XCTAssertGreaterThanOrEqual(try checkPageHoles(hook, site: site, files: files), 3 * site.posts.filter { $0.post.kind == .post }.count)
    }

    /// A body in a text rendered once for many pages (a list's entry) is a marker there, which the pages that show
    /// the text fill: the same bytes as without a hook, the same holes.
    func testABodyInAnEntryRenderedOnceIsFilledIn() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("render-hook-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("themes/default/templates/post-summary.mustache")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<article>{{title}}\n{{{html}}}</article>\n".utf8).write(to: url)
        let site = RenderFixture.site()
        let theme = try Theme.load(name: "default", siteRoot: root)
        XCTAssertEqual(theme.listSummaries?.partial, "post-summary", "each entry rendered once")
        let hook = Recording()
        let files = try render(site, theme: theme, hook: hook)
        XCTAssertEqual(files, try render(site, theme: theme, hook: nil))
        let index = try XCTUnwrap(site.pages.firstIndex { $0.outputPath == "index.html" })
        XCTAssertFalse(try XCTUnwrap(hook.pages[index]).isEmpty)
        XCTAssertGreaterThan(try checkPageHoles(hook, site: site, files: files), site.posts.count)
    }
}
