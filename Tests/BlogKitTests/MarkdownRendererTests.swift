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
}
