import BlogCore
import Foundation

private let lf = UInt8(ascii: "\n")
private let cr = UInt8(ascii: "\r")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let openBrace = UInt8(ascii: "{")
private let percent = UInt8(ascii: "%")
private let closeBrace = UInt8(ascii: "}")
private let less = UInt8(ascii: "<")
private let backtick = UInt8(ascii: "`")
private let backslash = UInt8(ascii: "\\")

/// One pass over a post body (as UTF-8 bytes) that copies it to `out`, rewriting the template tags it understands.
///
/// Every byte of the input is visited a bounded number of times: the scan moves forward, and the look-aheads
/// (for a tag's end, a code span's closing backticks, `{% endraw %}`) remember their last answer so that
/// repeated unclosed openers do not make it quadratic.
struct LiquidScanner {
    /// The body.
    let b: [UInt8]
    /// The rewritten body.
    package private(set) var out: [UInt8] = []
    /// Warnings, in the order found.
    package private(set) var diagnostics: [Diagnostic] = []
    /// The tags and outputs left as written because they are not understood, in order.
    private(set) var unsupportedTags: [LiquidTagSource] = []
    /// With ``interprets``: the body as text and the tags and outputs for ``LiquidEvaluator``
    /// (`out` holds the text after the last of them); empty when there were none.
    private(set) var pieces: [LiquidPiece] = []

    private let n: Int
    private let path: String
    private let firstLine: Int
    private let context: LiquidContext
    /// Whether tags and outputs other than the ones rewritten here go to the interpreter (Jekyll-form posts).
    private let interprets: Bool
    /// Liquid's `page` of the post (Hugo's `param` shortcode reads it too).
    private let page: LiquidValue?
    /// The HTML of `{{< >}}` shortcodes, whose marks are in `out` (see ``ShortcodeMarks``).
    private(set) var fragments: [String] = []
    /// The last search for each shortcode's closing tag, by name and form.
    private var closingMemo: [String: (from: Int, found: (start: Int, end: Int)?)] = [:]

    /// The next byte to read.
    private var pos = 0
    /// The 0-based line of `pos` in the body, and where that line starts.
    private var line = 0
    private var lineStart = 0
    /// The last column counted on this line (see ``column(of:)``): a byte of the line and its column.
    private var counted = (byte: 0, column: 1)
    /// Whether the line of `pos` is code.
    private var lineIsCode = false
    private var tracker = LiquidBlockTracker()
    /// Inside a `{% highlight %}` block: its lines are code whatever they look like.
    private var inHighlight = false

    /// Where the last `{{ site.baseurl }}` ended in the input and the output: a `{% post_url %}` right after it
    /// gets a URL that already has the base path, so the expansion is taken back.
    private var baseURLEnd: (input: Int, output: Int)?

    private var tagClose = LiquidFinder("%}")
    private var outputClose = LiquidFinder("}}")
    private var shortcodeClose = LiquidFinder(">}}")
    private var markdownShortcodeClose = LiquidFinder("%}}")
    private var escapedShortcodeClose = LiquidFinder("*/>}}")
    private var escapedMarkdownShortcodeClose = LiquidFinder("*/%}}")
    private var tagOpen = LiquidFinder("{%")
    private var endRawMemo = TagMemo()
    private var endHighlightMemo = TagMemo()
    private var backtickMemo: [Int: (from: Int, found: Int)] = [:]
    private var paragraphMemo = (from: Int.max, limit: 0)

    init(_ bytes: [UInt8], path: String, firstLine: Int, context: LiquidContext, interprets: Bool = false, page: LiquidValue? = nil) {
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
    private mutating func advance(to target: Int, copy: Bool) {
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
    private mutating func replace(upTo end: Int, with text: String) {
        out.append(contentsOf: text.utf8)
        advance(to: end, copy: false)
    }

    // MARK: - Code and prose

    /// Code: only `{% raw %}` and Hugo's escaped shortcodes are processed.
    private mutating func processCode(until limit: Int, hugoEscapes: Bool) {
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
    private mutating func processProse(until limit: Int) {
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
    private mutating func handleCodeSpan(_ k: Int) {
        var e = k
        while e < n && b[e] == backtick { e += 1 }
        let length = e - k
        let limit = paragraphLimit(from: k)
        advance(to: e, copy: true)
        guard let close = nextBacktickRun(length: length, from: e), close + length <= limit else { return }
        processCode(until: close, hugoEscapes: true)
        if pos <= close { advance(to: close + length, copy: true) }
    }

    private mutating func handleBrace(_ k: Int) {
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

    // MARK: - Liquid

    /// `{% name markup %}`.
    private mutating func handleTag(_ k: Int) {
        if let tag = simpleTag(at: k), tag.is("raw", in: b) {
            handleRaw(k, tagEnd: tag.end)
            return
        }
        let limit = paragraphLimit(from: k)
        guard let close = tagClose.next(in: b, from: k + 2), close + 2 <= limit else {
            advance(to: k + 1, copy: true)
            return
        }
        let end = close + 2
        let (lo, hi) = trim(k + 2, close, dashes: true)
        let nameEnd = tokenEnd(lo, hi)
        let name = text(lo, nameEnd)
        let (markupLo, markupHi) = trim(nameEnd, hi, dashes: false)
        let markup = text(markupLo, markupHi)
        switch name {
        case "highlight":
            handleHighlight(k, end: end, markup: markup)
        case "post_url":
            let url = markup.isEmpty ? nil : context.resolvePost(markup)
            handleLink(k, end: end, url: url, unknown:
                "unknown post \"\(markup)\" in {% post_url %}: expected the file name of a post in _posts/ (YYYY-MM-DD-slug)")
        case "link":
            let url = markup.isEmpty ? nil : context.resolvePath(markup)
            handleLink(k, end: end, url: url, unknown:
                "unknown post \"\(markup)\" in {% link %}: expected the path of a post from the site folder (_posts/YYYY-MM-DD-slug.md)")
        default:
            let source = tagSource(k, end: end, name: name, markup: markup)
            if interprets {
                piece(.tag(source), upTo: end)
            } else {
                unsupportedTags.append(source)
                advance(to: end, copy: true)
            }
        }
    }

    /// `{% raw %}…{% endraw %}`: the text between, exactly.
    private mutating func handleRaw(_ k: Int, tagEnd: Int) {
        guard let close = nextEndRaw(from: tagEnd) else {
            warn(at: k, "{% raw %} is never closed: expected {% endraw %} after the text to show as written; the rest of the file is left as written")
            advance(to: n, copy: true)
            return
        }
        advance(to: tagEnd, copy: false)
        advance(to: close.start, copy: true)
        advance(to: close.end, copy: false)
    }

    /// `{% highlight lang %}code{% endhighlight %}` becomes a fenced code block.
    private mutating func handleHighlight(_ k: Int, end: Int, markup: String) {
        guard let close = findEndHighlight(from: end) else {
            warn(at: k, "{% highlight %} is never closed: expected {% endhighlight %} after the code; the tag is left as written")
            advance(to: end, copy: true)
            return
        }
        let language = markup.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first
            .map(String.init) ?? ""
        let validLanguage = !language.isEmpty && language.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "#") || c == UInt8(ascii: "-")
        }
        // The code, rendered apart so that, as Jekyll does, its leading and trailing line breaks can be dropped
        // (the ones after the opening tag and before the closing one, or around `{% raw %}` lines).
        var code: [UInt8] = []
        swap(&out, &code)
        inHighlight = true
        advance(to: end, copy: false)
        processCode(until: close.start, hugoEscapes: false)
        advance(to: close.end, copy: false)
        inHighlight = false
        swap(&out, &code)
        var lo = 0
        var hi = code.count
        while lo < hi && (code[lo] == lf || code[lo] == cr) { lo += 1 }
        while hi > lo && (code[hi - 1] == lf || code[hi - 1] == cr) { hi -= 1 }

        appendFencedBlock(code[lo..<hi], info: validLanguage ? language.lowercased() : "")
    }

    /// Writes `code` as a fenced code block with `info` after the opening fence, on lines of its own.
    private mutating func appendFencedBlock(_ code: ArraySlice<UInt8>, info: String) {
        var longest = 0
        var run = 0
        for c in code {
            if c == backtick {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        let fence = [UInt8](repeating: backtick, count: max(3, longest + 1))
        if LiquidScanner.lastLineHasText(out) { out.append(lf) }
        out.append(contentsOf: fence)
        out.append(contentsOf: info.utf8)
        out.append(lf)
        out.append(contentsOf: code)
        if LiquidScanner.lastLineHasText(code) { out.append(lf) }
        out.append(contentsOf: fence)
        tracker.noteCodeLine()
        lineIsCode = false
        if !LiquidLine.isBlank(b, from: pos) { out.append(lf) }
    }

    /// `{% post_url %}` / `{% link %}`: the URL, or the tag as written and a warning.
    private mutating func handleLink(_ k: Int, end: Int, url: String?, unknown: String) {
        guard let url else {
            warn(at: k, unknown)
            advance(to: end, copy: true)
            return
        }
        let base = context.baseURL
        if let last = baseURLEnd, last.input == k, last.output == out.count, !base.isEmpty, url.hasPrefix(base) {
            out.removeLast(base.utf8.count)
        }
        replace(upTo: end, with: url)
    }

    /// `{{ expression }}`.
    private mutating func handleOutput(_ k: Int) {
        let limit = paragraphLimit(from: k)
        guard let close = outputClose.next(in: b, from: k + 2), close + 2 <= limit else {
            advance(to: k + 1, copy: true)
            return
        }
        let end = close + 2
        let (lo, hi) = trim(k + 2, close, dashes: true)
        let expression = text(lo, hi)
        switch expression {
        case "site.baseurl":
            replace(upTo: end, with: context.baseURL)
            baseURLEnd = (end, out.count)
        case "site.url":
            replace(upTo: end, with: context.siteURL)
        default:
            let source = tagSource(k, end: end, name: "", markup: expression)
            if interprets {
                piece(.output(source), upTo: end)
            } else {
                unsupportedTags.append(source)
                advance(to: end, copy: true)
            }
        }
    }

    /// The tag or output from `k` to `end`, as the interpreter and messages need it.
    private mutating func tagSource(_ k: Int, end: Int, name: String, markup: String) -> LiquidTagSource {
        LiquidTagSource(name: name, markup: markup, written: Array(b[k..<end]), line: firstLine + line, column: column(of: k),
                        trimBefore: k + 2 < end && b[k + 2] == UInt8(ascii: "-"), trimAfter: end - 3 > k && b[end - 3] == UInt8(ascii: "-"))
    }

    /// Hands the tag or output ending at `end` to the interpreter: the text so far becomes a piece, then it.
    private mutating func piece(_ piece: LiquidPiece, upTo end: Int) {
        pieces.append(.text(out))
        out = []
        pieces.append(piece)
        advance(to: end, copy: false)
    }

    // MARK: - Hugo

    /// `{{< name args >}}` or `{{% name args %}}`.
    private mutating func handleShortcode(_ k: Int) {
        if handleEscapedShortcode(k) { return }
        let markdown = b[k + 2] == percent
        let limit = paragraphLimit(from: k)
        let found = markdown ? markdownShortcodeClose.next(in: b, from: k + 3) : shortcodeClose.next(in: b, from: k + 3)
        guard let close = found, close + 3 <= limit else {
            advance(to: k + 1, copy: true)
            return
        }
        let end = close + 3
        let (lo, hi) = trim(k + 3, close, dashes: false)
        var nameEnd = lo
        while nameEnd < hi && !isSpace(b[nameEnd]) && b[nameEnd] != UInt8(ascii: "\"") { nameEnd += 1 }
        let name = text(lo, nameEnd)
        let shown = markdown ? "{{% \(name) %}}" : "{{< \(name) >}}"
        let arguments = shortcodeArguments(nameEnd, hi)
        guard name == "ref" || name == "relref" else {
            if !name.hasPrefix("/"), renderShortcode(name, arguments, markdown: markdown, at: k, end: end) { return }
            unsupportedTags.append(LiquidTagSource(name: shown, markup: "", written: [], line: firstLine + line, column: column(of: k),
                                                   trimBefore: false, trimAfter: false))
            advance(to: end, copy: true)
            return
        }
        let target = arguments.first { $0.key == "path" }?.value ?? arguments.first { $0.key == nil }?.value ?? ""
        var url: String?
        if let hash = target.firstIndex(of: "#") {
            let file = String(target[..<hash])
            let fragment = String(target[hash...])
            url = file.isEmpty ? fragment : context.resolvePath(file).map { $0 + fragment }
        } else if !target.isEmpty {
            url = context.resolvePath(target)
        }
        guard let url else {
            warn(at: k, "unknown post \"\(target)\" in \(shown): expected the path of a post in the content folder (posts/slug.md), or its file name")
            advance(to: end, copy: true)
            return
        }
        replace(upTo: end, with: name == "ref" && url.hasPrefix("/") ? context.siteURL + url : url)
    }

    /// A shortcode other than `ref`: through the site's or theme's template, else a built-in. One that takes
    /// inner content (a template naming `inner`, `highlight`) runs to its closing tag. Returns false
    /// (consuming nothing) when there is neither template nor built-in. A template that can't be rendered (its
    /// partials named by values include one another in a loop) is an error at `k`, and the shortcode stays as written.
    private mutating func renderShortcode(_ name: String, _ arguments: [(key: String?, value: String)], markdown: Bool, at k: Int,
                                          end: Int) -> Bool {
        guard let takesInner = context.shortcodeTakesInner(name) ?? (HugoShortcodes.builtIn.contains(name) ? name == "highlight" : nil) else {
            return false
        }
        var call = ShortcodeCall(name: name, positional: [], named: [], inner: nil, markdown: markdown)
        for argument in arguments {
            if let key = argument.key {
                call.named.append(ShortcodeArgument(key: key, value: argument.value))
            } else if argument.value != "/" {  // `{{< x />}}` closes itself
                call.positional.append(argument.value)
            }
        }
        let closing = takesInner ? closingShortcode(name, markdown: markdown, from: end) : nil
        if let closing { call.inner = text(end, closing.start) }
        let after = closing?.end ?? end
        let rendered: String?
        do {
            rendered = try context.renderShortcode(call)
        } catch {
            let shown = markdown ? "{{% \(name) %}}" : "{{< \(name) >}}"
            diagnostics.append(.error(path, line: firstLine + line, column: column(of: k), "\(shown) can't be rendered: \(error)"))
            advance(to: after, copy: true)
            return true
        }
        if let html = rendered {
            if markdown {
                replace(upTo: after, with: html)
            } else {
                out.append(contentsOf: ShortcodeMarks.mark(fragments.count).utf8)
                fragments.append(html)
                advance(to: after, copy: false)
            }
            return true
        }
        if name == "highlight", let inner = call.inner {
            var info = call.positional.first.map { $0.lowercased() } ?? ""
            if call.positional.count > 1 { info += " {" + call.positional[1] + "}" }
            var code = ArraySlice(inner.utf8)
            while code.first == lf || code.first == cr { code = code.dropFirst() }
            while code.last == lf || code.last == cr { code = code.dropLast() }
            advance(to: after, copy: false)
            appendFencedBlock(code, info: info)
            return true
        }
        guard let html = HugoShortcodes.html(call, page: page, site: context.site, timeZone: context.timeZone) else { return false }
        out.append(contentsOf: ShortcodeMarks.mark(fragments.count).utf8)
        fragments.append(html)
        advance(to: after, copy: false)
        return true
    }

    /// The closing tag `{{< /name >}}` (or `{{% /name %}}`) at or after `p`, spaces allowed inside.
    private mutating func closingShortcode(_ name: String, markdown: Bool, from p: Int) -> (start: Int, end: Int)? {
        let key = (markdown ? "%" : "<") + name
        if let memo = closingMemo[key], p >= memo.from, p <= (memo.found?.start ?? n) { return memo.found }
        let delimiter = markdown ? percent : less
        let opener: [UInt8] = [openBrace, openBrace, delimiter]
        let closer: [UInt8] = [markdown ? percent : UInt8(ascii: ">"), closeBrace, closeBrace]
        let nameBytes = Array(name.utf8)
        var i = p
        var found: (start: Int, end: Int)?
        while let k = ByteSearch.firstIndex(of: opener, in: b, from: i) {
            var j = k + 3
            while j < n && isSpace(b[j]) { j += 1 }
            if j < n && b[j] == UInt8(ascii: "/") {
                j += 1
                while j < n && isSpace(b[j]) { j += 1 }
                if j + nameBytes.count <= n && b[j..<(j + nameBytes.count)].elementsEqual(nameBytes) {
                    j += nameBytes.count
                    while j < n && isSpace(b[j]) { j += 1 }
                    if j + 3 <= n && b[j..<(j + 3)].elementsEqual(closer) {
                        found = (k, j + 3)
                        break
                    }
                }
            }
            i = k + 3
        }
        closingMemo[key] = (p, found)
        return found
    }

    /// Hugo's escaped shortcode `{{</* x */>}}` (or `{{%/* x */%}}`), which Hugo shows as `{{< x >}}` everywhere,
    /// code included. Returns false (consuming nothing) when `k` does not start one.
    private mutating func handleEscapedShortcode(_ k: Int) -> Bool {
        guard k + 4 < n, b[k + 1] == openBrace, b[k + 2] == less || b[k + 2] == percent,
              b[k + 3] == UInt8(ascii: "/"), b[k + 4] == UInt8(ascii: "*") else { return false }
        let delimiter = b[k + 2]
        let limit = paragraphLimit(from: k)
        let found = delimiter == less
            ? escapedShortcodeClose.next(in: b, from: k + 5)
            : escapedMarkdownShortcodeClose.next(in: b, from: k + 5)
        guard let close = found, close + 5 <= limit else { return false }
        out.append(contentsOf: [openBrace, openBrace, delimiter])
        advance(to: k + 5, copy: false)
        advance(to: close, copy: true)
        out.append(contentsOf: [delimiter == less ? UInt8(ascii: ">") : percent, closeBrace, closeBrace])
        advance(to: close + 5, copy: false)
        return true
    }

    /// The arguments of a shortcode: `"x"`, `'x'`, `` `x` ``, `x`, or `name="x"`.
    private func shortcodeArguments(_ from: Int, _ to: Int) -> [(key: String?, value: String)] {
        var result: [(key: String?, value: String)] = []
        var i = from
        while i < to {
            while i < to && isSpace(b[i]) { i += 1 }
            if i >= to { break }
            var key: String?
            var j = i
            while j < to && (isWordByte(b[j])) { j += 1 }
            if j > i && j < to && b[j] == UInt8(ascii: "=") {
                key = text(i, j)
                i = j + 1
            }
            if i >= to {
                result.append((key, ""))
                break
            }
            let quote = b[i]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") || quote == backtick {
                var e = i + 1
                while e < to && b[e] != quote {
                    if b[e] == backslash && quote != backtick { e += 1 }
                    e += 1
                }
                var value = text(i + 1, min(e, to))
                if quote == UInt8(ascii: "\""), value.contains("\\") {
                    // Go's string escapes, as Hugo reads them: `\"` is `"`, `\\` is `\`.
                    value = value.replacingOccurrences(of: "\\\\", with: "\u{0}").replacingOccurrences(of: "\\\"", with: "\"")
                        .replacingOccurrences(of: "\u{0}", with: "\\")
                }
                result.append((key, value))
                i = e + 1
            } else {
                var e = i
                while e < to && !isSpace(b[e]) { e += 1 }
                result.append((key, text(i, e)))
                i = e
            }
        }
        return result
    }

    // MARK: - Warnings

    private mutating func warn(at k: Int, _ message: String) {
        diagnostics.append(.warning(path, line: firstLine + line, column: column(of: k), message))
    }

    /// The 1-based column, in characters, of `k` on the current line. Counted on from the last column asked for
    /// on the line, not from the line's start: a body on one line (32,000 tags in 768 KB) made counting from the
    /// start quadratic. The bytes asked for are the `{` of tags, each further on than the last; the count goes on
    /// only from one after an ASCII byte, where a character always starts, so it is the count from the start.
    private mutating func column(of k: Int) -> Int {
        guard k >= counted.byte else { return TextPosition.column(ofByte: k, lineStart: lineStart, in: b) }
        let column = counted.column + TextPosition.column(ofByte: k, lineStart: counted.byte, in: b) - 1
        if k == lineStart || b[k - 1] < 0x80 { counted = (k, column) }
        return column
    }

    // MARK: - Looking ahead

    /// The end of the line containing `p` (its `\n`, or the end).
    private func lineEnd(from p: Int) -> Int {
        var i = p
        while i < n && b[i] != lf { i += 1 }
        return i
    }

    /// The end of the paragraph containing `p`: the `\n` before the next blank or fence line (or the end).
    /// Tags and code spans never reach past it.
    private mutating func paragraphLimit(from p: Int) -> Int {
        if p >= paragraphMemo.from && p < paragraphMemo.limit { return paragraphMemo.limit }
        var e = lineEnd(from: p)
        while e < n {
            let next = e + 1
            if next >= n || LiquidBlockTracker.breaksParagraph(b, next) { break }
            e = lineEnd(from: next)
        }
        paragraphMemo = (p, e)
        return e
    }

    /// The next run of exactly `length` backticks at or after `p`.
    private mutating func nextBacktickRun(length: Int, from p: Int) -> Int? {
        if let memo = backtickMemo[length], p >= memo.from && p <= memo.found {
            return memo.found < n ? memo.found : nil
        }
        var i = p
        var found = n
        while i < n {
            if b[i] == backtick {
                var e = i
                while e < n && b[e] == backtick { e += 1 }
                if e - i == length {
                    found = i
                    break
                }
                i = e
            } else {
                i += 1
            }
        }
        backtickMemo[length] = (p, found)
        return found < n ? found : nil
    }

    /// The next `{% endraw %}` at or after `p`.
    private mutating func nextEndRaw(from p: Int) -> (start: Int, end: Int)? {
        if let known = endRawMemo.answer(for: p, n) { return known }
        var i = p
        var result: (start: Int, end: Int)?
        while let k = tagOpen.next(in: b, from: i) {
            if let tag = simpleTag(at: k), tag.is("endraw", in: b) {
                result = (k, tag.end)
                break
            }
            i = k + 2
        }
        endRawMemo.remember(p, result)
        return result
    }

    /// The `{% endhighlight %}` that closes a highlight opened before `p`, skipping `{% raw %}` regions.
    private mutating func findEndHighlight(from p: Int) -> (start: Int, end: Int)? {
        if let known = endHighlightMemo.answer(for: p, n) { return known }
        var i = p
        var result: (start: Int, end: Int)?
        search: while let k = tagOpen.next(in: b, from: i) {
            if let tag = simpleTag(at: k) {
                if tag.is("endhighlight", in: b) {
                    result = (k, tag.end)
                    break
                }
                if tag.is("raw", in: b) {
                    guard let close = nextEndRaw(from: tag.end) else { break search }
                    i = close.end
                    continue
                }
            }
            i = k + 2
        }
        endHighlightMemo.remember(p, result)
        return result
    }

    /// A tag without arguments at `k` (`{% raw %}`, `{%- endraw -%}`): its name and end.
    private func simpleTag(at k: Int) -> SimpleTag? {
        guard k + 1 < n, b[k] == openBrace, b[k + 1] == percent else { return nil }
        var i = k + 2
        if i < n && b[i] == UInt8(ascii: "-") { i += 1 }
        while i < n && isSpace(b[i]) { i += 1 }
        let nameStart = i
        while i < n && isWordByte(b[i]) { i += 1 }
        let nameEnd = i
        guard nameEnd > nameStart else { return nil }
        while i < n && isSpace(b[i]) { i += 1 }
        if i < n && b[i] == UInt8(ascii: "-") { i += 1 }
        guard i + 1 < n, b[i] == percent, b[i + 1] == closeBrace else { return nil }
        return SimpleTag(nameStart: nameStart, nameEnd: nameEnd, end: i + 2)
    }

    // MARK: - Small helpers

    /// Whether the last line of `text` has text other than indentation and quote markers.
    private static func lastLineHasText<C: BidirectionalCollection>(_ text: C) -> Bool where C.Element == UInt8 {
        for c in text.reversed() {
            if c == lf { return false }
            if c != space && c != tab && c != cr && c != UInt8(ascii: ">") { return true }
        }
        return false
    }

    /// `lo..<hi` without surrounding whitespace (and Liquid's `-` whitespace markers when `dashes`).
    private func trim(_ lo: Int, _ hi: Int, dashes: Bool) -> (Int, Int) {
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
    private func tokenEnd(_ lo: Int, _ hi: Int) -> Int {
        var i = lo
        while i < hi && !isSpace(b[i]) { i += 1 }
        return i
    }

    private func text(_ lo: Int, _ hi: Int) -> String {
        String(decoding: b[lo..<max(lo, hi)], as: UTF8.self)
    }

    private func isSpace(_ c: UInt8) -> Bool {
        c == space || c == tab || c == lf || c == cr
    }

    private func isWordByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_")
    }
}

/// A `{% name %}` tag without arguments.
private struct SimpleTag {
    var nameStart: Int
    var nameEnd: Int
    var end: Int

    func `is`(_ name: StaticString, in b: [UInt8]) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return b[nameStart..<nameEnd].elementsEqual(expected)
    }
}

/// The last answer of a forward search for a tag: valid for any later start up to the tag found.
private struct TagMemo {
    private var from = Int.max
    private var found: (start: Int, end: Int)?

    /// The remembered answer when it holds for a search from `p` (itself nil when no tag was found), else nil.
    func answer(for p: Int, _ n: Int) -> (start: Int, end: Int)?? {
        guard p >= from, p <= (found?.start ?? n) else { return nil }
        return .some(found)
    }

    mutating func remember(_ p: Int, _ result: (start: Int, end: Int)?) {
        from = p
        found = result
    }
}

/// Finds the next occurrence of a byte string, remembering its last answer so that searches from growing
/// positions cost, together, one pass over the text.
struct LiquidFinder {
    private let needle: [UInt8]
    private var from = Int.max
    private var found = 0

    init(_ needle: String) {
        self.needle = Array(needle.utf8)
    }

    /// The first index at or after `p` where the needle starts, nil if none.
    mutating func next(in b: [UInt8], from p: Int) -> Int? {
        if p >= from && p <= found { return found < b.count ? found : nil }
        from = p
        found = ByteSearch.firstIndex(of: needle, in: b, from: p) ?? b.count
        return found < b.count ? found : nil
    }
}
