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

    /// A language read by a ``CodeLexer`` with `rules`, made when the language first reads code (a
    /// build with code in one language makes no other language's word tables).
    init(_ names: [String], rules: @autoclosure @escaping @Sendable () -> CodeRules) {
        let lexer = Once<CodeLexer>()
        self.init(names) { lexer.get { CodeLexer(rules()) }.run(&$0) }
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
    /// lines numbered and highlighted as `lines` says. Spans never cross a line's end. `before` and
    /// `after` (HTML) are written around it, in the same text.
    package static func html(_ code: String, language name: String, lines: Lines = Lines(), before: String = "",
                             after: String = "") -> String {
        let language = language(named: name)
        var code = code, before = before, after = after
        return code.withUTF8 { bytes in
            var tokens: [Token] = []
            if let language {
                var scanner = Scanner(bytes)
                language.lex(&scanner)
                tokens = scanner.tokens
            }
            return before.withUTF8 { before in
                after.withUTF8 { after in
                    HTMLWriter(bytes: bytes, lines: lines).html(tokens, before: before, after: after)
                }
            }
        }
    }
}

/// Writes code and its tokens as HTML, line by line, into a buffer sized for the worst case (every
/// byte an entity, every line of every token in its own span), so no write checks for room. Each
/// byte is looked at once: for a line feed (which ends the line's spans) and to escape it.
private struct HTMLWriter {
    let bytes: UnsafeBufferPointer<UInt8>
    let lines: Highlighter.Lines

    /// Whether lines are wrapped at all.
    private var wrapsLines: Bool { lines.numbers || !lines.highlighted.isEmpty }

    /// Each class's opening tag, one after another, by raw value: `tags[tagStarts[k]..<tagStarts[k + 1]]`.
    private static let openTags: (bytes: [UInt8], starts: [Int]) = {
        var bytes: [UInt8] = [], starts = [0]
        for kind in TokenClass.allCases {
            bytes += Array("<span class=\"".utf8) + kind.name.withUTF8Buffer { Array($0) } + Array("\">".utf8)
            starts.append(bytes.count)
        }
        return (bytes, starts)
    }()
    private static let closeTag: StaticString = "</span>"
    /// The room one span takes at most: the longest opening tag and the closing one.
    private static let spanRoom = zip(openTags.starts, openTags.starts.dropFirst()).map { $1 - $0 }.max()! + closeTag.utf8CodeUnitCount
    private static let lineNumberOpen: StaticString = "<span class=\"ln\">"
    private static let highlightOpen: StaticString = "<span class=\"hll\">"
    /// The bytes below 64 that ``Escaping/htmlEntity(for:)`` replaces, one bit each.
    private static let entityBytes: UInt64 = (0..<64).reduce(0) { Escaping.htmlEntity(for: UInt8($1)) == nil ? $0 : $0 | 1 << $1 }

    /// The HTML of the code with `tokens`, between `before` and `after`.
    func html(_ tokens: [Token], before: UnsafeBufferPointer<UInt8>, after: UnsafeBufferPointer<UInt8>) -> String {
        var lineCount = 1
        for byte in bytes where byte == 0x0A { lineCount += 1 }
        let perSpan = Self.spanRoom
        let perLine = Self.lineNumberOpen.utf8CodeUnitCount + 20 + Self.highlightOpen.utf8CodeUnitCount
            + 2 * Self.closeTag.utf8CodeUnitCount
        let capacity = before.count + bytes.count * 6 + (tokens.count + lineCount) * perSpan
            + (wrapsLines ? lineCount * perLine : 0) + after.count
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let count = Self.openTags.bytes.withUnsafeBufferPointer { tags in
            Self.openTags.starts.withUnsafeBufferPointer { starts in
                var out = Output(base: buffer, bytes: bytes, lines: lines, wrapsLines: wrapsLines, tags: tags.baseAddress!,
                                 tagStarts: starts.baseAddress!, entityBytes: Self.entityBytes)
                out.put(before)
                out.write(tokens)
                out.put(after)
                return out.count
            }
        }
        precondition(count <= capacity, "the highlighter's buffer was too small")
        return String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
    }

    /// A cursor into the buffer, and where it is in the code's lines.
    private struct Output {
        let base: UnsafeMutablePointer<UInt8>
        let bytes: UnsafeBufferPointer<UInt8>
        let lines: Highlighter.Lines
        let wrapsLines: Bool
        let tags: UnsafePointer<UInt8>
        let tagStarts: UnsafePointer<Int>
        let entityBytes: UInt64
        var count = 0
        /// The 1-based line being written, and whether its number and highlight were written.
        var line = 1
        var lineOpen = false

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        mutating func put(_ text: UnsafeBufferPointer<UInt8>) {
            guard let start = text.baseAddress else { return }
            (base + count).update(from: start, count: text.count)
            count += text.count
        }

        @inline(__always)
        mutating func put(_ text: StaticString) {
            (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            count += text.utf8CodeUnitCount
        }

        /// The bytes from `index` up to the first line feed or `end`, HTML-escaped; returns where it stopped.
        @inline(__always)
        mutating func putEscapedLine(from index: Int, to end: Int) -> Int {
            let source = bytes.baseAddress!, entityBytes = entityBytes
            var index = index, at = count
            while index < end {
                let byte = source[index]
                // Letters and most code bytes are above `>`, the last byte with an entity.
                if byte < 64 {
                    if byte == 0x0A { break }
                    if entityBytes & (1 << UInt64(byte)) != 0, let entity = Escaping.htmlEntity(for: byte) {
                        count = at
                        put(entity)
                        at = count
                        index += 1
                        continue
                    }
                }
                base[at] = byte
                at += 1
                index += 1
            }
            count = at
            return index
        }

        /// The opening tag of `kind`'s span.
        @inline(__always)
        mutating func putOpenTag(_ kind: TokenClass) {
            let start = tagStarts[Int(kind.rawValue)], end = tagStarts[Int(kind.rawValue) + 1]
            (base + count).update(from: tags + start, count: end - start)
            count += end - start
        }

        /// Opens the current line: its highlight and number, when lines are wrapped.
        @inline(__always)
        mutating func openLine() {
            guard wrapsLines, !lineOpen else { return }
            openWrappedLine()
        }

        private mutating func openWrappedLine() {
            lineOpen = true
            if lines.highlighted.contains(line) { put(HTMLWriter.highlightOpen) }
            if lines.numbers {
                put(HTMLWriter.lineNumberOpen)
                for digit in String(line).utf8 { put(digit) }
                put(HTMLWriter.closeTag)
            }
        }

        /// Writes the line feed that ends the current line, and closes the line's highlight.
        private mutating func endLine() {
            openLine()
            put(0x0A)
            if lineOpen, lines.highlighted.contains(line) { put(HTMLWriter.closeTag) }
            lineOpen = false
            line += 1
        }

        /// Writes `start..<end` escaped, as `kind` (in spans that end at each line feed, none empty) or plain.
        mutating func run(_ start: Int, _ end: Int, _ kind: TokenClass?) {
            var index = start
            while index < end {
                if bytes[index] == 0x0A {
                    if wrapsLines { endLine() } else { put(0x0A) }
                    index += 1
                    continue
                }
                openLine()
                if let kind { putOpenTag(kind) }
                index = putEscapedLine(from: index, to: end)
                if kind != nil { put(HTMLWriter.closeTag) }
            }
        }

        /// Writes the code with `tokens`: the bytes between tokens plain.
        mutating func write(_ tokens: [Token]) {
            var position = 0
            for token in tokens {
                run(position, token.start, nil)
                run(token.start, token.end, token.kind)
                position = token.end
            }
            run(position, bytes.count, nil)
            if lineOpen, lines.highlighted.contains(line) { put(HTMLWriter.closeTag) }
        }
    }
}
