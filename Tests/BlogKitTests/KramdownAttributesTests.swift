import BlogCore
@testable import BlogMarkdown
import XCTest

/// kramdown's attribute lists and extensions in Jekyll-form (kramdown) posts: applied to the element
/// they follow where that is clear, else removed with a warning; never left as text.
final class KramdownAttributesTests: XCTestCase {
    private func render(_ body: String) -> RenderedMarkdown {
        MarkdownRenderer.render(body: body, summary: nil, options: MarkdownOptions(dialect: .kramdown))
    }

    func testASpanListGoesOnTheImageOrLinkBeforeIt() {
        let rendered = render("![Plot](/a.png){:width=\"100%\"} and [go](/x){: .btn #go target=\"_blank\"}\n")
        XCTAssertEqual(rendered.html, "<p><img src=\"/a.png\" alt=\"Plot\" width=\"100%\" /> and <a href=\"/x\" class=\"btn\" id=\"go\" target=\"_blank\">go</a></p>\n")
        XCTAssertEqual(rendered.warnings, [])
    }

    func testABlockListGoesOnTheParagraphOrHeadingBeforeIt() {
        let rendered = render("A paragraph\n{: .lead style=\"color: red\"}\n\n## Heading\n{: #custom .big}\n")
        XCTAssertEqual(rendered.html, "<p class=\"lead\" style=\"color: red\">A paragraph</p>\n<h2 class=\"big\" id=\"custom\">Heading</h2>\n")
        XCTAssertEqual(rendered.headings.map(\.id), ["custom"], "the heading list has the new id")
    }

    func testValuesAreEscapedAndClassesAdded() {
        let rendered = render("![a](/a.png){: title=\"x\\\" onload=\\\"y\" .one .two}\n")
        XCTAssertEqual(rendered.html, "<p><img src=\"/a.png\" alt=\"a\" class=\"one two\" title=\"x&quot; onload=&quot;y\" /></p>\n")
    }

    func testAListWithNothingToGoToIsRemovedWithAWarning() {
        let rendered = render("Text {: .lost} here.\n\nPara.\n\n{: .alone}\n")
        XCTAssertEqual(rendered.html, "<p>Text  here.</p>\n<p>Para.</p>\n")
        XCTAssertEqual(rendered.warnings.map(\.line), [1, 5])
        XCTAssertTrue(rendered.warnings[0].message.contains("follows no image or link"), rendered.warnings[0].message)
    }

    func testOptionsAndCommentsAreTakenOut() {
        let rendered = render("{::options parse_block_html=\"true\" /}\nA {::comment}inline{:/comment} B\n\n{::comment}\nhidden\n{:/comment}\n\n{::nomarkdown}<b>raw</b>{:/nomarkdown}\n")
        XCTAssertEqual(rendered.html, "<p>A  B</p>\n<p><b>raw</b></p>\n")
        XCTAssertEqual(rendered.warnings.count, 1)
        XCTAssertTrue(rendered.warnings[0].message.hasPrefix("kramdown options ({::options}) are not read"), rendered.warnings[0].message)
    }

    func testCodeAndWhatIsNotAListStay() {
        let body = "`{:width=\"1\"}` and {:d}, {:.3f}\n\n```\n![a](/b){:width=\"1\"}\n```\n"
        let rendered = render(body)
        XCTAssertEqual(rendered.html, "<p><code>{:width=&quot;1&quot;}</code> and {:d}, {:.3f}</p>\n<pre><code>![a](/b){:width=&quot;1&quot;}\n</code></pre>\n")
        XCTAssertEqual(rendered.warnings, [])
    }

    func testOtherDialectsLeaveListsAlone() {
        let rendered = MarkdownRenderer.render(body: "![a](/a.png){:width=\"1\"}\n", summary: nil, options: MarkdownOptions(dialect: .goldmark))
        XCTAssertTrue(rendered.html.contains("{:width="), rendered.html)
    }
}
