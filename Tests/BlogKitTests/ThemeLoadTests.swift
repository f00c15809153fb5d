@testable import BlogRender
import Foundation
import XCTest

final class ThemeLoadTests: XCTestCase {
    var siteRoot: URL!

    override func setUpWithError() throws {
        siteRoot = FileManager.default.temporaryDirectory.appendingPathComponent("theme-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: siteRoot, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: siteRoot)
    }

    /// Writes `text` at `path` under the site root.
    func write(_ path: String, _ text: String) throws {
        let url = siteRoot.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The diagnostics `Theme.load` throws.
    func loadErrors(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        buildFailure({ try Theme.load(name: name, siteRoot: siteRoot) }, file: file, line: line).map(\.description)
    }

    func testASiteTemplateOverridesTheEmbeddedOneAndTheOthersStay() throws {
        // The post page shows an extra header value; the layout and partials still come from the binary.
        try write("themes/default/templates/post.mustache", """
            {{<base}}{{$content}}<p class="hero">{{#post.meta}}{{headerimage}} {{rating}}{{/post.meta}}</p>{{#post}}{{>tag-list}}{{/post}}{{/content}}{{/base}}
            """)
        try write("themes/default/static/extra/logo.svg", "<svg/>")
        let theme = try Theme.load(name: "default", siteRoot: siteRoot)
        let pages = try RenderFixture.render(RenderFixture.site(), theme: theme)
        let post = try XCTUnwrap(pages["posts/swift-6/index.html"])
        XCTAssertTrue(post.hasPrefix("<!doctype html>\n"))
        XCTAssertTrue(post.contains("<main id=\"content\" class=\"wrap\">\n<p class=\"hero\">/img/a.png 4</p>"))
        XCTAssertTrue(post.contains("<a href=\"/blog/tags/linux/\" rel=\"tag\">Linux</a>"))
        XCTAssertFalse(post.contains("<article class=\"post\">"))
        XCTAssertTrue(try XCTUnwrap(pages["index.html"]).contains("<article class=\"post-summary\">"))

        XCTAssertEqual(theme.staticFiles.map(\.path), ["extra/logo.svg", "favicon.svg", "search.js", "style.css"])
        guard case .copy(let from) = theme.staticFiles[0].contents else { return XCTFail("a site file is copied") }
        XCTAssertEqual(from.lastPathComponent, "logo.svg")
        guard case .bytes = theme.staticFiles[3].contents else { return XCTFail("an embedded file is bytes") }
    }

    func testASiteStylesheetReplacesTheEmbeddedOne() throws {
        try write("themes/default/static/style.css", "body { color: red }")
        let theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(theme.staticFiles.map(\.path), ["favicon.svg", "search.js", "style.css"])
        guard case .copy(let from) = theme.staticFiles[2].contents else { return XCTFail("the site's file wins") }
        XCTAssertEqual(try String(contentsOf: from, encoding: .utf8), "body { color: red }")
    }

    func testATemplateThatDoesNotParseReportsWhere() {
        try? write("themes/default/templates/post.mustache", "{{<base}}{{$content}}\n<h1>{{post.title}</h1>\n{{/content}}{{/base}}\n")
        XCTAssertEqual(loadErrors("default"), [
            "themes/default/templates/post.mustache:2:17: error: unfinished tag: expected a name and then `}}`",
        ])
    }

    func testAnUnclosedSectionInACustomThemeIsReported() throws {
        try writeMinimalTheme("mine")
        try write("themes/mine/templates/tags.mustache", "<ul>\n{{#tags}}\n<li>{{name}}</li>\n")
        XCTAssertEqual(loadErrors("mine"), [
            "themes/mine/templates/tags.mustache:4:1: error: unclosed section: expected its end tag `{{/name}}` before the end of the file",
        ])
    }

    func testAMissingThemeIsAnError() {
        XCTAssertEqual(loadErrors("fancy"), [
            "error: missing theme \"fancy\": expected a folder themes/fancy/ with templates/",
        ])
    }

    func testACustomThemeMissingTemplatesNamesEachOne() throws {
        try writeMinimalTheme("mine")
        try FileManager.default.removeItem(at: siteRoot.appendingPathComponent("themes/mine/templates/archives.mustache"))
        try FileManager.default.removeItem(at: siteRoot.appendingPathComponent("themes/mine/templates/404.mustache"))
        XCTAssertEqual(loadErrors("mine"), [
            "themes/mine/templates/404.mustache:1:1: error: missing template: the theme \"mine\" must have templates/404.mustache",
            "themes/mine/templates/archives.mustache:1:1: error: missing template: the theme \"mine\" must have templates/archives.mustache",
        ])
    }

    func testAnUnknownPartialIsAnError() throws {
        try writeMinimalTheme("mine")
        try write("themes/mine/templates/post.mustache", "<h1>{{post.title}}</h1>\n  {{> footer }}\n")
        XCTAssertEqual(loadErrors("mine"), [
            "themes/mine/templates/post.mustache:2:3: error: unknown partial \"footer\": expected a template templates/footer.mustache",
        ])
    }

    /// Tags are read as swift-mustache reads them: a partial inside a comment spread over lines is
    /// no partial, one named over two lines is, and a CRLF template's lines are counted.
    func testUnknownPartialsAcrossLines() throws {
        try writeMinimalTheme("mine")
        try write("themes/mine/templates/post.mustache", "é {{! old:\n{{> gone }} }}\r\n  {{>\nfooter }}\r\n")
        XCTAssertEqual(loadErrors("mine"), [
            "themes/mine/templates/post.mustache:3:3: error: unknown partial \"footer\": expected a template templates/footer.mustache",
        ])
    }

    func testACustomThemeRendersWithItsOwnTemplatesOnly() throws {
        try writeMinimalTheme("mine")
        try write("themes/mine/templates/partials/title.mustache", "<h1>{{post.title}}</h1>")
        try write("themes/mine/templates/post.mustache", "{{>partials/title}}{{{post.html}}}")
        try write("themes/mine/static/site.css", "p {}")
        let theme = try Theme.load(name: "mine", siteRoot: siteRoot)
        XCTAssertEqual(theme.staticFiles.map(\.path), ["site.css"])
        let pages = try RenderFixture.render(RenderFixture.site(), theme: theme)
        XCTAssertEqual(pages["posts/second/index.html"], "<h1>Second</h1><p>Second body</p>\n")
        XCTAssertEqual(pages["archives/index.html"], "archives")
    }

    /// A theme whose every page template renders only its own name.
    func writeMinimalTheme(_ name: String) throws {
        for page in Theme.pageTemplates {
            try write("themes/\(name)/templates/\(page).mustache", page)
        }
    }
}
