extension Languages {
    /// The shell's keywords and builtins.
    static let shellWords = WordTable([
        (.keyword, "if then else elif fi for while until do done case esac function in select return break continue time coproc"),
        (.builtin, """
            echo cd export source alias unalias set unset read eval exec exit test printf pwd shift trap ulimit umask
            wait type local declare readonly let getopts hash command builtin enable logout popd pushd dirs shopt
            bind complete compgen kill jobs fg bg disown history true false
            """),
    ])

    /// Shell (bash, sh, zsh): `$variables`, `${…}` and `$(…)`, quoting (`"…"` interpolates,
    /// `'…'` does not), heredocs, `#` comments at a word's start, `NAME=value` assignments.
    static let shell = Language(["bash", "sh", "shell", "zsh", "ksh", "shellscript", "openrc"]) { ShellLexer().run(&$0) }
}

/// Reads shell code; the console, Dockerfile and Makefile lexers use it for their commands.
struct ShellLexer {
    /// Whether a command ends at its line's end (unless a `\` continues it), quotes too: the
    /// console's commands, a Dockerfile's and a Makefile's lines.
    var commandPerLine = false

    /// Reads from the cursor to the end, or to the `)` that closes a `$(` (left unread) when
    /// `nested`, or past the line's end with ``commandPerLine``.
    func run(_ s: inout Scanner, nested: Bool = false) {
        let lineEnd = commandPerLine
        var depth = 0
        var heredocs: [(delimiter: [UInt8], stripsTabs: Bool)] = []
        var commandStart = true
        var quotesExhausted = false
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            let previous = s.byte(at: s.pos - 1)
            let wordStart = s.pos == 0 || Bytes.isSpace(previous) || ";|&()`=".utf8.contains(previous)
            switch byte {
            case 0x0A:
                s.pos += 1
                if !heredocs.isEmpty {
                    readHeredocs(&s, heredocs)
                    heredocs = []
                }
                if lineEnd, previous != UInt8(ascii: "\\") { return }
                commandStart = true
                continue
            case 0x20, 0x09, 0x0D:
                s.pos += 1
                continue
            case UInt8(ascii: "#") where wordStart:
                let start = s.pos
                s.skipToLineEnd()
                s.mark(.comment, from: start)
                continue
            case UInt8(ascii: "\\"):
                s.take(2, as: .escape)
                continue
            case UInt8(ascii: "'"):
                // A quote no other closes is a character (an apostrophe in prose). Once a search
                // reached the end, no quote after it closes either: prose is not searched again.
                var close = s.pos + 1
                if !quotesExhausted {
                    while close < s.end, s.bytes[close] != UInt8(ascii: "'"), !(commandPerLine && s.bytes[close] == 0x0A) { close += 1 }
                }
                if close < s.end, s.bytes[close] == UInt8(ascii: "'") {
                    s.take(close + 1 - s.pos, as: .string)
                } else {
                    quotesExhausted = close >= s.end
                    s.pos += 1
                }
            case UInt8(ascii: "\""), UInt8(ascii: "`"):
                readQuoted(&s, quote: byte)
            case UInt8(ascii: "$"):
                readDollar(&s)
            case UInt8(ascii: "("):
                depth += 1
                s.take(1, as: .operator)
                commandStart = true
                continue
            case UInt8(ascii: ")"):
                if nested, depth == 0 { return }
                depth -= 1
                s.take(1, as: .operator)
            case UInt8(ascii: "<") where s.peek(1) == UInt8(ascii: "<") && s.peek(2) != UInt8(ascii: "<"):
                if let heredoc = readHeredocStart(&s) { heredocs.append(heredoc) }
            case UInt8(ascii: ";"), UInt8(ascii: "|"), UInt8(ascii: "&"):
                s.take(1, as: .punctuation)
                commandStart = true
                continue
            case UInt8(ascii: "="), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                s.take(1, as: .operator)
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                s.pos += 1
            default:
                readWord(&s, commandStart: commandStart, wordStart: wordStart)
            }
            commandStart = false
        }
    }

    /// Reads a word: a keyword or builtin where a command starts, `NAME=` an assignment, digits
    /// starting a word a number (`4` in `4.17`, as Pygments reads them), anything else plain.
    private func readWord(_ s: inout Scanner, commandStart: Bool, wordStart: Bool) {
        let start = s.pos
        if wordStart, Bytes.isDigit(s.peek()) {
            s.skip(while: Bytes.isDigit)
            if !Bytes.isIdentifier(s.peek()) {
                s.mark(.number, from: start)
                return
            }
            s.pos = start
        }
        s.skip { !Bytes.isSpace($0) && !"=;|&()<>$\"'`\\[]{}".utf8.contains($0) }
        if s.pos == start {
            s.pos += 1
            return
        }
        let range = start..<s.pos
        if wordStart, s.peek() == UInt8(ascii: "="), commandStart || range.allSatisfy({ Bytes.isIdentifier(s.bytes[$0]) }) {
            s.mark(.variable, from: start)
            return
        }
        if wordStart, let kind = Languages.shellWords.lookup(s.bytes, range) {
            s.mark(kind, from: start)
            return
        }
    }

    /// Reads `$name`, `$1`, `$?`, `${…}` (a variable) or `$(…)`, `$((…))` (a command or arithmetic).
    private func readDollar(_ s: inout Scanner) {
        let start = s.pos
        let next = s.peek(1)
        if next == UInt8(ascii: "(") {
            s.pos += next == s.peek(2) ? 3 : 2
            let arithmetic = s.pos - start == 3
            // Marked as keywords, as Pygments does.
            s.mark(.keyword, from: start)
            run(&s, nested: true)
            if s.peek() == UInt8(ascii: ")") {
                s.take(arithmetic && s.peek(1) == UInt8(ascii: ")") ? 2 : 1, as: .keyword)
            }
            return
        }
        s.pos += 1
        if next == UInt8(ascii: "{") {
            while s.pos < s.end, s.bytes[s.pos] != UInt8(ascii: "}"), s.bytes[s.pos] != 0x0A { s.pos += 1 }
            s.pos = min(s.pos + 1, s.end)
        } else if Bytes.isIdentifierStart(next) {
            s.skipIdentifier()
        } else if Bytes.isDigit(next) || "?@#*!$-".utf8.contains(next) {
            s.pos += 1
        } else {
            return
        }
        s.mark(.variable, from: start)
    }

    /// Reads a `"…"` or `` `…` `` string; `$` forms and escapes inside are marked.
    private func readQuoted(_ s: inout Scanner, quote: UInt8) {
        let start = s.pos
        s.pos += 1
        var textStart = start
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if byte == quote {
                s.pos += 1
                break
            }
            if byte == 0x0A, commandPerLine { break }
            if byte == UInt8(ascii: "\\") {
                s.mark(.string, textStart, s.pos)
                let escape = s.pos
                s.pos = min(s.pos + 2, s.end)
                s.mark(.escape, from: escape)
                textStart = s.pos
                continue
            }
            if byte == UInt8(ascii: "$"), quote == UInt8(ascii: "\""),
               Bytes.isIdentifierStart(s.peek(1)) || "({?@#*!$".utf8.contains(s.peek(1)) || Bytes.isDigit(s.peek(1)) {
                s.mark(.string, textStart, s.pos)
                readDollar(&s)
                textStart = s.pos
                continue
            }
            s.pos += 1
        }
        s.mark(.string, textStart, s.pos)
    }

    /// Reads `<<WORD`, `<<-WORD`, `<<'WORD'`, `<<"WORD"` and returns the heredoc's delimiter, or
    /// nil for a `<<` that starts none.
    private func readHeredocStart(_ s: inout Scanner) -> (delimiter: [UInt8], stripsTabs: Bool)? {
        let start = s.pos
        s.pos += 2
        let stripsTabs = s.peek() == UInt8(ascii: "-")
        if stripsTabs { s.pos += 1 }
        s.skipBlanks()
        let quote = s.peek()
        let quoted = quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"")
        if quoted { s.pos += 1 }
        let wordStart = s.pos
        s.skip { Bytes.isIdentifier($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        let word = Array(s.bytes[wordStart..<s.pos])
        if quoted, s.peek() == quote { s.pos += 1 }
        guard !word.isEmpty else {
            s.pos = start + 2
            s.mark(.operator, from: start)
            return nil
        }
        s.mark(.string, from: start)
        return (word, stripsTabs)
    }

    /// Reads the bodies of `heredocs`, from the line after their start, each to its delimiter line.
    private func readHeredocs(_ s: inout Scanner, _ heredocs: [(delimiter: [UInt8], stripsTabs: Bool)]) {
        for heredoc in heredocs {
            let start = s.pos
            while s.pos < s.end {
                var lineStart = s.pos
                if heredoc.stripsTabs { while s.byte(at: lineStart) == 0x09 { lineStart += 1 } }
                s.skipToLineEnd()
                var lineEnd = s.pos
                if s.byte(at: lineEnd - 1) == 0x0D { lineEnd -= 1 }
                if s.pos < s.end { s.pos += 1 }
                if lineEnd - lineStart == heredoc.delimiter.count, s.at(heredoc.delimiter, lineStart) { break }
            }
            s.mark(.string, from: start)
        }
    }
}
