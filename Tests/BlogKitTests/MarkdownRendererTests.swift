@testable import BlogBuild
import BlogCore
@testable import BlogMarkdown
import XCTest

/// GFM features and options of `MarkdownRenderer`, checked on real markdown against exact HTML.
final class MarkdownRendererTests: XCTestCase {
    private func html(_ markdown: String, tagfilter: Bool = false) -> String {
        MarkdownRenderer.render(body: markdown, summary: nil, options: MarkdownOptions(tagfilter: tagfilter)).html
    }

    func testTableWithAlignment() {
        XCTAssertEqual(html("| Name | Stars |\n|:-----|------:|\n| blog | 42 |\n"), """
            <table>
            <thead>
            <tr>
            <th align="left">Name</th>
            <th align="right">Stars</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td align="left">blog</td>
            <td align="right">42</td>
            </tr>
            </tbody>
            </table>

            """)
    }

    func testStrikethroughAndAutolink() {
        XCTAssertEqual(html("It was ~~slow~~ fast, see www.example.com/docs and https://swift.org."),
                       "<p>It was <del>slow</del> fast, see <a href=\"http://www.example.com/docs\">www.example.com/docs</a>"
                       + " and <a href=\"https://swift.org\">https://swift.org</a>.</p>\n")
    }

    func testTaskList() {
        XCTAssertEqual(html("- [ ] write tests\n- [x] write code\n"), """
            <ul>
            <li><input type="checkbox" disabled="" /> write tests</li>
            <li><input type="checkbox" checked="" disabled="" /> write code</li>
            </ul>

            """)
    }

    func testFootnotes() {
        XCTAssertEqual(html("Swift is fast.[^speed]\n\n[^speed]: Usually.\n"), """
            <p>Swift is fast.<sup class="footnote-ref"><a href="#fn-speed" id="fnref-speed" data-footnote-ref>1</a></sup></p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-speed">
            <p>Usually. <a href="#fnref-speed" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
            </li>
            </ol>
            </section>

            """)
    }

    func testRawHTMLPassesThroughByDefault() {
        let embed = """
            <blockquote class="twitter-tweet"><p>Hello</p></blockquote>
            <script async src="https://platform.twitter.com/widgets.js" charset="utf-8"></script>

            """
        XCTAssertEqual(html(embed), embed)
        XCTAssertEqual(html("A <kbd>⌘</kbd> key."), "<p>A <kbd>⌘</kbd> key.</p>\n")
    }

    func testTagfilterEscapesDisallowedTagsWhenAsked() {
        let embed = "<iframe src=\"https://example.com/v\"></iframe>\n<script>alert(1)</script>\n"
        XCTAssertEqual(html(embed, tagfilter: true),
                       "&lt;iframe src=\"https://example.com/v\">&lt;/iframe>\n&lt;script>alert(1)&lt;/script>\n")
        XCTAssertEqual(html("A <kbd>⌘</kbd> and <style>p{}</style>.", tagfilter: true),
                       "<p>A <kbd>⌘</kbd> and &lt;style>p{}&lt;/style>.</p>\n")
    }

    func testSmartPunctuation() {
        XCTAssertEqual(html("\"Don't,\" she said -- it's 1999---'til now..."),
                       "<p>“Don’t,” she said – it’s 1999—’til now…</p>\n")
    }

    func testEmptyBody() {
        let rendered = MarkdownRenderer.render(body: "", summary: nil)
        XCTAssertEqual(rendered, RenderedMarkdown(html: "", summaryHTML: "", headings: []))
    }

    /// A table's lists, written as bytes: nested by level (a deeper heading first, one under another, back up two
    /// levels), ids and texts escaped, text of several bytes a character; none without headings.
    func testTableOfContentsListsAreTheHeadingsNestedAndEscaped() {
        let headings = [Heading(level: 3, id: "deep", text: "Deep first"), Heading(level: 2, id: "caf\u{E9}", text: "Café & <thé>"),
                        Heading(level: 3, id: "a\"b", text: "日本語"), Heading(level: 4, id: "d", text: "D"),
                        Heading(level: 2, id: "end", text: "End")]
        XCTAssertEqual(TableOfContents(headings, levels: 2...4).listHTML, """
            <ul>
            <li><a href="#deep">Deep first</a></li>
            <li><a href="#caf\u{E9}">Café &amp; &lt;thé&gt;</a>
            <ul>
            <li><a href="#a&quot;b">日本語</a>
            <ul>
            <li><a href="#d">D</a></li>
            </ul>
            </li>
            </ul>
            </li>
            <li><a href="#end">End</a></li>
            </ul>

            """)
        XCTAssertEqual(TableOfContents(headings, levels: 5...6).listHTML, "")
        XCTAssertEqual(TableOfContents([Heading(level: 2, id: "x", text: "X")], levels: 2...2).listHTML, "<ul>\n<li><a href=\"#x\">X</a></li>\n</ul>\n")
    }
}
