extension Languages {
    /// A console session: lines that start with a prompt (`$ `, `# `, `% `, `user@host:~$ `,
    /// `(venv) $ `) are commands, read as shell up to their end (and the lines a `\` continues);
    /// the other lines are output.
    static let console = Language(["console", "shell-session", "sh-session", "terminal", "shellsession"]) { s in
        let shell = ShellLexer(commandPerLine: true)
        while s.pos < s.end {
            if let promptEnd = ConsolePrompt.end(in: s, lineStart: s.pos) {
                s.take(promptEnd - s.pos, as: .prompt)
                shell.run(&s)
            } else {
                let start = s.pos
                s.skipToLineEnd()
                if s.pos < s.end { s.pos += 1 }
                s.mark(.output, from: start)
            }
        }
    }
}

/// Where a console line's prompt ends, read as Pygments reads prompts (so that the two agree on
/// what is a command): blanks, then a `(venv)` or `[user@host dir]` group, or a word holding `@` or `:`
/// (`user@host:~/src`, perhaps followed by one more word), or a word starting `sh` (`sh-3.2`); then
/// blanks, the sign `$`, `#` or `%`, and the blanks after it.
enum ConsolePrompt {
    /// The end of the prompt of the line at `lineStart`, or nil when it has none.
    static func end(in s: Scanner, lineStart: Int) -> Int? {
        var index = s.indexAfterBlanks(lineStart)
        if s.byte(at: index) == UInt8(ascii: "(") || s.byte(at: index) == UInt8(ascii: "[") {
            let close = s.byte(at: index) == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")
            while index < s.end, s.bytes[index] != close, s.bytes[index] != 0x0A { index += 1 }
            guard s.byte(at: index) == close else { return nil }
            index = s.indexAfterBlanks(index + 1)
        }
        if let sign = signAfterBlanks(s, index) { return s.indexAfterBlanks(sign + 1) }
        // A word like `user@host:~/src` or `sh-3.2`, and perhaps one more word.
        var word = index
        var hostLike = s.at(shWord, index)
        while word < s.end, !Bytes.isSpace(s.bytes[word]), !isSign(s.bytes[word]) {
            if word > index, s.bytes[word] == UInt8(ascii: "@") || s.bytes[word] == UInt8(ascii: ":") { hostLike = true }
            word += 1
        }
        guard hostLike else { return nil }
        if let sign = signAfterBlanks(s, word) { return s.indexAfterBlanks(sign + 1) }
        var second = s.indexAfterBlanks(word)
        while second < s.end, !Bytes.isSpace(s.bytes[second]), !isSign(s.bytes[second]) { second += 1 }
        return signAfterBlanks(s, second).map { s.indexAfterBlanks($0 + 1) }
    }

    /// The index of the sign after the blanks at `index`, if one is there.
    private static func signAfterBlanks(_ s: Scanner, _ index: Int) -> Int? {
        let sign = s.indexAfterBlanks(index)
        return isSign(s.byte(at: sign)) ? sign : nil
    }

    private static func isSign(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "$") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "%")
    }

    private static let shWord = Array("sh".utf8)
}
