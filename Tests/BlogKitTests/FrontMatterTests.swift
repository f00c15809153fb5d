@testable import BlogContent
@testable import BlogCore
@testable import BlogMarkdown
import XCTest

final class FrontMatterTests: XCTestCase {
    func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (FrontMatter, [Diagnostic])? {
        do {
            return try FrontMatterParser.parse(text, path: "content/posts/a.md")
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    /// The diagnostics of a header that must fail.
    func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        buildFailure({ try FrontMatterParser.parse(text, path: "content/posts/a.md") }, file: file, line: line)
    }

    // MARK: Pelican

    func testPelicanHeader() throws {
        let text = "Title: Restoring view controllers\nDate: 25/11/2016\nTags: Swift; iOS\nStatus: Draft\n\nBody\n"
        let (header, warnings) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.format, .pelican)
        XCTAssertEqual(header.keyOrder, ["title", "date", "tags", "status"])
        XCTAssertEqual(header.fields["title"]?.value, .string("Restoring view controllers"))
        XCTAssertEqual(header.fields["tags"]?.value, .string("Swift; iOS"))
        XCTAssertEqual(header.fields["status"]?.value, .string("Draft"))
        XCTAssertEqual(header.fields["date"]?.line, 2)
        XCTAssertEqual(header.fields["date"]?.column, 7)
        XCTAssertEqual(header.body, "Body\n")
        XCTAssertEqual(header.bodyLine, 6)
        XCTAssertEqual(warnings, [])
    }

    func testPelicanValuesAreTrimmedAndContinued() throws {
        let text = """
        title: A long   \t
            title on two lines
        summary: First line of the summary.
            - a list item
        \tand a tab-indented line
        Empty:
        slug: x

        # Heading
        """
        let (header, _) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.fields["title"]?.value, .string("A long title on two lines"))
        // A summary is markdown: its line breaks are kept.
        XCTAssertEqual(header.fields["summary"]?.value, .string("First line of the summary.\n- a list item\nand a tab-indented line"))
        XCTAssertEqual(header.fields["empty"]?.value, .string(""))
        XCTAssertEqual(header.fields["slug"]?.line, 7)
        XCTAssertEqual(header.body, "# Heading")
        XCTAssertEqual(header.bodyLine, 9)
    }

    func testPelicanContinuationOfAnEmptyValueGetsItsPosition() throws {
        let (header, _) = try XCTUnwrap(parse("Summary:\n    The summary.\n\nBody"))
        XCTAssertEqual(header.fields["summary"]?.value, .string("The summary."))
        XCTAssertEqual(header.fields["summary"]?.line, 2)
        XCTAssertEqual(header.fields["summary"]?.column, 5)
    }

    /// A line that is neither `Key: value`, nor indented, nor blank ends the header and starts the
    /// body, as Python-Markdown reads it; a warning points at it.
    func testPelicanLineThatIsNotAHeaderLineStartsTheBody() throws {
        let (header, warnings) = try XCTUnwrap(parse("Title: Hello\nDate: 2016-11-25\n  not a header line\nTags: a\n\nBody"))
        XCTAssertEqual(header.keyOrder, ["title", "date"])
        XCTAssertEqual(header.body, "  not a header line\nTags: a\n\nBody")
        XCTAssertEqual(header.bodyLine, 3)
        XCTAssertEqual(warnings.map(\.description), [
            "content/posts/a.md:3:3: warning: the header ends here without a blank line: this line is not `Key: value`, so it starts the body, as Python-Markdown reads it; add a blank line before it, or a `:` after its key",
        ])
    }

    func testPelicanBodyRightAfterTheHeader() throws {
        let (header, warnings) = try XCTUnwrap(parse("Title: Hello\n# This is the body\nwith no blank line\n"))
        XCTAssertEqual(header.fields["title"]?.value, .string("Hello"))
        XCTAssertEqual(header.body, "# This is the body\nwith no blank line\n")
        XCTAssertEqual(header.bodyLine, 2)
        XCTAssertEqual(warnings.map(\.line), [2])
        XCTAssertEqual(warnings.map(\.severity), [.warning])
    }

    func testNoHeader() throws {
        for text in ["# A heading\n\nText: with a colon\n", "Just text.\n", "http://example.org is a link\n", "",
                     "https://example.org/\nText.\n", "\nTitle: after a blank line\n", "Title : a space before the colon\n"] {
            let (header, _) = try XCTUnwrap(parse(text))
            XCTAssertEqual(header.format, .none, text)
            XCTAssertEqual(header.body, text)
            XCTAssertEqual(header.bodyLine, 1)
            XCTAssertTrue(header.fields.isEmpty)
        }
    }

    func testRepeatedPelicanKeyWarnsAndTheLastWins() throws {
        let (header, warnings) = try XCTUnwrap(parse("Title: One\ntitle: Two\n\nBody"))
        XCTAssertEqual(header.fields["title"]?.value, .string("Two"))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?.line, 2)
        XCTAssertEqual(warnings.first?.severity, .warning)
    }

    // MARK: YAML

    func testYAMLHeader() throws {
        let text = """

        ---
        layout: post
        Title: "Swift 6: what's new"
        date: 2016-11-25 10:20:00 +0100
        tags:
          - swift
          - ios
        draft: false
        weight: 3
        ratio: 1.5
        nothing: null
        params: {a: 1}
        ---
        Body with a rule:

        ---

        More.
        """
        let (header, warnings) = try XCTUnwrap(parse(text))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(header.format, .yaml)
        XCTAssertEqual(header.keyOrder, ["layout", "title", "date", "tags", "draft", "weight", "ratio", "nothing", "params"])
        XCTAssertEqual(header.fields["title"]?.value, .string("Swift 6: what's new"))
        // Timestamps stay text: the date parser reads them.
        XCTAssertEqual(header.fields["date"]?.value, .string("2016-11-25 10:20:00 +0100"))
        XCTAssertEqual(header.fields["tags"]?.value, .list([.string("swift"), .string("ios")]))
        XCTAssertEqual(header.fields["draft"]?.value, .bool(false))
        XCTAssertEqual(header.fields["weight"]?.value, .int(3))
        XCTAssertEqual(header.fields["ratio"]?.value, .double(1.5))
        XCTAssertEqual(header.fields["nothing"]?.value, .null)
        XCTAssertEqual(header.fields["params"]?.value, .map(["a": .int(1)]))
        // File positions: the file starts with a blank line, so `date` is on line 5.
        XCTAssertEqual(header.fields["date"]?.line, 5)
        XCTAssertEqual(header.fields["date"]?.column, 7)
        XCTAssertEqual(header.fields["tags"]?.line, 7)
        XCTAssertEqual(header.bodyLine, 15)
        XCTAssertEqual(header.body, "Body with a rule:\n\n---\n\nMore.")
    }

    func testYAMLTextFieldsKeepTheirText() throws {
        let (header, _) = try XCTUnwrap(parse("---\ntitle: Yes\nslug: 1.10\ncategory: 2016\nflag: yes\n---\n"))
        XCTAssertEqual(header.fields["title"]?.value, .string("Yes"))
        XCTAssertEqual(header.fields["slug"]?.value, .string("1.10"))
        XCTAssertEqual(header.fields["category"]?.value, .string("2016"))
        XCTAssertEqual(header.fields["flag"]?.value, .bool(true))
    }

    func testYAMLClosedByDots() throws {
        let (header, _) = try XCTUnwrap(parse("---\ntitle: x\n...\nBody\n"))
        XCTAssertEqual(header.fields["title"]?.value, .string("x"))
        XCTAssertEqual(header.body, "Body\n")
        XCTAssertEqual(header.bodyLine, 4)
    }

    func testUnclosedYAMLIsAnErrorAtTheOpeningLine() {
        let diagnostics = failure("\n---\ntitle: x\n\nBody\n")
        XCTAssertEqual(diagnostics.map(\.description), [
            "content/posts/a.md:2:1: error: unclosed front matter: expected a closing `---` line",
        ])
    }

    func testInvalidYAMLPointsIntoTheFile() {
        // The bad flow list is on YAML line 2, file line 3.
        let diagnostics = failure("---\ntitle: x\ntags: [a, b\ndate: 2016-11-25\n---\nBody\n")
        XCTAssertEqual(diagnostics.count, 1)
        let d = diagnostics[0]
        XCTAssertEqual(d.severity, .error)
        XCTAssertTrue(d.message.hasPrefix("invalid YAML:"), d.message)
        // libyaml notices the missing `]` at the next line; the message is at the `[`.
        XCTAssertEqual(d.line, 3, d.description)
        XCTAssertEqual(d.column, 7, d.description)
    }

    func testInvalidYAMLIndentation() {
        // `bad:` inside the plain value of `title` is YAML line 2, file line 3.
        let diagnostics = failure("---\ntitle: x\n  bad: y\n---\n")
        XCTAssertEqual(diagnostics.first?.line, 3, diagnostics.description)
        XCTAssertEqual(diagnostics.first?.column, 6, diagnostics.description)
        XCTAssertTrue(diagnostics.first?.message.contains("mapping values are not allowed") ?? false, diagnostics.description)
        // Not the value's `: `, but an indented key: no quoted line to suggest.
        XCTAssertFalse(diagnostics.first?.message.contains("quotes") ?? true, diagnostics.description)
    }

    func testYAMLThatIsNotAMappingIsAnError() {
        let diagnostics = failure("---\n- a\n- b\n---\nBody")
        XCTAssertEqual(diagnostics.first?.line, 2)
        XCTAssertTrue(diagnostics.first?.message.contains("mapping") ?? false)
    }

    func testRepeatedYAMLKeyWarnsAndTheLastWins() throws {
        let (header, warnings) = try XCTUnwrap(parse("---\ntitle: One\ndate: 2016-11-25\ntitle: Two\n---\nBody"))
        XCTAssertEqual(header.fields["title"]?.value, .string("Two"))
        XCTAssertEqual(header.fields["title"]?.line, 4)
        XCTAssertEqual(header.keyOrder, ["date", "title"])
        XCTAssertEqual(warnings.map(\.line), [4])
        XCTAssertEqual(warnings.first?.severity, .warning)
        XCTAssertTrue(warnings.first?.message.contains("title") ?? false)
        XCTAssertTrue(warnings.first?.message.contains("line 2") ?? false)
    }

    func testKeysDifferingInCaseAreOneKey() throws {
        let (header, warnings) = try XCTUnwrap(parse("---\nTitle: One\ntitle: Two\n---\n"))
        XCTAssertEqual(header.fields["title"]?.value, .string("Two"))
        XCTAssertEqual(warnings.count, 1)
    }

    func testEmptyYAMLHeader() throws {
        let (header, _) = try XCTUnwrap(parse("---\n---\nBody"))
        XCTAssertEqual(header.format, .yaml)
        XCTAssertTrue(header.fields.isEmpty)
        XCTAssertEqual(header.body, "Body")
        XCTAssertEqual(header.bodyLine, 3)
    }

    // MARK: TOML

    func testTOMLHeader() throws {
        let text = """
        +++
        title = "Hugo 0.20"
        tags = ["hugo", "release"]
        draft = true
        date = 2017-04-10T13:53:58-04:00
        local = 2017-04-10T13:53:58
        day = 2017-04-10
        [params]
        x = 1
        +++

        Body
        """
        let (header, _) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.format, .toml)
        XCTAssertEqual(header.keyOrder, ["title", "tags", "draft", "date", "local", "day", "params"])
        XCTAssertEqual(header.fields["title"]?.value, .string("Hugo 0.20"))
        XCTAssertEqual(header.fields["tags"]?.value, .list([.string("hugo"), .string("release")]))
        XCTAssertEqual(header.fields["draft"]?.value, .bool(true))
        // 13:53:58 at -04:00 is 17:53:58 UTC.
        XCTAssertEqual(header.fields["date"]?.value, .date(Date(timeIntervalSince1970: 1_491_846_838)))
        XCTAssertEqual(header.fields["local"]?.value, .string("2017-04-10T13:53:58"))
        XCTAssertEqual(header.fields["day"]?.value, .string("2017-04-10"))
        XCTAssertEqual(header.fields["params"]?.value, .map(["x": .int(1)]))
        XCTAssertEqual(header.fields["date"]?.line, 5)
        XCTAssertEqual(header.fields["date"]?.column, 8)
        XCTAssertEqual(header.bodyLine, 11)
        XCTAssertEqual(header.body, "\nBody")
    }

    func testInvalidTOMLPointsIntoTheFile() {
        let diagnostics = failure("+++\ntitle = \"x\"\ndate = \n+++\nBody")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.line, 3, diagnostics.description)
        XCTAssertTrue(diagnostics.first?.message.hasPrefix("invalid TOML") ?? false)
    }

    /// toml++ aborted the process on these headers (its key parser asserts the name's first character); the first
    /// was found by the fuzzer (`Fuzz/FuzzFencedHeader`), minimized.
    func testTOMLTableHeaderWithoutANameIsAnErrorNotAnAbort() {
        for (header, found, column) in [("[[[x]]]", "`[`", 3), ("[&]", "`&`", 2), ("[[ !]]", "`!`", 4), ("[", "the end of the line", 2)] {
            let diagnostics = failure("+++\ntitle = \"x\"\n\(header)\n+++\nBody")
            XCTAssertEqual(diagnostics.count, 1, header)
            XCTAssertEqual(diagnostics.first?.line, 3, header)
            XCTAssertEqual(diagnostics.first?.column, column, header)
            XCTAssertEqual(diagnostics.first?.message, "invalid TOML: a table name starts with a letter, a digit, `_`, `-` "
                           + "or a quote, not \(found)", header)
        }
    }

    /// toml++ aborted the process on a `}` where a list expects a value (its array parser asserts that what is neither
    /// `,` nor `]` starts a value); found by the fuzzer (`Fuzz/FuzzFencedHeader`: `dia = [` then a line of `}`),
    /// minimized. It is an error with the message toml++ gives for a `,` in that place, naming the `}`.
    func testTOMLBraceWhereAListExpectsAValueIsAnErrorNotAnAbort() {
        let cases = [("x = [}", 2, 6), ("x = [1, }", 2, 9), ("x = [\n  }\n]", 3, 3), ("x = [1, # note\n}", 3, 1),
                     ("x = [[}]]", 2, 7), ("t = { a = [ } }", 2, 13), ("t = \"é\"\nx = [\"é\", }", 3, 11),
                     ("[t]\nx = [\r\n}]", 4, 1)]
        for (toml, line, column) in cases {
            let diagnostics = failure("+++\ntitle = \"x\"\n\(toml)\n+++\nBody")
            XCTAssertEqual(diagnostics.count, 1, toml)
            XCTAssertEqual(diagnostics.first?.line, line + 1, toml)
            XCTAssertEqual(diagnostics.first?.column, column, toml)
            XCTAssertTrue(diagnostics.first?.message.hasPrefix("invalid TOML: ") ?? false, toml)
            XCTAssertTrue(diagnostics.first?.message.hasSuffix("expected value or closing ']', saw '}'") ?? false,
                          diagnostics.description)
        }
    }

    /// A `}` that only looks like one in a list is read as TOML reads it: in a string, after a value, in an inline
    /// table, in a comment, on a line of a multi-line string.
    func testTOMLBracesElsewhereAreReadAsTOMLReadsThem() throws {
        let text = "+++\na = [\"}\", '}'] # [}\nb = [{ x = 1 }, { y = [2] }]\nc = \"\"\"\n[\n}\n\"\"\"\n+++\nBody"
        let (header, _) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.fields["a"]?.value, .list([.string("}"), .string("}")]))
        XCTAssertEqual(header.fields["b"]?.value, .list([.map(["x": .int(1)]), .map(["y": .list([.int(2)])])]))
        XCTAssertEqual(header.fields["c"]?.value, .string("[\n}\n"))
        for toml in ["x = [1 }", "x = }", "x = 1\n}"] {
            let diagnostics = failure("+++\n\(toml)\n+++\nBody")
            XCTAssertEqual(diagnostics.count, 1, toml)
            XCTAssertFalse(diagnostics.first?.message.hasSuffix("expected value or closing ']', saw '}'") ?? true, toml)
        }
    }

    /// A `[` line inside a multi-line string or array is no header: it is read as TOML reads it.
    func testTOMLBracketLinesInsideValuesAreNoHeaders() throws {
        let text = "+++\nsummary = \"\"\"\n[&] is text here\n\"\"\"\npoints = [\n[{ x = 1 }],\n]\n[params]\nx = 1\n+++\nBody"
        let (header, _) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.fields["summary"]?.value, .string("[&] is text here\n"))
        XCTAssertEqual(header.fields["points"]?.value, .list([.list([.map(["x": .int(1)])])]))
        XCTAssertEqual(header.fields["params"]?.value, .map(["x": .int(1)]))
    }

    /// Headers toml++ refuses itself keep its messages.
    func testTOMLHeadersTOMLRefusesKeepItsMessage() {
        for header in ["[ [x]]", "[]", "[\u{3000}x]"] {
            let diagnostics = failure("+++\n\(header)\n+++\nBody")
            XCTAssertEqual(diagnostics.count, 1, header)
            XCTAssertFalse(diagnostics.first?.message.contains("a table name starts with") ?? true, header)
            XCTAssertTrue(diagnostics.first?.message.hasPrefix("invalid TOML") ?? false, header)
        }
    }

    func testUnclosedTOML() {
        XCTAssertEqual(failure("+++\ntitle = \"x\"\n").first?.message, "unclosed front matter: expected a closing `+++` line")
    }

    // MARK: Text handling

    func testCRLFAndBOM() throws {
        let (header, _) = try XCTUnwrap(parse("\u{FEFF}Title: Hello\r\nDate: 2016-11-25\r\n\r\nBody\r\nmore\r"))
        XCTAssertEqual(header.format, .pelican)
        XCTAssertEqual(header.fields["title"]?.value, .string("Hello"))
        XCTAssertEqual(header.body, "Body\nmore\n")
        XCTAssertEqual(header.bodyLine, 4)
        let (yaml, _) = try XCTUnwrap(parse("\u{FEFF}---\r\ntitle: Hello\r\n---\r\nBody"))
        XCTAssertEqual(yaml.fields["title"]?.value, .string("Hello"))
        XCTAssertEqual(yaml.fields["title"]?.line, 2)
    }

    /// Pelican key lines as Python-Markdown's `META_RE` reads them: up to three spaces, a key of
    /// `[A-Za-z0-9_-]`, `:`, any white space; the value trimmed, its column counted in Characters.
    func testPelicanKeyValueLines() {
        let cases: [(String, String?, String?, Int?)] = [
            ("title: Hello", "title", "Hello", 7), ("Key-1_x:  v  ", "Key-1_x", "v", 10), ("k:", "k", "", 2),
            ("k: \tv\t", "k", "v", 4), ("key:value", "key", "value", 4), ("1key: v", "1key", "v", 6),
            ("2017: a year", "2017", "a year", 6), ("_-: x", "_-", "x", 4), ("key :v", nil, nil, nil),
            ("", nil, nil, nil), (": v", nil, nil, nil), ("title: Café (京都)", "title", "Café (京都)", 7),
            ("Title:遅延評価の威力", "Title", "遅延評価の威力", 6), ("Summary:\u{3000}要約", "Summary", "要約", 9),
            ("Title:\u{200B}x", "Title", "\u{200B}x", 6), ("Url:http://x.org/a:b", "Url", "http://x.org/a:b", 4),
            ("   Title: a", "Title", "a", 10), ("    Title: a", nil, nil, nil), ("\tTitle: a", nil, nil, nil),
            (" \tTitle: a", nil, nil, nil), ("tïtle: x", nil, nil, nil),
            // A combining mark is not white space: it starts the value, as in Python.
            ("title:\u{301} x", "title", "\u{301} x", 6), ("title: \u{301}x", "title", "\u{301}x", 7),
            // Read on the bytes while they are ASCII: white space beyond ASCII at either end is still trimmed.
            ("title: a b\u{3000}", "title", "a b", 7), ("title: a\u{A0} \t", "title", "a", 7),
            ("title: x\u{301}  ", "title", "x\u{301}", 7), ("title: \u{3000}", "title", "", 8),
            ("title: \u{2003}x ", "title", "x", 8), ("k:\u{0B}\u{1C}v\u{1F}", "k", "v", 4),
        ]
        for (line, key, value, index) in cases {
            let result = PelicanHeader.keyValue(Substring(line))
            XCTAssertEqual(result?.key, key, line.debugDescription)
            XCTAssertEqual(result?.value, value, line.debugDescription)
            XCTAssertEqual(result?.valueIndex, index, line.debugDescription)
        }
    }

    /// A line starting with an ASCII byte that is not white space, `-` or `.` is classified from its bytes; every
    /// line classifies as the walk of its scalars does (lines in the middle of a file, as a header's are).
    func testPelicanLinesClassifyFromTheirBytesAsFromTheirScalars() {
        let lines = ["title: Hello", "Key-1_x:  v  ", "k:", "key:value", "2017: a year", "key :v", ": v", "title: Café (京都)",
                     "Title:遅延評価の威力", "Summary:\u{3000}要約", "Url:http://x.org/a:b", "tïtle: x", "title:\u{301} x",
                     "title: a b\u{3000}", "title: x\u{301}  ", "k:\u{0B}\u{1C}v\u{1F}", "Just a sentence.", "#heading", "*",
                     "", " ", "\t", "\u{3000}", "---", "--- x", "...", "-- a: b", ".a: b", "   Title: a", "    more", "\tmore",
                     "\u{A0}title: a", "é: x", "x", "_: y", "\u{1C}k: v"]
        for line in lines {
            let file = "a: b\n" + line + "\nrest"
            let middle = file.split(separator: "\n", omittingEmptySubsequences: false)[1]
            XCTAssertEqual(PelicanHeader.classify(middle), PelicanHeader.classifyScalars(middle), line.debugDescription)
        }
        XCTAssertEqual(PelicanHeader.classify("title: Hello"), .field(key: "title", value: "Hello", valueIndex: 7))
        XCTAssertEqual(PelicanHeader.classify("Just a sentence."), .other)
    }

    // MARK: Pelican headers as Python-Markdown's meta extension reads them

    func testPelicanKeyWithoutSpaceAfterTheColon() throws {
        let text = "Title:遅延評価の威力\nSlug:lazy-evaluation\nDate:2017-12-18 22:20\nLang:ja\n\n本文\n"
        let (header, warnings) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.format, .pelican)
        XCTAssertEqual(header.keyOrder, ["title", "slug", "date", "lang"])
        XCTAssertEqual(header.fields["title"]?.value, .string("遅延評価の威力"))
        XCTAssertEqual(header.fields["slug"]?.value, .string("lazy-evaluation"))
        XCTAssertEqual(header.fields["date"]?.value, .string("2017-12-18 22:20"))
        XCTAssertEqual(header.fields["lang"]?.value, .string("ja"))
        XCTAssertEqual(header.fields["title"]?.column, 7)
        XCTAssertEqual(header.fields["date"]?.line, 3)
        XCTAssertEqual(header.body, "本文\n")
        XCTAssertEqual(header.bodyLine, 6)
        XCTAssertEqual(warnings, [])
    }

    /// Every character Python's `\s` matches (`str.isspace()`: Unicode's White_Space and U+001C to
    /// U+001F) may follow the colon, and is trimmed from the value's end; other invisible
    /// characters (zero-width space, BOM) are part of the value.
    func testPelicanUnicodeWhiteSpaceAroundTheValue() throws {
        let spaces: [Unicode.Scalar] = ["\t", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1D}", "\u{1E}", "\u{1F}", " ", "\u{85}",
                                         "\u{A0}", "\u{1680}", "\u{2000}", "\u{2003}", "\u{200A}", "\u{2028}", "\u{2029}",
                                         "\u{202F}", "\u{205F}", "\u{3000}"]
        for space in spaces {
            let ws = String(space)
            let (header, _) = try XCTUnwrap(parse("Title: t\nSummary:\(ws)要約です\(ws)\(ws)\n\nBody"))
            XCTAssertEqual(header.fields["summary"]?.value, .string("要約です"), "U+\(String(space.value, radix: 16))")
            XCTAssertEqual(header.fields["summary"]?.column, 10, "U+\(String(space.value, radix: 16))")
            XCTAssertEqual(header.body, "Body")
        }
        for notSpace in ["\u{200B}", "\u{FEFF}", "\u{180E}"] {
            let (header, _) = try XCTUnwrap(parse("Title:\(notSpace)x\n\nBody"))
            XCTAssertEqual(header.fields["title"]?.value, .string(notSpace + "x"))
        }
    }

    func testPelicanUpToThreeSpacesBeforeAKey() throws {
        let (header, warnings) = try XCTUnwrap(parse("   Title: a\n  Slug: b\n Date: 2020-01-01\n\nBody"))
        XCTAssertEqual(header.keyOrder, ["title", "slug", "date"])
        XCTAssertEqual(header.fields["title"]?.column, 11)
        XCTAssertEqual(header.fields["slug"]?.value, .string("b"))
        XCTAssertEqual(warnings, [])
    }

    /// Indented by four columns (a tab counts to the next multiple of four), a first line is an
    /// indented code block, not a header; later, it continues a value, even when it looks like a key.
    func testPelicanIndentedLines() throws {
        for text in ["    Title: a\n\nBody", "\tTitle: a\n\nBody", "  \tTitle: a\n\nBody"] {
            let (header, _) = try XCTUnwrap(parse(text))
            XCTAssertEqual(header.format, .none, text.debugDescription)
            XCTAssertEqual(header.body, text)
        }
        let text = "Title: A long\n    title\nSummary: One\n\tTwo\n  \tThree\n      Four: five\n\nBody"
        let (header, warnings) = try XCTUnwrap(parse(text))
        XCTAssertEqual(header.keyOrder, ["title", "summary"])
        XCTAssertEqual(header.fields["title"]?.value, .string("A long title"))
        XCTAssertEqual(header.fields["summary"]?.value, .string("One\nTwo\nThree\nFour: five"))
        XCTAssertEqual(header.body, "Body")
        // Pelican makes a list of a continued title: joined here, with a warning; not so for a summary.
        XCTAssertEqual(warnings.map(\.line), [2])
        XCTAssertEqual(warnings.first?.column, 5)
        XCTAssertTrue(warnings.first?.message.hasPrefix("`title` continues on this line: Pelican makes a list") ?? false, warnings.description)
    }

    /// Pelican reads the first line of a continued `date`, `tags`, `slug`... (its single-definition
    /// keys) and ignores the rest: so does `blog`, with one warning per key.
    func testPelicanContinuedSingleDefinitionKeyKeepsItsFirstLine() throws {
        let (header, warnings) = try XCTUnwrap(parse("Title: t\nDate: 2020-01-01\n    10:00\nTags: a,\n    b,\n    c\nSlug:\n    s\n\nBody"))
        XCTAssertEqual(header.fields["date"]?.value, .string("2020-01-01"))
        XCTAssertEqual(header.fields["tags"]?.value, .string("a,"))
        XCTAssertEqual(header.fields["slug"]?.value, .string(""))
        XCTAssertEqual(header.body, "Body")
        XCTAssertEqual(warnings.map(\.line), [3, 5, 8])
        XCTAssertTrue(warnings.allSatisfy { $0.message.contains("Pelican reads only its first line") }, warnings.description)
    }

    func testPelicanValuesKeepTheirColons() throws {
        let (header, _) = try XCTUnwrap(parse("Title: Swift: what's new\nDate: 2017-12-18 22:20\nUrl:http://example.org/a:b\n\nBody"))
        XCTAssertEqual(header.fields["title"]?.value, .string("Swift: what's new"))
        XCTAssertEqual(header.fields["date"]?.value, .string("2017-12-18 22:20"))
        XCTAssertEqual(header.fields["url"]?.value, .string("http://example.org/a:b"))
    }

    /// A line of white space only (U+3000 included) ends the header, as a blank line does; so does
    /// a line starting with `---` or `...`, which is dropped, with a warning when it holds more.
    func testPelicanHeaderEnds() throws {
        let (blank, _) = try XCTUnwrap(parse("Title: a\n\u{3000}\u{A0}\nBody"))
        XCTAssertEqual(blank.body, "Body")
        XCTAssertEqual(blank.bodyLine, 3)
        let (dashes, quiet) = try XCTUnwrap(parse("Title: a\n---  \nBody"))
        XCTAssertEqual(dashes.fields["title"]?.value, .string("a"))
        XCTAssertEqual(dashes.body, "Body")
        XCTAssertEqual(dashes.bodyLine, 3)
        XCTAssertEqual(quiet, [])
        let (dots, warnings) = try XCTUnwrap(parse("Title: a\n...and then\nBody"))
        XCTAssertEqual(dots.body, "Body")
        XCTAssertEqual(warnings.map(\.line), [2])
        XCTAssertTrue(warnings.first?.message.contains("dropped") ?? false, warnings.description)
        let (end, _) = try XCTUnwrap(parse("Title: a\nDate: 2020-01-01"))
        XCTAssertEqual(end.body, "")
        XCTAssertEqual(end.fields["date"]?.value, .string("2020-01-01"))
    }

    /// Pelican keeps the first of a repeated `date`, `slug`, `tags`... (its single-definition keys).
    func testPelicanRepeatedSingleDefinitionKeyKeepsTheFirst() throws {
        let (header, warnings) = try XCTUnwrap(parse("Date: 2020-01-01\nTitle: t\ndate: 2021-01-01\nSlug: one\nslug: two\n\nBody"))
        XCTAssertEqual(header.fields["date"]?.value, .string("2020-01-01"))
        XCTAssertEqual(header.fields["date"]?.line, 1)
        XCTAssertEqual(header.fields["slug"]?.value, .string("one"))
        XCTAssertEqual(header.keyOrder, ["date", "title", "slug"])
        XCTAssertEqual(warnings.map(\.line), [3, 5])
        XCTAssertTrue(warnings.allSatisfy { $0.message.contains("the first one is used") }, warnings.description)
    }
}
