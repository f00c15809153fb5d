@testable import BlogCore
@testable import BlogMarkdown
import Mustache
import XCTest

final class RenderTextTests: XCTestCase {
    func testPathsArePercentEncodedOutsideURLCharacters() {
        XCTAssertEqual(WebText.encodePath("tags/swift/"), "tags/swift/")
        XCTAssertEqual(WebText.encodePath("tags/café/"), "tags/caf%C3%A9/")
        XCTAssertEqual(WebText.encodePath("posts/日本/"), "posts/%E6%97%A5%E6%9C%AC/")
        XCTAssertEqual(WebText.encodePath("a b/100%/\"q\""), "a%20b/100%25/%22q%22")
        XCTAssertEqual(WebText.encodePath("x-y_z.~!$&'()*+,;=:@"), "x-y_z.~!$&'()*+,;=:@")
        // Every byte below 0x80, alone and at the end of a path longer than a small string's 15 bytes: kept when
        // RFC 3986 allows it in a path segment (or it is `/`), else percent-encoded.
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let hex = Array("0123456789ABCDEF")
        for byte in UInt8(0)..<0x80 {
            let text = String(decoding: [byte], as: UTF8.self)
            let expected = kept.contains(byte) ? text : "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            XCTAssertEqual(WebText.encodePath(text), expected, "byte \(byte)")
            XCTAssertEqual(WebText.encodePath("posts/a-longer-path/" + text), "posts/a-longer-path/" + expected, "byte \(byte)")
        }
    }

    func testPlainTextOfHTML() {
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>Tom &amp; <em>Jerry</em>\n  &lt;3 &quot;x&quot; &#39;y&#39;</p>\n<p>Next</p>", limit: 100),
                       "Tom & Jerry <3 \"x\" 'y' Next")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>one two, three four</p>", limit: 14), "one two…")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>exactly</p>", limit: 7), "exactly")
        XCTAssertEqual(WebText.plainText(fromHTML: "", limit: 10), "")
    }

    /// plainText stops reading a long text early; the result must be what cutting the whole
    /// text gives, also when combining marks, emoji sequences or spaces fall at the cut.
    func testPlainTextOfALongTextIsTheCutOfTheWholeText() {
        func cut(_ text: String, _ limit: Int) -> String {
            guard text.count > limit else { return text }
            var cut = text.prefix(limit)
            if let space = cut.lastIndex(of: " ") { cut = cut[..<space] }
            while let last = cut.last, last.isPunctuation || last == " " { cut.removeLast() }
            return cut + "…"
        }
        let pieces = ["word", "e\u{301}", "👩‍👩‍👧", "🇫🇷", " ", ", ", "<em>x</em>", "&amp;", "\n", "日本", "a\u{308}\u{301}"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let html = "<p>" + (0..<Int.random(in: 1...120, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() + "</p>"
            let whole = WebText.plainText(fromHTML: html, limit: Int.max)
            for limit in [1, 5, 20, 40, 160] {
                XCTAssertEqual(WebText.plainText(fromHTML: html, limit: limit), cut(whole, limit), "round \(round), limit \(limit): \(html.debugDescription)")
            }
        }
    }

    /// plainText reads bytes; it must give what reading Characters gives (the code it replaced,
    /// below), with white space of other scripts, combining marks after spaces, tags and entities,
    /// and punctuation of other scripts at the cut.
    func testPlainTextIsTheTextOfItsCharacters() {
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>a\u{A0}b\u{3000}c\u{2028}d\u{85}e\u{2009}f</p>", limit: 100), "a b c d e f")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>x \u{301}y</p><p>\u{301}z &amp;\u{301}</p>", limit: 100), "x \u{301}y \u{301}z &\u{301}")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>Wait… what？ really。 yes</p>", limit: 14), "Wait… what…")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>one, two; three!? four</p>", limit: 17), "one, two…")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>abcdefgh</p>", limit: 0), "…")
        let pieces = ["word", "Word.", " ", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", "\t", "\r\n", "\u{301}", "e\u{301}",
                      "&amp;", "&lt;", "&quot;", "&#39;", "&gt", "&nbsp;", "<b>", "</b>", "<a href=\"é\">", "…", "？", "(", ")",
                      "!", "$", "日本", "👩‍👩‍👧", "🇫🇷", "\u{600}", "-"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let html = (0..<Int.random(in: 0...60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for limit in [0, 1, 3, 10, 30, 200, Int.max] {
                XCTAssertEqual(WebText.plainText(fromHTML: html, limit: limit), plainTextByCharacters(html, limit: limit),
                               "round \(round), limit \(limit): \(html.debugDescription)")
            }
        }
    }

    /// ``WebText/plainText(fromHTML:limit:)`` as it was written before it read bytes.
    private func plainTextByCharacters(_ html: String, limit: Int) -> String {
        var text = ""
        var inTag = false
        var pendingSpace = false
        var scalars = html.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if inTag {
                if scalar == ">" { inTag = false; pendingSpace = true }
                continue
            }
            var character = Character(scalar)
            if scalar == "<" { inTag = true; continue }
            if scalar == "&" {
                for (name, decoded) in [("amp;", "&"), ("lt;", "<"), ("gt;", ">"), ("quot;", "\""), ("#39;", "'")]
                    as [(String, Character)] where scalars.starts(with: name.unicodeScalars) {
                    character = decoded
                    scalars = scalars.dropFirst(name.unicodeScalars.count)
                    break
                }
            }
            if character.isWhitespace { pendingSpace = true; continue }
            if pendingSpace && !text.isEmpty { text.append(" ") }
            pendingSpace = false
            text.append(character)
        }
        guard text.count > limit else { return text }
        var cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " ") { cut = cut[..<space] }
        while let last = cut.last, last.isPunctuation || last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// The three escapers differ where their callers did: cmark's HTML keeps `'` and control
    /// characters, templates escape `'` as swift-mustache does (a whole Character at a time), XML
    /// leaves out what it can't carry.
    func testTheThreeEscapers() {
        let text = "<a href=\"x\">Tom & 'Jerry'\u{1}</a>"
        XCTAssertEqual(Escaping.html(text), "&lt;a href=&quot;x&quot;&gt;Tom &amp; 'Jerry'\u{1}&lt;/a&gt;")
        XCTAssertEqual(Escaping.template(text), "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;\u{1}&lt;/a&gt;")
        XCTAssertEqual(Escaping.xml(text), "&lt;a href=&quot;x&quot;&gt;Tom &amp; 'Jerry'&lt;/a&gt;")
        XCTAssertEqual(Array(Escaping.template("&\u{301} & é").utf8), Array("&\u{301} &amp; é".utf8))
        XCTAssertEqual(Escaping.html("plain"), "plain")
    }

    /// Every escaper against a reading of its rule a scalar at a time (templates: against swift-mustache itself),
    /// on texts made of runs of plain bytes of every length around every byte an escaper treats apart: the
    /// special characters, each control character, U+FFFE and U+FFFF (whose first byte, 0xEF, also starts
    /// U+FFFD and U+FEFF), non-ASCII letters and a combining mark, at the start, the end and next to each other; and
    /// whether the template escaper may change a text (``Escaping/templateMayChange(_:)``).
    func testEscapersAgreeWithTheirRuleOnGeneratedTexts() throws {
        func reference(_ text: String, apostrophe: Bool, xml: Bool) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'" where apostrophe: out += "&#39;"
                case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
                case _ where xml && (scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF): break
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        let odd: [String] = ["&", "<", ">", "\"", "'", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{FEFF}", "é", "\u{301}", "日", "\r\n", "\t", "=", "?", "@",
                              // Bytes one bit away from a special one, which the escapers' word-at-a-time tests must let through.
                              "#", "$", "%", ":", ";", "\u{7F}", "\u{A2}", "\u{AF}", "\u{FF22}", "\u{EF}"]
            + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        let mustache = try MustacheTemplate(string: "{{value}}")
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = odd + odd.map { "x" + $0 } + odd.map { $0 + "x" }
        for length in [1, 7, 8, 15, 16, 31, 63, 64, 65, 200] {
            for _ in 0..<20 {
                var text = ""
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    text += String(repeating: "a", count: Int.random(in: 0...length, using: &generator))
                    text += odd.randomElement(using: &generator)!
                }
                texts.append(text)
            }
        }
        // Texts that grow by more than half, from their first byte or from far in: the escaped text outgrows the
        // memory it is written into, once or more.
        for dense in ["\"", "<&>", "'x", "\u{1}\"", "&é"] {
            for plain in [0, 9, 300] {
                texts.append(String(repeating: "a", count: plain) + String(repeating: dense, count: 400))
            }
        }
        for text in texts {
            XCTAssertEqual(Escaping.html(text), reference(text, apostrophe: false, xml: false), text.debugDescription)
            XCTAssertEqual(Escaping.liquid(text), reference(text, apostrophe: true, xml: false), text.debugDescription)
            XCTAssertEqual(Escaping.xml(text), reference(text, apostrophe: false, xml: true), text.debugDescription)
            // The bytes handed to a writer without a `String` (a feed entry's body): the same, in one call.
            var calls = 0, bytes: [UInt8] = []
            Escaping.xml(text) { calls += 1; bytes += $0 }
            XCTAssertEqual(calls, 1, text.debugDescription)
            XCTAssertEqual(bytes, Array(reference(text, apostrophe: false, xml: true).utf8), text.debugDescription)
            XCTAssertEqual(Array(Escaping.template(text).utf8), Array(mustache.render(["value": text]).utf8), text.debugDescription)
            // What the renderer asks before writing a text as it is (`ScopeEscaper.write`): whether a byte is one the
            // template escaper replaces, and never false for a text it changes.
            let special = text.utf8.contains { Array("&<>\"'".utf8).contains($0) }
            XCTAssertEqual(Escaping.templateMayChange(text), special, text.debugDescription)
            if !special { XCTAssertEqual(Array(Escaping.template(text).utf8), Array(text.utf8), text.debugDescription) }
        }
    }

    /// Feed text: entities for & < > ", the characters XML 1.0 forbids left out, the rest as it is.
    func testXMLEscapingDropsForbiddenCharacters() {
        XCTAssertEqual(Escaping.xml("plain"), "plain")
        XCTAssertEqual(Escaping.xml("<p class=\"a\">Tom & 'Jerry'</p>"), "&lt;p class=&quot;a&quot;&gt;Tom &amp; 'Jerry'&lt;/p&gt;")
        XCTAssertEqual(Escaping.xml("a\u{0}b\u{1B}c\td\ne\rf"), "abc\td\ne\rf")
        XCTAssertEqual(Escaping.xml("x\u{FFFE}y\u{FFFF}z\u{FFFD}é日"), "xyz\u{FFFD}é日")
        for (text, escaped) in [("", ""), ("\u{1}\u{2}", ""), ("plain", "plain"), ("]]>", "]]&gt;"), ("&amp;", "&amp;amp;")] {
            var bytes: [UInt8] = []
            Escaping.xml(text) { bytes += $0 }
            XCTAssertEqual(bytes, Array(escaped.utf8), text.debugDescription)
        }
    }
}
