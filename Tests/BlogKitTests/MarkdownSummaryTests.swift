@testable import BlogBuild
@testable import BlogMarkdown
import CCmarkGFM
import XCTest

/// The summary: the `summary` field, else the body up to `<!-- more -->`, else the first paragraph.
final class MarkdownSummaryTests: XCTestCase {
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
