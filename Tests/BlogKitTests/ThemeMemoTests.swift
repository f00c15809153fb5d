@testable import BlogRender
import Foundation
import XCTest

/// `blog serve` keeps its theme between builds (``ThemeMemo``): the kept theme is the one loading would give.
extension ThemeLoadTests {
    /// Past the clock's tick in which the files were written: a theme loaded now can be kept.
    func settle() { Thread.sleep(forTimeInterval: 0.05) }

    func testServeKeepsTheThemeUntilOneOfItsFilesChangesOrIsAdded() throws {
        let memo = ThemeMemo()
        try write("themes/default/templates/post.mustache", "{{<base}}{{$content}}<p>one {{post.title}}</p>{{/content}}{{/base}}")
        settle()
        let first = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(first.templateTexts["post"], "{{<base}}{{$content}}<p>one {{post.title}}</p>{{/content}}{{/base}}")
        XCTAssertEqual(memo.loads, 1)
        _ = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(memo.loads, 1, "nothing changed: kept")

        // The same size, another text: its times tell.
        try write("themes/default/templates/post.mustache", "{{<base}}{{$content}}<p>two {{post.title}}</p>{{/content}}{{/base}}")
        let changed = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(changed.templateTexts["post"], "{{<base}}{{$content}}<p>two {{post.title}}</p>{{/content}}{{/base}}")
        XCTAssertEqual(memo.loads, 2)
        try assertKeptOnceSettled(memo)

        // A file added (a stylesheet, the blog's own shortcode) and one removed.
        var loads = memo.loads
        try write("themes/default/static/extra.css", "p { color: red }")
        settle()
        let styled = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertTrue(styled.staticFiles.contains { $0.path == "extra.css" })
        XCTAssertEqual(memo.loads, loads + 1)
        try assertKeptOnceSettled(memo)
        loads = memo.loads
        try write("shortcodes/note.mustache", "<aside>{{inner}}</aside>")
        settle()
        let withShortcode = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(withShortcode.shortcodes.texts["note"], "<aside>{{inner}}</aside>")
        XCTAssertEqual(memo.loads, loads + 1)
        loads = memo.loads
        try FileManager.default.removeItem(at: siteRoot.appendingPathComponent("themes/default/templates/post.mustache"))
        settle()
        let embedded = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(embedded.templateTexts["post"], try Theme.load(name: "default", siteRoot: siteRoot).templateTexts["post"])
        XCTAssertNotEqual(embedded.templateTexts["post"], changed.templateTexts["post"])
        XCTAssertEqual(memo.loads, loads + 1)
        try assertKeptOnceSettled(memo)
    }

    /// Once the clock is past the tick of the last write, a theme is loaded at most once more (when the last one was
    /// loaded in that tick, and so not kept), then kept.
    func assertKeptOnceSettled(_ memo: ThemeMemo, file: StaticString = #filePath, line: UInt = #line) throws {
        settle()
        let before = memo.loads
        _ = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertLessThanOrEqual(memo.loads, before + 1, file: file, line: line)
        let settled = memo.loads
        _ = try memo.theme(name: "default", siteRoot: siteRoot)
        _ = try memo.theme(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(memo.loads, settled, "kept", file: file, line: line)
    }

    func testServeKeepsNoThemeThatDoesNotLoad() throws {
        let memo = ThemeMemo()
        try write("themes/broken/templates/post.mustache", "{{#post}}")
        settle()
        XCTAssertThrowsError(try memo.theme(name: "broken", siteRoot: siteRoot))
        XCTAssertThrowsError(try memo.theme(name: "broken", siteRoot: siteRoot))
        XCTAssertEqual(memo.loads, 0)
    }
}
