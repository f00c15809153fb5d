@testable import BlogHighlight
@testable import BlogMarkdown
import XCTest

/// The highlighter on the hard cases of each language: nested comments, interpolation, raw and
/// multi-line strings, heredocs, decorators and docstrings, keys and values, embedded scripts,
/// console prompts; and its HTML (escaping, line numbers, highlighted lines).
final class HighlighterTests: XCTestCase {
    /// The tokens of `code` in `language`, as `class:text`; plain text left out.
    private func tokens(_ code: String, _ language: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        guard let found = Highlighter.language(named: language) else {
            XCTFail("no language \(language)", file: file, line: line)
            return []
        }
        let bytes = Array(code.utf8)
        return Highlighter.tokens(code, language: found).map {
            "\($0.kind.name):" + String(decoding: bytes[$0.start..<$0.end], as: UTF8.self)
        }
    }

    func testSwiftNestedCommentsInterpolationAndRawStrings() {
        XCTAssertEqual(tokens("/* a /* b */ c */ let x = 1", "swift"),
                       ["c:/* a /* b */ c */", "k:let", "nv:x", "o:=", "m:1"])
        XCTAssertEqual(tokens(#""a\(f(x) + 1)b\n""#, "swift"),
                       [#"s:"a"#, #"si:\("#, "p:(", "p:)", "o:+", "m:1", "si:)", "s:b", #"se:\n"#, #"s:""#])
        // In a raw string `\(` is text and `\#(` interpolates; the quote inside does not end it.
        XCTAssertEqual(tokens(##"#"a "q" \(no) \#(yes)"#"##, "swift"),
                       [##"s:#"a "q" \(no) "##, ##"si:\#("##, "si:)", ##"s:"#"##])
        XCTAssertEqual(tokens("\"\"\"\n  say \"hi\"\n  \"\"\" + s", "swift"),
                       ["s:\"\"\"\n  say \"hi\"\n  \"\"\"", "o:+"])
        XCTAssertEqual(tokens("/// Doc.\n@MainActor func run() {}", "swift"),
                       ["cd:/// Doc.", "nd:@MainActor", "k:func", "nf:run", "p:()", "p:{}"])
        // Closure arguments are one name, as in Pygments; `$` alone stays an operator's neighbour.
        XCTAssertEqual(tokens("xs.map { $0 + $12 }", "swift"), ["o:.", "p:{", "nv:$0", "o:+", "nv:$12", "p:}"])
    }

    func testRustNestedCommentsRawStringsLifetimesAttributes() {
        XCTAssertEqual(tokens("/* x /* y */ z */ fn f<'a>(s: &'a str) -> char { 'c' }", "rust"),
                       ["c:/* x /* y */ z */", "k:fn", "nf:f", "o:<", "o:>", "p:(", "o::", "o:&", "kt:str", "p:)", "o:->",
                        "kt:char", "p:{", "s:'c'", "p:}"])
        XCTAssertEqual(tokens(##"let s = r#"say "hi" \n"#;"##, "rust"),
                       ["k:let", "o:=", ##"s:r#"say "hi" \n"#"##, "p:;"])
        XCTAssertEqual(tokens("#[derive(Debug)]\nstruct P;", "rust"), ["cp:#[derive(Debug)]", "k:struct", "kt:P", "p:;"])
    }

    func testPythonDecoratorsDocstringsFStringsRawStrings() {
        XCTAssertEqual(tokens("@app.route(\"/\")\ndef index():\n    \"\"\"Doc\n    string.\"\"\"\n", "python"),
                       ["nd:@app", "o:.", "p:(", "s:\"/\"", "p:)", "k:def", "nf:index", "p:()", "o::",
                        "cd:\"\"\"Doc\n    string.\"\"\""])
        XCTAssertEqual(tokens("x = f\"{a!r} {{b}} {c['k']}\"", "python"),
                       ["o:=", "s:f\"", "si:{", "o:!", "si:}", "s: ", "se:{{", "s:b", "se:}}", "s: ", "si:{", "p:[",
                        "s:'k'", "p:]", "si:}", "s:\""])
        XCTAssertEqual(tokens(#"re.search(r"\d+\n")"#, "python"), ["o:.", "p:(", #"s:r"\d+\n""#, "p:)"])
        // A triple-quoted string inside an expression is a string, not a docstring.
        XCTAssertEqual(tokens("s = '''a\nb'''", "python"), ["o:=", "s:'''a\nb'''"])
    }

    func testShellVariablesQuotingHeredocs() {
        XCTAssertEqual(tokens(#"echo "$HOME ${X:-y} $(date)" 'no $x' # done"#, "bash"),
                       ["nb:echo", "s:\"", "nv:$HOME", "s: ", "nv:${X:-y}", "s: ", "k:$(", "k:)", "s:\"", "s:'no $x'",
                        "c:# done"])
        XCTAssertEqual(tokens("cat <<'EOF' > out\n$not a var\nEOF\nNAME=1 ls", "sh"),
                       ["s:<<'EOF'", "s:$not a var\nEOF\n", "nv:NAME", "o:=", "m:1"])
        // `#` inside a word is no comment; an apostrophe no quote closes is text.
        XCTAssertEqual(tokens("git log a#b && it's", "shell"), ["p:&&"])
        XCTAssertEqual(tokens("it's Bob's 'quoted'", "bash"), ["s:'s Bob'", "s:'quoted'"])
        XCTAssertEqual(tokens("don't, won't\nshan't", "bash"), ["s:'t, won'"])
    }

    func testConsolePromptsAndOutput() {
        XCTAssertEqual(tokens("$ ls -l\ntotal 0\n(venv) user@host:~/src$ echo hi\nhi\n", "console"),
                       ["gp:$ ", "go:total 0\n", "gp:(venv) user@host:~/src$ ", "nb:echo", "go:hi\n"])
        XCTAssertEqual(tokens("% swift build \\\n  -c release\nok", "shell-session"),
                       ["gp:% ", "se:\\\n", "go:ok"])
    }

    func testJSONAndYAMLKeysVersusValues() {
        XCTAssertEqual(tokens(#"{"a": "b", "c\"d": [1.5e3, true, null]}"#, "json"),
                       ["p:{", #"nt:"a""#, "p::", #"s:"b""#, "p:,", #"nt:"c\"d""#, "p::", "p:[", "m:1.5e3", "p:,", "k:true",
                        "p:,", "k:null", "p:]}"])
        XCTAssertEqual(tokens("key: value: more\nlist:\n  - name: \"x\" # note\n  - plain\nblock: |\n  a: b\n", "yaml"),
                       ["nt:key", "p::", "nt:list", "p::", "p:-", "nt:name", "p::", #"s:"x""#, "c:# note", "p:-",
                        "nt:block", "p::", "p:|"])
    }

    func testHTMLWithScriptAndStyle() {
        XCTAssertEqual(tokens(#"<p class="x">Hi</p><script>let a = "<b>";</script><style>p { color: red }</style><!-- c -->"#, "html"),
                       ["p:<", "nt:p", "na:class", "o:=", #"s:"x""#, "p:>", "p:</", "nt:p", "p:><", "nt:script", "p:>",
                        "k:let", "o:=", #"s:"<b>""#, "p:;</", "nt:script", "p:><", "nt:style", "p:>", "p:{", "p::", "p:}</",
                        "nt:style", "p:>", "c:<!-- c -->"])
    }

    func testTemplates() {
        XCTAssertEqual(tokens(#"<a href="{{ .Permalink }}">{{ if $x }}{# c #}"#, "go-html-template"),
                       ["p:<", "nt:a", "na:href", "o:=", #"s:""#, "cp:{{", "o:.", "cp:}}", #"s:""#, "p:>", "cp:{{", "k:if",
                        "nv:$x", "cp:}}", "c:{# c #}"])
    }

    func testDeclarationsBeforeParentheses() {
        // A name after a type (or a pointer to one) and before `(` is declared; a call is not.
        XCTAssertEqual(tokens("static char *name(int x) { return f(x); }", "c"),
                       ["k:static", "kt:char", "o:*", "nf:name", "p:(", "kt:int", "p:)", "p:{", "k:return", "p:(", "p:);", "p:}"])
        XCTAssertEqual(tokens("public void run() { list.add(1); }", "java"),
                       ["k:public", "kt:void", "nf:run", "p:()", "p:{", "p:.", "p:(", "m:1", "p:);", "p:}"])
    }

    func testOtherLanguagesSmoke() {
        XCTAssertEqual(tokens("#include <stdio.h>\nint main(void) { return 0; }", "c"),
                       ["cp:#include <stdio.h>", "kt:int", "nf:main", "p:(", "kt:void", "p:)", "p:{", "k:return", "m:0", "p:;", "p:}"])
        XCTAssertEqual(tokens("const s = `a ${b} c`; // x", "js"),
                       ["k:const", "o:=", "s:`a ", "si:${", "si:}", "s: c`", "p:;", "c:// x"])
        XCTAssertEqual(tokens("SELECT name FROM t WHERE id = 'a''b'; -- c", "sql"),
                       ["k:SELECT", "k:FROM", "k:WHERE", "o:=", "s:'a''b'", "p:;", "c:-- c"])
        XCTAssertEqual(tokens("+added\n-removed\n@@ -1 +1 @@\n same\n", "diff"),
                       ["gi:+added\n", "gd:-removed\n", "gu:@@ -1 +1 @@\n"])
        XCTAssertEqual(tokens("FROM swift:6.0\nRUN echo \"$X\"\n", "dockerfile"),
                       ["k:FROM", "k:RUN", "nb:echo", "s:\"", "nv:$X", "s:\""])
        XCTAssertEqual(tokens("[server]\nport = 8080 # p\nname = \"x\"\n", "toml"),
                       ["k:[server]", "nt:port", "o:=", "m:8080", "c:# p", "nt:name", "o:=", "s:\"x\""])
        XCTAssertEqual(tokens("puts \"a #{b} c\" if x.empty?", "ruby"),
                       ["k:puts", "s:\"a ", "si:#{", "si:}", "s: c\"", "k:if", "o:."])
        XCTAssertEqual(tokens("func main() { fmt.Println(`raw\\n`) }", "go"),
                       ["k:func", "nf:main", "p:()", "p:{", "p:.", "p:(", "s:`raw\\n`", "p:)", "p:}"])
    }

    func testHTMLEscapesAndKeepsSpansWithinLines() {
        XCTAssertEqual(Highlighter.html("s = '''<a\n&b'''\n", language: "python"),
                       "s <span class=\"o\">=</span> <span class=\"s\">'''&lt;a</span>\n<span class=\"s\">&amp;b'''</span>\n")
        XCTAssertEqual(Highlighter.html("x < 1\n", language: "klingon"), "x &lt; 1\n")
    }

    func testLineNumbersAndHighlightedLines() {
        let lines = Highlighter.Lines(numbers: true, highlighted: [2])
        XCTAssertEqual(Highlighter.html("a\nb\n", language: "text", lines: lines),
                       "<span class=\"ln\">1</span>a\n<span class=\"hll\"><span class=\"ln\">2</span>b\n</span>")
    }

    func testEveryNameSelectsALanguage() {
        for name in ["py", "python3", "sh", "bash", "shell", "zsh", "console", "shell-session", "objc", "objectivec", "c++",
                     "cpp", "js", "javascript", "yml", "dockerfile", "docker", "html", "xml", "go-html-template", "jinja2",
                     "liquid", "swift", "c", "typescript", "json", "yaml", "toml", "css", "rust", "go", "ruby", "php", "java",
                     "kotlin", "sql", "diff", "makefile", "Python"] {
            XCTAssertNotNil(Highlighter.language(named: name), name)
        }
        // `text` and unknown names are shown plain.
        XCTAssertNil(Highlighter.language(named: "text"))
        XCTAssertNil(Highlighter.language(named: "klingon"))
    }
}
