extension Languages {
    /// YAML: keys (before `: ` or a line-ending `:`) as tags; quoted strings; comments; anchors,
    /// aliases and tags; `- ` and other indicators. Plain scalars stay plain, as in Pygments.
    static let yaml = Language(["yaml", "yml"]) { s in
        let strings = CodeLexer(CodeRules())
        var lineStart = true
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if byte == 0x0A { s.pos += 1; lineStart = true; continue }
            if byte == 0x20 || byte == 0x09 || byte == 0x0D { s.pos += 1; continue }
            let afterBlank = s.pos == 0 || Bytes.isSpace(s.byte(at: s.pos - 1))
            if byte == UInt8(ascii: "#"), afterBlank {
                let start = s.pos
                s.skipToLineEnd()
                s.mark(.comment, from: start)
                continue
            }
            if lineStart, s.atLineStartIgnoringIndent, s.at(documentMarker) || s.at(documentEnd) {
                s.take(3, as: .punctuation)
                continue
            }
            if byte == UInt8(ascii: "-"), Bytes.isSpace(s.peek(1)) || s.peek(1) == 0 {
                s.take(1, as: .punctuation)
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                let start = s.pos
                s.pos += 1
                strings.readStringBody(&s, from: start, close: [byte], kind: .string, escapes: byte == UInt8(ascii: "\""),
                                       interpolation: .none, multiline: true)
                if isKeyColon(s, s.pos) {
                    while let last = s.tokens.last, last.start >= start { s.tokens.removeLast() }
                    s.mark(.tag, from: start)
                }
                lineStart = false
                continue
            }
            if (byte == UInt8(ascii: "&") || byte == UInt8(ascii: "*")) && Bytes.isIdentifier(s.peek(1)) {
                let start = s.pos
                s.skip { !Bytes.isSpace($0) && $0 != UInt8(ascii: ",") }
                s.mark(.variable, from: start)
                continue
            }
            if byte == UInt8(ascii: "!"), afterBlank {
                let start = s.pos
                s.skip { !Bytes.isSpace($0) }
                s.mark(.type, from: start)
                continue
            }
            if byte == UInt8(ascii: ":"), isKeyColon(s, s.pos) || s.peek(1) == UInt8(ascii: ":") {
                s.take(1, as: .punctuation)
                lineStart = false
                continue
            }
            if (byte == UInt8(ascii: "|") || byte == UInt8(ascii: ">")), afterBlank {
                // A block scalar: its lines, more indented than the key's, are plain text.
                s.take(1, as: .punctuation)
                s.skip { $0 != 0x0A && !Bytes.isSpace($0) }
                skipBlockScalar(&s)
                continue
            }
            // A plain scalar, or a key when `: ` follows it on the line.
            let start = s.pos
            var index = s.pos
            var keyEnd: Int?
            let keyAllowed = lineStart || s.byte(at: start - 2) == UInt8(ascii: "-") || s.byte(at: start - 1) == UInt8(ascii: "{")
                || s.byte(at: start - 2) == UInt8(ascii: ",") || s.byte(at: start - 2) == UInt8(ascii: "{")
            while index < s.end, s.bytes[index] != 0x0A {
                if keyAllowed, s.bytes[index] == UInt8(ascii: ":"), isKeyColon(s, index + 1) { keyEnd = index; break }
                if s.bytes[index] == UInt8(ascii: "#"), Bytes.isSpace(s.byte(at: index - 1)) { break }
                index += 1
            }
            if let keyEnd {
                var end = keyEnd
                while end > start, Bytes.isSpace(s.bytes[end - 1]) { end -= 1 }
                s.pos = keyEnd
                s.mark(.tag, start, end)
            } else {
                while index > start, Bytes.isSpace(s.bytes[index - 1]) { index -= 1 }
                s.pos = max(index, start + 1)
            }
            lineStart = false
        }
    }

    /// Whether the `:` before `index` ends a key: a blank, a line's end or the end follows it.
    private static func isKeyColon(_ s: Scanner, _ index: Int) -> Bool {
        let colon = s.byte(at: index) == UInt8(ascii: ":") ? index : index - 1
        guard s.byte(at: colon) == UInt8(ascii: ":") else { return false }
        let after = s.byte(at: colon + 1)
        return after == 0 || Bytes.isSpace(after)
    }

    /// Moves past the lines of a block scalar: those indented more than the line it starts on.
    private static func skipBlockScalar(_ s: inout Scanner) {
        var lineStart = s.pos
        while lineStart > 0, s.bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        let indent = s.indexAfterBlanks(lineStart) - lineStart
        s.skipToLineEnd()
        while s.pos < s.end {
            let next = s.pos + 1
            let text = s.indexAfterBlanks(next)
            if text < s.end, s.bytes[text] != 0x0A, text - next <= indent { break }
            s.pos = next
            s.skipToLineEnd()
        }
    }

    private static let documentMarker = Array("---".utf8)
    private static let documentEnd = Array("...".utf8)
}
