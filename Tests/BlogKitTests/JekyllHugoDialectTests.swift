import BlogCore
@testable import BlogMarkdown
import CSystem
import XCTest

/// The kramdown and goldmark passes of issue 29 where no generator is needed to state the rule:
/// each pass leaves the other dialects alone, and hostile input costs little. The generators'
/// own output is compared in JekyllComparisonTests and HugoComparisonTests.
final class JekyllHugoDialectTests: XCTestCase {
    private func html(_ markdown: String, _ dialect: MarkdownDialect) -> String {
        MarkdownRenderer.render(body: markdown, summary: nil, options: MarkdownOptions(dialect: dialect)).html
    }

    /// kramdown's raw span elements keep their markdown characters; CommonMark and goldmark make a code span.
    func testRawSpanElementsInKramdownOnly() {
        let text = "New <code>`Sequence`</code> and <kbd>*b*</kbd>, `<code>*x*</code>`.\n"
        XCTAssertEqual(html(text, .kramdown),
                       "<p>New <code>`Sequence`</code> and <kbd>*b*</kbd>, <code>&lt;code&gt;*x*&lt;/code&gt;</code>.</p>\n")
        for dialect in [MarkdownDialect.commonMark, .goldmark] {
            XCTAssertTrue(html(text, dialect).contains("<code><code>Sequence</code></code>"), "\(dialect)")
        }
        // In code the line is never read.
        XCTAssertEqual(html("    <code>`x`</code>\n", .kramdown), "<pre><code>&lt;code&gt;`x`&lt;/code&gt;\n</code></pre>\n")
    }

    /// A long line of unclosed elements and backtick runs of every length is read in one pass.
    func testRawSpanScanIsLinear() {
        var line = ""
        for length in 1...400 { line += "<code " + String(repeating: "`", count: length) + " x " }
        let text = String(repeating: line + "\n", count: 20)
        let start = Date()
        _ = html(text, .kramdown)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(text.utf8.count) bytes")
    }

    /// Emphasis paired as Python-Markdown and kramdown pair it (``EmphasisRuns``) in their posts only; a long
    /// line of pairs, unclosed `<`, `](` and backtick runs costs little.
    func testEmphasisRunsInPelicanAndJekyllPostsOnlyAndCheaply() {
        let text = "これは**「強調」**です、*『本』*も。\n"
        for dialect in [MarkdownDialect.pythonMarkdown, .kramdown] {
            XCTAssertEqual(html(text, dialect), "<p>これは<strong>「強調」</strong>です、<em>『本』</em>も。</p>\n")
        }
        for dialect in [MarkdownDialect.goldmark, .commonMark] { XCTAssertEqual(html(text, dialect), "<p>" + text.dropLast() + "</p>\n") }
        var line = String(repeating: "a**「b」**", count: 20_000) + String(repeating: "<", count: 20_000) + String(repeating: "](", count: 20_000)
        for length in 1...300 { line += String(repeating: "`", count: length) + " x " }
        for dialect in [MarkdownDialect.pythonMarkdown, .kramdown] {
            let start = Date()
            _ = html(line + "\n", dialect)
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(dialect): \(line.utf8.count) bytes")
        }
    }

    /// The byte-level emphasis pass (issue 32) decides every line as the scalar pass of issue 29 did
    /// (``ScalarEmphasisRuns``): lines made at random of delimiters, code spans, tags, link destinations,
    /// web addresses and what starts like one (`ht`, where the classification stops), escapes, ASCII and CJK
    /// letters and punctuation, and Unicode spaces.
    func testEmphasisRunsOnBytesAgreeWithTheScalarPass() {
        let pieces = ["*", "**", "***", "_", "__", "\\", "`", "``", "<", "<a", "</", "<!", "<é", ">", "](", ")", "(", "http", "h",
                      "ht", "htt*", " ", "\t", "a", "B", "1", ".", ",", "「", "」", "強", "é", "\u{3000}", "\u{00A0}", "!", "-", "😀", "x_y"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {  // SplitMix64: the same lines on every run
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var changed = [MarkdownDialect.pythonMarkdown: 0, .kramdown: 0], escaped = 0  // kramdown escapes an `_`
        for _ in 0..<40_000 {
            // One line in eight long enough that the pass reads it in several blocks of sixty-four bytes.
            let line = (0..<(1 + random(24) + (random(8) == 0 ? 40 + random(60) : 0))).map { _ in pieces[random(pieces.count)] }.joined()
            for dialect in [MarkdownDialect.pythonMarkdown, .kramdown] {
                let expected = ScalarEmphasisRuns.rewritten(Array(line.unicodeScalars), dialect: dialect)
                let got = EmphasisRuns.rewritten(Array(line.utf8), dialect: dialect).map { String(decoding: $0, as: UTF8.self) }
                XCTAssertEqual(got, expected, "\(dialect): \(line.debugDescription)")
                if expected != nil { changed[dialect, default: 0] += 1 }
                if let expected, expected.components(separatedBy: "\\_").count > line.components(separatedBy: "\\_").count { escaped += 1 }
            }
        }
        // The lines exercise the rewrites, not only the lines left alone.
        XCTAssertGreaterThan(changed[.pythonMarkdown] ?? 0, 200)
        XCTAssertGreaterThan(changed[.kramdown] ?? 0, 100)
        XCTAssertGreaterThan(escaped, 0)
    }

    /// A run's neighbours are classed once, an ASCII byte without making a scalar: the byte's class is the
    /// scalar's for every ASCII byte (the classes the flanking rules ask for: whitespace, punctuation, other).
    func testEmphasisNeighbourClassOfASCIIBytesIsTheScalarsClass() {
        for byte in UInt8(0)...UInt8(127) {
            XCTAssertEqual(EmphasisRuns.Neighbour(ascii: byte), EmphasisRuns.Neighbour(Unicode.Scalar(byte)), "\(byte)")
        }
        XCTAssertEqual(EmphasisRuns.Neighbour(nil), .space)  // the line's edge
        XCTAssertEqual(EmphasisRuns.Neighbour("\u{3000}"), .space)
        XCTAssertEqual(EmphasisRuns.Neighbour("「"), .punctuation)
        XCTAssertEqual(EmphasisRuns.Neighbour("強"), .other)
    }

    /// The SSE2 classification of the bytes the emphasis pass looks at (CSystem's `blog_emphasis_bytes`) and
    /// the byte-at-a-time one used where SSE2 is not agree on random bytes drawn mostly from the ones it tells
    /// apart, whole blocks and the last bytes of a line (read through a copy padded with zeros).
    func testTheEmphasisByteClassificationsAgree() {
        let near: [UInt8] = Array("\\`<]*_htp[>)( a".utf8) + [0x00, 0x80, 0xE3, 0xFF]
        var seed: UInt64 = 0xE3FA5
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var text = [UInt8](repeating: 0, count: 80)
        var found = 0
        for round in 0..<20_000 {
            for index in 0..<80 { text[index] = next(4) == 0 ? UInt8(next(256)) : near[next(near.count)] }
            if round % 4 == 0 {
                let at = next(77)
                text.replaceSubrange(at..<at + 4, with: Array("http".utf8))
            }
            let count = round % 2 == 0 ? 80 : next(67)
            var padded = [UInt8](repeating: 0, count: 80)
            padded[..<count] = text[..<count]
            for underscores: Int32 in [0, 1] {
                let sse = blog_emphasis_bytes(text, count, underscores)
                XCTAssertEqual(sse, blog_emphasis_bytes_bytewise(padded, underscores), "\(count) \(underscores): \(text)")
                found += sse.nonzeroBitCount
            }
        }
        XCTAssertGreaterThan(found, 100_000)
    }

    /// Hugo's divider leaves the page; warnings after it keep their lines.
    func testHugoDividerKeepsWarningLines() {
        let body = "Lead.\n\n<!--more-->\n\nRest.\n\n::swift hl_lines=\"1\"\n"
        let rendered = MarkdownRenderer.render(body: body, summary: nil, options: MarkdownOptions(dialect: .goldmark))
        XCTAssertFalse(rendered.html.contains("more"), rendered.html)
        XCTAssertEqual(rendered.summaryHTML, "<p>Lead.</p>\n")
        for warning in rendered.warnings { XCTAssertEqual(warning.line, 7, "\(warning)") }
        XCTAssertTrue(html(body, .commonMark).contains("<!--more-->"))
    }

    /// goldmark's typographer in Hugo-form posts only; a long line of quotes and dashes costs little.
    func testGoldmarkTypographyInHugoPostsOnly() {
        let text = "Update to v2.9.4\" now, 'til then -- and << that >>...\n"
        XCTAssertEqual(html(text, .goldmark), "<p>Update to v2.9.4&quot; now, \u{2019}til then \u{2013} and \u{00AB} that \u{00BB}\u{2026}</p>\n")
        // cmark-gfm's rules elsewhere: the unpaired quote curls, `<<` stays.
        XCTAssertTrue(html(text, .kramdown).hasPrefix("<p>Update to v2.9.4\u{201D} now"))
        XCTAssertTrue(html(text, .kramdown).contains("&lt;&lt; that &gt;&gt;"))
        let long = String(repeating: "a \"b' -- c... ", count: 40_000) + "\n"
        let start = Date()
        _ = html(long, .goldmark)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(long.utf8.count) bytes")
    }

    /// Raw HTML that looks like cmark-gfm's footnote markup, unclosed, many times over: left as written, quickly.
    func testFootnoteLookalikesCostLittle() {
        let piece = "<sup class=\"footnote-ref\"><a href=\"#fn-x\" id=\"y\">"
        func text(_ count: Int) -> String { "A note[^1] " + String(repeating: piece, count: count) + "\n\n[^1]: N.\n" }
        /// The fastest of three renders of `count` pieces, in seconds: a loaded machine slows a run, never speeds it up.
        func seconds(_ count: Int) -> Double {
            let input = text(count)
            return (0..<3).map { _ in
                let start = Date()
                _ = html(input, .goldmark)
                return Date().timeIntervalSince(start)
            }.min()!
        }
        // Sixteen times the pieces cost about sixteen times as much (256 if each lookalike were compared with
        // the others): a ratio, which holds on a busy machine where a bound in seconds did not. The bound sits
        // halfway between the two on a log scale, so a load that slows one side fourfold cannot fail it (a
        // four-times-the-pieces ratio against 8 did fail at a load of 18), and a quadratic pass still does.
        let small = seconds(500), large = seconds(8_000)
        XCTAssertLessThan(large, 64 * small + 0.05, "\(small) s for 500 pieces, \(large) s for 8,000")
        let out = html(text(8_000), .goldmark)
        XCTAssertTrue(out.contains("<sup id=\"fnref:1\"><a href=\"#fn:1\" class=\"footnote-ref\" role=\"doc-noteref\">1</a></sup>"), String(out.prefix(300)))
        XCTAssertTrue(out.contains(piece))
    }
}
