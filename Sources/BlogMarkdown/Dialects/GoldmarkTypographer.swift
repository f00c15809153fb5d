import BlogCore
import CCmarkGFM

/// goldmark's typographer (Hugo's default) for Hugo-form posts (issue 29), in place of cmark-gfm's smart
/// punctuation, which pairs quotes where goldmark decides each one from the characters either side of
/// it and a count of the quotes it opened in the block:
/// - `"` that can open and not close (CommonMark's flanking rules, for the run of quotes it starts: `""`
///   neither opens nor closes) is `“`; one that can close (or both, before punctuation) is `”` only while
///   a `“` is open (counted over the whole document, as goldmark does), else it stays `"`
///   (`v2.9.4" 6dd60fca`), and so does `"` after a digit and before another `"` (an inch mark);
/// - `'` is `’` between a letter or digit and a letter, before `90s`, before `t`/`e`/`n`/`l` after a
///   space or punctuation (`'twas`, `'net`), before `s`/`m`/`t`/`d`/`ve`/`ll`/`re` ending a word
///   (`` `Mirror`'s ``), and before two characters not starting with a digit; else `‘` when it opens,
///   `’` when it closes an open `‘`, `'` otherwise;
/// - `---` is `—`, `--` `–`, `...` `…`, `<<` `«`, `>>` `»`.
///
/// The document is parsed without smart punctuation; this sets the text of each block holding inlines
/// (paragraphs, headings, table cells, definition lists; never code, raw HTML or an autolink's address).
/// A quote written as an entity (`&#39;`, `&#34;`, `&quot;`, `&apos;`) is no quote to goldmark's typographer, which
/// sees only the characters `'` and `"`: such entities are marked before the text is parsed
/// (``markEntityQuotes(_:)``) and put back once the quotes are set (``restoreEntityQuotes(in:)``), so that
/// `we&#39;re` stays `we're`. A quote escaped with `\` is curled (cmark-gfm keeps no trace of the backslash).
enum GoldmarkTypographer {
    /// The entities of quotes, each with the private-use character that stands for it while the
    /// document is parsed and its typography set, and the quote it is.
    private static let entityQuotes: [(entity: String, mark: Unicode.Scalar, quote: String)] = [
        ("&#39;", "\u{E0A0}", "'"), ("&#34;", "\u{E0A1}", "\""), ("&quot;", "\u{E0A2}", "\""), ("&apos;", "\u{E0A3}", "'"),
    ]

    /// `markdown` with each entity of a quote replaced by its mark; nil when it holds none, or already
    /// holds a mark (then entities are read as quotes, as before).
    static func markEntityQuotes(_ markdown: String) -> String? {
        guard ByteSearch.contains(markdown, "&"),
              entityQuotes.contains(where: { ByteSearch.contains(markdown, $0.entity) }),
              !markdown.unicodeScalars.contains(where: { (0xE0A0...0xE0A3).contains($0.value) }) else { return nil }
        var marked = markdown
        for quote in entityQuotes where ByteSearch.contains(marked, quote.entity) {
            marked = marked.replacingOccurrences(of: quote.entity, with: String(Character(quote.mark)))
        }
        return marked
    }

    /// Puts back what ``markEntityQuotes(_:)`` marked: the quote itself in text, links' addresses and
    /// titles (as cmark-gfm decodes an entity there), the entity as written in code and raw HTML.
    static func restoreEntityQuotes(in document: CmarkNode) {
        func restore(_ text: String, asEntity: Bool) -> String? {
            guard text.unicodeScalars.contains(where: { (0xE0A0...0xE0A3).contains($0.value) }) else { return nil }
            var out = ""
            for scalar in text.unicodeScalars {
                if let quote = entityQuotes.first(where: { $0.mark == scalar }) {
                    out += asEntity ? quote.entity : quote.quote
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        guard let iterator = cmark_iter_new(document.pointer) else { return }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if let literal = cmark_node_get_literal(node).map({ String(cString: $0) }),
               let restored = restore(literal, asEntity: type != CMARK_NODE_TEXT) {
                cmark_node_set_literal(node, restored)
            }
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                if let url = cmark_node_get_url(node).map({ String(cString: $0) }), let restored = restore(url, asEntity: false) {
                    cmark_node_set_url(node, restored)
                }
                if let title = cmark_node_get_title(node).map({ String(cString: $0) }), let restored = restore(title, asEntity: false) {
                    cmark_node_set_title(node, restored)
                }
            }
        }
    }

    /// Sets the typography of `document`'s text as goldmark's typographer does.
    static func apply(to document: CmarkNode) {
        var blocks: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document.pointer) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            // Every block holding inlines: paragraphs, headings, table cells, definition terms and definitions.
            if !isInline(cmark_node_get_type(node)), let child = cmark_node_first_child(node), isInline(cmark_node_get_type(child)) {
                blocks.append(node)
            }
        }
        cmark_iter_free(iterator)
        // goldmark's count of open quotes is the document's (its reset per block is never called).
        var open = (single: 0, double: 0)
        for block in blocks { fix(block, open: &open) }
    }

    /// The block's inlines as the characters goldmark reads (markup as characters of its kind), each
    /// text node's characters in it, then the text nodes set again.
    private static func fix(_ block: OpaquePointer, open: inout (single: Int, double: Int)) {
        var stream: [Character] = []
        var texts: [(node: OpaquePointer, start: Int, end: Int)] = []
        var autolinkDepth = 0
        guard let iterator = cmark_iter_new(block) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator), node != block else { continue }
            let entering = event == CMARK_EVENT_ENTER
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT:
                let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                if autolinkDepth == 0 { texts.append((node, stream.count, stream.count + literal.count)) }
                stream += literal
            case CMARK_NODE_CODE: stream += "`x`"
            case CMARK_NODE_HTML_INLINE: stream += cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: stream.append("\n")
            case CMARK_NODE_EMPH, CMARK_NODE_STRONG: stream.append("*")
            case CMARK_NODE_LINK:
                if isAutolink(node) { autolinkDepth += entering ? 1 : -1 }
                stream += entering ? "[" : "](x)"
            case CMARK_NODE_IMAGE: stream += entering ? "![" : "](x)"
            default: if cmark_node_first_child(node) != nil { stream.append("~") }
            }
        }
        cmark_iter_free(iterator)
        guard !texts.isEmpty else { return }
        let ends = lineEnds(stream)
        var isText = [Bool](repeating: false, count: stream.count)
        for text in texts { for i in text.start..<text.end { isText[i] = true } }
        // What each text character becomes ("" when a dash or ellipsis took it).
        var result = stream.map { String($0) }
        var changed = false
        var i = 0
        while i < stream.count {
            guard isText[i] else { i += 1; continue }
            let c = stream[i]
            let line = Line(stream, i, ends: ends)
            func textAt(_ k: Int) -> Bool { i + k < stream.count && isText[i + k] }
            var replacement: String?
            var width = 1
            switch c {
            case "-" where line.count > 2 && line[1] == "-" && line[2] == "-" && textAt(1) && textAt(2):
                (replacement, width) = ("\u{2014}", 3)
            case "-" where line.count > 1 && line[1] == "-" && textAt(1):
                (replacement, width) = ("\u{2013}", 2)
            case "." where line.count > 2 && line[1] == "." && line[2] == "." && textAt(1) && textAt(2):
                (replacement, width) = ("\u{2026}", 3)
            case "<" where line.count > 1 && line[1] == "<" && textAt(1):
                (replacement, width) = ("\u{00AB}", 2)
            case ">" where line.count > 1 && line[1] == ">" && textAt(1):
                (replacement, width) = ("\u{00BB}", 2)
            case "\"": replacement = doubleQuote(stream, at: i, ends: ends, open: &open.double)
            case "'": replacement = singleQuote(stream, at: i, ends: ends, open: &open.single)
            default: break
            }
            if let replacement, replacement != String(c) || width > 1 {
                result[i] = replacement
                for k in 1..<width { result[i + k] = "" }
                changed = true
            }
            i += width
        }
        guard changed else { return }
        for text in texts {
            let literal = result[text.start..<text.end].joined()
            if literal != String(stream[text.start..<text.end]) { cmark_node_set_literal(text.node, literal) }
        }
    }

    /// Whether nodes of `type` are inlines (cmark-gfm marks the kind in the type's bits).
    private static func isInline(_ type: cmark_node_type) -> Bool {
        type.rawValue & 0xC000 == 0xC000  // CMARK_NODE_TYPE_MASK, CMARK_NODE_TYPE_INLINE
    }

    /// Whether `link` is an address written as text (GFM's autolinks): goldmark's linkify keeps it as written.
    private static func isAutolink(_ link: OpaquePointer) -> Bool {
        guard let child = cmark_node_first_child(link), cmark_node_next(child) == nil,
              cmark_node_get_type(child) == CMARK_NODE_TEXT,
              let text = cmark_node_get_literal(child).map({ String(cString: $0) }),
              let url = cmark_node_get_url(link).map({ String(cString: $0) }) else { return false }
        return url == text || url == "http://" + text || url == "mailto:" + text
    }

    /// The rest of the quote's line as goldmark sees it (the line end included): `line[k]` and its length.
    private struct Line {
        let stream: [Character]
        let index: Int
        let count: Int

        /// `ends[i]`: where the line holding `stream[i]` ends, its line end included (``lineEnds(_:)``).
        init(_ stream: [Character], _ index: Int, ends: [Int]) {
            self.stream = stream
            self.index = index
            count = ends[index] - index
        }

        subscript(offset: Int) -> Character? { offset < count ? stream[index + offset] : nil }
    }

    /// For each character of `stream`, where its line ends (past the `\n`), in one pass from the end.
    private static func lineEnds(_ stream: [Character]) -> [Int] {
        var ends = [Int](repeating: stream.count, count: stream.count)
        var end = stream.count
        for i in stream.indices.reversed() {
            if stream[i] == "\n" { end = i + 1 }
            ends[i] = end
        }
        return ends
    }

    private static func isSpace(_ c: Character?) -> Bool { c.map { $0.isWhitespace } ?? true }
    /// Unicode punctuation or symbol (goldmark's `IsPunctRune`).
    private static func isPunct(_ c: Character?) -> Bool { c.map { $0.isPunctuation || $0.isSymbol } ?? false }
    private static func isLetter(_ c: Character?) -> Bool { c?.isLetter ?? false }
    private static func isDigit(_ c: Character?) -> Bool { c.map { $0.isASCII && $0.isNumber } ?? false }

    /// CommonMark's flanking rules for the run of quotes starting at the quote (goldmark's `ScanDelimiter`:
    /// `after` is the character after the whole run, so `""` neither opens nor closes).
    private static func flanking(_ before: Character?, _ line: Line) -> (canOpen: Bool, canClose: Bool) {
        var run = 1
        while run < line.count, line[run] == line[0] { run += 1 }
        let after = line[run]
        let left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before))
        let right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after))
        return (left, right)
    }

    private static func doubleQuote(_ stream: [Character], at index: Int, ends: [Int], open: inout Int) -> String {
        let before: Character? = index > 0 ? stream[index - 1] : nil
        let line = Line(stream, index, ends: ends)
        let (canOpen, canClose) = flanking(before, line)
        guard canOpen || canClose else { return "\"" }
        if canOpen && !canClose {
            open += 1
            return "\u{201C}"
        }
        guard open > 0 else { return "\"" }
        let maybeClose = canClose && canOpen && line.count > 1 && isPunct(line[1])
            && (line.count == 2 || isPunct(line[2]) || isSpace(line[2]))
        guard (canClose && !canOpen) || maybeClose else { return "\"" }
        if line[1] == "\"" && isDigit(before) { return "\"" }  // "Monitor 21""
        open -= 1
        return "\u{201D}"
    }

    private static func singleQuote(_ stream: [Character], at index: Int, ends: [Int], open: inout Int) -> String {
        let before: Character? = index > 0 ? stream[index - 1] : nil
        let line = Line(stream, index, ends: ends)
        let (canOpen, canClose) = flanking(before, line)
        guard canOpen || canClose else { return "'" }
        // '90s
        if canOpen && !canClose, line.count > 3, isDigit(line[1]), isDigit(line[2]), line[3] == "s",
           isSpace(line[4]) || isPunct(line[4]) {
            return "\u{2019}"
        }
        // 'twas, 'em, 'net, 'll
        if line.count > 1, isPunct(before) || isSpace(before), let next = line[1], "teln".contains(next) { return "\u{2019}" }
        // between a letter or digit and a letter
        if line.count > 1, isLetter(before) || (before?.isNumber ?? false), isLetter(line[1]) { return "\u{2019}" }
        if canOpen && !canClose {
            var closing = false
            // Alice's, I'm, Don't, You'd; I've, I'll, You're
            if let next = line[1], "smtd".contains(next), line.count < 3 || isPunct(line[2]) || isSpace(line[2]) { closing = true }
            if line.count > 2, let next = line[1], let second = line[2], ["ve", "ll", "re"].contains(String([next, second])),
               line.count < 4 || isPunct(line[3]) || isSpace(line[3]) { closing = true }
            if !closing { open += 1 }
            return closing ? "\u{2019}" : "\u{2018}"
        }
        // Smiths', doin': two more characters on the line, not a digit first
        if line.count > 2, !isDigit(line[1]) { return "\u{2019}" }
        if open > 0 {
            let maybeClose = canClose && canOpen && line.count > 1 && isPunct(line[1])
                && (line.count == 2 || isPunct(line[2]) || isSpace(line[2]))
            if (canClose && !canOpen) || maybeClose {
                open -= 1
                return "\u{2019}"
            }
        }
        return "'"
    }
}
