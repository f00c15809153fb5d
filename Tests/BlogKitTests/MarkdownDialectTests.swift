@testable import BlogBuild
@testable import BlogContent
import BlogCore
@testable import BlogMarkdown
import XCTest

/// The dialects' constructs (issue 13, items 4-7): each test states the rule of the generator
/// (Python-Markdown with Pelican's extensions, kramdown with GFM input, goldmark) and renders
/// markdown written for it. Expected HTML follows from the rule; where cmark renders a piece
/// unchanged (a paragraph, a code block), the expectation is cmark's own rendering of it.
final class MarkdownDialectTests: XCTestCase {
    private func render(_ markdown: String, _ dialect: MarkdownDialect) -> RenderedMarkdown {
        MarkdownRenderer.render(body: markdown, summary: nil, options: MarkdownOptions(dialect: dialect))
    }

    private func html(_ markdown: String, _ dialect: MarkdownDialect) -> String {
        render(markdown, dialect).html
    }

    private let others: [MarkdownDialect] = [.commonMark, .kramdown, .goldmark]

    // MARK: - Item 5: headings without a space

    func testHashesWithoutASpaceMakeAHeadingInPythonMarkdownOnly() {
        XCTAssertEqual(html("##Let's celebrate\n", .pythonMarkdown), "<h2 id=\"lets-celebrate\">Let's celebrate</h2>\n")
        XCTAssertEqual(html("#hashtag\n", .pythonMarkdown), "<h1 id=\"hashtag\">hashtag</h1>\n")
        // A no-break space after the hashes is white space too.
        XCTAssertEqual(html("###\u{A0}Setup\n", .pythonMarkdown), "<h3 id=\"setup\">Setup</h3>\n")
        for dialect in others {
            XCTAssertEqual(html("##Let's celebrate\n", dialect), "<p>##Let’s celebrate</p>\n", "\(dialect)")
        }
        // With a space, every dialect agrees: the pass leaves the line alone.
        XCTAssertEqual(html("## Both\n", .pythonMarkdown), html("## Both\n", .commonMark))
    }

    func testHashHeadingLevelsAndClosingHashes() {
        // 1 to 6 hashes give the level; a seventh is text.
        XCTAssertEqual(html("######six\n", .pythonMarkdown), "<h6 id=\"six\">six</h6>\n")
        XCTAssertEqual(html("#######seven\n", .pythonMarkdown), "<h6 id=\"seven\">#seven</h6>\n")
        // Hashes that end the line close it, with or without a space; an escaped one stays.
        XCTAssertEqual(html("##Title##\n", .pythonMarkdown), "<h2 id=\"title\">Title</h2>\n")
        XCTAssertEqual(html("##Title ##\n", .pythonMarkdown), "<h2 id=\"title\">Title</h2>\n")
        XCTAssertEqual(html("##C\\#\n", .pythonMarkdown), "<h2 id=\"c\">C#</h2>\n")
        // An escaped first hash is no heading.
        XCTAssertEqual(html("\\##not\n", .pythonMarkdown), "<p>##not</p>\n")
    }

    func testHashHeadingLinesInsideParagraphsListsAndQuotes() {
        // Any line of a paragraph: it splits the paragraph.
        XCTAssertEqual(html("before\n##Middle\nafter\n", .pythonMarkdown),
                       "<p>before</p>\n<h2 id=\"middle\">Middle</h2>\n<p>after</p>\n")
        // The first line of a list item's paragraph.
        XCTAssertEqual(html("- ##Step\n- two\n", .pythonMarkdown),
                       "<ul>\n<li>\n<h2 id=\"step\">Step</h2>\n</li>\n<li>two</li>\n</ul>\n")
        // A line indented in its block is text; a lazy line at the margin ends the list.
        XCTAssertEqual(html("- item\n  ##text\n", .pythonMarkdown), "<ul>\n<li>item\n##text</li>\n</ul>\n")
        XCTAssertEqual(html("- item\n##After\n", .pythonMarkdown),
                       "<ul>\n<li>item</li>\n</ul>\n<h2 id=\"after\">After</h2>\n")
        // After the block quote's markers.
        XCTAssertEqual(html("> quote\n> ##Inside\n", .pythonMarkdown),
                       "<blockquote>\n<p>quote</p>\n<h2 id=\"inside\">Inside</h2>\n</blockquote>\n")
        // At the top level, a line indented by a space is text.
        XCTAssertEqual(html(" ##indented\n", .pythonMarkdown), "<p>##indented</p>\n")
    }

    func testHashHeadingPassNeverTouchesCode() {
        let code = "```\n##fenced\n```\n\n    ##indented\n\n<div>\n##html\n</div>\n\n`##span`\n"
        XCTAssertEqual(html(code, .pythonMarkdown), html(code, .commonMark))
        // A heading line followed by an indented line: the indented line becomes code, as in
        // Python-Markdown, and keeps its text.
        XCTAssertEqual(html("##Title\n    ##x = 1\n", .pythonMarkdown),
                       "<h2 id=\"title\">Title</h2>\n<pre><code>##x = 1\n</code></pre>\n")
    }

    // MARK: - Item 6: a raw HTML line followed by markdown

    func testAnInlineTagLineStartsAParagraphInPythonMarkdownAndKramdown() {
        let markdown = "<img src=\"a.png\">\nSee [the docs](https://example.org/) and *this*.\n"
        let expected = "<p><img src=\"a.png\">\nSee <a href=\"https://example.org/\">the docs</a> and <em>this</em>.</p>\n"
        XCTAssertEqual(html(markdown, .pythonMarkdown), expected)
        XCTAssertEqual(html(markdown, .kramdown), expected)
        // CommonMark and goldmark keep the HTML block to the blank line, as cmark does.
        XCTAssertEqual(html(markdown, .commonMark), markdown)
        XCTAssertEqual(html(markdown, .goldmark), markdown)
        XCTAssertEqual(html("<br>\n*em*\n", .pythonMarkdown), "<p><br>\n<em>em</em></p>\n")
        XCTAssertEqual(html("</a>\n*em*\n", .kramdown), "<p></a>\n<em>em</em></p>\n")
    }

    func testFencedCodeBlocksAfterAnImageLineAreCode() {
        // The case of the issue: fenced blocks swallowed by the HTML block of the line above.
        let markdown = """
            <img src="diagram.png" alt="Diagram">
            ```swift
            let a = 1 < 2
            ```
            Then:
            ```python
            print("b")
            ```

            """
        let expected = """
            <p><img src="diagram.png" alt="Diagram"></p>
            <pre><code class="language-swift">let a = 1 &lt; 2
            </code></pre>
            <p>Then:</p>
            <pre><code class="language-python">print(&quot;b&quot;)
            </code></pre>

            """
        XCTAssertEqual(html(markdown, .pythonMarkdown), expected)
        XCTAssertEqual(html(markdown, .kramdown), expected)
        XCTAssertFalse(html(markdown, .commonMark).contains("<pre>"), "cmark swallows the fences")
    }

    func testABlockElementEndsWhereItCloses() {
        // Closed on its line.
        XCTAssertEqual(html("<div class=\"note\"></div>\n*after*\n", .pythonMarkdown),
                       "<div class=\"note\"></div>\n<p><em>after</em></p>\n")
        // Closed lines later: what is inside stays raw, what follows is markdown.
        XCTAssertEqual(html("<div>\n<div>*raw*</div>\n</div>\n*after*\n", .kramdown),
                       "<div>\n<div>*raw*</div>\n</div>\n<p><em>after</em></p>\n")
        // An empty element.
        XCTAssertEqual(html("<hr>\n*after*\n", .pythonMarkdown), "<hr>\n<p><em>after</em></p>\n")
        // Then an inline tag line: a paragraph.
        XCTAssertEqual(html("<p>one</p>\n<img src=\"x.png\">\n*two*\n", .pythonMarkdown),
                       "<p>one</p>\n<p><img src=\"x.png\">\n<em>two</em></p>\n")
        // Inside a block quote, the quote goes on.
        XCTAssertEqual(html("> <div>a</div>\n> *b*\n", .pythonMarkdown),
                       "<blockquote>\n<div>a</div>\n<p><em>b</em></p>\n</blockquote>\n")
        // Never closed: raw to the end of the text in Python-Markdown and kramdown (which also adds a
        // `</div>`, with a warning); see the test of class 8 below. cmark ends it at the blank line.
        let open = "<div>\n*raw*\n\n*md*\n"
        XCTAssertEqual(html(open, .kramdown), open)
        XCTAssertEqual(html(open, .pythonMarkdown), open)
        XCTAssertTrue(html(open, .commonMark).contains("<em>md</em>"))
    }

    func testWhichElementsAreBlocksIsTheGeneratorsList() {
        // kramdown: every element but its span elements; Python-Markdown: its block-level list.
        XCTAssertEqual(html("<figure>x</figure>\n*after*\n", .kramdown), "<figure>x</figure>\n<p><em>after</em></p>\n")
        XCTAssertEqual(html("<source src=\"a\">\n*after*\n", .pythonMarkdown), "<p><source src=\"a\">\n<em>after</em></p>\n")
        XCTAssertTrue(HTMLBlockEnds.isBlockElement("video", dialect: .pythonMarkdown))
        XCTAssertFalse(HTMLBlockEnds.isBlockElement("span", dialect: .kramdown))
        XCTAssertTrue(HTMLBlockEnds.isBlockElement("my-widget", dialect: .kramdown))
        XCTAssertFalse(HTMLBlockEnds.isBlockElement("my-widget", dialect: .pythonMarkdown))
    }

    func testHTMLThatLooksTheSameEitherWayIsUnchanged() {
        for markdown in ["<script>\nlet a = '*x*'\n</script>\n*after*\n",
                         "<!-- note -->\n*after*\n", "<div>\n*raw*\n</div>\n"] {
            XCTAssertEqual(html(markdown, .pythonMarkdown), html(markdown, .commonMark), markdown)
            XCTAssertEqual(html(markdown, .kramdown), html(markdown, .commonMark), markdown)
        }
    }

    func testAnInlineTagAloneOnItsLineIsAParagraph() {
        // Python-Markdown and kramdown read a line starting with an inline element as text, so alone
        // between blank lines it is a paragraph of its own (CommonMark: a bare HTML block).
        let markdown = "Intro.\n\n<img src=\"a.png\" alt=\"A\">\n\n<a href=\"/x\"><img src=\"b.png\"></a>\n\n<span>hi</span>\n\n> <br>\n\n- <img src=\"c.png\">\n"
        let expected = """
            <p>Intro.</p>
            <p><img src="a.png" alt="A"></p>
            <p><a href="/x"><img src="b.png"></a></p>
            <p><span>hi</span></p>
            <blockquote>
            <p><br></p>
            </blockquote>
            <ul>
            <li><img src="c.png"></li>
            </ul>

            """
        XCTAssertEqual(html(markdown, .pythonMarkdown), expected)
        XCTAssertEqual(html(markdown, .kramdown), expected)
        XCTAssertEqual(html("<img src=\"a.png\">\n", .goldmark), "<img src=\"a.png\">\n")
        XCTAssertEqual(html("<img src=\"a.png\">\n", .commonMark), "<img src=\"a.png\">\n")
        // A custom element is inline for Python-Markdown; block elements stay raw.
        XCTAssertEqual(html("<my-widget>\n\nText.\n", .pythonMarkdown), "<p><my-widget></p>\n<p>Text.</p>\n")
        for dialect in [MarkdownDialect.pythonMarkdown, .kramdown] {
            XCTAssertEqual(html("<div class=\"x\"></div>\n\n<iframe src=\"v\"></iframe>\n", dialect),
                           "<div class=\"x\"></div>\n<iframe src=\"v\"></iframe>\n", "\(dialect)")
        }
    }

    func testPassesCombine() {
        // The markdown after an HTML line holds a heading and a definition list.
        XCTAssertEqual(html("<img src=\"x.png\">\n##Title\nTerm\n: Definition\n", .pythonMarkdown), """
            <p><img src="x.png"></p>
            <h2 id="title">Title</h2>
            <dl>
            <dt>Term</dt>
            <dd>Definition</dd>
            </dl>

            """)
    }

    // MARK: - Issue 29, class 3: a list right after a paragraph line

    func testAListAfterAParagraphLineIsTextInPythonMarkdown() {
        // Python-Markdown starts no block inside a paragraph: the items up to a blank line are its text.
        XCTAssertEqual(html("Para\n* a\n* b\n\n* c\n", .pythonMarkdown), "<p>Para\n* a\n* b</p>\n<ul>\n<li>c</li>\n</ul>\n")
        XCTAssertEqual(html("Para\n1. one\n2. two\n", .pythonMarkdown), "<p>Para\n1. one\n2. two</p>\n")
        XCTAssertEqual(html("Para\n- a\n  more\n+ b\n", .pythonMarkdown), "<p>Para\n- a\nmore\n+ b</p>\n")
        XCTAssertEqual(html("> Quote\n> * a\n> * b\n", .pythonMarkdown), "<blockquote>\n<p>Quote\n* a\n* b</p>\n</blockquote>\n")
        // A later paragraph of an item too; but an item's own line is followed by a nested list.
        XCTAssertEqual(html("* item\n\n    Para\n    * sub\n", .pythonMarkdown),
                       "<ul>\n<li>\n<p>item</p>\n<p>Para\n* sub</p>\n</li>\n</ul>\n")
        XCTAssertEqual(html("* a\n    * b\n", .pythonMarkdown), html("* a\n    * b\n", .commonMark))
        // After a blank line, or after a heading, a list is a list.
        XCTAssertEqual(html("Para\n\n* a\n", .pythonMarkdown), "<p>Para</p>\n<ul>\n<li>a</li>\n</ul>\n")
        XCTAssertEqual(html("#Title\n* a\n", .pythonMarkdown), "<h1 id=\"title\">Title</h1>\n<ul>\n<li>a</li>\n</ul>\n")
        for dialect in others {
            XCTAssertEqual(html("Para\n* a\n", dialect), "<p>Para</p>\n<ul>\n<li>a</li>\n</ul>\n", "\(dialect)")
        }
    }

    // MARK: - Issue 29, class 6: block quotes parted by blank lines

    func testBlockQuotesPartedByBlankLinesAreOneInPythonMarkdown() {
        // Python-Markdown: a `>` block right after a block quote goes on in it, however many blank lines part them.
        XCTAssertEqual(html("> a\n\n> b\n", .pythonMarkdown), "<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>\n")
        XCTAssertEqual(html("> a\n\n\n> b\n> c\n", .pythonMarkdown), "<blockquote>\n<p>a</p>\n<p>b\nc</p>\n</blockquote>\n")
        // Quotes inside a quote, parted by a line of the outer quote's marker only.
        XCTAssertEqual(html("> > a\n>\n> > b\n", .pythonMarkdown),
                       "<blockquote>\n<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>\n</blockquote>\n")
        // A paragraph between them keeps them apart.
        XCTAssertEqual(html("> a\n\nText\n\n> b\n", .pythonMarkdown), html("> a\n\nText\n\n> b\n", .commonMark))
        for dialect in others {
            XCTAssertEqual(html("> a\n\n> b\n", dialect), "<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n", "\(dialect)")
        }
    }

    // MARK: - Issue 29, class 4: link destinations with spaces

    func testLinkDestinationsWithSpacesAreLinksInPythonMarkdown() {
        // Python-Markdown takes everything to the `)` that closes the `(` as the destination, less
        // a quoted title; cmark writes such a destination percent-encoded.
        XCTAssertEqual(html("[y](/my file.png) and ![i](/a b.png \"t\")\n", .pythonMarkdown),
                       "<p><a href=\"/my%20file.png\">y</a> and <img src=\"/a%20b.png\" alt=\"i\" title=\"t\" /></p>\n")
        XCTAssertEqual(html("[x]({filename}/Folder With Spaces/post.md)\n", .pythonMarkdown),
                       "<p><a href=\"%7Bfilename%7D/Folder%20With%20Spaces/post.md\">x</a></p>\n")
        // Parentheses inside, spaces around, in a heading, in a quote.
        XCTAssertEqual(html("[z](/a (b) c) [s](  /sp ace  )\n", .pythonMarkdown), html("[z](</a (b) c>) [s](</sp ace>)\n", .commonMark))
        XCTAssertEqual(html("# [h](/a b)\n\n> [q](/c d)\n", .pythonMarkdown), html("# [h](</a b>)\n\n> [q](</c d>)\n", .commonMark))
        // Code spans and code blocks are left alone, and so is a `](` that closes no `[`.
        for text in ["`[c](/no t)`\n", "    [c](/no t)\n", "a](b c)\n", "\\[a](b c)\n"] {
            XCTAssertEqual(html(text, .pythonMarkdown), html(text, .commonMark), text)
        }
        for dialect in others {
            XCTAssertEqual(html("[y](/my file.png)\n", dialect), "<p>[y](/my file.png)</p>\n", "\(dialect)")
        }
    }

    // MARK: - Issue 29, class 8: raw HTML blocks holding blank lines

    func testABlockElementHoldingBlankLinesIsRawToItsClosingTagInPythonMarkdown() {
        // Python-Markdown's HtmlBlockPreprocessor: raw up to the matching closing tag; the text after it is markdown.
        XCTAssertEqual(html("A\n\n<div class=\"x\">\n<p>one</p>\n\n    <p>two *no*</p>\n\n</div>\nafter *em*\n", .pythonMarkdown),
                       "<p>A</p>\n<div class=\"x\">\n<p>one</p>\n\n    <p>two *no*</p>\n\n</div>\n<p>after <em>em</em></p>\n")
        // The same element nested is counted; a `##x` inside stays as written.
        XCTAssertEqual(html("<div>\n<div>\ninner\n\n##x\n</div>\n\n*text*\n</div>\n\n*after*\n", .pythonMarkdown),
                       "<div>\n<div>\ninner\n\n##x\n</div>\n\n*text*\n</div>\n<p><em>after</em></p>\n")
        // Never closed: raw to the end of the text.
        XCTAssertEqual(html("x\n\n<div>\na\n\n*b*\n\n# H\n", .pythonMarkdown), "<p>x</p>\n<div>\na\n\n*b*\n\n# H\n")
        for dialect in [MarkdownDialect.commonMark, .goldmark] {
            XCTAssertEqual(html("<div>\na\n\n*b*\n</div>\n", dialect), "<div>\na\n<p><em>b</em></p>\n</div>\n", "\(dialect)")
        }
    }

    func testMarkdownInsideABlockElementWithMarkdownOne() {
        // md_in_html (in `extra`): the content of `<div markdown="1">` is markdown, the attribute goes
        // (expected: Python-Markdown's output for the same text).
        XCTAssertEqual(html("<div markdown=\"1\">\n*md* here\n\n- item\n</div>\n", .pythonMarkdown),
                       "<div>\n<p><em>md</em> here</p>\n<ul>\n<li>item</li>\n</ul>\n</div>\n")
        XCTAssertEqual(html("<div class=\"a\" markdown='block'>\n*x*\n</div>\nafter *y*\n", .pythonMarkdown),
                       "<div class=\"a\">\n<p><em>x</em></p>\n</div>\n<p>after <em>y</em></p>\n")
        // A raw element inside stays raw.
        XCTAssertEqual(html("<section markdown=\"1\">\n## H\n\n<div>\n*raw*\n</div>\n</section>\n", .pythonMarkdown),
                       "<section>\n<h2 id=\"h\">H</h2>\n<div>\n*raw*\n</div>\n</section>\n")
        // Another form stays raw, with a warning.
        let inline = "<div markdown=\"1\">*inline*</div>\n"
        XCTAssertEqual(render(inline, .pythonMarkdown).html, inline)
        XCTAssertEqual(render(inline, .pythonMarkdown).warnings.count, 1)
        // Other dialects: raw.
        XCTAssertEqual(html("<div markdown=\"1\">\n*x*\n</div>\n", .goldmark), "<div markdown=\"1\">\n*x*\n</div>\n")
    }

    // MARK: - Issue 29, class 9: Python-Markdown's attribute lists

    func testPythonMarkdownAttributeListsGoToHeadingsParagraphsImagesAndLinks() {
        // attr_list (in `extra`): at the end of a heading's line, on the last line of a paragraph,
        // right after an image or link; the colon is optional. Expected: Python-Markdown's elements
        // and attributes, in cmark's writing.
        XCTAssertEqual(html("# Head {: .c #i }\n", .pythonMarkdown), "<h1 class=\"c\" id=\"i\">Head</h1>\n")
        XCTAssertEqual(html("## H2 {.x} ##\n\n## Spaced { .s }\n", .pythonMarkdown),
                       "<h2 id=\"h2\" class=\"x\">H2</h2>\n<h2 id=\"spaced\" class=\"s\">Spaced</h2>\n")
        XCTAssertEqual(html("para\n{: .p }\n", .pythonMarkdown), "<p class=\"p\">para</p>\n")
        XCTAssertEqual(html("![im](/a.png){: .img #pic width=50}\n", .pythonMarkdown),
                       "<p><img src=\"/a.png\" alt=\"im\" class=\"img\" id=\"pic\" width=\"50\" /></p>\n")
        XCTAssertEqual(html("[l](/x){.lk} more\n", .pythonMarkdown), "<p><a href=\"/x\" class=\"lk\">l</a> more</p>\n")
        // Anywhere else it is text there too, as written, with no warning.
        for text in ["text {.y}\n", "{: .standalone }\n", "# {.x}\n", "para\nlast line {: .p key=val }\n", "# Not {filename} here\n", "`{.c}`\n"] {
            XCTAssertEqual(render(text, .pythonMarkdown).html, html(text, .commonMark), text)
            XCTAssertEqual(render(text, .pythonMarkdown).warnings.count, 0, text)
        }
        // A heading's id given by the list is the one its headings list has.
        XCTAssertEqual(render("## Title {#mine}\n", .pythonMarkdown).headings.map(\.id), ["mine"])
    }

    // MARK: - Issue 29, class 5: looseness item by item

    func testPythonMarkdownWrapsOnlyTheItemsNextToABlankLine() {
        // Python-Markdown: the item before a blank line and the first after it get `<p>`; the others
        // stay tight (expected: Python-Markdown's output for the same text).
        XCTAssertEqual(html("* a\n* b\n\n* c\n* d\n", .pythonMarkdown),
                       "<ul>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n<li>d</li>\n</ul>\n")
        XCTAssertEqual(html("* a\n* b\n\n* c\n\n* d\n* e\n", .pythonMarkdown),
                       "<ul>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n<li>\n<p>d</p>\n</li>\n<li>e</li>\n</ul>\n")
        XCTAssertEqual(html("1. a\n2. b\n\n3. c\n    * n1\n    * n2\n4. d\n", .pythonMarkdown),
                       "<ol>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n<ul>\n<li>n1</li>\n<li>n2</li>\n</ul>\n</li>\n<li>d</li>\n</ol>\n")
        // A list of another kind (or marker) right after a list goes on in it.
        XCTAssertEqual(html("* a\n- b\n", .pythonMarkdown), "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n")
        XCTAssertEqual(html("1. a\n2. b\n\n* c\n* d\n", .pythonMarkdown),
                       "<ol>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n<li>d</li>\n</ol>\n")
        XCTAssertEqual(html("> * a\n>\n> 1. b\n", .pythonMarkdown),
                       "<blockquote>\n<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n</blockquote>\n")
        XCTAssertEqual(html("* a\n- b\n", .goldmark), "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n")
        // Every item next to a blank line: loose as a whole; in a quote too.
        XCTAssertEqual(html("* a\n\n* b\n", .pythonMarkdown), html("* a\n\n* b\n", .commonMark))
        XCTAssertEqual(html("> * a\n> * b\n>\n> * c\n> * d\n", .pythonMarkdown),
                       "<blockquote>\n<ul>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n<li>d</li>\n</ul>\n</blockquote>\n")
        // goldmark as CommonMark; kramdown decides per item too, by its own rule (JekyllHugoDialectTests).
        for dialect in [MarkdownDialect.commonMark, .goldmark] {
            XCTAssertEqual(html("* a\n* b\n\n* c\n", dialect), html("* a\n\n* b\n\n* c\n", .commonMark), "\(dialect)")
        }
    }

    // MARK: - Item 7: definition lists

    func testDefinitionListsInEveryGeneratorsDialect() {
        let markdown = "Apple\n:   Pomaceous *fruit*\n:   A company\n\nOrange\n:   Citrus\n"
        let expected = """
            <dl>
            <dt>Apple</dt>
            <dd>Pomaceous <em>fruit</em></dd>
            <dd>A company</dd>
            <dt>Orange</dt>
            <dd>Citrus</dd>
            </dl>

            """
        for dialect in [MarkdownDialect.pythonMarkdown, .kramdown, .goldmark] {
            XCTAssertEqual(html(markdown, dialect), expected, "\(dialect)")
        }
        XCTAssertEqual(html(markdown, .commonMark), "<p>Apple\n:   Pomaceous <em>fruit</em>\n:   A company</p>\n<p>Orange\n:   Citrus</p>\n")
    }

    func testDefinitionListTermsLoosenessAndBlocks() {
        // Each line before the definition is a term; inline markdown in terms is rendered.
        XCTAssertEqual(html("*One*\n`two`\n: Both\n", .kramdown),
                       "<dl>\n<dt><em>One</em></dt>\n<dt><code>two</code></dt>\n<dd>Both</dd>\n</dl>\n")
        // A blank line between term and definition makes it loose.
        XCTAssertEqual(html("Term\n\n: Loose\n", .pythonMarkdown), "<dl>\n<dt>Term</dt>\n<dd>\n<p>Loose</p>\n</dd>\n</dl>\n")
        // A definition holds blocks indented under it.
        XCTAssertEqual(html("Term\n: First\n\n    Second\n", .pythonMarkdown),
                       "<dl>\n<dt>Term</dt>\n<dd>\n<p>First</p>\n<p>Second</p>\n</dd>\n</dl>\n")
        XCTAssertEqual(html("Term\n: - a\n  - b\n", .pythonMarkdown),
                       "<dl>\n<dt>Term</dt>\n<dd>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n</dd>\n</dl>\n")
        // A `+` list after the definitions stays a list of its own.
        XCTAssertEqual(html("Term\n: Def\n\n+ item\n", .goldmark),
                       "<dl>\n<dt>Term</dt>\n<dd>Def</dd>\n</dl>\n<ul>\n<li>item</li>\n</ul>\n")
        // A colon without a space, or without a term, is text.
        XCTAssertEqual(html("Term\n:nospace\n", .pythonMarkdown), "<p>Term\n:nospace</p>\n")
        XCTAssertEqual(html(": no term\n", .pythonMarkdown), "<p>: no term</p>\n")
    }

    func testDefinitionsInAQuoteAndAfterCode() {
        XCTAssertEqual(html("> Term\n> : Def\n", .kramdown), "<blockquote>\n<dl>\n<dt>Term</dt>\n<dd>Def</dd>\n</dl>\n</blockquote>\n")
        // A `:` line inside code stays code.
        let code = "```\nTerm\n: code\n```\n"
        XCTAssertEqual(html(code, .pythonMarkdown), html(code, .commonMark))
    }

    // MARK: - Warnings

    func testWhatCantBeRenderedAsTheGeneratorDoesIsAWarningWithItsPlace() {
        let markdown = """
            Intro.

                ::python hl_lines="2"
                a = 1

            <div markdown="1">*text*</div>



            - item
            : lazy definition

            ## Heading

            : no term

            """
        let warnings = render(markdown, .pythonMarkdown).warnings
        XCTAssertEqual(warnings.map { "\($0.line):\($0.column)" }, ["3:5", "6:1", "11:1", "15:1"], "\(warnings)")
        XCTAssertTrue(warnings[0].message.contains("hl_lines"), warnings[0].message)
        XCTAssertTrue(warnings[1].message.contains("markdown"), warnings[1].message)
        XCTAssertTrue(warnings[2].message.contains("indent"), warnings[2].message)
        XCTAssertTrue(warnings[3].message.contains("no term"), warnings[3].message)
        // CommonMark has none of these constructs: no warning but the marker's.
        XCTAssertEqual(render(markdown, .commonMark).warnings.map(\.line), [3])
    }

    func testWarningLinesAreTheGivenTextsAfterInsertedLines() {
        // The pass inserts a blank line after line 1 and parses again: line 4 is still line 4.
        let markdown = "<div>a</div>\n*b*\n\n    :::python hl_lines=\"1\"\n    x\n"
        XCTAssertEqual(render(markdown, .kramdown).warnings.map { "\($0.line):\($0.column)" }, ["4:5"])
        let diagnostics = render(markdown, .kramdown).diagnostics(path: "content/a.md", bodyLine: 5)
        XCTAssertEqual(diagnostics.map(\.description), ["content/a.md:8:5: warning: \(render(markdown, .kramdown).warnings[0].message)"])
    }

    // MARK: - Which dialect a post gets

    func testAPostsDialectFollowsItsHeaderAndPlace() throws {
        func dialect(_ file: String, _ text: String) throws -> MarkdownDialect {
            let (post, _) = try PostReader.read(data: Data(text.utf8), source: "content/" + file, contentPath: file,
                                                timeZone: TimeZone(identifier: "UTC")!)
            return post.markdownDialect
        }
        let yaml = "---\ntitle: A\ndate: 2020-01-02\n---\nBody\n"
        XCTAssertEqual(try dialect("posts/a.md", "Title: A\nDate: 2020-01-02\n\nBody\n"), .pythonMarkdown)
        XCTAssertEqual(try dialect("_posts/a.md", yaml), .kramdown)
        XCTAssertEqual(try dialect("2020-01-02-a.md", yaml), .kramdown)
        XCTAssertEqual(try dialect("posts/a.md", yaml), .goldmark)
        XCTAssertEqual(try dialect("posts/a.md", "+++\ntitle = \"A\"\ndate = 2020-01-02\n+++\nBody\n"), .goldmark)
        XCTAssertEqual(try dialect("2020-01-02-a.md", "Body\n"), .commonMark)
    }
}
