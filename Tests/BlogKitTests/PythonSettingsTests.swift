@testable import BlogScaffold
import Foundation
import XCTest

/// The reader of `pelicanconf.py` that `init --from` uses (no Python run), checked against Python itself.
final class PythonSettingsTests: XCTestCase {
    /// Every common form of a literal, as pelican-quickstart and authors write them, with a few
    /// things no reader can know without running Python.
    static let settingsFile = #"""
    #!/usr/bin/env python
    # -*- coding: utf-8 -*- #
    from __future__ import unicode_literals
    import os

    AUTHOR = u'Ada Quill'
    SITENAME = u"Ada's \"notes\""
    SITESUBTITLE = r'C:\new\table'
    SITEURL = 'https://ada.example'
    LOGO = SITEURL + '/images/logo.png'
    DESCRIPTION = ('A blog about '
                   "small tools, "  # a comment inside
                   'written slowly')
    TAGLINE = """Three
    lines\tand a tab"""
    DOC = '''triple with 'quotes' inside'''
    ESCAPES = 'caf\xe9 \u00e9t\u00e9 \101\x42 back\\slash \q'
    BYTES = b'raw bytes'
    RAWBYTES = Rb'\d+'
    FSTRING = f'plain'
    TIMEZONE = 'Europe/Paris'; DEFAULT_LANG = 'en'
    DEFAULT_PAGINATION = 10
    NEGATIVE = -3
    BIG = 1_000
    DELETE_OUTPUT_DIRECTORY = True
    RELATIVE_URLS = False
    FEED_ALL_RSS = None
    STATIC_PATHS = [
        'images',
        'extra/CNAME',   # custom domain
        'extra/robots.txt',
    ]
    EXTRA_PATH_METADATA = {
        'extra/CNAME': {'path': 'CNAME'},
        'extra/robots.txt': {'path': 'robots.txt'},
    }
    LINKS = (('Pelican', 'https://getpelican.com/'),
             ('Python.org', 'https://www.python.org/'),)
    SOCIAL = (('mastodon', 'https://example.social/@ada'),)
    MENUITEMS = LINKS + SOCIAL
    PLUGINS = []
    EMPTY = {}
    ONE = ('single',)
    GROUPED = ('grouped')
    CHAINED = ALSO_CHAINED = 'same'
    CONTINUED = 'a' \
        'b'
    ARTICLE_PATHS = ['posts']
    ARTICLE_PATHS += ['more']
    THEME = os.path.join(os.path.dirname(__file__), 'theme')
    OUTPUT_RETENTION = 'out/%s' % 'x'
    MARKDOWN = {
        'extension_configs': {'markdown.extensions.codehilite': {'css_class': 'highlight'}},
        'output_format': 'html5',
    }
    if os.environ.get('NOT_SET_BY_ANYONE_12345'):
        IN_BLOCK = 'maybe'
    try:
        import json
    except ImportError:
        pass
    """#

    func testReadsWhatPythonReadsAndNamesWhatItCannot() throws {
        let read = PythonSettings(Self.settingsFile)
        XCTAssertEqual(Set(read.unreadable.keys), ["THEME", "OUTPUT_RETENTION", "IN_BLOCK"])
        XCTAssertEqual(read.unreadable["THEME"].map { [$0.line, $0.column] }, [50, 9])
        XCTAssertEqual(read.unreadable["OUTPUT_RETENTION"].map { [$0.line, $0.column] }, [51, 29])
        XCTAssertEqual(read.unreadable["IN_BLOCK"].map { [$0.line, $0.column] }, [57, 5])
        XCTAssertEqual(read.text("SITENAME"), "Ada's \"notes\"")
        XCTAssertEqual(read.text("LOGO"), "https://ada.example/images/logo.png")
        XCTAssertEqual(read["EXTRA_PATH_METADATA"]?["extra/CNAME"]?["path"], .string("CNAME"))
        XCTAssertEqual(read["DELETE_OUTPUT_DIRECTORY"], .bool(true))
        XCTAssertEqual(read["FEED_ALL_RSS"], PythonValue.none)

        // Python itself: every upper-case setting it ends with is read alike, or is one of the unknown.
        let python = URL(fileURLWithPath: "/usr/bin/env")
        guard try BlogCLI.run(["python3", "-c", "pass"], in: URL(fileURLWithPath: "/"), program: python).status == 0 else {
            throw XCTSkip("python3 is needed to compare with")
        }
        let site = try TempSite()
        defer { site.remove() }
        let file = try site.write("pelicanconf.py", Self.settingsFile)
        let script = """
        import json, sys
        g = {'__file__': sys.argv[1]}
        exec(compile(open(sys.argv[1], encoding='utf-8').read(), 'pelicanconf.py', 'exec'), g)
        def canon(v):
            if isinstance(v, (list, tuple)): return [canon(x) for x in v]
            if isinstance(v, dict): return {str(k): canon(x) for k, x in v.items()}
            if isinstance(v, bytes): return v.decode('utf-8')
            return v
        print(json.dumps({k: canon(v) for k, v in g.items() if k.isupper() and not callable(v) and not hasattr(v, '__file__')}, ensure_ascii=False))
        """
        let run = try BlogCLI.run(["python3", "-c", script, file.path], in: site.root, program: python)
        XCTAssertEqual(run.status, 0, run.stderr)
        let theirs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        for (name, value) in theirs where read.unreadable[name] == nil {
            let ours = try XCTUnwrap(read[name], "\(name) was not read")
            XCTAssertEqual(try Self.text([Self.json(ours)]), try Self.text([value]), name)
        }
        XCTAssertEqual(Set(read.settings.keys), Set(theirs.keys).subtracting(read.unreadable.keys))
    }

    func testUnclosedAndOddValuesAreUnknownNeverACrash() {
        let cases: [(String, String)] = [
            ("A = 'never closed\nB = 1\n", "A"),
            ("A = [1, 2\n", "A"),
            ("A = (\n", "A"),
            ("A = '\\N{BULLET}'\n", "A"),
            ("A = f'{x}'\n", "A"),
            ("A = 1 if B else 2\n", "A"),
            ("A = {'a': 1, 2}\n", "A"),
            ("A = 'x' + 1\n", "A"),
            ("A = B\n", "A"),
            ("A = -x\n", "A"),
            ("A = '\\x4'\n", "A"),
            ("A = " + String(repeating: "[", count: 200) + "\n", "A"),
        ]
        for (text, name) in cases {
            let read = PythonSettings(text)
            XCTAssertNil(read[name], text)
            XCTAssertNotNil(read.unreadable[name], text)
        }
        XCTAssertEqual(PythonSettings("A = 'x'\nB = 1\n").text("B"), "1", "a statement after a good one is read")
        XCTAssertEqual(PythonSettings("A = 'never closed\nB = 1\n").text("B"), "1", "a broken line stops at its end")
    }

    func testSettingsThatDoubleEachOtherStayBounded() {
        var text = "A0 = '" + String(repeating: "x", count: 1000) + "'\n"
        for k in 1...40 { text += "A\(k) = A\(k - 1) + A\(k - 1)\nL\(k) = [A\(k - 1), A\(k - 1)]\n" }
        let started = Date()
        let read = PythonSettings(text)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(read.text("A10")?.utf8.count, 1_024_000)
        XCTAssertNotNil(read.unreadable["A40"])
        XCTAssertNotNil(read.unreadable["L40"])
    }

    /// `value` (in an array) as JSON text with sorted keys, to compare.
    static func text(_ value: [Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// `value` as JSONSerialization reads Python's `json.dumps` of it.
    static func json(_ value: PythonValue) -> Any {
        switch value {
        case .string(let s): return s
        case .number(let n): return Int(n).map { $0 as Any } ?? Double(n) as Any
        case .bool(let flag): return flag
        case .none: return NSNull()
        case .list(let items): return items.map(json)
        case .dict(let entries):
            var out: [String: Any] = [:]
            for entry in entries { out[entry.key.text ?? "\(entry.key)"] = json(entry.value) }
            return out
        }
    }
}
