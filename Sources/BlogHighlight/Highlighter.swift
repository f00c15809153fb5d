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
            return HTMLWriter(bytes: bytes, lines: lines).html(tokens)
        }
    }
}

/// Writes code and its tokens as HTML, line by line, into a buffer sized for the worst case (every
/// byte an entity, every line of every token in its own span), so no write checks for room.
private struct HTMLWriter {
    let bytes: UnsafeBufferPointer<UInt8>
    let lines: Highlighter.Lines

    /// Whether lines are wrapped at all.
    private var wrapsLines: Bool { lines.numbers || !lines.highlighted.isEmpty }

    /// Each class's opening tag, by raw value.
    private static let openTags: [[UInt8]] = TokenClass.allCases.map { kind in
        Array("<span class=\"".utf8) + kind.name.withUTF8Buffer { Array($0) } + Array("\">".utf8)
    }
    private static let closeTag = Array("</span>".utf8)
    /// The room one span takes at most: the longest opening tag and the closing one.
    private static let spanRoom = openTags.reduce(0) { max($0, $1.count) } + closeTag.count
    private static let lineNumberOpen = Array("<span class=\"ln\">".utf8)
    private static let highlightOpen = Array("<span class=\"hll\">".utf8)

    /// The HTML of the code with `tokens`.
    func html(_ tokens: [Token]) -> String {
        var lineCount = 1
        for byte in bytes where byte == 0x0A { lineCount += 1 }
        let perSpan = Self.spanRoom
        let perLine = Self.lineNumberOpen.count + 20 + Self.highlightOpen.count + 2 * Self.closeTag.count
        let capacity = bytes.count * 6 + (tokens.count + lineCount) * perSpan + (wrapsLines ? lineCount * perLine : 0)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var out = Output(base: buffer)
        write(tokens, to: &out)
        precondition(out.count <= capacity, "the highlighter's buffer was too small")
        return String(decoding: UnsafeBufferPointer(start: buffer, count: out.count), as: UTF8.self)
    }

    /// A cursor into the buffer.
    private struct Output {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        @inline(__always)
        mutating func put(_ text: [UInt8]) {
            text.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
            count += text.count
        }

        @inline(__always)
        mutating func put(_ text: StaticString) {
            (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            count += text.utf8CodeUnitCount
        }

        /// `bytes[range]`, HTML-escaped.
        mutating func putEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            for index in range {
                let byte = bytes[index]
                // Letters and most code bytes are above `>`, the last byte with an entity.
                if byte > UInt8(ascii: ">") {
                    put(byte)
                } else if let entity = Escaping.htmlEntity(for: byte) {
                    put(entity)
                } else {
                    put(byte)
                }
            }
        }
    }

    private func write(_ tokens: [Token], to out: inout Output) {
        var line = 1
        var position = 0
        var tokenIndex = 0
        var lineOpen = false
        func openLine(_ out: inout Output) {
            guard wrapsLines, !lineOpen else { return }
            lineOpen = true
            if lines.highlighted.contains(line) { out.put(Self.highlightOpen) }
            if lines.numbers {
                out.put(Self.lineNumberOpen)
                for digit in String(line).utf8 { out.put(digit) }
                out.put(Self.closeTag)
            }
        }
        /// Writes `start..<end` (no line feed inside) as `kind`.
        func segment(_ start: Int, _ end: Int, _ kind: TokenClass?, _ out: inout Output) {
            guard end > start else { return }
            openLine(&out)
            if let kind {
                out.put(Self.openTags[Int(kind.rawValue)])
                out.putEscaped(bytes, start..<end)
                out.put(Self.closeTag)
            } else {
                out.putEscaped(bytes, start..<end)
            }
        }
        /// Writes `start..<end` as `kind`, ending lines at line feeds.
        func run(_ start: Int, _ end: Int, _ kind: TokenClass?, _ out: inout Output) {
            var from = start
            var index = start
            while index < end {
                if bytes[index] == 0x0A {
                    segment(from, index, kind, &out)
                    openLine(&out)
                    out.put(0x0A)
                    if lineOpen, lines.highlighted.contains(line) { out.put(Self.closeTag) }
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
        if lineOpen, lines.highlighted.contains(line) { out.put(Self.closeTag) }
    }
}
