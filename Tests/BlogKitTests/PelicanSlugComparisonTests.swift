import BlogCore
import Foundation
import XCTest

/// Pelican itself as the oracle for the slugs of the `pelican` preset: titles, tags and categories
/// in Japanese, Chinese, Cyrillic, Greek and accented Latin, spelt in ASCII as Pelican's `slugify`
/// spells them (Unidecode, `SLUG_REGEX_SUBSTITUTIONS`), and terms whose slugs are the same (`Node.js`
/// and `nodejs`) one term with one page, as Pelican makes them. Skipped without Pelican.
final class PelicanSlugComparisonTests: XCTestCase {
    /// Texts of every class, each compared with Pelican's `slugify`.
    static let texts = [
        "スマホSMS", "SMS", "日本語の記事", "東京タワー", "東京Tower", "働き方改革", "スーパーマーケット", "コンピューター",
        "ひらがなとカタカナ", "ふじさん", "中文标签", "中華民國", "学习编程", "Привет, мир!", "Ёлка и щука", "Україна",
        "Жизнь в Хабаровске", "Ελληνικά", "Αθήνα 2024", "Χάος και Ξέρξης", "Café crème brûlée", "Straße", "Ærøskøbing", "Łódź",
        "Crème-de-la-crème", "naïve résumé", "Ça va? Oui!", "Node.js & C++", "foo_bar baz", "Don't Panic",
        "  spaced  out  ", "Zürich – Genève", "ﬁnancial ½ full", "Ｆｕｌｌｗｉｄｔｈ", "한국어", "-lead and trail -", "A -- B",
        // Hangul by its jamo (ㄲ ㄸ ㅃ ㅊ, ㄹ leading and trailing, ㅢ), Hebrew plain and pointed, Arabic,
        // Persian and Urdu, Thai (ำ is two characters after NFKC), Devanagari with nukta and candra o.
        "깨끗한 코드를 쓰는 요령", "맛있는 떡볶이와 막걸리", "초보자를 위한 안내", "새 버전의 변화", "읽은 책들",
        "שלום עולם", "טיפים לכתיבת קוד נקי", "צילום בטבע", "שְׁלוֹם לְכֻלָּם", "הרצאה בכנס",
        "مرحبا بالعالم", "القاهرة في الشتاء", "الذكاء الاصطناعي", "رحلة إلى المغرب", "کتاب‌های فارسی", "اردو ٹیکسٹ",
        "สวัสดีชาวโลก", "ข่าวประจำสัปดาห์", "กรุงเทพในฤดูหนาว", "มีอะไรใหม่ในเวอร์ชันนี้",
        "नमस्ते दुनिया", "मेरा नया ब्लॉग", "साफ़ कोड लिखने के सुझाव", "किताबें जो मैंने पढ़ीं", "संस्कृत श्लोक। दो",
        // Letters of more languages in these scripts: Tatar, Tajik, Bashkir, Chuvash; Yiddish; Kurdish, Uyghur.
        "Татарча җыр", "Тоҷикистон ва ҳаво", "Башҡорт теле ҫәйәхәт", "Чӑваш чӗлхи", "ייִדיש װאָרט און ײַ",
        "ڕۆژنامەی کوردی", "ئۇيغۇرچە تېكىست",
    ]

    /// Posts whose titles, tags and categories mix the classes; `スマホSMS` and `SMS` are two tags (they
    /// were one slug when the katakana was dropped), `Node.js`/`nodejs` and `Café`/`cafe` one each.
    static let posts: [String: String] = [
        "a.md": "Title: スマホで送るSMS\nDate: 2021-01-01\nTags: スマホSMS, 東京, Привет\nCategory: 日本語\n\nOne.\n",
        "b.md": "Title: Why SMS still matters\nDate: 2021-01-02\nTags: SMS, Node.js, C++\nCategory: Notes\n\nTwo.\n",
        "c.md": "Title: Ελληνικά και Кириллица\nDate: 2021-01-03\nTags: nodejs, Café, Ёлка\nCategory: notes\n\nThree.\n",
        "d.md": "Title: Crème brûlée à Zürich\nDate: 2021-01-04\nTags: cafe, 中文标签, sms\nCategory: Ελληνικά\n\nFour.\n",
        "e.md": "Title: 働き方とコンピューター\nDate: 2021-01-05\nTags: スーパー, Жизнь\nCategory: Zürich – Genève\n\nFive.\n",
        "f.md": "Title: 맛있는 떡볶이\nDate: 2021-01-06\nTags: 초보자, שלום, ภาษาไทย\nCategory: 한국어\n\nSix.\n",
        "g.md": "Title: مرحبا بالعالم\nDate: 2021-01-07\nTags: हिंदी भाषा, العربية\nCategory: עברית\n\nSeven.\n",
    ]

    private func requirePelican() throws -> URL {
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let probe = try BlogCLI.run(["python3", "-c", "import pelican, unidecode"], in: URL(fileURLWithPath: "/"), program: python)
        guard probe.status == 0 else {
            throw XCTSkip("Pelican is needed to compare with: python3 -m pip install pelican (\(probe.stderr.suffix(200)))")
        }
        return python
    }

    func testSlugifyMatchesPelicans() throws {
        let python = try requirePelican()
        let script = """
        import json, sys
        from pelican.utils import slugify
        from pelican.settings import DEFAULT_CONFIG
        print(json.dumps([slugify(t, regex_subs=DEFAULT_CONFIG['SLUG_REGEX_SUBSTITUTIONS']) for t in json.load(sys.stdin)]))
        """
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("slugs-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: Self.texts).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try BlogCLI.run(["sh", "-c", "python3 -c \"$0\" < \"$1\"", script, input.path], in: URL(fileURLWithPath: "/"), program: python)
        XCTAssertEqual(run.status, 0, run.stderr)
        let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String])
        XCTAssertEqual(expected.count, Self.texts.count)
        for (text, pelican) in zip(Self.texts, expected) {
            XCTAssertEqual(Slug.pelican(text), pelican, "slug of \"\(text)\"")
        }
    }

    /// Every Hangul syllable and modern jamo, spelt by its jamo, is spelt as Unidecode spells it.
    func testHangulMatchesUnidecodes() throws {
        let python = try requirePelican()
        let ranges: [ClosedRange<UInt32>] = [0xAC00...0xD7A3, 0x1100...0x1112, 0x1161...0x1175, 0x11A8...0x11C2]
        let script = """
        import json
        from unidecode import unidecode
        ranges = [(0xAC00, 0xD7A3), (0x1100, 0x1112), (0x1161, 0x1175), (0x11A8, 0x11C2)]
        print(json.dumps([unidecode(chr(c)).lower() for a, b in ranges for c in range(a, b + 1)]))
        """
        let run = try BlogCLI.run(["python3", "-c", script], in: URL(fileURLWithPath: "/"), program: python)
        XCTAssertEqual(run.status, 0, run.stderr)
        let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String])
        let scalars = ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
        XCTAssertEqual(expected.count, scalars.count)
        var differing: [String] = []
        for (scalar, unidecode) in zip(scalars, expected) where Slug.latin(String(scalar)) != unidecode {
            differing.append("\(scalar): \(Slug.latin(String(scalar))), Unidecode's \(unidecode)")
        }
        XCTAssertEqual(differing, [], "\(differing.count) of \(scalars.count) differ")
    }

    func testPagesAndMergedTermsMatchPelicans() throws {
        let python = try requirePelican()
        let site = try TempSite()
        defer { site.remove() }
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/\ntimezone: UTC\npermalinks: pelican\n")
        for (name, text) in Self.posts { try site.write("content/posts/\(name)", text) }
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        // One note per spelling that joined another's term, at the post that first uses it.
        let notes = build.stderr.split(separator: "\n").filter { $0.contains("note:") && $0.contains("they are one tag") }
        XCTAssertEqual(notes.count, 2, build.stderr)
        XCTAssertTrue(notes.contains { $0.hasPrefix("content/posts/c.md") && $0.contains("tag \"nodejs\"") && $0.contains("\"Node.js\"") }, build.stderr)
        XCTAssertTrue(notes.contains { $0.hasPrefix("content/posts/d.md") && $0.contains("tag \"cafe\"") && $0.contains("\"Café\"") }, build.stderr)

        let output = site.root.appendingPathComponent("pelican-output")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pelican_slugs.py")
        let pelican = try BlogCLI.run(["python3", script.path, site.root.appendingPathComponent("content").path, output.path],
                                      in: site.root, program: python)
        XCTAssertEqual(pelican.status, 0, pelican.stderr)
        let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pelican.stdout.utf8)) as? [String: Any])
        let expectedPosts = try XCTUnwrap(expected["posts"] as? [String])

        let top = (try FileManager.default.contentsOfDirectory(atPath: site.root.appendingPathComponent("public").path))
        let lists: Set<String> = ["index.html", "archives.html", "tags.html", "categories.html", "authors.html", "404.html"]
        let posts = top.filter { $0.hasSuffix(".html") && !lists.contains($0) }.sorted()
        XCTAssertEqual(posts, expectedPosts, "post pages")
        for (folder, key) in [("tag", "tags"), ("category", "categories")] {
            let want = try XCTUnwrap(expected[key] as? [String: [String]])
            var got: [String: [String]] = [:]
            for name in site.files(under: "public/\(folder)") where name.hasSuffix(".html") {
                let html = try XCTUnwrap(site.read("public/\(folder)/\(name)"))
                got["\(folder)/\(name)"] = posts.filter { html.contains("href=\"/\($0)\"") }
            }
            XCTAssertEqual(got, want, "\(key): their pages and the posts each lists")
        }
    }
}
