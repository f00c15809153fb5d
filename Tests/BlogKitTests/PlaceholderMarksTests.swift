@testable import BlogCore
@testable import BlogLiquid
@testable import BlogMarkdown
import XCTest

/// ``PlaceholderMarks``, the one kind of mark that shortcodes, kramdown attribute lists and the
/// incremental layer's body markers use: a post's own text, even one that holds what a mark looked like
/// before the nonce, is never taken for a mark.
final class PlaceholderMarksTests: XCTestCase {
    /// The body run through Liquid (shortcodes) and markdown, with the shortcodes' HTML put back: what a
    /// post's page shows. `note` renders as `[note]`.
    private func render(_ body: String, dialect: MarkdownDialect = .goldmark) -> RenderedMarkdown {
        let context = LiquidContext(site: [:], renderShortcode: { $0.name == "note" ? "[note]" : nil }, shortcodeTakesInner: { _ in false })
        let liquid = Liquid.run(body, path: "post.md", firstLine: 1, context: context, page: nil, runsLiquid: false)
        var rendered = MarkdownRenderer.render(body: liquid.markdown, summary: nil, options: MarkdownOptions(dialect: dialect))
        rendered.html = ShortcodeMarks.restore(rendered.html, fragments: liquid.fragments)
        return rendered
    }

    func testAPostHoldingAnOldShortcodeMarkIsRenderedUnchanged() {
        let old = "\u{E000}shortcode0\u{E000}"
        XCTAssertEqual(render("Old \(old) and {{< note >}} here.\n").html, "<p>Old \(old) and [note] here.</p>\n")
        // As entities, which markdown turns into the characters.
        XCTAssertEqual(render("Old &#xE000;shortcode0&#xE000; and {{< note >}}.\n").html, "<p>Old \(old) and [note].</p>\n")
    }

    func testAPostHoldingAnOldKramdownMarkIsRenderedUnchanged() {
        let old = "\u{E001}0\u{E001}"
        let rendered = render("Old \(old) text.\n\n![x](/a.png){: .wide}\n", dialect: .kramdown)
        XCTAssertEqual(rendered.html, "<p>Old \(old) text.</p>\n<p><img src=\"/a.png\" alt=\"x\" class=\"wide\" /></p>\n")
        XCTAssertEqual(rendered.warnings, [])
    }

    func testAHeadingIDSeesOnlyTheMarksKindAndNumber() {
        // The nonce is private-use characters, which no id rule keeps: ids are the same in every build.
        let headings = render("## Hello {{< note >}} there\n").headings
        XCTAssertEqual(headings.map(\.id), ["hello-shortcode0-there"])
        XCTAssertEqual(headings.map(\.text), ["Hello  there"], "templates see the heading's text without the mark")
    }

    func testMarksAreFoundByKindAndNumber() {
        let marks = PlaceholderMarks(nonce: "\u{E1AB}")
        XCTAssertNotEqual(PlaceholderMarks().nonce, PlaceholderMarks().nonce, "a random nonce")
        let text = Array(("a" + marks.mark("&", 12) + "\u{E000}&3\u{E001}" + marks.mark("&amp;", 4) + marks.mark("", 7)).utf8)
        let first = marks.next(in: text, from: 0, kinds: [Array("&".utf8), Array("&amp;".utf8)])
        XCTAssertEqual(first?.range, 1..<(1 + marks.mark("&", 12).utf8.count))
        XCTAssertEqual(first?.number, 12)
        let second = marks.next(in: text, from: first!.range.upperBound, kinds: [Array("&".utf8), Array("&amp;".utf8)])
        XCTAssertEqual(second.map { [$0.kind, $0.number] }, [1, 4], "a mark without the nonce is skipped")
        XCTAssertEqual(marks.next(in: text, from: 0, kind: "")?.number, 7)
        XCTAssertNil(marks.next(in: text, from: second!.range.upperBound, kinds: [Array("&".utf8)]))
    }
}
