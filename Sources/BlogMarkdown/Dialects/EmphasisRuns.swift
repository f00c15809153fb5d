import BlogCore
import CSystem

/// Emphasis as Python-Markdown and kramdown pair their delimiters, where CommonMark's flanking rules
/// decide otherwise (issue 29, class 7).
///
/// - `*`: neither generator looks at what is outside a pair. Python-Markdown's `**(.+?)**` and
///   `*([^*]+)*` match anywhere but on a run with whitespace (or the line's edge) on both sides; kramdown
///   opens a run not followed by whitespace and closes at a run not preceded by whitespace. So
///   `これは**「強調」**です` and `foo**(bar)**baz` are strong in both, where CommonMark leaves the
///   asterisks (a run between a letter and punctuation neither opens nor closes there). Such a pair,
///   on one line, is written as `<strong>`/`<em>` tags before the text is parsed again; a pair that
///   CommonMark can open and close is left to cmark-gfm.
/// - `_` (kramdown): an `_` closes an emphasis only as a run of its own, and a `__` after a letter is
///   text, so in `(\__FILE__, etc)` the `_` before `FILE` opens nothing, where CommonMark makes
///   `_<em>FILE</em>_`; that `_` is escaped. Python-Markdown agrees with CommonMark there. Next to CJK
///   letters and punctuation (`これは_「強調」_です`), all three leave underscores as written.
///
/// Only lines with runs of one or two delimiters of one kind are rewritten, and only when the runs pair
/// one after another; code spans, HTML tags, autolinks, link destinations and escaped characters are
/// skipped. A pair across lines, or nested in another, is left to cmark-gfm.
///
/// The pass reads a line's UTF-8 bytes where they are (issue 32): the characters it looks for are ASCII,
/// so only a letter or a space beside a run is decoded, and a line whose pairs CommonMark makes too
/// costs one scan and no allocation.
enum EmphasisRuns {
    /// Adds to `edits` the lines of `block` (a paragraph or heading) whose emphasis the dialect pairs
    /// otherwise than CommonMark.
    static func collect(in block: CmarkNode, lines: SourceLines, dialect: MarkdownDialect, edits: inout LineEdits, scratch: inout Scratch) {
        var depth: Int?
        lines.bytes.withUnsafeBufferPointer { bytes in
            for number in block.startLine...max(block.startLine, block.endLine) where !edits.touches(number) {
                let line = lines[number]
                let whole = UnsafeBufferPointer(rebasing: bytes[line.startIndex..<line.endIndex])
                guard ByteSearch.firstIndex(of: asterisk, in: whole, from: 0) != nil
                        || (dialect == .kramdown && ByteSearch.firstIndex(of: underscore, in: whole, from: 0) != nil) else { continue }
                // Where the block's text starts on the line: past a list item's marker, a quote's `>`s.
                var start: Int
                if number == block.startLine {
                    start = line.startIndex + max(0, block.startColumn - 1)
                } else {
                    if depth == nil { depth = block.blockQuoteDepth }
                    start = lines.afterBlockQuoteMarkers(line: number, depth: depth ?? 0)
                }
                while start < line.endIndex, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
                guard start < line.endIndex else { continue }
                if let rewritten = rewritten(UnsafeBufferPointer(rebasing: bytes[start..<line.endIndex]), dialect: dialect, scratch: &scratch) {
                    edits.replace(line: number, with: Array(bytes[line.startIndex..<start]) + rewritten)
                }
            }
        }
    }

    /// `text` (a line's inline text, UTF-8) with the pairs rewritten; nil when nothing changes.
    static func rewritten(_ text: [UInt8], dialect: MarkdownDialect) -> [UInt8]? {
        var scratch = Scratch()
        return text.withUnsafeBufferPointer { rewritten($0, dialect: dialect, scratch: &scratch) }
    }

    /// What the pass reuses from line to line and block to block, so that most lines allocate nothing.
    struct Scratch {
        /// The runs of the line.
        var runs: [Run] = []
        /// Where the last run of backticks of each width below 32 starts, or -1; wider ones in `wideTicks`.
        var ticks = [Int](repeating: -1, count: 32)
        var wideTicks: [Int: Int] = [:]

        init() { runs.reserveCapacity(32) }
    }

    /// A run of one delimiter character, at a byte offset, with the classes of the characters on either side.
    struct Run {
        var start: Int
        var count: Int
        var character: UInt8
        /// The character before the run and the one after it (``Neighbour``), read once when the run is
        /// found: the pairing asks about each several times (three to six decodes a pair).
        var before: Neighbour
        var after: Neighbour
    }

    /// What CommonMark's flanking rules (and the dialects') ask of the character beside a run: whitespace
    /// or the line's edge (``isSpace(_:)``), punctuation (``isPunctuation(_:)``; never whitespace), or
    /// anything else.
    enum Neighbour: UInt8 {
        case space, punctuation, other

        init(_ scalar: Unicode.Scalar?) {
            self = EmphasisRuns.isSpace(scalar) ? .space : EmphasisRuns.isPunctuation(scalar) ? .punctuation : .other
        }

        /// The class of an ASCII byte, without making a scalar.
        init(ascii byte: UInt8) {
            switch byte {
            case 0x20, 0x09...0x0D: self = .space
            case 33...47, 58...64, 91...96, 123...126: self = .punctuation
            default: self = .other
            }
        }
    }

    /// What a run becomes.
    private struct Replacement {
        var run: Run
        var bytes: [UInt8]
    }

    private static let asterisk = UInt8(ascii: "*"), underscore = UInt8(ascii: "_")

    /// `text` with the pairs rewritten, or nil.
    private static func rewritten(_ text: UnsafeBufferPointer<UInt8>, dialect: MarkdownDialect, scratch: inout Scratch) -> [UInt8]? {
        delimiterRuns(text, underscores: dialect == .kramdown, into: &scratch)
        let runs = scratch.runs
        guard !runs.isEmpty else { return nil }
        var replacements: [Replacement] = []
        for kind in [asterisk, underscore] {
            // Runs of three or more, and both kinds of runs nested, are left to cmark-gfm.
            guard runs.contains(where: { $0.character == kind }),
                  !runs.contains(where: { $0.character == kind && $0.count > 2 }) else { continue }
            if kind == asterisk {
                pairAsterisks(runs, in: text, dialect: dialect, into: &replacements)
            } else if dialect == .kramdown {
                escapeUnderscore(runs, in: text, into: &replacements)
            }
        }
        guard !replacements.isEmpty else { return nil }
        replacements.sort { $0.run.start < $1.run.start }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + replacements.count * 8)
        var i = 0
        for replacement in replacements {
            out += text[i..<replacement.run.start]
            out += replacement.bytes
            i = replacement.run.start + replacement.run.count
        }
        out += text[i...]
        return out
    }

    /// The pairs of `*` runs the dialect makes, one after another, that CommonMark does not.
    private static func pairAsterisks(_ runs: [Run], in text: UnsafeBufferPointer<UInt8>, dialect: MarkdownDialect, into replacements: inout [Replacement]) {
        // A run with whitespace on both sides is text in both generators.
        func usable(from index: Int) -> Int {
            var index = index
            while index < runs.count, runs[index].character != asterisk
                    || (runs[index].before == .space && runs[index].after == .space) { index += 1 }
            return index
        }
        var index = usable(from: 0)
        while index < runs.count {
            let next = usable(from: index + 1)
            guard next < runs.count else { return }
            let opener = runs[index], closer = runs[next]
            // Runs of different lengths nest or overlap: left to cmark-gfm.
            guard opener.count == closer.count else { return }
            let opens = dialect == .pythonMarkdown || opener.after != .space
            let closes = dialect == .pythonMarkdown || closer.before != .space
            guard opens else { index = next; continue }
            // kramdown reads a run after whitespace as text and looks further for a closer: left to cmark-gfm.
            guard closes else { return }
            if !(leftFlanking(opener) && rightFlanking(closer)) {
                let tag = opener.count == 2 ? "strong" : "em"
                replacements.append(Replacement(run: opener, bytes: Array("<\(tag)>".utf8)))
                replacements.append(Replacement(run: closer, bytes: Array("</\(tag)>".utf8)))
            }
            index = usable(from: next + 1)
        }
    }

    /// kramdown's `\__x__`: an `_` after an escaped `_`, then a `__` after a letter, which kramdown reads
    /// as text and CommonMark as the closer of `_x_`, and no single `_` after it to close the first
    /// (kramdown closes no `_` emphasis at a `__`): the first `_` is escaped.
    private static func escapeUnderscore(_ runs: [Run], in text: UnsafeBufferPointer<UInt8>, into replacements: inout [Replacement]) {
        guard let first = runs.firstIndex(where: { $0.character == underscore }),
              let second = runs[(first + 1)...].firstIndex(where: { $0.character == underscore }),
              runs[first].count == 1, !runs[second...].contains(where: { $0.character == underscore && $0.count != 2 }) else { return }
        let opener = runs[first], closer = runs[second]
        guard opener.start > 0, text[opener.start - 1] == underscore, closer.start > 0,
              let letter = before(closer, in: text), isLetter(letter),
              leftFlanking(opener), rightFlanking(closer) else { return }
        replacements.append(Replacement(run: opener, bytes: Array("\\_".utf8)))
    }

    /// Puts in `runs` the runs of `*` and (`underscores`) `_` outside code spans, HTML tags, autolinks, link destinations,
    /// web addresses and backslash escapes.
    /// A search that failed is not made again (nothing further on can match), so a long line costs little.
    private static func delimiterRuns(_ text: UnsafeBufferPointer<UInt8>, underscores: Bool, into scratch: inout Scratch) {
        scratch.runs.removeAll(keepingCapacity: true)
        let count = text.count
        // Where the last run of backticks of each width starts (no closer after it), found at the first backtick.
        var ticksFound = false
        func lastTicks(_ width: Int) -> Int? {
            if width < scratch.ticks.count { return scratch.ticks[width] >= 0 ? scratch.ticks[width] : nil }
            return scratch.wideTicks[width]
        }
        var noTagEnd = false, noParenthesis = false  // no `>`, `)` further on
        func skip(to end: UInt8, from i: Int, none: inout Bool) -> Int {
            guard !none, let found = ByteSearch.firstIndex(of: end, in: text, from: i) else {
                none = true
                return i + 1
            }
            return found + 1
        }
        // Where the bytes that can start one of the cases below are (and each `h` before a `t`: the rest of `http`
        // is checked at the stop), sixty-four at a time from `base` (CSystem's `blog_emphasis_bytes`): most bytes
        // start none. Python-Markdown's `_` changes nothing here: its runs are not looked for.
        var base = 0, marks: UInt64 = 0, classified = false
        let underscoreMarks: Int32 = underscores ? 1 : 0
        func interesting(from start: Int) -> Int {
            var i = start
            while i < count {
                if !classified || i >= base + 64 {
                    base = i
                    marks = blog_emphasis_bytes(text.baseAddress! + i, count - i, underscoreMarks)
                    classified = true
                }
                let ahead = marks >> UInt64(i - base)
                if ahead != 0 { return i + ahead.trailingZeroBitCount }
                i = base + 64
            }
            return count
        }
        var i = interesting(from: 0)
        while i < count {
            defer { i = interesting(from: i) }
            let c = text[i]
            switch c {
            case UInt8(ascii: "\\"):
                i += 2
            case UInt8(ascii: "`"):
                var stop = i
                while stop < count, text[stop] == c { stop += 1 }
                let width = stop - i
                if !ticksFound {
                    ticksFound = true
                    for width in scratch.ticks.indices { scratch.ticks[width] = -1 }
                    scratch.wideTicks.removeAll(keepingCapacity: true)
                    var scan = i
                    while let found = ByteSearch.firstIndex(of: c, in: text, from: scan) {
                        var end = found
                        while end < count, text[end] == c { end += 1 }
                        if end - found < scratch.ticks.count { scratch.ticks[end - found] = found } else { scratch.wideTicks[end - found] = found }
                        scan = end
                    }
                }
                var probe = stop, closed = false
                if let last = lastTicks(width), last > i {
                    while let found = ByteSearch.firstIndex(of: c, in: text, from: probe) {
                        var end = found
                        while end < count, text[end] == c { end += 1 }
                        if end - found == width { closed = true; probe = end; break }
                        probe = end
                    }
                }
                i = closed ? probe : stop
            case UInt8(ascii: "<") where i + 1 < count && (text[i + 1] == UInt8(ascii: "/") || text[i + 1] == UInt8(ascii: "!")
                                                          || scalar(at: i + 1, in: text).map(isLetter) == true):
                // A tag, a comment or an autolink: to its `>`.
                i = skip(to: UInt8(ascii: ">"), from: i, none: &noTagEnd)
            case UInt8(ascii: "]") where i + 1 < count && text[i + 1] == UInt8(ascii: "("):
                i = skip(to: UInt8(ascii: ")"), from: i, none: &noParenthesis)
            case UInt8(ascii: "h") where i + 3 < count && text[i + 1] == UInt8(ascii: "t") && text[i + 2] == UInt8(ascii: "t")
                                         && text[i + 3] == UInt8(ascii: "p"):
                // A web address written as text: to the next space.
                while i < count {
                    guard text[i] >= 0x80 else {
                        if isSpace(Unicode.Scalar(text[i])) { break }
                        i += 1
                        continue
                    }
                    guard let decoded = scalar(at: i, in: text), !isSpace(decoded) else { break }
                    i += UTF8.width(decoded)
                }
            case asterisk, underscore:
                var stop = i
                while stop < count, text[stop] == c { stop += 1 }
                let previous = i > 0 ? text[i - 1] : UInt8(ascii: " "), next = stop < count ? text[stop] : UInt8(ascii: " ")
                scratch.runs.append(Run(start: i, count: stop - i, character: c,
                                        before: previous < 0x80 ? Neighbour(ascii: previous) : Neighbour(scalar(before: i, in: text)),
                                        after: next < 0x80 ? Neighbour(ascii: next) : Neighbour(scalar(at: stop, in: text))))
                i = stop
            default:
                i += 1
            }
        }
    }

    /// The character starting at byte `offset`, or nil past the end (the text is valid UTF-8: it was a `String`).
    private static func scalar(at offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard offset < text.count else { return nil }
        let lead = UInt32(text[offset])
        guard lead >= 0x80 else { return Unicode.Scalar(UInt8(lead)) }
        let width = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard offset + width <= text.count else { return "\u{FFFD}" }
        var value = lead & (0x7F >> width)
        for next in 1..<width { value = value << 6 | UInt32(text[offset + next] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// The character ending just before byte `offset`, or nil at the start.
    private static func scalar(before offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard offset > 0 else { return nil }
        guard text[offset - 1] >= 0x80 else { return Unicode.Scalar(text[offset - 1]) }
        var start = offset - 1
        while start > 0, offset - start < 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(at: start, in: text)
    }

    private static func before(_ run: Run, in text: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? { scalar(before: run.start, in: text) }

    /// Whitespace, or the line's edge. (These three classes are also the test oracle's, ``ScalarEmphasisRuns``.)
    static func isSpace(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        return scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }
    /// A letter (Unicode's Alphabetic), ASCII ones without a table lookup.
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value) : scalar.properties.isAlphabetic
    }

    /// CommonMark's punctuation as cmark-gfm reads it: ASCII punctuation and Unicode's P categories.
    static func isPunctuation(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        if scalar.isASCII { return (33...47).contains(scalar.value) || (58...64).contains(scalar.value)
            || (91...96).contains(scalar.value) || (123...126).contains(scalar.value) }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation: return true
        default: return false
        }
    }

    /// CommonMark's left-flanking run: not before whitespace, and not before punctuation unless after
    /// whitespace or punctuation.
    private static func leftFlanking(_ run: Run) -> Bool {
        guard run.after != .space else { return false }
        return run.after != .punctuation || run.before != .other
    }

    /// CommonMark's right-flanking run: the mirror of ``leftFlanking(_:)``.
    private static func rightFlanking(_ run: Run) -> Bool {
        guard run.before != .space else { return false }
        return run.before != .punctuation || run.after != .other
    }
}
