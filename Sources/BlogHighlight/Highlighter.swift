import BlogCore

/// A language the highlighter knows: the info-string names that select it, and how its code is read.
package struct Language: Sendable {
    /// The names (lower-case) that select it: `python`, `py`, `python3`.
    package let names: [String]
    /// Reads the code from the scanner's cursor to its end, marking tokens.
    let lex: @Sendable (inout Scanner) -> Void

    /// A language read by `lex`.
    init(_ names: [String], lex: @escaping @Sendable (inout Scanner) -> Void) {
        self.names = names
        self.lex = lex
    }

    /// A language read by a ``CodeLexer`` with `rules`.
    init(_ names: [String], rules: CodeRules) {
        let lexer = CodeLexer(rules)
        self.init(names) { lexer.run(&$0) }
    }
}

/// Syntax highlighting at build time: code in a known language becomes HTML-escaped text with
/// `<span class="…">` around its tokens (classes in ``TokenClass``). Safe to call from several threads.
package enum Highlighter {
    /// How a highlighted block shows its lines.
    package struct Lines: Equatable, Sendable {
        /// Whether each line starts with its number, `<span class="ln">N</span>`.
        package var numbers = false
        /// The 1-based lines wrapped in `<span class="hll">`.
        package var highlighted: Set<Int> = []

        /// Lines shown plainly, unless told otherwise.
        package init(numbers: Bool = false, highlighted: Set<Int> = []) {
            self.numbers = numbers
            self.highlighted = highlighted
        }
    }

    /// The language `name` selects (any case), or nil when none does (the code is then shown plain).
    package static func language(named name: String) -> Language? {
        Languages.byName[name.lowercased()]
    }

    /// The tokens of `code` read as `language`, in order, none overlapping.
    package static func tokens(_ code: String, language: Language) -> [Token] {
        var code = code
        return code.withUTF8 { bytes in
            var scanner = Scanner(bytes)
            language.lex(&scanner)
            return scanner.tokens
        }
    }

    /// `code` as HTML: escaped, its tokens in spans when `language` names a known language, its
    /// lines numbered and highlighted as `lines` says. Spans never cross a line's end.
    package static func html(_ code: String, language name: String, lines: Lines = Lines()) -> String {
        let language = language(named: name)
        var code = code
        return code.withUTF8 { bytes in
            var tokens: [Token] = []
            if let language {
                var scanner = Scanner(bytes)
                language.lex(&scanner)
                tokens = scanner.tokens
            }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count * 2)
            HTMLWriter(bytes: bytes, lines: lines).write(tokens, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }
}

/// Writes code and its tokens as HTML, line by line.
private struct HTMLWriter {
    let bytes: UnsafeBufferPointer<UInt8>
    let lines: Highlighter.Lines

    /// Whether lines are wrapped at all.
    private var wrapsLines: Bool { lines.numbers || !lines.highlighted.isEmpty }

    func write(_ tokens: [Token], to out: inout [UInt8]) {
        var line = 1
        var position = 0
        var tokenIndex = 0
        var lineOpen = false
        func openLine(_ out: inout [UInt8]) {
            guard wrapsLines, !lineOpen else { return }
            lineOpen = true
            if lines.highlighted.contains(line) { append("<span class=\"hll\">", to: &out) }
            if lines.numbers {
                append("<span class=\"ln\">", to: &out)
                out.append(contentsOf: String(line).utf8)
                append("</span>", to: &out)
            }
        }
        /// Writes `start..<end` (no line feed inside) as `kind`.
        func segment(_ start: Int, _ end: Int, _ kind: TokenClass?, _ out: inout [UInt8]) {
            guard end > start else { return }
            openLine(&out)
            if let kind {
                append("<span class=\"", to: &out)
                append(kind.name, to: &out)
                append("\">", to: &out)
                Escaping.appendHTML(bytes, start..<end, to: &out)
                append("</span>", to: &out)
            } else {
                Escaping.appendHTML(bytes, start..<end, to: &out)
            }
        }
        /// Writes `start..<end` as `kind`, ending lines at line feeds.
        func run(_ start: Int, _ end: Int, _ kind: TokenClass?, _ out: inout [UInt8]) {
            var from = start
            var index = start
            while index < end {
                if bytes[index] == 0x0A {
                    segment(from, index, kind, &out)
                    openLine(&out)
                    out.append(0x0A)
                    if lineOpen, lines.highlighted.contains(line) { append("</span>", to: &out) }
                    lineOpen = false
                    line += 1
                    from = index + 1
                }
                index += 1
            }
            segment(from, end, kind, &out)
        }
        while position < bytes.count {
            if tokenIndex < tokens.count {
                let token = tokens[tokenIndex]
                run(position, token.start, nil, &out)
                run(token.start, token.end, token.kind, &out)
                position = token.end
                tokenIndex += 1
            } else {
                run(position, bytes.count, nil, &out)
                position = bytes.count
            }
        }
        if lineOpen, lines.highlighted.contains(line) { append("</span>", to: &out) }
    }

    private func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
