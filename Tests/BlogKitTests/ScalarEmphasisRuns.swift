@testable import BlogMarkdown

/// The emphasis pass of issue 29 as it was first written, over an array of `Unicode.Scalar`s: the
/// oracle that the byte-level pass of issue 32 (``EmphasisRuns``) must agree with on every line.
enum ScalarEmphasisRuns {
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

    // The character classes are the byte pass's own (what is compared is how the two read a line).
    private static func isSpace(_ scalar: Unicode.Scalar?) -> Bool { EmphasisRuns.isSpace(scalar) }
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { EmphasisRuns.isLetter(scalar) }
    private static func isPunctuation(_ scalar: Unicode.Scalar?) -> Bool { EmphasisRuns.isPunctuation(scalar) }
    private static func isSpace(before run: Run, in text: [Unicode.Scalar]) -> Bool { isSpace(before(run, in: text)) }
    private static func isSpace(after run: Run, in text: [Unicode.Scalar]) -> Bool { isSpace(after(run, in: text)) }

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
