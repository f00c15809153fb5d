/// A string literal's form in a language's rules.
struct StringRule: Sendable {
    /// How an interpolation opens inside the string.
    enum Interpolation: Sendable {
        /// No interpolation.
        case none
        /// `\(` … `)` (Swift).
        case backslashParen
        /// `{` … `}`, `{{` being an escaped brace (Python's f-strings).
        case braces
        /// `${` … `}` (JavaScript templates, Kotlin, Groovy); `$name` too when `dollarNames`.
        case dollarBrace(dollarNames: Bool)
        /// `#{` … `}` (Ruby, CoffeeScript).
        case hashBrace
        /// `$name`, `{$…}` and `${…}` as variables (PHP, Perl): the names are marked as variables.
        case variables
    }

    /// The opening delimiter.
    var open: [UInt8]
    /// The closing delimiter.
    var close: [UInt8]
    /// Whether a backslash escapes the next byte.
    var escapes = true
    /// The interpolation inside.
    var interpolation = Interpolation.none
    /// Whether the string may run over lines; else it ends at the line's end.
    var multiline = false
    /// The class of the string's text.
    var kind = TokenClass.string

    /// A string from `open` to `close`.
    init(_ open: String, _ close: String? = nil, escapes: Bool = true, interpolation: Interpolation = .none,
         multiline: Bool = false, kind: TokenClass = .string) {
        self.open = Array(open.utf8)
        self.close = Array((close ?? open).utf8)
        self.escapes = escapes
        self.interpolation = interpolation
        self.multiline = multiline
        self.kind = kind
    }
}

/// The rules of a C-like, Python-like or Ruby-like language: which words are keywords, how
/// comments and strings are written. ``CodeLexer`` reads code by them; a language file fills them in.
struct CodeRules: Sendable {
    /// Keywords, types, builtins.
    var words = WordTable([])
    /// Words after which the next identifier is declared, and what it then is (`def` → function).
    var declarations = WordTable([])
    /// Line comment openers (`//`, `#`, `--`).
    var lineComments: [[UInt8]] = []
    /// Line comment openers that make a doc comment (`///`, `//!`); tried before ``lineComments``.
    var docLineComments: [[UInt8]] = []
    /// The block comment delimiters (`/*`, `*/`).
    var blockComment: (open: [UInt8], close: [UInt8])?
    /// Block comment openers that make a doc comment (`/**`).
    var docBlockComments: [[UInt8]] = []
    /// Whether block comments nest (Swift, Rust, Kotlin).
    var nestedComments = false
    /// String forms, longest opener first.
    var strings: [StringRule] = []
    /// Letters that may come right before a string's opening quote; `r`/`R` makes it raw, `f`/`F`
    /// interpolates `{…}` (Python: `rb"…"`, `f"…"`).
    var stringPrefixes: [UInt8] = []
    /// Whether `#"…"#` (Swift) or `r#"…"#` (Rust) raw strings exist.
    var hashRawStrings = false
    /// Whether `'x'` is a character literal only when short, else `'` starts a name (Rust lifetimes).
    var shortCharacterLiterals = false
    /// Whether `@name` is an attribute or decorator (`@app` of `@app.route`, as Pygments marks it).
    var atAttributes = false
    /// Whether `#[…]` and `#![…]` are attributes (Rust), marked as preprocessor lines are.
    var hashBracketAttributes = false
    /// Whether a `#` starting a line starts a preprocessor line (C).
    var preprocessor = false
    /// Bytes that start a variable name (`$` in PHP).
    var variablePrefixes: [UInt8] = []
    /// Whether `$` and digits are one name (Swift's closure arguments `$0`, `$1`), as Pygments reads them.
    var dollarArguments = false
    /// Whether a name starting with an upper-case letter is a type.
    var capitalizedTypes = false
    /// Bytes that may end an identifier besides identifier bytes (`?`, `!` in Ruby).
    var identifierSuffixes: [UInt8] = []
    /// Bytes within identifiers besides letters and digits (`$` in JavaScript, `-` in CSS).
    var identifierExtras: [UInt8] = []
    /// Whether a name after a type or another name and before `(` is a function being declared
    /// (`int main(`, `public void run(`), as Pygments reads C and Java.
    var declarationsBeforeParentheses = false
    /// Whether a triple-quoted string starting a line is a docstring (Python).
    var docstrings = false
    /// Whether `:name` is a symbol, marked as a string (Ruby).
    var symbols = false
    /// Whether a key (a name, dotted or dashed, or a quoted string) starting a line and followed by
    /// `=` is marked as a key (TOML, INI), and a `[table]` line's brackets and name as a keyword.
    var keyLines = false
    /// Operator bytes.
    var operators: [UInt8] = []
    /// Punctuation bytes.
    var punctuation: [UInt8] = []

    /// Byte → class of operator and punctuation bytes.
    fileprivate var symbolTable: [TokenClass?] {
        var table = [TokenClass?](repeating: nil, count: 256)
        for byte in operators { table[Int(byte)] = .operator }
        for byte in punctuation { table[Int(byte)] = .punctuation }
        return table
    }
}

/// Reads code by a language's ``CodeRules``.
struct CodeLexer: Sendable {
    let rules: CodeRules
    private let symbols: [TokenClass?]
    /// The bytes an identifier may start with: ``Bytes/isIdentifierStart(_:)`` and the language's extras.
    private let identifierStarts: ByteSet
    /// The bytes of an identifier: ``Bytes/isIdentifier(_:)`` and the language's extras.
    private let identifierBytes: ByteSet
    /// The bytes a string may start with (quotes, prefix letters, `#`, `r`), and a comment: most
    /// bytes start neither, and are not asked about each form.
    private let startsString: ByteSet
    private let startsComment: ByteSet
    /// Both: a byte in neither is asked once, not twice.
    private let startsStringOrComment: ByteSet
    /// The bytes ``lexSpecial(_:)`` may read something at (`@`, `#`, `$`, `:`, a variable's prefix).
    private let startsSpecial: ByteSet

    /// A lexer for `rules`.
    init(_ rules: CodeRules) {
        self.rules = rules
        symbols = rules.symbolTable
        identifierStarts = ByteSet((0...255).filter { Bytes.isIdentifierStart($0) } + rules.identifierExtras)
        identifierBytes = ByteSet((0...255).filter { Bytes.isIdentifier($0) } + rules.identifierExtras)
        let stringStarts = rules.strings.compactMap(\.open.first) + rules.stringPrefixes + (rules.hashRawStrings ? Array("#r".utf8) : [])
        let commentStarts = (rules.lineComments + rules.docLineComments + rules.docBlockComments).compactMap(\.first)
            + (rules.blockComment.map { [$0.open[0]] } ?? [])
        startsString = ByteSet(stringStarts)
        startsComment = ByteSet(commentStarts)
        startsStringOrComment = ByteSet(stringStarts + commentStarts)
        startsSpecial = ByteSet(rules.variablePrefixes + (rules.atAttributes ? Array("@".utf8) : [])
            + (rules.hashBracketAttributes || rules.preprocessor ? Array("#".utf8) : [])
            + (rules.dollarArguments ? Array("$".utf8) : []) + (rules.symbols ? Array(":".utf8) : []))
    }

    /// Reads the code from the cursor to the end, or, when `closer` is given, to the `closer`
    /// that closes the interpolation it is in (left unread), brackets nesting.
    func run(_ s: inout Scanner, closer: UInt8? = nil) {
        var depth = 0
        var pending: TokenClass?
        // Where the last name that may be a declaration's type ended, or -1.
        var typeEnd = -1
        let opener: UInt8 = closer == UInt8(ascii: ")") ? UInt8(ascii: "(") : UInt8(ascii: "{")
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if let closer {
                if byte == opener { depth += 1 }
                if byte == closer {
                    if depth == 0 { return }
                    depth -= 1
                }
            }
            if Bytes.isSpace(byte) {
                // A run of spaces at once: none is a closer or an opener.
                repeat { s.pos += 1 } while s.pos < s.end && Bytes.isSpace(s.bytes[s.pos])
                continue
            }
            if rules.keyLines, s.atLineStartIgnoringIndent, lexKeyLine(&s) { continue }
            let name = identifierStarts.contains(byte)
            if !name, byte != UInt8(ascii: "*"), byte != UInt8(ascii: "&") { typeEnd = -1 }
            if startsStringOrComment.contains(byte),
               startsComment.contains(byte) && lexComment(&s) || startsString.contains(byte) && lexString(&s) {
                pending = nil
                continue
            }
            if Bytes.isDigit(byte) || (byte == UInt8(ascii: ".") && Bytes.isDigit(s.peek(1))) {
                lexNumber(&s)
                pending = nil
                continue
            }
            if name {
                (pending, typeEnd) = lexIdentifier(&s, pending: pending, typeEnd: typeEnd)
                continue
            }
            if startsSpecial.contains(byte), lexSpecial(&s) { pending = nil; continue }
            if let kind = symbols[Int(byte)] {
                s.take(1, as: kind)
                // Generic arguments and the like keep a declaration pending: `func f<T>` marks f, not T.
                continue
            }
            s.pos += 1
        }
    }

    /// Reads a comment at the cursor, if one starts there.
    private func lexComment(_ s: inout Scanner) -> Bool {
        guard startsComment.contains(s.peek()) else { return false }
        let start = s.pos
        for opener in rules.docLineComments where s.at(opener) {
            s.skipToLineEnd()
            s.mark(.docComment, from: start)
            return true
        }
        for opener in rules.lineComments where s.at(opener) {
            s.skipToLineEnd()
            s.mark(.comment, from: start)
            return true
        }
        if let block = rules.blockComment, s.at(block.open) {
            let doc = rules.docBlockComments.contains { s.at($0) && !s.at(block.close, start + $0.count - 1) }
            s.pos += block.open.count
            var depth = 1
            while s.pos < s.end {
                if s.at(block.close) {
                    s.pos += block.close.count
                    depth -= 1
                    if depth == 0 { break }
                } else if rules.nestedComments, s.at(block.open) {
                    s.pos += block.open.count
                    depth += 1
                } else {
                    s.pos += 1
                }
            }
            s.mark(doc ? .docComment : .comment, from: start)
            return true
        }
        return false
    }

    /// Reads a string at the cursor (with its prefix letters or raw `#`s), if one starts there.
    private func lexString(_ s: inout Scanner) -> Bool {
        guard startsString.contains(s.peek()) else { return false }
        let start = s.pos
        var index = s.pos
        var raw = false, formatted = false
        if !rules.stringPrefixes.isEmpty, Bytes.isIdentifierStart(s.byte(at: index)),
           !Bytes.isIdentifier(s.byte(at: index - 1)) {
            while index < s.end, rules.stringPrefixes.contains(s.bytes[index]), index - start < 3 {
                let lower = s.bytes[index] | 0x20
                if lower == UInt8(ascii: "r") { raw = true }
                if lower == UInt8(ascii: "f") { formatted = true }
                index += 1
            }
            // Letters before no quote are a name (or Rust's `r#"…"#`, read below).
            if !(s.byte(at: index) == UInt8(ascii: "\"") || s.byte(at: index) == UInt8(ascii: "'")) {
                index = start
                raw = false
                formatted = false
            }
        }
        var hashes = 0
        if rules.hashRawStrings, index == start {
            // Swift's `#"…"#` (escapes are `\#`) and Rust's `r"…"`, `r#"…"#` (no escapes).
            var quote = index
            if s.byte(at: quote) == UInt8(ascii: "r"), !Bytes.isIdentifier(s.byte(at: quote - 1)),
               s.byte(at: quote + 1) == UInt8(ascii: "#") || s.byte(at: quote + 1) == UInt8(ascii: "\"") {
                quote += 1
                raw = true
            }
            while s.byte(at: quote + hashes) == UInt8(ascii: "#") { hashes += 1 }
            if quote > index || hashes > 0 {
                guard s.byte(at: quote + hashes) == UInt8(ascii: "\"") else { return false }
                index = quote + hashes
            }
        }
        guard let rule = rules.strings.first(where: { s.at($0.open, index) }) else { return false }
        if rules.shortCharacterLiterals, rule.open == [UInt8(ascii: "'")], !isCharacterLiteral(s, index) { return false }
        let doc = rules.docstrings && rule.open.count == 3 && s.atLineStartIgnoringIndent
        s.pos = index + rule.open.count
        var close = rule.close
        if hashes > 0 { close += [UInt8](repeating: UInt8(ascii: "#"), count: hashes) }
        let kind = doc ? TokenClass.docComment : rule.kind
        var interpolation = rule.interpolation
        if formatted { interpolation = .braces }
        if raw || doc { interpolation = .none }
        readStringBody(&s, from: start, close: close, kind: kind, escapes: rule.escapes && !raw && hashes == 0,
                       escapeHashes: raw ? 0 : hashes, interpolation: interpolation, multiline: rule.multiline || hashes > 0)
        return true
    }

    /// Whether the `'` at `index` opens a character literal: `'a'`, `'\n'`, `'\u{1F600}'`, not `'a`.
    private func isCharacterLiteral(_ s: Scanner, _ index: Int) -> Bool {
        var next = index + 1
        if s.byte(at: next) == UInt8(ascii: "\\") {
            next += 2
            while next < s.end, next - index < 12, s.bytes[next] != UInt8(ascii: "'"), s.bytes[next] != 0x0A { next += 1 }
            return s.byte(at: next) == UInt8(ascii: "'")
        }
        // One character, of up to four bytes.
        next += 1
        while next < s.end, s.bytes[next] & 0xC0 == 0x80 { next += 1 }
        return s.byte(at: next) == UInt8(ascii: "'")
    }

    /// Reads a string's body from the cursor to `close`, marking escapes and interpolations.
    func readStringBody(_ s: inout Scanner, from start: Int, close: [UInt8], kind: TokenClass, escapes: Bool,
                        escapeHashes: Int = 0, interpolation: StringRule.Interpolation, multiline: Bool) {
        var textStart = start
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if s.at(close) {
                s.pos += close.count
                break
            }
            if byte == 0x0A, !multiline { break }
            if byte == UInt8(ascii: "\\"), escapes || (escapeHashes > 0 && hashesFollow(s, escapeHashes)) {
                let escapeStart = s.pos
                s.pos += 1 + escapeHashes
                if case .backslashParen = interpolation, s.peek() == UInt8(ascii: "(") {
                    s.mark(kind, textStart, escapeStart)
                    s.pos += 1
                    s.mark(.interpolation, from: escapeStart)
                    interpolate(&s, closer: UInt8(ascii: ")"))
                    textStart = s.pos
                    continue
                }
                if s.pos < s.end { s.pos += 1 }
                if s.byte(at: s.pos - 1) == UInt8(ascii: "u") && s.peek() == UInt8(ascii: "{") {
                    while s.pos < s.end, s.bytes[s.pos] != UInt8(ascii: "}"), s.bytes[s.pos] != 0x0A { s.pos += 1 }
                    if s.pos < s.end { s.pos += 1 }
                }
                s.mark(kind, textStart, escapeStart)
                s.mark(.escape, from: escapeStart)
                textStart = s.pos
                continue
            }
            if case .braces = interpolation, s.at(Self.doubleOpen) || s.at(Self.doubleClose) {
                // `{{` and `}}` in an f-string are braces, not an interpolation.
                s.mark(kind, textStart, s.pos)
                s.take(2, as: .escape)
                textStart = s.pos
                continue
            }
            if let opened = interpolationOpener(s, interpolation) {
                s.mark(kind, textStart, s.pos)
                if opened.closer == 0 {
                    // `$name`: a variable.
                    let nameStart = s.pos
                    s.pos += 1
                    if s.peek() == UInt8(ascii: "{") { s.pos += 1 }
                    s.skipIdentifier()
                    if s.byte(at: nameStart + 1) == UInt8(ascii: "{"), s.peek() == UInt8(ascii: "}") { s.pos += 1 }
                    s.mark(opened.kind, from: nameStart)
                } else {
                    let markStart = s.pos
                    s.pos += opened.length
                    s.mark(.interpolation, from: markStart)
                    interpolate(&s, closer: opened.closer)
                }
                textStart = s.pos
                continue
            }
            s.pos += 1
        }
        s.mark(kind, textStart, s.pos)
    }

    /// Whether `count` `#`s follow the backslash at the cursor (an escape in `#"…"#`).
    private func hashesFollow(_ s: Scanner, _ count: Int) -> Bool {
        for offset in 1...count where s.peek(offset) != UInt8(ascii: "#") { return false }
        return true
    }

    /// The interpolation that opens at the cursor: its opener's length and closer (0 for a `$name`
    /// variable, marked as `kind`).
    private func interpolationOpener(_ s: Scanner, _ interpolation: StringRule.Interpolation)
        -> (length: Int, closer: UInt8, kind: TokenClass)? {
        let byte = s.peek(), next = s.peek(1)
        switch interpolation {
        case .none, .backslashParen:
            return nil
        case .braces:
            guard byte == UInt8(ascii: "{") else { return nil }
            return next == UInt8(ascii: "{") ? nil : (1, UInt8(ascii: "}"), .interpolation)
        case .dollarBrace(let dollarNames):
            guard byte == UInt8(ascii: "$") else { return nil }
            if next == UInt8(ascii: "{") { return (2, UInt8(ascii: "}"), .interpolation) }
            return dollarNames && Bytes.isIdentifierStart(next) ? (1, 0, .interpolation) : nil
        case .hashBrace:
            return byte == UInt8(ascii: "#") && next == UInt8(ascii: "{") ? (2, UInt8(ascii: "}"), .interpolation) : nil
        case .variables:
            guard byte == UInt8(ascii: "$"), Bytes.isIdentifierStart(next) || next == UInt8(ascii: "{") else { return nil }
            return (1, 0, .variable)
        }
    }

    /// Reads the code of an interpolation up to `closer`, and the closer.
    private func interpolate(_ s: inout Scanner, closer: UInt8) {
        run(&s, closer: closer)
        if s.peek() == closer { s.take(1, as: .interpolation) }
    }

    /// Reads a number: digits, letters (hex, exponents, suffixes), `_`, and a `.` before a digit.
    private func lexNumber(_ s: inout Scanner) {
        let start = s.pos
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if Bytes.isIdentifier(byte) && byte < 0x80 {
                s.pos += 1
                if (byte | 0x20) == UInt8(ascii: "e"), s.peek() == UInt8(ascii: "+") || s.peek() == UInt8(ascii: "-"),
                   Bytes.isDigit(s.peek(1)), !(s.bytes[start] == UInt8(ascii: "0") && (s.byte(at: start + 1) | 0x20) == UInt8(ascii: "x")) {
                    s.pos += 1
                }
            } else if byte == UInt8(ascii: "."), Bytes.isDigit(s.peek(1)) {
                s.pos += 1
            } else {
                break
            }
        }
        s.mark(.number, from: start)
    }

    /// Reads an identifier and marks it by the word table or the pending declaration; returns the
    /// declaration the word makes pending for the next identifier, and where it ended if it may be
    /// a declaration's type (-1 if not).
    private func lexIdentifier(_ s: inout Scanner, pending: TokenClass?, typeEnd: Int) -> (TokenClass?, Int) {
        let start = s.pos
        var end = start + 1
        while end < s.end, identifierBytes.contains(s.bytes[end]) { end += 1 }
        s.pos = end
        if !rules.identifierSuffixes.isEmpty, rules.identifierSuffixes.contains(s.peek()), s.peek(1) != UInt8(ascii: "=") {
            s.pos += 1
        }
        // A builtin's name after `.` is a member's (`x.format`, `self.id`), as Pygments reads it.
        if let kind = rules.words.lookup(s.bytes, start..<s.pos),
           kind != .builtin || s.byte(at: start - 1) != UInt8(ascii: ".") || s.byte(at: start - 2) == UInt8(ascii: ".") {
            s.mark(kind, from: start)
            return (rules.declarations.lookup(s.bytes, start..<s.pos), kind == .type || kind == .builtin ? s.pos : -1)
        }
        if let pending {
            s.mark(pending, from: start)
        } else if rules.declarationsBeforeParentheses, typeEnd >= 0, s.byte(at: s.indexAfterBlanks(s.pos)) == UInt8(ascii: "(") {
            s.mark(.function, from: start)
            return (nil, -1)
        } else if rules.capitalizedTypes, Bytes.isUpper(s.bytes[start]) {
            s.mark(.type, from: start)
        }
        return (nil, s.pos)
    }

    /// Reads what only some languages have: attributes, preprocessor lines, variables, symbols, keys.
    private func lexSpecial(_ s: inout Scanner) -> Bool {
        let byte = s.peek()
        let start = s.pos
        if rules.atAttributes, byte == UInt8(ascii: "@"), Bytes.isIdentifierStart(s.peek(1)) {
            s.pos += 1
            s.skipIdentifier()
            s.mark(.attribute, from: start)
            return true
        }
        if rules.hashBracketAttributes, byte == UInt8(ascii: "#"),
           s.peek(1) == UInt8(ascii: "[") || (s.peek(1) == UInt8(ascii: "!") && s.peek(2) == UInt8(ascii: "[")) {
            var depth = 0
            while s.pos < s.end {
                let current = s.bytes[s.pos]
                s.pos += 1
                if current == UInt8(ascii: "[") { depth += 1 }
                if current == UInt8(ascii: "]") { depth -= 1; if depth == 0 { break } }
            }
            s.mark(.preprocessor, from: start)
            return true
        }
        if rules.preprocessor, byte == UInt8(ascii: "#"), s.atLineStartIgnoringIndent {
            while s.pos < s.end {
                if s.bytes[s.pos] == 0x0A {
                    guard s.byte(at: s.pos - 1) == UInt8(ascii: "\\") else { break }
                } else if s.at(Self.slashSlash) || s.at(Self.slashStar) {
                    s.mark(.preprocessor, from: start)
                    _ = lexComment(&s)
                    return true
                }
                s.pos += 1
            }
            s.mark(.preprocessor, from: start)
            return true
        }
        if rules.dollarArguments, byte == UInt8(ascii: "$"), Bytes.isDigit(s.peek(1)) {
            s.pos += 1
            s.skip(while: Bytes.isDigit)
            s.mark(.variable, from: start)
            return true
        }
        if rules.variablePrefixes.contains(byte), Bytes.isIdentifierStart(s.peek(1)) {
            s.pos += 1
            s.skipIdentifier()
            s.mark(.variable, from: start)
            return true
        }
        if rules.symbols, byte == UInt8(ascii: ":"), Bytes.isIdentifierStart(s.peek(1)), s.byte(at: start - 1) != UInt8(ascii: ":") {
            s.pos += 1
            s.skipIdentifier()
            if s.peek() == UInt8(ascii: "?") || s.peek() == UInt8(ascii: "!") { s.pos += 1 }
            s.mark(.string, from: start)
            return true
        }
        return false
    }

    /// Reads a `[table]` header or a `key =` at the cursor (a line's start), if one is there.
    private func lexKeyLine(_ s: inout Scanner) -> Bool {
        let start = s.pos
        if s.peek() == UInt8(ascii: "[") {
            while s.pos < s.end, s.bytes[s.pos] != 0x0A, s.bytes[s.pos] != UInt8(ascii: "#") { s.pos += 1 }
            while s.pos > start, Bytes.isSpace(s.bytes[s.pos - 1]) { s.pos -= 1 }
            s.mark(.keyword, from: start)
            return true
        }
        var index = start
        while index < s.end, Bytes.isIdentifier(s.bytes[index]) || "-.\"' ".utf8.contains(s.bytes[index]) { index += 1 }
        guard index > start, s.byte(at: index) == UInt8(ascii: "=") else { return false }
        var keyEnd = index
        while keyEnd > start, Bytes.isSpace(s.bytes[keyEnd - 1]) { keyEnd -= 1 }
        s.mark(.tag, start, keyEnd)
        s.pos = index
        return true
    }

    private static let doubleOpen = Array("{{".utf8)
    private static let doubleClose = Array("}}".utf8)
    private static let slashSlash = Array("//".utf8)
    private static let slashStar = Array("/*".utf8)
}
