@testable import BlogBuild
import BlogCore
@testable import BlogMarkdown
import CCmarkGFM
import XCTest

/// The summary: the `summary` field, else the body up to `<!-- more -->`, else the first paragraph.
final class MarkdownSummaryTests: XCTestCase {
    /// The summary's blocks rendered once and put in the document as their HTML (``MarkdownRenderer/renderPrepared(body:summary:options:summaryOnce:)``)
    /// make the page and the summary that two renders make: a first paragraph with every kind of inline (a footnote
    /// reference, code in a link, an image, raw HTML, a `<script>` the tag filter escapes), paragraphs after a heading or
    /// code, and every kind of block before `<!-- more -->` (nested lists, tight and loose, a task list, block quotes,
    /// a table, raw HTML, code, a thematic break), in every dialect, with the tag filter and without.
    func testSummaryRenderedOnceIsWhatTwoRendersMake() {
        let first = "A *first* [`code` in a link](/u \"t\") ![pic](/p.png), ~~gone~~ www.example.com <span>raw</span> <script>x</script> & \"quotes\".[^1]\n\n"
        let rest = "## Later\n\nMore text.\n\n[^1]: The *note*.\n"
        let blocks = """
            Intro with a note.[^1]

            - one
              - nested **two**
                1. deep

            - loose

            > quoted
            > > deeper `code`

            - [ ] task
            - [x] done

            | a | b |
            |:--|--:|
            | *c* | [d](/d) |

            <div class="x">
            raw <script>bad()</script>
            </div>

            ```swift
            let x = 1
            ```

                indented

            ***

            """
        let bodies = [
            first + rest, "# Title\n\n" + first + rest, "```\ncode\n```\n\n" + first, "<div>html first</div>\n\n" + first,
            blocks + "<!-- more -->\n\n" + rest, blocks + "<!--more-->\n", "Only <!-- more --> inline.\n\n" + blocks,
            "- a list first\n\n" + first, "> a quote first\n\n" + first, "", "# Only a heading\n",
        ]
        for dialect in MarkdownDialect.allCases {
            for html in [HTMLPolicy.trusted, .tagfilter] {
                var options = MarkdownOptions(html: html, dialect: dialect)
                options.highlight = true
                for body in bodies {
                    let once = MarkdownRenderer.renderPrepared(body: body, summary: nil, options: options)
                    let twice = MarkdownRenderer.renderPrepared(body: body, summary: nil, options: options, summaryOnce: false)
                    XCTAssertEqual(once.html, twice.html, "\(dialect) \(html): \(body.debugDescription)")
                    XCTAssertEqual(once.summaryHTML, twice.summaryHTML, "\(dialect) \(html): \(body.debugDescription)")
                    XCTAssertEqual(once.headings, twice.headings)
                    if body.contains("first") { XCTAssertFalse(once.summaryHTML.isEmpty, body.debugDescription) }
                }
            }
        }
    }

    func testSummaryFieldIsRenderedAsMarkdown() {
        let rendered = MarkdownRenderer.render(body: "First paragraph.\n", summary: "A *short* \"take\".")
        XCTAssertEqual(rendered.summaryHTML, "<p>A <em>short</em> “take”.</p>\n")
        XCTAssertEqual(rendered.html, "<p>First paragraph.</p>\n")
    }

    func testSummaryFieldWinsOverMoreMarker() {
        let rendered = MarkdownRenderer.render(body: "Before.\n\n<!-- more -->\n\nAfter.\n", summary: "Field.")
        XCTAssertEqual(rendered.summaryHTML, "<p>Field.</p>\n")
    }

    func testBodyUpToMoreMarker() {
        let body = """
            ## Why

            Because ~~reasons~~ www.example.com, noted.[^1]

            - one
            - two

            <!--more-->

            The rest.

            [^1]: A note.

            """
        let rendered = MarkdownRenderer.render(body: body, summary: nil)
        XCTAssertEqual(rendered.summaryHTML, """
            <h2 id="why">Why</h2>
            <p>Because <del>reasons</del> <a href="http://www.example.com">www.example.com</a>, noted.\
            <sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote-ref>1</a></sup></p>
            <ul>
            <li>one</li>
            <li>two</li>
            </ul>

            """)
        XCTAssertTrue(rendered.html.hasPrefix(rendered.summaryHTML + "<!--more-->\n<p>The rest.</p>\n"), rendered.html)
    }

    func testMoreMarkerToleratesSpacing() {
        for marker in ["<!-- more -->", "<!--  More\t-->", "  <!--more-->  "] {
            let rendered = MarkdownRenderer.render(body: "One.\n\nTwo.\n\n\(marker)\n\nThree.\n", summary: nil)
            XCTAssertEqual(rendered.summaryHTML, "<p>One.</p>\n<p>Two.</p>\n", marker)
        }
        let notAMarker = MarkdownRenderer.render(body: "One.\n\nTwo.\n\n<!-- more than this -->\n", summary: nil)
        XCTAssertEqual(notAMarker.summaryHTML, "<p>One.</p>\n")
    }

    /// The marker test reads an HTML block's first bytes before its whole text: white space Foundation trims
    /// (a no-break space) still comes before a marker, and a heading's block holding a comment is no marker.
    func testMoreMarkerIsAWholeBlock() {
        let expected: [(String, Bool)] = [("\u{A0}<!-- more -->\n", true), ("\n\t <!--more-->\n", true), ("<!-- more -->", true),
                                          ("<h2 id=\"x\">Title <!-- more --></h2>\n", false), ("<!-- more than this -->\n", false),
                                          ("<!-", false), ("", false), ("x<!-- more -->", false), ("\u{A0}x", false)]
        for (html, isMarker) in expected {
            let document = CmarkNode(pointer: GFM.parse("text\n"))
            defer { cmark_node_free(document.pointer) }
            document.children[0].replace(withHTMLBlock: html)
            XCTAssertEqual(SummarySelection.isMoreMarker(document.children[0]), isMarker, html)
        }
    }

    func testFirstParagraphWithoutMarker() {
        let rendered = MarkdownRenderer.render(body: "# Title\n\n    code\n\nThe *first* one.\n\nThe second.\n", summary: nil)
        XCTAssertEqual(rendered.summaryHTML, "<p>The <em>first</em> one.</p>\n")
    }

    func testNoParagraphMeansEmptySummary() {
        let rendered = MarkdownRenderer.render(body: "# Title\n\n- a list\n- only\n", summary: nil)
        XCTAssertEqual(rendered.summaryHTML, "")
    }

    func testHeadingIDsInSummaryMatchTheBody() {
        let rendered = MarkdownRenderer.render(body: "# Notes\n\n## Notes\n\nText.\n\n<!-- more -->\n\n## Notes\n", summary: nil)
        XCTAssertEqual(rendered.summaryHTML, "<h1 id=\"notes\">Notes</h1>\n<h2 id=\"notes-1\">Notes</h2>\n<p>Text.</p>\n")
        XCTAssertEqual(rendered.headings.map(\.id), ["notes", "notes-1", "notes-2"])
    }
}
