import BlogCore
import BlogLiquid
import Foundation

/// TeX math in Hugo- and Jekyll-form posts, kept from markdown as goldmark's passthrough extension
/// keeps it (Hugo's documented setup: `$$…$$` and `\[…\]` for display math, `$…$` and `\(…\)` inline):
/// the text from an opening delimiter to the first closing one after it in the same paragraph, both
/// included, reaches the page as written (its `<`, `>` and `&` escaped, which a math renderer reads
/// back), untouched by emphasis, escapes or smart punctuation. Not in code blocks or code spans; a
/// delimiter after a backslash (`\$`) is text; an empty span (`$$`) and an opener without a closer
/// are text. Display math alone in its paragraph takes the paragraph's place.
///
/// Each span waits behind a ``PlaceholderMarks`` mark while cmark-gfm renders the body, which the
/// post's own text can't forge.
enum MathPassthrough {
    /// The pairs, display ones first: at one place, `$$` is display math, not an empty `$…$`.
    private static let pairs: [(open: [UInt8], close: [UInt8])] = [
        (Array("$$".utf8), Array("$$".utf8)), (Array("\\[".utf8), Array("\\]".utf8)),
        (Array("$".utf8), Array("$".utf8)), (Array("\\(".utf8), Array("\\)".utf8)),
    ]

    /// Whether `text` may hold math (a quick check).
    static func mayHold(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "$")) || ByteSearch.contains(text, "\\(") || ByteSearch.contains(text, "\\[")
    }

    /// The mark of the `index`th span.
    static func mark(_ index: Int) -> String {
        PlaceholderMarks.build.mark("math", index)
    }

    /// Whether the span `html` is display math (`$$`, `\[`).
    private static func isDisplay(_ html: String) -> Bool {
        html.hasPrefix("$$") || html.hasPrefix("\\[")
    }

    /// `markdown` with each math span replaced by its mark, and the spans' HTML in order.
    static func protect(_ markdown: String) -> (markdown: String, spans: [String]) {
        guard mayHold(markdown) else { return (markdown, []) }
        let b = Array(markdown.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var spans: [String] = []
        var tracker = LiquidBlockTracker()
        // The paragraph text since the last blank or code line, whose spans may cross its lines.
        var run = 0..<0
        var start = 0
        while start < b.count {
            let end = (b[start...].firstIndex(of: UInt8(ascii: "\n")) ?? (b.count - 1)) + 1
            let code = tracker.classify(b, start)
            let blank = b[start..<end].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
            if code || blank {
                protectRun(b, run, into: &out, spans: &spans)
                out += b[start..<end]
                run = end..<end
            } else {
                run = (run.isEmpty ? start : run.lowerBound)..<end
            }
            start = end
        }
        protectRun(b, run, into: &out, spans: &spans)
        guard !spans.isEmpty else { return (markdown, []) }
        return (String(decoding: out, as: UTF8.self), spans)
    }

    /// Copies the paragraph text `run` of `b` to `out`, math spans as marks.
    private static func protectRun(_ b: [UInt8], _ run: Range<Int>, into out: inout [UInt8], spans: inout [String]) {
        var i = run.lowerBound
        while i < run.upperBound {
            let byte = b[i]
            if byte == UInt8(ascii: "`") {
                // A code span: the same run of backticks closes it.
                var length = 0
                while i + length < run.upperBound, b[i + length] == UInt8(ascii: "`") { length += 1 }
                var j = i + length
                var close: Int?
                while j < run.upperBound {
                    if b[j] == UInt8(ascii: "`") {
                        var other = 0
                        while j + other < run.upperBound, b[j + other] == UInt8(ascii: "`") { other += 1 }
                        if other == length { close = j + other; break }
                        j += other
                    } else {
                        j += 1
                    }
                }
                let stop = close ?? i + length
                out += b[i..<stop]
                i = stop
                continue
            }
            if let pair = pairs.first(where: { starts(b, at: i, with: $0.open, before: run.upperBound) }),
               let closer = find(pair.close, in: b, from: i + pair.open.count, before: run.upperBound),
               closer > i + pair.open.count {
                let stop = closer + pair.close.count
                out += Array(mark(spans.count).utf8)
                spans.append(Escaping.html(String(decoding: b[i..<stop], as: UTF8.self)))
                i = stop
                continue
            }
            if byte == UInt8(ascii: "\\"), i + 1 < run.upperBound, b[i + 1] < 0x80, isASCIIPunctuation(b[i + 1]) {
                // An escaped character (`\$`, `\\`) is text.
                out += b[i...(i + 1)]
                i += 2
                continue
            }
            out.append(byte)
            i += 1
        }
    }

    private static func starts(_ b: [UInt8], at index: Int, with pattern: [UInt8], before end: Int) -> Bool {
        index + pattern.count <= end && b[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    private static func find(_ pattern: [UInt8], in b: [UInt8], from start: Int, before end: Int) -> Int? {
        var index = start
        while index + pattern.count <= end {
            if b[index] == pattern[0], starts(b, at: index, with: pattern, before: end) { return index }
            index += 1
        }
        return nil
    }

    private static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    /// `html` with each mark replaced by its span (the `<p>` around a mark alone dropped, display
    /// math then being a block of its own, as goldmark renders it).
    static func restore(_ html: String, spans: [String]) -> String {
        guard !spans.isEmpty, PlaceholderMarks.build.mayBeIn(html) else { return html }
        var html = html
        for (index, span) in spans.enumerated().reversed() {
            let mark = mark(index)
            if isDisplay(span) { html = html.replacingOccurrences(of: "<p>" + mark + "</p>", with: span) }
            html = html.replacingOccurrences(of: mark, with: span)
        }
        return html
    }
}
