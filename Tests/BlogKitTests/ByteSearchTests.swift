@testable import BlogBuild
@testable import BlogCore
@testable import BlogMarkdown
@testable import BlogSite
import XCTest

final class ByteSearchTests: XCTestCase {
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

    /// The search looks for the needle's rarest byte, wherever it is in the needle: it agrees with a
    /// plain search byte by byte, with that byte at the ends of the text and next to partial matches.
    func testContainsAgreesWithAPlainSearch() {
        let needles = ["<img", "<p>[TOC]</p>", "static", "{filename}", "a", "ee", "e e", "Zé", "<nav class=\"toc\" aria-label=\"Contents\">\n"]
        let pieces = ["<", "i", "m", "g", "<im", "<img", "[", "TOC", "]", "<p>", "</p>", "stat", "ic", "{", "file", "name}", "a", "e", " ",
                      "Z", "é", "\n", "<nav", " class=\"toc\"", " aria-label=\"Contents\">", "x"]
        var seed: UInt64 = 0xB17E
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        func plain(_ text: String, _ needle: String) -> Bool {
            let (t, n) = (Array(text.utf8), Array(needle.utf8))
            guard t.count >= n.count else { return false }
            return (0...(t.count - n.count)).contains { Array(t[$0..<($0 + n.count)]) == n }
        }
        var found = 0
        for _ in 0..<3000 {
            let text = (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            for needle in needles {
                let expected = plain(text, needle)
                if expected { found += 1 }
                XCTAssertEqual(ByteSearch.contains(text, needle), expected, "\(needle) in \(text)")
            }
        }
        XCTAssertGreaterThan(found, 1000, "the texts hold the needles often")
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
