@testable import BlogBuild
import BlogCore
@testable import BlogMarkdown
import CCmarkGFM
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

    /// A heading of text, code spans, breaks and emphasis is written without a cmark render of its own:
    /// byte for byte what cmark-gfm renders from its children; others are left to cmark.
    func testSimpleHeadingsAreWrittenAsCmarkRendersThem() {
        // Whole documents: ATX headings, and setext ones (which may hold a soft break).
        let simple = ["## Plain", "## a < b & \"c\" -- don't > 'd'", "## Using `Array<Int>` and `a && \"b\"`",
                      "## *em* and **strong** and ***both***", "## **a *b* c**", "## _under_ __score__ *nested **deep** em*",
                      "## Café 日本 😀 &amp; &copy; &#x27;", "Line one\nline *two*\n---", "## `code` at the end `x`", "## Stars\\*not\\*"]
        // Left to cmark: links, images, raw HTML, footnote references, the extensions' nodes, hard breaks, strong in strong.
        let other = ["## A [link](/x \"t\")", "## An ![image](a.png)", "## Raw <small>html</small>", "## Note[^1]\n\n[^1]: n",
                     "## ~~struck~~", "## Auto www.example.org", "## A <script>x</script>", "Hard  \nbreak\n---", "## ****four****",
                     // Left to cmark inside emphasis, and text after it: the text is read on past the first such child.
                     "## *em [link *in*](/x) em* and `code` after", "## **a <b>x</b> `c`** d", "## Ünïcode [日本](/j) 😀 *é*"]
        var simpleCount = 0
        for (text, expectSimple) in simple.map({ ($0, true) }) + other.map({ ($0, false) }) {
            for tagfilter in [false, true] {
                let document = CmarkNode(pointer: GFM.parse(text + "\n"))
                defer { cmark_node_free(document.pointer) }
                for heading in document.descendants(ofType: CMARK_NODE_HEADING) {
                    let cmark = heading.children.map { GFM.html($0.pointer, tagfilter: tagfilter) }.joined()
                    // The one walk's text is the plain text's walk.
                    XCTAssertEqual(HeadingAnchors.textAndSimpleHTML(of: heading).text, HeadingAnchors.plainText(of: heading), text)
                    if let written = HeadingAnchors.simpleHTML(of: heading) {
                        XCTAssertEqual(written, cmark, text)
                        simpleCount += 1
                    } else {
                        XCTAssertFalse(expectSimple, "left to cmark: \(text)")
                    }
                }
            }
        }
        XCTAssertEqual(simpleCount, 2 * simple.count)
        // The whole heading as the page shows it.
        XCTAssertEqual(MarkdownRenderer.render(body: "## *a* & `<b>`\n", summary: nil).html, "<h2 id=\"a-b\"><em>a</em> &amp; <code>&lt;b&gt;</code></h2>\n")
    }

    func testHeadingsInsideBlocksAndTagfilterInsideHeadings() {
        let rendered = MarkdownRenderer.render(body: "> ## Quoted <script>x</script>\n", summary: nil, options: MarkdownOptions(tagfilter: true))
        XCTAssertEqual(rendered.html, "<blockquote>\n<h2 id=\"quoted-x\">Quoted &lt;script>x&lt;/script></h2>\n</blockquote>\n")
    }
}
