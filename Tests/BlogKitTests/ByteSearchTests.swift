@testable import BlogBuild
@testable import BlogCore
@testable import BlogMarkdown
@testable import BlogSite
import Foundation
import XCTest

final class ByteSearchTests: XCTestCase {
    /// `lastSlash` and `lastDot` look at a native string's bytes in one piece; they give what the UTF-8
    /// view's own search gives, also for a bridged string (not in one piece), a slice of one, and
    /// texts with characters of several bytes around the separator.
    func testLastSlashAndDotAreTheUTF8ViewsLastIndex() {
        let texts = ["", "/", "x", "a/b", "posts/ünïcödé/index.md", "日本/語.md", "a/b/", "/a", "no separator at all",
                     "images/a.b/c", ".hidden", "é.", String(repeating: "ab/", count: 40) + "x.txt"]
        for text in texts {
            let bridged = NSString(string: text) as String
            let slice = text.dropFirst(min(1, text.count))
            for (string, name) in [(text, "native"), (bridged, "bridged"), (String(slice), "copied slice")] {
                XCTAssertEqual(string.lastSlash, string.utf8.lastIndex(of: UInt8(ascii: "/")), "\(name) \(text)")
                XCTAssertEqual(string.lastDot, string.utf8.lastIndex(of: UInt8(ascii: ".")), "\(name) \(text)")
                if let slash = string.lastSlash { XCTAssertEqual(string[slash], "/") }
            }
            XCTAssertEqual(slice.lastSlash, slice.utf8.lastIndex(of: UInt8(ascii: "/")), "slice \(text)")
            XCTAssertEqual(slice.lastDot, slice.utf8.lastIndex(of: UInt8(ascii: ".")), "slice \(text)")
            XCTAssertEqual(text.folderPart, text.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(text[..<$0]) } ?? "")
        }
    }

    func testFindsNeedlesAnywhereAndOnlyWhole() {
        XCTAssertTrue(ByteSearch.contains("see {attach}a.csv", "{attach}"))
        XCTAssertTrue(ByteSearch.contains("{attach}", "{attach}"), "the whole text")
        XCTAssertTrue(ByteSearch.contains("x {att {attach}", "{attach}"), "after a partial match")
        XCTAssertFalse(ByteSearch.contains("{attac", "{attach}"), "a text shorter than the needle")
        XCTAssertFalse(ByteSearch.contains("{attach]", "{attach}"))
        XCTAssertTrue(ByteSearch.contains("anything", ""))
        XCTAssertFalse(ByteSearch.contains("", "a"))
        XCTAssertTrue(ByteSearch.contains("Zoë écrit {filename}été.md", "{filename}été"), "UTF-8 bytes")
        XCTAssertTrue(ByteSearch.contains("a static file", "static"))
        XCTAssertFalse(ByteSearch.contains("plain", "static"))
        // A bridged (non-native) string works too.
        XCTAssertTrue(ByteSearch.contains(String(NSString(string: "abc {static}x")), "{static}"))
    }

    /// Needles short and long, at every place of texts around sixteen bytes long and longer (where a short
    /// needle is looked for sixteen places at a time, and where that ends), found; near misses (the first and
    /// last bytes right, one between wrong) found only where a byte-by-byte comparison finds the needle.
    func testFindsNeedlesWhereverAByteByByteSearchDoes() {
        func reference(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
            guard text.count >= needle.count else { return false }
            return (0...(text.count - needle.count)).contains { Array(text[$0..<$0 + needle.count]) == needle }
        }
        for needle in ["<i", "<img", "<!-- x", "<pre cla", "data-footnote-ref"].map({ Array($0.utf8) }) {
            for size in [needle.count, 15, 16, 17, 31, 32, 33, 47, 100] where size >= needle.count {
                for place in 0...(size - needle.count) {
                    var text = [UInt8](repeating: UInt8(ascii: "<"), count: size)
                    text.replaceSubrange(place..<place + needle.count, with: needle)
                    XCTAssertTrue(ByteSearch.contains(String(decoding: text, as: UTF8.self), String(decoding: needle, as: UTF8.self)))
                    if needle.count > 2 {
                        text[place + needle.count / 2] = UInt8(ascii: "#")
                        XCTAssertEqual(ByteSearch.contains(String(decoding: text, as: UTF8.self), String(decoding: needle, as: UTF8.self)),
                                       reference(text, needle))
                    }
                }
            }
        }
    }

    /// Python-Markdown's `[TOC]` is looked for by its `[` (``ByteSearch/contains(_:_:by:)``): the answer is
    /// memmem's for the mark at the start and the end of a body, after `[`s in code and text, cut short, in
    /// other elements, escaped and as a reference; and a Pelican post's table is filled wherever it is.
    func testTableOfContentsMarkFoundByItsBracketAsByTheWholeMark() {
        let mark = TableOfContents.pelicanMark
        let bodies = ["[TOC]\n", "Intro.\n\n[TOC]\n", "`a[0]` and [x]\n\n[TOC]\n\n# A\n", "[TOC] more\n", "- [TOC]\n",
                      "\\[TOC\\]\n", "&#91;TOC&#93;\n", "`[TOC]`\n", "[[[TOC]\n", "[TOC]](x)\n", "[x]: /y\n\n[TOC]\n\n[x]\n",
                      "<p>[TOC]</p>\n", "Text [a] [b] [c]\n", "# H\n"]
        var found = 0, filled = 0
        for body in bodies {
            let html = MarkdownRenderer.render(body: body, summary: nil).html  // CommonMark: the mark is left as written
            XCTAssertEqual(ByteSearch.contains(html, mark, by: 3), ByteSearch.contains(html, mark), body)
            if ByteSearch.contains(html, mark) { found += 1 }
            // In a Pelican post every mark is filled: none is left as written.
            let pelican = MarkdownRenderer.render(body: body, summary: nil, options: MarkdownOptions(dialect: .pythonMarkdown)).html
            XCTAssertFalse(ByteSearch.contains(pelican, mark), body)
            if ByteSearch.contains(pelican, TableOfContents.filledStart) { filled += 1 }
        }
        XCTAssertEqual(found, 7)
        XCTAssertGreaterThanOrEqual(filled, 5)
        // Bytes cut at either end of the text, and a text of the mark alone.
        let text = "[" + mark + "[" + mark
        for cut in 0...text.utf8.count {
            for piece in [String(text.utf8.prefix(cut))!, String(text.utf8.suffix(cut))!] {
                XCTAssertEqual(ByteSearch.contains(piece, mark, by: 3), ByteSearch.contains(piece, mark), piece)
            }
        }
        XCTAssertTrue(ByteSearch.contains(mark, mark, by: 3))
        XCTAssertFalse(ByteSearch.contains("", mark, by: 3))
    }

    /// A Mermaid block is looked for by its `=` (``RenderedMarkdown/diagramAnchor``) and a filled table of contents by
    /// the `C` of `Contents` (``TableOfContents/filledStartAnchor``): the answers are memmem's for bodies with the block
    /// fenced (with attributes, in capitals), written as raw HTML, the word outside a fence (in text, a code span, a link
    /// title, escaped, at the start and the end of a body), and Pelican bodies with and without `[TOC]`.
    func testDiagramsAndFilledTablesFoundByTheirAnchorsAsByTheWholeNeedles() {
        let bodies = ["```mermaid\ngraph TD\n  A --> B\n```\n", "Intro.\n\n``` Mermaid {.big}\nA\n```\n\nEnd.\n",
                      "~~~mermaid title=\"x\"\nA\n~~~\n", "<pre class=\"mermaid\">A --> B</pre>\n",
                      "mermaid\n", "A `<pre class=\"mermaid\">` span.\n", "[a](/x \"<pre class=mermaid>\") and mermaid\n",
                      "\\<pre class=\"mermaid\">\n", "    <pre class=\"mermaid\">\n", "a=b c=\"d\"\n\n<p class=\"x\">y</p>\n",
                      "[TOC]\n\n# A\n\n## B\n", "# A\n\n[TOC]\n", "# Contents\n\nC C C\n", "`[TOC]`\n\n# A\n",
                      "# A\n\n```mermaid\nA\n```\n\n[TOC]\n"]
        var diagrams = 0, tables = 0
        for body in bodies {
            for dialect in [MarkdownDialect.commonMark, .pythonMarkdown] {
                let rendered = MarkdownRenderer.render(body: body, summary: nil, options: MarkdownOptions(dialect: dialect))
                let diagram = ByteSearch.contains(rendered.html, RenderedMarkdown.diagramStart)
                XCTAssertEqual(rendered.diagrams, diagram, body)
                let table = ByteSearch.contains(rendered.html, TableOfContents.filledStart)
                XCTAssertEqual(BodyText(html: rendered.html).holdsTableOfContents, table, body)
                XCTAssertEqual(RenderedMarkdown(html: rendered.html, summaryHTML: "", headings: []).holdsTableOfContents, table, body)
                if diagram { diagrams += 1 }
                if table { tables += 1 }
            }
        }
        XCTAssertEqual(diagrams, 10)
        XCTAssertEqual(tables, 3)
        // Bytes cut at either end of texts of each needle after a partial one, and of the needle alone.
        for (needle, anchor) in [(RenderedMarkdown.diagramStart, RenderedMarkdown.diagramAnchor),
                                 (TableOfContents.filledStart, TableOfContents.filledStartAnchor)] {
            let text = "<p class=\"a\">" + String(needle.dropLast(2)) + needle + "=C"
            for cut in 0...text.utf8.count {
                for piece in [String(text.utf8.prefix(cut))!, String(text.utf8.suffix(cut))!] {
                    XCTAssertEqual(ByteSearch.contains(piece, needle, by: anchor), ByteSearch.contains(piece, needle), piece)
                }
            }
            XCTAssertTrue(ByteSearch.contains(needle, needle, by: anchor))
            XCTAssertFalse(ByteSearch.contains("", needle, by: anchor))
        }
    }

    /// Replacing is Foundation's `replacingOccurrences(of:with:)` for the placeholders it replaces in
    /// permalinks, over texts that hold them at the ends, twice, overlapping and next to other scripts.
    func testReplacingMatchesFoundationsReplacingOccurrences() {
        let texts = ["posts/{slug}/", "{year}/{month}/{day}/{slug}.html", "{slug}{slug}", "{{slug}}}", "{slu{slug}g}",
                     "", "{slug}", "x", "日本/{slug}/é", "{folder}/{slug}/", "{slug}/{slug}/{slug}"]
        for text in texts {
            for (pattern, replacement) in [("{slug}", "hello-world"), ("{slug}", ""), ("{folder}/", ""), ("{{", "{"), ("é", "e"), ("/", "//")] {
                XCTAssertEqual(ByteSearch.replacing(pattern, with: replacement, in: text),
                               text.replacingOccurrences(of: pattern, with: replacement), "\(text) \(pattern)")
            }
        }
    }

    func testFirstIndexFindsTheFirstWholeNeedleFromAPosition() {
        let text = Array("a}} b}}}".utf8)
        XCTAssertEqual(ByteSearch.firstIndex(of: Array("}}".utf8), in: text, from: 0), 1)
        XCTAssertEqual(ByteSearch.firstIndex(of: Array("}}".utf8), in: text, from: 2), 5)
        XCTAssertEqual(ByteSearch.firstIndex(of: Array("}}}".utf8), in: text, from: 0), 5)
        XCTAssertNil(ByteSearch.firstIndex(of: Array("}}}}".utf8), in: text, from: 0))
        XCTAssertNil(ByteSearch.firstIndex(of: Array("}}".utf8), in: text, from: 7), "too close to the end")
        XCTAssertNil(ByteSearch.firstIndex(of: Array("}".utf8), in: [], from: 0))
    }

    func testFindsNeedlesOnlyRightAfterAnOpener() {
        XCTAssertTrue(ByteSearch.containsAny("a {static}x", after: ["{", "|"], ["filename", "static"]))
        XCTAssertTrue(ByteSearch.containsAny("50% off, %7Bfilename%7D", after: ["{", "%7B"], ["filename"]), "after a false start")
        XCTAssertFalse(ByteSearch.containsAny("a static file { static", after: ["{", "|"], ["static"]), "not right after")
        XCTAssertFalse(ByteSearch.containsAny("ends with {", after: ["{"], ["static"]))
        XCTAssertFalse(ByteSearch.containsAny("", after: ["{"], ["static"]))
    }

    /// What cmark writes for Pelican's links passes the quick test, and so does every value
    /// ContentLinks.reference reads; prose that only names the markers does not.
    func testPelicanReferencesInRenderedMarkdownAreNoticed() {
        let markdown = """
        A [post]({filename}../a.md), a [file](|static|img/x.png), [data]({attach}data.csv) and
        ![pic]({static}/p.png).
        """
        for line in markdown.split(separator: "\n") {
            let html = MarkdownRenderer.render(body: String(line), summary: nil, options: MarkdownOptions()).html
            XCTAssertTrue(ContentLinks.mayHoldReferences(html), html)
        }
        let prose = MarkdownRenderer.render(body: "A static site, a filename, an attached file | a pipe {braces}.", summary: nil,
                                            options: MarkdownOptions()).html
        XCTAssertFalse(ContentLinks.mayHoldReferences(prose), prose)
        for value in ["{filename}a.md", "|static|x.png", "%7Battach%7Dd.csv", "%7Cfilename%7Cb.md", "{static}"] {
            XCTAssertNotNil(ContentLinks.reference(value), value)
            XCTAssertTrue(ContentLinks.mayHoldReferences("<a href=\"\(value)\">"), value)
        }
    }
}
