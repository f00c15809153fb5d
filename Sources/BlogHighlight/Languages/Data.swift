extension Languages {
    /// JSON (and JSON with comments): a string before `:` is a key, marked as a tag.
    static let json = Language(["json", "jsonc", "json5", "geojson", "jsonld", "webmanifest"]) { s in
        let values = CodeLexer(CodeRules())
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if byte == UInt8(ascii: "\"") {
                let start = s.pos
                s.pos += 1
                values.readStringBody(&s, from: start, close: [UInt8(ascii: "\"")], kind: .string, escapes: true,
                                      interpolation: .none, multiline: false)
                let after = s.indexAfterBlanks(s.pos)
                if s.byte(at: after) == UInt8(ascii: ":") {
                    // A key: its escapes are part of it.
                    while let last = s.tokens.last, last.start >= start { s.tokens.removeLast() }
                    s.mark(.tag, from: start)
                }
            } else if Bytes.isSpace(byte) {
                s.pos += 1
            } else if byte == UInt8(ascii: "/"), s.peek(1) == UInt8(ascii: "/") || s.peek(1) == UInt8(ascii: "*") {
                let start = s.pos
                if s.peek(1) == UInt8(ascii: "/") {
                    s.skipToLineEnd()
                } else {
                    s.pos += 2
                    while s.pos < s.end, !s.at(commentEnd) { s.pos += 1 }
                    s.pos = min(s.pos + 2, s.end)
                }
                s.mark(.comment, from: start)
            } else if Bytes.isDigit(byte) || byte == UInt8(ascii: "-") {
                let start = s.pos
                s.pos += 1
                s.skip { Bytes.isDigit($0) || "eE.+-".utf8.contains($0) }
                s.mark(.number, from: start)
            } else if Bytes.isIdentifierStart(byte) {
                let start = s.pos
                s.skipIdentifier()
                if let kind = jsonWords.lookup(s.bytes, start..<s.pos) { s.mark(kind, from: start) }
            } else {
                s.take(1, as: .punctuation)
            }
        }
    }

    /// JSON's words.
    private static let jsonWords = WordTable([(.keyword, "true false null")])
    /// The end of a block comment.
    private static let commentEnd = Array("*/".utf8)

    /// TOML: `[tables]`, `key =` lines, strings of four kinds, numbers, dates, booleans.
    static let toml = Language(["toml"], rules: CodeRules(
        words: WordTable([(.keyword, "true false inf nan")]),
        lineComments: ["#"].map { Array($0.utf8) },
        strings: [
            StringRule("\"\"\"", multiline: true), StringRule("'''", escapes: false, multiline: true),
            StringRule("\""), StringRule("'", escapes: false),
        ],
        keyLines: true,
        operators: Array("=".utf8),
        punctuation: Array("{}[],.".utf8)
    ))
}
