@testable import BlogBuild
import BlogCore
@testable import BlogMarkdown
import XCTest

/// Heading ids: slugs of the plain text, unique in the page, on the rendered tags and in `headings`.
final class MarkdownHeadingTests: XCTestCase {
    func testDuplicateHeadingsGetNumberedIDs() {
        let rendered = MarkdownRenderer.render(body: "# Intro\n\n## Intro\n\nText.\n\nIntro\n-----\n\n### Intro 1\n", summary: nil)
        XCTAssertEqual(rendered.html, """
            <h1 id="intro">Intro</h1>
            <h2 id="intro-1">Intro</h2>
            <p>Text.</p>
            <h2 id="intro-2">Intro</h2>
            <h3 id="intro-1-1">Intro 1</h3>

            """)
        XCTAssertEqual(rendered.headings, [
            Heading(level: 1, id: "intro", text: "Intro"),
            Heading(level: 2, id: "intro-1", text: "Intro"),
            Heading(level: 2, id: "intro-2", text: "Intro"),
            Heading(level: 3, id: "intro-1-1", text: "Intro 1"),
        ])
    }

    func testIDsSkipIDsTakenByEarlierHeadings() {
        let rendered = MarkdownRenderer.render(body: "## Step 1\n\n## Step\n\n## Step\n", summary: nil)
        XCTAssertEqual(rendered.headings.map(\.id), ["step-1", "step", "step-2"])
    }

    func testNonASCIIAndEmptySlugs() {
        let rendered = MarkdownRenderer.render(body: "## Über Café 日本\n\n## ???\n\n## !!!\n", summary: nil)
        XCTAssertEqual(rendered.html, """
            <h2 id="über-café-日本">Über Café 日本</h2>
            <h2 id="section">???</h2>
            <h2 id="section-1">!!!</h2>

            """)
    }

    func testInlineMarkupInsideHeadings() {
        let rendered = MarkdownRenderer.render(body: "## Using `Array<Int>` *fast* & [safely](/safe \"Safe\") <small>beta</small>\n", summary: nil)
        XCTAssertEqual(rendered.html, "<h2 id=\"using-array-int-fast-safely-beta\">Using <code>Array&lt;Int&gt;</code> <em>fast</em> &amp; "
                       + "<a href=\"/safe\" title=\"Safe\">safely</a> <small>beta</small></h2>\n")
        XCTAssertEqual(rendered.headings, [Heading(level: 2, id: "using-array-int-fast-safely-beta", text: "Using Array<Int> fast & safely beta")])
    }

    func testTextIsEscapedAndSmartQuoted() {
        let rendered = MarkdownRenderer.render(body: "# a < b & \"c\" -- don't\n", summary: nil)
        XCTAssertEqual(rendered.html, "<h1 id=\"a-b-c-dont\">a &lt; b &amp; “c” – don’t</h1>\n")
        XCTAssertEqual(rendered.headings.first?.text, "a < b & “c” – don’t")
    }

    func testHeadingsInsideBlocksAndTagfilterInsideHeadings() {
        let rendered = MarkdownRenderer.render(body: "> ## Quoted <script>x</script>\n", summary: nil, options: MarkdownOptions(tagfilter: true))
        XCTAssertEqual(rendered.html, "<blockquote>\n<h2 id=\"quoted-x\">Quoted &lt;script>x&lt;/script></h2>\n</blockquote>\n")
    }
}
