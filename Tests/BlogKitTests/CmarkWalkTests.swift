@testable import BlogMarkdown
import CCmarkGFM
import Foundation
import XCTest

/// The markdown stage's own walks over a text and a cmark tree, against the plain ways of making them:
/// ``SourceLines`` (found by `memchr`) against a split at each line feed, ``CmarkNode/descendants(ofType:)``
/// (by the links between nodes) against cmark's own iterator.
final class CmarkWalkTests: XCTestCase {
    let documents = [
        "", "\n", "\n\n\n", "one line", "one line\n", "a\r\nb\r\n\r\nc", "\r\n", "no end\nat all",
        """
        # Title

        Text with *emphasis*, `code` and a [link](https://example.org/ "t").

        > quoted
        > - item **one**
        >   1. nested
        >
        >      > deeper `x`

        | a | b |
        |---|---|
        | *c* | d |

        ```swift
        let x = 1
        ```

        <div>
        html
        </div>

        - [ ] task
        - [x] done ~~gone~~

        Last paragraph.
        """,
    ]

    func testSourceLinesAreTheTextSplitAtLineFeeds() {
        for text in documents {
            let lines = SourceLines(text)
            var expected = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            // No line after the last line feed, and none in an empty text.
            if text.isEmpty || text.utf8.last == UInt8(ascii: "\n") { expected.removeLast() }
            XCTAssertEqual(lines.count, expected.count, text.debugDescription)
            for (index, line) in expected.enumerated() {
                let withoutReturn = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
                XCTAssertEqual(Array(lines[index + 1]), withoutReturn, "line \(index + 1) of \(text.debugDescription)")
            }
            XCTAssertEqual(Array(lines[expected.count + 1]), [], "past the last line")
        }
    }

    func testDescendantsAreWhatCmarksIteratorEnters() {
        let types = [CMARK_NODE_DOCUMENT, CMARK_NODE_PARAGRAPH, CMARK_NODE_TEXT, CMARK_NODE_LIST, CMARK_NODE_ITEM,
                     CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK, CMARK_NODE_HEADING, CMARK_NODE_HTML_BLOCK,
                     CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK, CMARK_NODE_SOFTBREAK]
        for text in documents {
            let document = CmarkNode(pointer: GFM.parse(text))
            defer { cmark_node_free(document.pointer) }
            // Every node as a root, the document, inner containers and leaves alike.
            for root in Self.entered(from: document.pointer) {
                for type in types {
                    let expected = Self.entered(from: root).filter { cmark_node_get_type($0) == type }
                    XCTAssertEqual(CmarkNode(pointer: root).descendants(ofType: type).map(\.pointer), expected, text.debugDescription)
                }
            }
        }
    }

    /// The walk of the blocks (``CmarkNode/blocks(where:)``, ``CmarkNode/blocks(ofTypes:_:)``), which does not go
    /// into paragraphs and headings, finds every block that cmark's iterator enters, from every root.
    func testBlocksAreTheBlocksCmarksIteratorEnters() {
        let types = [CMARK_NODE_DOCUMENT, CMARK_NODE_PARAGRAPH, CMARK_NODE_LIST, CMARK_NODE_ITEM, CMARK_NODE_BLOCK_QUOTE,
                     CMARK_NODE_CODE_BLOCK, CMARK_NODE_HEADING, CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK]
        let more = "- item\n\n      code in an item\n\n  ## heading in an item\n\n> ```\n> fenced in a quote\n> ```\n\n---\n\n    indented\n\nnote[^1]\n\n[^1]: A *footnote*.\n"
        for text in documents + [more, documents.last! + "\n\n" + more] {
            let document = CmarkNode(pointer: GFM.parse(text))
            defer { cmark_node_free(document.pointer) }
            for root in Self.entered(from: document.pointer) {
                let node = CmarkNode(pointer: root)
                for type in types {
                    let expected = Self.entered(from: root).filter { cmark_node_get_type($0) == type }
                    XCTAssertEqual(node.blocks { $0 == type }.map(\.pointer), expected, text.debugDescription)
                }
                let (code, headings) = node.blocks(ofTypes: CMARK_NODE_CODE_BLOCK, CMARK_NODE_HEADING)
                XCTAssertEqual(code.map(\.pointer), node.descendants(ofType: CMARK_NODE_CODE_BLOCK).map(\.pointer), text.debugDescription)
                XCTAssertEqual(headings.map(\.pointer), node.descendants(ofType: CMARK_NODE_HEADING).map(\.pointer), text.debugDescription)
            }
            if text == more {
                // Code in an item, in a quote and at the top; a heading in an item.
                XCTAssertEqual(document.blocks(ofTypes: CMARK_NODE_CODE_BLOCK, CMARK_NODE_HEADING).0.count, 3)
                XCTAssertEqual(document.blocks(ofTypes: CMARK_NODE_CODE_BLOCK, CMARK_NODE_HEADING).1.count, 1)
            }
        }
    }

    /// cmark-gfm's footnotes (and their two walks of the tree) are left off a text without a `^` or a `[&`
    /// (``GFM/mayHoldFootnotes(_:)``): its HTML is what it is with them on, for texts with footnotes, with
    /// what cmark-gfm reads as a reference without a `^` byte (a character reference after a bracket), and
    /// random texts of brackets, references, escapes and the blocks around them.
    func testFootnotesLeftOffOnlyWhereTheirHTMLIsTheSame() {
        func html(_ text: String, footnotes: Bool?) -> String { Self.html(text, footnotes: footnotes) }
        func mayHold(_ text: String) -> Bool { Self.holds(text, GFM.mayHoldFootnotes) }
        let mayHoldOne = [
            "note[^1]\n\n[^1]: A *footnote*.\n", "a [\\^x] b\n", "a [&#94;x] b\n", "a [&Hat;x] b\n", "a ![&#94;x] b\n",
            "[&#x5E;y]\n", "a [&#94;x] b\n\n[^x]: note\n", "x^2 and [link](/u)\n", "[&amp;] and [&#94;]\n", "ends in [&", "[link](/u) [&nbsp;",
        ]
        let cannot = documents + ["a [b] & c [d](/e \"&\")\n", "&#94; [ &#94;]\n", "![", "[ &", "&["]
        for text in mayHoldOne { XCTAssertTrue(mayHold(text), text.debugDescription) }
        for text in cannot { XCTAssertFalse(mayHold(text), text.debugDescription) }
        for text in mayHoldOne + cannot {
            XCTAssertEqual(html(text, footnotes: nil), html(text, footnotes: true), text.debugDescription)
        }
        // The character references after a bracket are why `[&` counts: with footnotes off their HTML differs.
        XCTAssertNotEqual(html("a [&#94;x] b\n", footnotes: false), html("a [&#94;x] b\n", footnotes: true))
        var generator = SystemRandomNumberGenerator()
        let pieces = ["[", "]", "&", "#", "94;", "Hat;", "\\", "x", " ", "\n", "\n\n", ":", "!", "(", ")", "*", "`", "<", ">", "|",
                      "-", "    ", "1. ", "> ", "www.a.b", "a@b.c", "http://x.y", "^"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(html(text, footnotes: nil), html(text, footnotes: true), text.debugDescription)
        }
    }

    /// cmark-gfm's autolink postprocess (the e-mail addresses, found after parsing) is left off a text without an `@`,
    /// a `&#` or a `&commat;` (``GFM/mayHoldEmailAddresses(_:)``): its HTML is what it is with the postprocess on, for
    /// texts with addresses, with the character references that decode to `@`, with `www.` and `scheme://` links (the
    /// inline matcher both extensions share), random texts of those pieces, and the real blogs' posts of
    /// `../shared/corpora` (when present) with and without their `@`s.
    func testEmailPostprocessLeftOffOnlyWhereTheirHTMLIsTheSame() throws {
        func html(_ text: String, emails: Bool?) -> String { Self.html(text, emails: emails) }
        func mayHold(_ text: String) -> Bool { Self.holds(text, GFM.mayHoldEmailAddresses) }
        let mayHoldOne = [
            "mail a@b.co now\n", "a&#64;b.co\n", "a&#x40;b.co\n", "a&#X40;b.co\n", "a&#0064;b.co\n", "a&commat;b.co\n",
            "*x@y.z*\n", "[a@b.co](/u) and c@d.ef\n", "ends in &#", "ends in &commat;", "| a |\n|---|\n| me@x.org |\n",
        ]
        let cannot = documents + [
            "see www.example.org and http://x.y/z, https://a.b (c) ftp://d.e\n", "a & b &amp; c &comma; &commat d &", "&",
            "*www.a.b*\n\n~~http://c.d~~ [www.e.f](/g)\n",
        ]
        for text in mayHoldOne { XCTAssertTrue(mayHold(text), text.debugDescription) }
        for text in cannot { XCTAssertFalse(mayHold(text), text.debugDescription) }
        for text in mayHoldOne + cannot {
            XCTAssertEqual(html(text, emails: nil), html(text, emails: true), text.debugDescription)
        }
        // The character references are why `&#` and `&commat;` count: without the postprocess their HTML differs.
        for text in ["a&#64;b.co\n", "a&#x40;b.co\n", "a&commat;b.co\n"] {
            XCTAssertNotEqual(html(text, emails: false), html(text, emails: true), text.debugDescription)
        }
        XCTAssertTrue(html("see www.a.bc and http://d.ef\n", emails: false).contains("<a href=\"http://www.a.bc\">"))
        var generator = SystemRandomNumberGenerator()
        let pieces = ["@", "a", "b.c", ".", "&", "#", "64;", "x40;", "commat;", "www.", "http://", "mailto:", "xmpp:", "-", "_",
                      "+", "/", " ", "\n", "\n\n", "*", "`", "[", "](/u)", "<", ">", "\\", "~", "| ", "|---|\n", "> ", "- "]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(html(text, emails: nil), html(text, emails: true), text.debugDescription)
        }
        let posts = try HTMLAttributesTests.corporaPosts(extensions: ["md", "markdown"])
        for (url, data) in posts {
            let text = String(decoding: data, as: UTF8.self)
            for text in [text, text.replacingOccurrences(of: "@", with: " ")] {
                XCTAssertEqual(html(text, emails: nil), html(text, emails: true), url.path)
            }
        }
        XCTAssertGreaterThan(posts.count, 100)
    }

    /// `text` parsed (footnotes and the e-mail postprocess as `GFM.parse` is told) and rendered as HTML.
    private static func html(_ text: String, footnotes: Bool? = nil, emails: Bool? = nil) -> String {
        let document = GFM.parse(text, footnotes: footnotes, emails: emails)
        defer { cmark_node_free(document) }
        return GFM.html(document, tagfilter: false)
    }

    /// What `check` says of `text`'s bytes.
    private static func holds(_ text: String, _ check: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        return text.withUTF8(check)
    }

    /// Every node `cmark_iter` enters from `root`, `root` first.
    private static func entered(from root: OpaquePointer) -> [OpaquePointer] {
        guard let iterator = cmark_iter_new(root) else { return [] }
        defer { cmark_iter_free(iterator) }
        var nodes: [OpaquePointer] = []
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) { nodes.append(node) }
        }
        return nodes
    }
}
