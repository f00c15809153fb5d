import BlogCore
import Foundation

/// The bytes the scanner looks for (here and in LiquidScanner+*.swift).
let lf = UInt8(ascii: "\n")
let cr = UInt8(ascii: "\r")
let space = UInt8(ascii: " ")
let tab = UInt8(ascii: "\t")
let openBrace = UInt8(ascii: "{")
let percent = UInt8(ascii: "%")
let closeBrace = UInt8(ascii: "}")
let less = UInt8(ascii: "<")
let backtick = UInt8(ascii: "`")
let backslash = UInt8(ascii: "\\")

/// One pass over a post body (as UTF-8 bytes) that copies it to `out`, rewriting the template tags it understands.
///
/// Every byte of the input is visited a bounded number of times: the scan moves forward, and the look-aheads
/// (for a tag's end, a code span's closing backticks, `{% endraw %}`) remember their last answer so that
/// repeated unclosed openers do not make it quadratic.
struct LiquidScanner {
    /// The body.
    let b: [UInt8]
    /// The rewritten body.
    package internal(set) var out: [UInt8] = []
    /// Warnings, in the order found.
    package internal(set) var diagnostics: [Diagnostic] = []
    /// The tags and outputs left as written because they are not understood, in order.
    var unsupportedTags: [LiquidTagSource] = []
    /// With ``interprets``: the body as text and the tags and outputs for ``LiquidEvaluator``
    /// (`out` holds the text after the last of them); empty when there were none.
    var pieces: [LiquidPiece] = []

    let n: Int
    let path: String
    let firstLine: Int
    let context: LiquidContext
    /// Whether tags and outputs other than the ones rewritten here go to the interpreter (Jekyll-form posts).
    let interprets: Bool
    /// Liquid's `page` of the post (Hugo's `param` shortcode reads it too).
    let page: MetaValue?
    /// The HTML of `{{< >}}` shortcodes, whose marks are in `out` (see ``ShortcodeMarks``).
    var fragments: [String] = []
    /// The last search for each shortcode's closing tag, by name and form.
    var closingMemo: [String: (from: Int, found: (start: Int, end: Int)?)] = [:]

    /// The next byte to read.
    var pos = 0
    /// The 0-based line of `pos` in the body, and where that line starts.
    var line = 0
    var lineStart = 0
    /// The last column counted on this line (see ``column(of:)``): a byte of the line and its column.
    var counted = (byte: 0, column: 1)
    /// Whether the line of `pos` is code.
    var lineIsCode = false
    var tracker = LiquidBlockTracker()
    /// Inside a `{% highlight %}` block: its lines are code whatever they look like.
    var inHighlight = false

    /// Where the last `{{ site.baseurl }}` ended in the input and the output: a `{% post_url %}` right after it
    /// gets a URL that already has the base path, so the expansion is taken back.
    var baseURLEnd: (input: Int, output: Int)?

    var tagClose = LiquidFinder("%}")
    var outputClose = LiquidFinder("}}")
    var shortcodeClose = LiquidFinder(">}}")
    var markdownShortcodeClose = LiquidFinder("%}}")
    var escapedShortcodeClose = LiquidFinder("*/>}}")
    var escapedMarkdownShortcodeClose = LiquidFinder("*/%}}")
    var tagOpen = LiquidFinder("{%")
    var endRawMemo = TagMemo()
    var endHighlightMemo = TagMemo()
    var backtickMemo: [Int: (from: Int, found: Int)] = [:]
    var paragraphMemo = (from: Int.max, limit: 0)

    init(_ bytes: [UInt8], path: String, firstLine: Int, context: LiquidContext, interprets: Bool = false, page: MetaValue? = nil) {
        b = bytes
        n = bytes.count
        self.path = path
        self.firstLine = firstLine
        self.context = context
        self.interprets = interprets
        self.page = page
    }

    // MARK: - Main loop

    mutating func run() {
        out.reserveCapacity(n + n / 8)
        if n > 0 { lineIsCode = tracker.classify(b, 0) }
        while pos < n {
            let end = lineEnd(from: pos)
            if lineIsCode {
                processCode(until: end, hugoEscapes: true)
            } else {
                processProse(until: end)
            }
            if pos == end && end < n { advance(to: end + 1, copy: true) }
        }
    }

    /// Moves `pos` to `target`, copying the bytes passed over when `copy`; notes each new line it enters.
    mutating func advance(to target: Int, copy: Bool) {
        var i = pos
        while i < target {
            var j = i
            while j < target && b[j] != lf { j += 1 }
            if j < target {
                if copy { out.append(contentsOf: b[i...j]) }
                i = j + 1
                line += 1
                lineStart = i
                counted = (i, 1)
                if i < n {
                    if inHighlight {
                        tracker.noteCodeLine()
                        lineIsCode = true
                    } else {
                        lineIsCode = tracker.classify(b, i)
                    }
                }
            } else {
                if copy { out.append(contentsOf: b[i..<target]) }
                i = target
            }
        }
        pos = target
    }

    /// Copies `text` instead of the input up to `end`.
    mutating func replace(upTo end: Int, with text: String) {
        out.append(contentsOf: text.utf8)
        advance(to: end, copy: false)
    }

    // MARK: - Code and prose

    /// Code: only `{% raw %}` and Hugo's escaped shortcodes are processed.
    mutating func processCode(until limit: Int, hugoEscapes: Bool) {
        while pos < limit {
            var k = pos
            while k < limit && b[k] != openBrace { k += 1 }
            if k > pos { advance(to: k, copy: true) }
            if k >= limit { return }
            if let tag = simpleTag(at: k), tag.is("raw", in: b) {
                handleRaw(k, tagEnd: tag.end)
            } else if hugoEscapes && handleEscapedShortcode(k) {
                continue
            } else {
                advance(to: k + 1, copy: true)
            }
        }
    }

    /// Prose: code spans are code; tags and outputs are looked at.
    mutating func processProse(until limit: Int) {
        while pos < limit {
            var k = pos
            while k < limit {
                let c = b[k]
                if c == openBrace || c == backtick || c == backslash { break }
                k += 1
            }
            if k > pos { advance(to: k, copy: true) }
            if k >= limit { return }
            switch b[k] {
            case backslash:
                // `\`` is a literal backtick, not the start of a code span.
                let escaped = k + 1 < limit && (b[k + 1] == backtick || b[k + 1] == backslash)
                advance(to: escaped ? k + 2 : k + 1, copy: true)
            case backtick:
                handleCodeSpan(k)
            default:
                handleBrace(k)
            }
        }
    }

    /// A run of backticks: a code span if a run of the same length closes it in the paragraph, else literal.
    mutating func handleCodeSpan(_ k: Int) {
        var e = k
        while e < n && b[e] == backtick { e += 1 }
        let length = e - k
        let limit = paragraphLimit(from: k)
        advance(to: e, copy: true)
        guard let close = nextBacktickRun(length: length, from: e), close + length <= limit else { return }
        processCode(until: close, hugoEscapes: true)
        if pos <= close { advance(to: close + length, copy: true) }
    }

    mutating func handleBrace(_ k: Int) {
        guard k + 1 < n else {
            advance(to: k + 1, copy: true)
            return
        }
        if b[k + 1] == percent {
            handleTag(k)
        } else if b[k + 1] == openBrace {
            if k + 2 < n && (b[k + 2] == less || b[k + 2] == percent) {
                handleShortcode(k)
            } else {
                handleOutput(k)
            }
        } else {
            advance(to: k + 1, copy: true)
        }
    }

    // MARK: - Warnings

    mutating func warn(at k: Int, _ message: String) {
        diagnostics.append(.warning(path, line: firstLine + line, column: column(of: k), message))
    }

    /// The 1-based column, in characters, of `k` on the current line. Counted on from the last column asked for
    /// on the line, not from the line's start: a body on one line (32,000 tags in 768 KB) made counting from the
    /// start quadratic. The bytes asked for are the `{` of tags, each further on than the last; the count goes on
    /// only from one after an ASCII byte, where a character always starts, so it is the count from the start.
    mutating func column(of k: Int) -> Int {
        guard k >= counted.byte else { return TextPosition.column(ofByte: k, lineStart: lineStart, in: b) }
        let column = counted.column + TextPosition.column(ofByte: k, lineStart: counted.byte, in: b) - 1
        if k == lineStart || b[k - 1] < 0x80 { counted = (k, column) }
        return column
    }

    // MARK: - Small helpers

    /// Whether the last line of `text` has text other than indentation and quote markers.
    static func lastLineHasText<C: BidirectionalCollection>(_ text: C) -> Bool where C.Element == UInt8 {
        for c in text.reversed() {
            if c == lf { return false }
            if c != space && c != tab && c != cr && c != UInt8(ascii: ">") { return true }
        }
        return false
    }

    /// `lo..<hi` without surrounding whitespace (and Liquid's `-` whitespace markers when `dashes`).
    func trim(_ lo: Int, _ hi: Int, dashes: Bool) -> (Int, Int) {
        var lo = lo
        var hi = hi
        if dashes {
            if lo < hi && b[lo] == UInt8(ascii: "-") { lo += 1 }
            if hi > lo && b[hi - 1] == UInt8(ascii: "-") { hi -= 1 }
        }
        while lo < hi && isSpace(b[lo]) { lo += 1 }
        while hi > lo && isSpace(b[hi - 1]) { hi -= 1 }
        return (lo, hi)
    }

    /// The end of the first whitespace-separated token in `lo..<hi`.
    func tokenEnd(_ lo: Int, _ hi: Int) -> Int {
        var i = lo
        while i < hi && !isSpace(b[i]) { i += 1 }
        return i
    }

    func text(_ lo: Int, _ hi: Int) -> String {
        String(decoding: b[lo..<max(lo, hi)], as: UTF8.self)
    }

    func isSpace(_ c: UInt8) -> Bool {
        c == space || c == tab || c == lf || c == cr
    }

    func isWordByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_")
    }
}
