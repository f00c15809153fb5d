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
enum EmphasisRuns {
    /// Adds to `edits` the lines of `block` (a paragraph or heading) whose emphasis the dialect pairs
    /// otherwise than CommonMark.
    static func collect(in block: CmarkNode, lines: SourceLines, dialect: MarkdownDialect, edits: inout LineEdits) {
        let depth = block.blockQuoteDepth
        for number in block.startLine...max(block.startLine, block.endLine) where !edits.touches(number) {
            let line = lines[number]
            guard line.contains(UInt8(ascii: "*")) || (dialect == .kramdown && line.contains(UInt8(ascii: "_"))) else { continue }
            // Where the block's text starts on the line: past a list item's marker, a quote's `>`s.
            var start = number == block.startLine
                ? line.startIndex + max(0, block.startColumn - 1)
                : lines.afterBlockQuoteMarkers(line: number, depth: depth)
            while start < line.endIndex, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") { start += 1 }
            guard start < line.endIndex else { continue }
            // A line of ASCII (most) is its bytes as scalars; only another is decoded.
            let text = line[start...]
            let scalars = text.allSatisfy { $0 < 0x80 } ? text.map { Unicode.Scalar($0) }
                                                        : Array(String(decoding: text, as: UTF8.self).unicodeScalars)
            if let rewritten = rewritten(scalars, dialect: dialect) {
                edits.replace(line: number, with: Array(line[line.startIndex..<start]) + Array(rewritten.utf8))
            }
        }
    }

    /// A run of one delimiter character.
    private struct Run {
        var start: Int
        var count: Int
        var character: Unicode.Scalar
    }

    /// `text` (a line's inline text) with the pairs rewritten; nil when nothing changes.
    static func rewritten(_ text: [Unicode.Scalar], dialect: MarkdownDialect) -> String? {
        let runs = delimiterRuns(text)
        guard !runs.isEmpty else { return nil }
        var replacements: [Int: String] = [:]  // by the run's start: what it becomes
        for kind in ["*", "_"] as [Unicode.Scalar] {
            let ofKind = runs.filter { $0.character == kind }
            // Runs of three or more, and both kinds of runs nested, are left to cmark-gfm.
            guard !ofKind.isEmpty, ofKind.allSatisfy({ $0.count <= 2 }) else { continue }
            if kind == "*" {
                pairAsterisks(ofKind, in: text, dialect: dialect, into: &replacements)
            } else if dialect == .kramdown {
                escapeUnderscore(ofKind, in: text, into: &replacements)
            }
        }
        guard !replacements.isEmpty else { return nil }
        let widths = Dictionary(uniqueKeysWithValues: runs.map { ($0.start, $0.count) })
        var out = ""
        out.reserveCapacity(text.count + replacements.count * 8)
        var i = 0
        while i < text.count {
            if let replacement = replacements[i], let width = widths[i] {
                out += replacement
                i += width
            } else {
                out.unicodeScalars.append(text[i])
                i += 1
            }
        }
        return out
    }

    /// The pairs of `*` runs the dialect makes, one after another, that CommonMark does not.
    private static func pairAsterisks(_ runs: [Run], in text: [Unicode.Scalar], dialect: MarkdownDialect, into replacements: inout [Int: String]) {
        // A run with whitespace on both sides is text in both generators.
        let usable = runs.filter { !(isSpace(before: $0, in: text) && isSpace(after: $0, in: text)) }
        var index = 0
        while index + 1 < usable.count {
            let opener = usable[index], closer = usable[index + 1]
            // Runs of different lengths nest or overlap: left to cmark-gfm.
            guard opener.count == closer.count else { return }
            let opens = dialect == .pythonMarkdown || !isSpace(after: opener, in: text)
            let closes = dialect == .pythonMarkdown || !isSpace(before: closer, in: text)
            guard opens else { index += 1; continue }
            // kramdown reads a run after whitespace as text and looks further for a closer: left to cmark-gfm.
            guard closes else { return }
            if !(leftFlanking(opener, in: text) && rightFlanking(closer, in: text)) {
                let tag = opener.count == 2 ? "strong" : "em"
                replacements[opener.start] = "<\(tag)>"
                replacements[closer.start] = "</\(tag)>"
            }
            index += 2
        }
    }

    /// kramdown's `\__x__`: an `_` after an escaped `_`, then a `__` after a letter, which kramdown reads
    /// as text and CommonMark as the closer of `_x_`, and no single `_` after it to close the first
    /// (kramdown closes no `_` emphasis at a `__`): the first `_` is escaped.
    private static func escapeUnderscore(_ runs: [Run], in text: [Unicode.Scalar], into replacements: inout [Int: String]) {
        guard runs.count >= 2, runs[0].count == 1, runs.dropFirst().allSatisfy({ $0.count == 2 }) else { return }
        let opener = runs[0], closer = runs[1]
        guard opener.start > 0, text[opener.start - 1] == "_", closer.start > 0,
              isLetter(text[closer.start - 1]),
              leftFlanking(opener, in: text), rightFlanking(closer, in: text) else { return }
        replacements[opener.start] = "\\_"
    }

    /// The runs of `*` and `_` outside code spans, HTML tags, autolinks, link destinations, web addresses
    /// and backslash escapes.
    /// A search that failed is not made again (nothing further on can match), so a long line costs little.
    private static func delimiterRuns(_ text: [Unicode.Scalar]) -> [Run] {
        var runs: [Run] = []
        // Where the last run of backticks of each length starts: no closer after it.
        var lastTicks: [Int: Int] = [:]
        var scan = 0
        while scan < text.count {
            guard text[scan] == "`" else { scan += 1; continue }
            var stop = scan
            while stop < text.count, text[stop] == "`" { stop += 1 }
            lastTicks[stop - scan] = scan
            scan = stop
        }
        var noneAfter: Set<Unicode.Scalar> = []  // `>`, `)`: none further on
        func skip(to end: Unicode.Scalar, from i: Int) -> Int {
            guard !noneAfter.contains(end), let found = text[i...].firstIndex(of: end) else {
                noneAfter.insert(end)
                return i + 1
            }
            return found + 1
        }
        var i = 0
        while i < text.count {
            let c = text[i]
            switch c {
            case "\\":
                i += 2
            case "`":
                var stop = i
                while stop < text.count, text[stop] == "`" { stop += 1 }
                let width = stop - i
                var probe = stop, closed = false
                while let last = lastTicks[width], last > i, probe < text.count {
                    guard text[probe] == "`" else { probe += 1; continue }
                    var end = probe
                    while end < text.count, text[end] == "`" { end += 1 }
                    if end - probe == width { closed = true; probe = end; break }
                    probe = end
                }
                i = closed ? probe : stop
            case "<" where i + 1 < text.count && (isLetter(text[i + 1]) || text[i + 1] == "/" || text[i + 1] == "!"):
                // A tag, a comment or an autolink: to its `>`.
                i = skip(to: ">", from: i)
            case "]" where i + 1 < text.count && text[i + 1] == "(":
                i = skip(to: ")", from: i)
            case "h" where i + 3 < text.count && text[i..<(i + 4)].elementsEqual("http".unicodeScalars):
                // A web address written as text: to the next space.
                while i < text.count, !isSpace(text[i]) { i += 1 }
            case "*", "_":
                var stop = i
                while stop < text.count, text[stop] == c { stop += 1 }
                runs.append(Run(start: i, count: stop - i, character: c))
                i = stop
            default:
                i += 1
            }
        }
        return runs
    }

    private static func before(_ run: Run, in text: [Unicode.Scalar]) -> Unicode.Scalar? { run.start > 0 ? text[run.start - 1] : nil }
    private static func after(_ run: Run, in text: [Unicode.Scalar]) -> Unicode.Scalar? {
        run.start + run.count < text.count ? text[run.start + run.count] : nil
    }

    /// Whitespace, or the line's edge.
    private static func isSpace(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        return scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }
    /// A letter (Unicode's Alphabetic), ASCII ones without a table lookup.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value) : scalar.properties.isAlphabetic
    }
    private static func isSpace(before run: Run, in text: [Unicode.Scalar]) -> Bool { isSpace(before(run, in: text)) }
    private static func isSpace(after run: Run, in text: [Unicode.Scalar]) -> Bool { isSpace(after(run, in: text)) }

    /// CommonMark's punctuation as cmark-gfm reads it: ASCII punctuation and Unicode's P categories.
    private static func isPunctuation(_ scalar: Unicode.Scalar?) -> Bool {
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
    private static func leftFlanking(_ run: Run, in text: [Unicode.Scalar]) -> Bool {
        let (previous, next) = (before(run, in: text), after(run, in: text))
        guard !isSpace(next) else { return false }
        return !isPunctuation(next) || isSpace(previous) || isPunctuation(previous)
    }

    /// CommonMark's right-flanking run: the mirror of ``leftFlanking(_:in:)``.
    private static func rightFlanking(_ run: Run, in text: [Unicode.Scalar]) -> Bool {
        let (previous, next) = (before(run, in: text), after(run, in: text))
        guard !isSpace(previous) else { return false }
        return !isPunctuation(previous) || isSpace(next) || isPunctuation(next)
    }
}
