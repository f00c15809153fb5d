@testable import BlogCore
@testable import BlogHighlight
@testable import BlogMarkdown
import Dispatch
import Synchronization
import XCTest

/// The highlighter's fast paths against the plain way of doing the same: the HTML writer (one look
/// at each byte, spans closed at line feeds) against the code cut at its tokens and line feeds and
/// escaped by `Escaping.html`; the word tables against a dictionary; the byte sets against a `Set`;
/// a language's lexer made at first use, from several threads, against one made directly; an info
/// string's first word read from its bytes against the word of `Character`s.
final class HighlighterFastPathTests: XCTestCase {
    /// Code with what the fast paths must get right: non-ASCII names and text, strings with escapes
    /// and entities, a keyword as the prefix of a name, nested and multi-line comments, the longest
    /// word and a longer name, empty code, lone and doubled line feeds, CRLF line ends.
    private let samples = [
        "",
        "\n",
        "\n\n",
        "let café = \"naïve\" // 日本語\nlet 名前 = café + \"é\"\n",
        "let s = \"a\\\"b\\\\n <&> \\u{1F600}\"\nprint(\"x\\(s)y\")",
        "letter = iffy + classy; let let_ = self.selfish; x.print; Intx = Int",
        "/* a /* b\n */ c\n */ func f() {}\n/** doc\n */\n",
        "x is CustomStringConvertible && y is CustomStringConvertibleX && z is associatedtype",
        "let x = 1\r\nlet y = \"a\r\nb\"\r\n/* c\r\n */\r\n",
        "a < b && c > d\n\"\"\"\nmulti <line>\n\"\"\" & e\n\n\n",
        "SELECT name FROM t WHERE id = 'a''b'; -- c\nselect Select sElEcT\n",
        "def f(x):\n    \"\"\"Doc\n    <string>.\"\"\"\n    return f\"{x!r} {{y}}\"\n",
        "#include <stdio.h>\nint main(void) { /* a\nb */ return 0; }\n",
        "<p class=\"x\">Hi &amp; <b>bye</b></p>\n<script>let a = \"<b>\";</script>",
        "{\"a\": \"b\\n\", \"c\": [1.5e3, true, null]}",
        "echo \"$HOME ${X:-y}\" 'no $x' # done\ncat <<EOF\n<body>\nEOF\n",
        "key: \"value & <more>\"\nlist:\n  - ä: ö\n",
        "no newline at the end <&>",
    ]
    private let languages = ["swift", "python", "c", "sql", "html", "json", "bash", "yaml", "text"]
    private let lineOptions = [
        Highlighter.Lines(),
        Highlighter.Lines(numbers: true),
        Highlighter.Lines(highlighted: [1, 3]),
        Highlighter.Lines(numbers: true, highlighted: [2, 4, 40]),
    ]

    func testWriterMatchesThePlainWriter() {
        for code in samples {
            for language in languages {
                for lines in lineOptions {
                    XCTAssertEqual(Highlighter.html(code, language: language, lines: lines),
                                   plainHTML(code, language: language, lines: lines),
                                   "\(language) \(lines) \(code.debugDescription)")
                }
            }
        }
    }

    func testWriterPutsBeforeAndAfterAroundTheCode() {
        for code in samples {
            XCTAssertEqual(Highlighter.html(code, language: "swift", before: "<pre><code class=\"x\">", after: "</code></pre>"),
                           "<pre><code class=\"x\">" + Highlighter.html(code, language: "swift") + "</code></pre>")
        }
    }

    /// The HTML of `code`, made the plain way: each token's and each gap's bytes cut at the line feeds,
    /// each piece escaped and (if a token's) put in its span; a line's highlight and number written
    /// before its first piece or its line feed.
    private func plainHTML(_ code: String, language: String, lines: Highlighter.Lines) -> String {
        let bytes = Array(code.utf8)
        let tokens = Highlighter.language(named: language).map { Highlighter.tokens(code, language: $0) } ?? []
        var pieces: [(range: Range<Int>, kind: TokenClass?)] = []
        var position = 0
        for token in tokens {
            pieces.append((position..<token.start, nil))
            pieces.append((token.start..<token.end, token.kind))
            position = token.end
        }
        pieces.append((position..<bytes.count, nil))
        var lineTexts = [""]
        for piece in pieces {
            for (index, part) in bytes[piece.range].split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                if index > 0 { lineTexts.append("") }
                guard !part.isEmpty else { continue }
                let text = Escaping.html(String(decoding: part, as: UTF8.self))
                lineTexts[lineTexts.count - 1] += piece.kind.map { "<span class=\"\($0.name)\">\(text)</span>" } ?? text
            }
        }
        let wraps = lines.numbers || !lines.highlighted.isEmpty
        var html = ""
        for (index, text) in lineTexts.enumerated() {
            let number = index + 1, last = index == lineTexts.count - 1
            let opened = wraps && (!last || !text.isEmpty)
            if opened, lines.highlighted.contains(number) { html += "<span class=\"hll\">" }
            if opened, lines.numbers { html += "<span class=\"ln\">\(number)</span>" }
            html += text
            if !last { html += "\n" }
            if opened, lines.highlighted.contains(number) { html += "</span>" }
        }
        return html
    }

    func testWordTableMatchesADictionary() {
        let groups: [(TokenClass, String)] = [
            (.keyword, "if let letter in inout CustomStringConvertible a café"),
            (.builtin, "print let Int Int8 self\nselfish"),
            (.type, "IF Select"),
        ]
        for ignoringCase in [false, true] {
            let table = WordTable(groups, ignoringCase: ignoringCase)
            var plain: [String: TokenClass] = [:]
            for (kind, list) in groups {
                for word in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                    let key = ignoringCase ? word.lowercased() : String(word)
                    if plain[key] == nil { plain[key] = kind }
                }
            }
            var names = ["", "i", "l", "le", "lett", "letters", "Let", "LET", "If", "iF", "int", "INT", "Int8x", "int8",
                         "CustomStringConvertibleX", "customstringconvertible", "CAFÉ", "Café", "cafe", "é", "select", "SELECT"]
            for word in plain.keys {
                names += [word, word.uppercased(), String(word.dropLast()), word + "x", "x" + word]
            }
            for name in names {
                let bytes = Array(("(" + name + ")").utf8)
                let found = bytes.withUnsafeBufferPointer { table.lookup($0, 1..<(bytes.count - 1)) }
                var key = name
                if ignoringCase {
                    // The table lower-cases ASCII letters only; a word's other letters match as written.
                    key = String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                }
                XCTAssertEqual(found, plain[key], "\(name) ignoringCase: \(ignoringCase)")
            }
        }
    }

    func testByteSetMatchesASet() {
        for members in [[], [0], [UInt8(ascii: "$")], [127, 128], [0, 63, 64, 127, 128, 191, 192, 255], Array("#r\"'".utf8)] as [[UInt8]] {
            let set = ByteSet(members), plain = Set(members)
            for byte in 0...255 {
                XCTAssertEqual(set.contains(UInt8(byte)), plain.contains(UInt8(byte)), "\(byte) in \(members)")
            }
        }
    }

    func testLexerMadeAtFirstUseFromSeveralThreadsMatchesOneMadeDirectly() {
        let rules = CodeRules(
            words: WordTable([(.keyword, "func let if"), (.builtin, "print")]),
            declarations: WordTable([(.function, "func"), (.variable, "let")]),
            lineComments: [Array("//".utf8)],
            blockComment: (Array("/*".utf8), Array("*/".utf8)),
            nestedComments: true,
            strings: [StringRule("\"", interpolation: .backslashParen)],
            operators: Array("+-*/=<>".utf8),
            punctuation: Array("(){},;".utf8)
        )
        let code = "func f() { let x = \"a\\(y)\\n\" /* c /* d */ */ if x < 1 { print(x) } } // e\n"
        var direct: [Token] = []
        var bytes = code
        bytes.withUTF8 { bytes in
            var scanner = Scanner(bytes)
            CodeLexer(rules).run(&scanner)
            direct = scanner.tokens
        }
        XCTAssertGreaterThan(direct.count, 10)
        let language = Language(["made-at-first-use"], rules: rules)
        let results = Mutex<[[Token]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let tokens = Highlighter.tokens(code, language: language)
            results.withLock { $0.append(tokens) }
        }
        let all = results.withLock { $0 }
        XCTAssertEqual(all.count, 8)
        for tokens in all { XCTAssertEqual(tokens, direct) }
    }

    /// The lexer takes a run of spaces and tabs at once (none closes an interpolation or opens a bracket) and asks
    /// one byte set whether a byte may start a string or a comment: the tokens of code whose blanks are one space
    /// each are those of the same code with each of those spaces a run of one to nine spaces and tabs (each token's
    /// text read with its runs as one space), in every language a ``CodeLexer`` reads, for code with non-ASCII names,
    /// a keyword as a name's prefix, strings with escapes and interpolations, comments, CRLF line ends and none.
    func testRunsOfBlanksPartTokensAsOneSpaceDoes() {
        let code = [
            "",
            " ",
            "let café = \"naïve é\" // 日本語 x\nlet 名前 = café + \"é\" ;",
            "let s = \"a \\\" b \\\\n <&> \\u{1F600}\" ;\nprint( \"x \\( s ) y\" ) ;",
            "letter = iffy + classy ; let let_ = self.selfish ; x.print ; Intx = Int ; if x { return }",
            "/* a /* b\n */ c\n */ func f ( ) { }\n/** doc\n */ int main ( void ) { return 0 ; }",
            "let x = 1\r\nlet y = \"a b\"\r\n/* c d\r\n */ x = y\r\n",
            "def f ( x ) :\n  return f\"{ x !r } {{y}}\" + \"#{ b }\" + `${ a } $c`",
            "SELECT name FROM t WHERE id = 'a''b' ; -- c d\nselect Select sElEcT ;",
            "$x = $y . \"$z { $w }\" ; :sym @attr ( a , b ) ; # c d\nfn main ( ) { let r = r#\"a b\"# ; }",
        ]
        var seed: UInt64 = 0xB1A7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        func read(_ code: String, _ language: Language) -> [String] {
            let bytes = Array(code.utf8)
            return Highlighter.tokens(code, language: language).map { token in
                let text = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
                return "\(token.kind) " + text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            }
        }
        for name in ["swift", "c", "java", "javascript", "typescript", "go", "rust", "kotlin", "ruby", "php", "python", "sql", "css"] {
            let language = Highlighter.language(named: name)!
            for sample in code {
                for _ in 0..<8 {
                    let blanks = sample.split(separator: " ", omittingEmptySubsequences: false).enumerated().map { index, part in
                        (index == 0 ? "" : String((0..<1 + next(9)).map { _ in next(3) == 0 ? "\t" : " " })) + part
                    }.joined()
                    XCTAssertEqual(read(blanks, language), read(sample, language), "\(name) \(blanks.debugDescription)")
                }
            }
        }
    }

    func testInfoStringWordMatchesTheWordOfCharacters() {
        let infos = ["", "swift", "Swift, nocopy", "swift,nocopy", "python3 hl_lines=\"1 3\"", "c++\tlinenos=true", " swift",
                     ",swift", "swift,", "swift ", "js\u{0B}x", "sh\u{0C}x", "sh\rx", "swift\r\nx", "go\u{1C}x",
                     "pytho\u{301}n x", "swift \u{301}x", "swift,\u{301}x", "swift\u{A0}x", "swift\u{2003}x", "объект x",
                     "Ünïcode", "MERMAID", "x\u{85}y"]
        for info in infos {
            let rest = info.drop { !$0.isWhitespace && $0 != "," }
            let split = CodeBlockStyle.splitInfo(info)
            XCTAssertEqual(split.word, info[..<rest.startIndex], info.debugDescription)
            XCTAssertEqual(split.rest, rest, info.debugDescription)
        }
    }
}
