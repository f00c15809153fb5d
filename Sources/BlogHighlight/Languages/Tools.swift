extension Languages {
    /// A diff: `+` lines inserted, `-` lines deleted, `@@` hunks and `diff`/`index` headers.
    static let diff = Language(["diff", "patch", "udiff"]) { s in
        while s.pos < s.end {
            let start = s.pos
            let kind: TokenClass?
            switch s.peek() {
            case UInt8(ascii: "+"), UInt8(ascii: ">"): kind = .inserted
            case UInt8(ascii: "-"), UInt8(ascii: "<"): kind = .deleted
            case UInt8(ascii: "@"): kind = .heading
            case UInt8(ascii: "d") where s.at(diffWord), UInt8(ascii: "i") where s.at(indexWord),
                 UInt8(ascii: "I") where s.at(indexWordUpper), UInt8(ascii: "="):
                kind = .heading
            default: kind = nil
            }
            s.skipToLineEnd()
            if s.pos < s.end { s.pos += 1 }
            if let kind { s.mark(kind, from: start) }
        }
    }

    private static let diffWord = Array("diff".utf8)
    private static let indexWord = Array("index".utf8)
    private static let indexWordUpper = Array("Index".utf8)

    /// A Dockerfile: an instruction (`FROM`, `RUN`…) starts a line; the rest of the line, and the
    /// lines a `\` continues, are read as shell; `#` lines are comments.
    static let dockerfile = Language(["dockerfile", "docker", "containerfile"]) { s in
        let shell = ShellLexer(commandPerLine: true)
        while s.pos < s.end {
            s.skip { Bytes.isSpace($0) }
            if s.atEnd { break }
            let start = s.pos
            if s.peek() == UInt8(ascii: "#") {
                s.skipToLineEnd()
                s.mark(.comment, from: start)
                continue
            }
            s.skipIdentifier()
            if dockerInstructions.lookup(s.bytes, start..<s.pos) != nil { s.mark(.keyword, from: start) }
            shell.run(&s)
        }
    }

    private static let dockerInstructions = WordTable([(.keyword, """
        from run cmd label maintainer expose env add copy entrypoint volume user workdir arg onbuild stopsignal
        healthcheck shell as
        """)], ignoringCase: true)

    /// A Makefile: `target:` lines, `NAME = value` assignments, `$(VARIABLES)`, directives
    /// (`include`, `ifeq`…), `#` comments; recipe lines (starting with a tab) read as shell.
    static let makefile = Language(["makefile", "make", "mf", "bsdmake", "gnumake", "mk"]) { s in
        let shell = ShellLexer(commandPerLine: true)
        while s.pos < s.end {
            if s.peek() == 0x09 {
                shell.run(&s)
                continue
            }
            s.skipBlanks()
            let start = s.pos
            if s.peek() == 0x0A { s.pos += 1; continue }
            if s.peek() == UInt8(ascii: "#") {
                s.skipToLineEnd()
                s.mark(.comment, from: start)
                continue
            }
            s.skip { Bytes.isIdentifier($0) || "-./%$()".utf8.contains($0) }
            let word = start..<s.pos
            if makeDirectives.lookup(s.bytes, word) != nil {
                s.mark(.keyword, from: start)
            } else {
                let after = s.indexAfterBlanks(s.pos)
                let next = s.byte(at: after)
                if next == UInt8(ascii: "=") || ((next == UInt8(ascii: ":") || next == UInt8(ascii: "?") || next == UInt8(ascii: "+"))
                    && s.byte(at: after + 1) == UInt8(ascii: "=")) {
                    s.mark(.variable, start, word.upperBound)
                } else if next == UInt8(ascii: ":") {
                    s.mark(.function, start, word.upperBound)
                }
            }
            // The rest of the line: variables, comments.
            while s.pos < s.end, s.bytes[s.pos] != 0x0A {
                let here = s.pos
                if s.peek() == UInt8(ascii: "$"), s.peek(1) == UInt8(ascii: "(") || s.peek(1) == UInt8(ascii: "{") {
                    let close = s.peek(1) == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
                    while s.pos < s.end, s.bytes[s.pos] != close, s.bytes[s.pos] != 0x0A { s.pos += 1 }
                    s.pos = min(s.pos + 1, s.end)
                    s.mark(.variable, from: here)
                } else if s.peek() == UInt8(ascii: "#") {
                    s.skipToLineEnd()
                    s.mark(.comment, from: here)
                } else if "=:".utf8.contains(s.peek()) {
                    s.take(1, as: .operator)
                } else {
                    s.pos += 1
                }
            }
        }
    }

    private static let makeDirectives = WordTable([(.keyword, """
        include -include sinclude ifeq ifneq ifdef ifndef else endif define endef export unexport override vpath
        """)])
}
