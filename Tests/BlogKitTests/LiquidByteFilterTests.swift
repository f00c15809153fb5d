import BlogCore
@testable import BlogLiquid
@testable import BlogMarkdown
import Foundation
import XCTest

/// Liquid's `split`, `replace` and `remove` filters work on UTF-8 bytes as Ruby's `String#split`, `gsub` and `sub` do
/// (Liquid calls them), in time linear in the text. The expected values are what Ruby 3.1 gives for the same calls
/// (`ruby -e 'p "a|\u0301b".split("|")'`), noted where a search by `Character` gave something else.
final class LiquidByteFilterTests: XCTestCase {
    private let site = LiquidFilters.Site(baseURL: "", siteURL: "https://example.org", timeZone: TimeZone(identifier: "UTC")!)

    private func split(_ text: String, _ separator: String) -> [String] {
        LiquidFilters.split(text, by: separator)
    }

    private func filter(_ name: String, _ text: String, _ args: String...) throws -> String {
        let value = try LiquidFilters.apply(name, .string(text), args.map(MetaValue.string), site: site)
        guard case .string(let out) = value else { XCTFail("\(name) gave \(value)"); return "" }
        return out
    }

    func testSeparatorsAtTheEndsAndRepeated() {
        XCTAssertEqual(split("|a||b|", "|"), ["", "a", "", "b"], "a leading empty item and one between stay; trailing ones go")
        XCTAssertEqual(split("|||", "|"), [])
        XCTAssertEqual(split("", "|"), [])
        XCTAssertEqual(split("no separator", "|"), ["no separator"])
        XCTAssertEqual(split("ab", "ab"), [], "the whole text")
        XCTAssertEqual(split("aaa", "aa"), ["", "a"], "matches do not overlap, found from the left")
        XCTAssertEqual(split("a, b,, c, ", ", "), ["a", "b,", "c"])
    }

    func testMultiByteSeparators() {
        XCTAssertEqual(split("x→y→z→", "→"), ["x", "y", "z"])
        XCTAssertEqual(split("été|été", "é"), ["", "t", "|", "t"])
        XCTAssertEqual(split("a\u{1F1FA}\u{1F1F8}b", "\u{1F1F8}"), ["a\u{1F1FA}", "b"], "inside a flag (one Character)")
    }

    /// Ruby matches scalars, not grapheme clusters: a separator next to a combining mark or inside `\r\n` is found (a
    /// search by `Character` did not: `e` + U+0301 is one Character), and text is not normalised (`é` as one scalar
    /// is not `e` + U+0301, which Foundation's search matched).
    func testCombiningCharactersNextToTheSeparator() {
        XCTAssertEqual(split("e\u{301}|x", "e"), ["", "\u{301}|x"])
        XCTAssertEqual(split("a|\u{301}b", "|"), ["a", "\u{301}b"])
        XCTAssertEqual(split("e\u{301}", "\u{301}"), ["e"])
        XCTAssertEqual(split("a\r\nb", "\n"), ["a\r", "b"])
        XCTAssertEqual(split("a\r\nb", "\r\n"), ["a", "b"])
        XCTAssertEqual(split("\u{E9}", "e\u{301}"), ["\u{E9}"])
    }

    /// `split: " "` is Ruby's awk-style split: runs of ASCII whitespace, none at the ends; a no-break space or an
    /// em space is part of a word (a split on `Character.isWhitespace` cut there), and a combining mark after a space
    /// starts the next word (it was part of the space's Character, and dropped with it).
    func testSplitOnASpaceIsOnRunsOfASCIIWhitespace() {
        XCTAssertEqual(split("  a \t b\r\n\u{B}c\u{C}  ", " "), ["a", "b", "c"])
        XCTAssertEqual(split("a\u{A0}b c", " "), ["a\u{A0}b", "c"])
        XCTAssertEqual(split("a\u{2003}b", " "), ["a\u{2003}b"])
        XCTAssertEqual(split(" \u{301}a b", " "), ["\u{301}a", "b"])
        XCTAssertEqual(split(" \t ", " "), [])
    }

    /// Ruby's `split("")` gives scalars; Liquid here has always given characters, and still does.
    func testAnEmptySeparatorSplitsIntoCharacters() {
        XCTAssertEqual(split("e\u{301}x", ""), ["e\u{301}", "x"])
        XCTAssertEqual(split("", ""), [])
    }

    func testReplaceAndRemoveMatchBytesAsRubysGsubAndSub() throws {
        XCTAssertEqual(try filter("replace", "aaa", "aa", "_"), "_a")
        XCTAssertEqual(try filter("replace", "a→b→", "→", "->"), "a->b->")
        XCTAssertEqual(try filter("replace", "e\u{301}|x", "e", "_"), "_\u{301}|x")
        XCTAssertEqual(try filter("replace", "e\u{301}", "\u{301}", "_"), "e_")
        XCTAssertEqual(try filter("replace", "\u{E9}", "e\u{301}", "_"), "\u{E9}", "no normalisation")
        XCTAssertEqual(try filter("replace_first", "a-b-c", "-", "+"), "a+b-c")
        XCTAssertEqual(try filter("remove", "a-b-c", "-"), "abc")
        XCTAssertEqual(try filter("remove_first", "a-b-c", "-"), "ab-c")
        XCTAssertEqual(try filter("remove_first", "abc", "x"), "abc")
        XCTAssertEqual(try filter("strip_newlines", "a\r\nb\nc\rd"), "abcd")
        XCTAssertEqual(try filter("newline_to_br", "a\r\nb\n"), "a\r<br />\nb<br />\n", "inside `\\r\\n` too")
        XCTAssertEqual(try filter("escape_once", "&lt;b&gt; &amp;amp; <i> &quot;&#39;"), "&lt;b&gt; &amp;amp; &lt;i&gt; &quot;&#39;")
        // `escape` is BlogCore's escaper, byte by byte as Ruby's CGI.escapeHTML: `'` too, a `&` before a combining
        // mark too (where a template's `{{x}}` keeps the whole Character), control characters kept.
        for name in ["escape", "xml_escape", "h"] {
            XCTAssertEqual(try filter(name, "<a href=\"x\">Tom & 'Jerry'\u{1}</a>"), "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;\u{1}&lt;/a&gt;")
            XCTAssertEqual(Array(try filter(name, "&\u{301} é日 '").utf8), Array("&amp;\u{301} é日 &#39;".utf8))
            XCTAssertEqual(try filter(name, "plain"), "plain")
        }
        // Ruby's xmlschema writes UTC as `+00:00`, not ISO 8601's `Z`: DateText's offset, not its iso8601.
        XCTAssertEqual(try filter("date_to_xmlschema", "2016-11-25 10:20"), "2016-11-25T10:20:00+00:00")
        // Ruby's gsub("") puts the replacement between characters; Liquid here leaves the text as it is, as before.
        XCTAssertEqual(try filter("replace", "abc", "", "-"), "abc")
        XCTAssertEqual(try filter("replace_first", "abc", "", "-"), "abc")
    }

    /// `rstrip` drops trailing whitespace characters, as it did when it reversed the text: Unicode spaces too, and a
    /// space with a combining mark, one character that Swift counts as whitespace (Ruby strips ASCII whitespace and
    /// NUL only: `"a \u0301".rstrip` keeps both).
    func testRstripDropsTrailingWhitespaceCharacters() throws {
        XCTAssertEqual(try filter("rstrip", " a b \t\r\n\u{A0}\u{2003}"), " a b")
        XCTAssertEqual(try filter("rstrip", "a \u{301}"), "a")
        XCTAssertEqual(try filter("rstrip", " \n "), "")
        XCTAssertEqual(try filter("rstrip", ""), "")
    }

    /// A megabyte split by a 2-byte separator, and a megabyte of `a` searched for 999 `a`s and a `b` (where a search
    /// that starts over at every byte compares half a billion bytes): each byte is compared at most twice.
    func testTheSearchIsLinearInTheText() {
        let words = 100_000
        let text = String(repeating: "word, ", count: words)  // 600,000 bytes
        let long = text + text
        XCTAssertEqual(split(long, ", ").count, 2 * words)
        var bytes = Array(long.utf8)
        let comparisons = bytes.withUnsafeBufferPointer { BytePattern(", ")!.matches(in: $0).comparisons }
        XCTAssertLessThanOrEqual(comparisons, 2 * bytes.count)

        bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let pattern = BytePattern(String(repeating: "a", count: 999) + "b")!
        let (starts, work) = bytes.withUnsafeBufferPointer { pattern.matches(in: $0) }
        XCTAssertEqual(starts, [])
        XCTAssertLessThanOrEqual(work, 2 * bytes.count)
        bytes.append(UInt8(ascii: "b"))
        XCTAssertEqual(bytes.withUnsafeBufferPointer { pattern.matches(in: $0).starts }, [bytes.count - 1000])
    }

    /// The Jekyll idiom the fuzzer slowed down with: a long captured text split, through the interpreter.
    func testALongCapturedTextSplitsThroughTheInterpreter() {
        let template = """
        {% capture list %}{% for i in (1..3000) %}{{ i }}||{% endfor %}{% endcapture %}\
        {% assign items = list | split: "||" %}{{ items | size }} {{ items | last }} {{ list | replace: "||", "," | size }}
        """
        let (out, diagnostics) = Liquid.process(template, path: "post.md", firstLine: 1,
                                                 context: LiquidContext(baseURL: "", siteURL: ""), page: .map([:]))
        XCTAssertEqual(diagnostics, [])
        let digits = (1...3000).map { String($0).count }.reduce(0, +)
        XCTAssertEqual(out, "3000 3000 \(digits + 3000)")
    }
}
