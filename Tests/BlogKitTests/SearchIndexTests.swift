@testable import BlogBuild
@testable import BlogCore
@testable import BlogRender
import CSystem
import Foundation
import XCTest

/// The search index a build writes and the default theme's search box that reads it: the index's
/// entries read back as JSON, its words, `search: false`, and the box itself in headless Chromium.
final class SearchIndexTests: BuiltSiteTestCase {
    struct Entry: Decodable, Equatable {
        var t: String, u: String, d: String?, g: [String], s: String, w: String
    }

    func writeBlog(_ settings: String = "") throws {
        try site.write("blog.yml", "title: Search\nbase_url: https://example.org/blog/\n" + settings)
        try site.write("content/posts/cow.md", """
            ---
            title: "Copy-on-write, \\"explained\\""
            date: 2024-03-02
            tags: [swift, Performance]
            ---
            Arrays share their **storage** until one of them is written: copy on write. Zebra zebra ZEBRA.
            """)
        try site.write("content/posts/make.md", "Title: Makefiles\nDate: 2024-01-05\nTags: build\n\nA Makefile for `swift build` — fast, café, 日本語のテキスト.\n")
        try site.write("content/posts/secret.md", "---\ntitle: Secret\ndate: 2024-02-01\nstatus: hidden\n---\nHidden words.\n")
        try site.write("content/pages/about.md", "---\ntitle: About\n---\nWho writes here.\n")
    }

    func entries() throws -> [Entry] {
        let manifest = try JSONSerialization.jsonObject(with: Data(try page("search/index.json").utf8)) as? [String: Any]
        let shards = try XCTUnwrap(manifest?["shards"] as? [String])
        XCTAssertEqual(manifest?["posts"] as? Int, 3)
        return try shards.flatMap { try JSONDecoder().decode([Entry].self, from: Data(try page("search/" + $0).utf8)) }
    }

    func testTheIndexHoldsListedPostsAndPagesWithTheirWordsOnce() throws {
        try writeBlog()
        try build(["--no-cache"])
        let found = try entries()
        XCTAssertEqual(found.map(\.t), [#"Copy-on-write, "explained""#, "Makefiles", "About"], "newest first, then pages; no hidden post")
        XCTAssertEqual(found.map(\.u), ["posts/cow/", "posts/makefiles/", "about/"])
        XCTAssertEqual(found.map(\.d), ["2024-03-02", "2024-01-05", nil])
        XCTAssertEqual(found[0].g, ["swift", "Performance"])
        XCTAssertEqual(found[0].w, "arrays share their storage until one of them is written copy on write zebra")
        XCTAssertEqual(found[1].w, "makefile for swift build fast café 日本語のテキスト")
        XCTAssertTrue(found[0].s.hasPrefix("Arrays share their storage"), found[0].s)
        // The theme's box points at the index, through the base path; the script is published.
        let home = try page("index.html")
        XCTAssertTrue(home.contains(#"<form class="site-search" role="search" data-index="/blog/search/index.json" hidden>"#), home)
        XCTAssertTrue(home.contains(#"<script src="/blog/search.js" defer></script>"#), home)
        XCTAssertNotNil(site.read("public/search.js"))
    }

    func testSearchFalseWritesNoIndexAndNoBox() throws {
        try writeBlog("search: false\n")
        try build(["--no-cache"])
        XCTAssertFalse(site.exists("public/search/index.json"))
        XCTAssertFalse(try page("index.html").contains("site-search"))
    }

    func testWordsAreBoundedAndSplitAtPunctuation() {
        XCTAssertEqual(searchWords("<p>“Quoted”—dashed… «guillemets» a b c 1 22 x&amp;y</p><pre><code>let x = y</code></pre>"),
                       "quoted dashed guillemets 22 let")
        let long = (0..<5000).map { "word\($0)" }.joined(separator: " ")
        let words = searchWords(long)
        XCTAssertLessThanOrEqual(words.utf8.count, BodyText.searchBytes)
        XCTAssertTrue(words.hasPrefix("word0 word1 word2 "))
        XCTAssertFalse(words.hasSuffix(" "))
        // Past the bound the words are still counted.
        XCTAssertEqual(BodyText(html: long).words, 5000)
    }

    /// One pass reads both the words counted for reading time and the search words; each of the
    /// kinds of text a body has, with what each of them makes of it.
    func testOnePassCountsWordsAndFindsSearchWords() {
        let cases: [(html: String, words: Int, search: String)] = [
            // A tag parts search words, not counted ones; attributes are neither.
            ("<p><em>Un</em>done <img alt=\"many words here\" src=\"a.png\"> <a href=\"https://example.org/x-y\">link</a></p>\n",
             2, "un done link"),
            // A character reference is a character of a counted word, and parts search words.
            ("<p>R&amp;D caf&eacute; &#39;quoted&#39; AT&amp;T</p>\n", 4, "caf quoted at"),
            // Han and kana count one a character; the search keeps the run whole, CJK punctuation and all.
            ("<p>日本語のテキスト、中文。</p>\n", 10, "日本語のテキスト、中文。"),
            ("<p>abc日本 Café CAFÉ déjà-vu</p>\n", 6, "abc日本 café cafÉ déjà vu"),
            // A no-break space and General Punctuation part both; Latin-1 punctuation parts search words only.
            ("<p>one\u{00A0}two three\u{2014}four «five»</p>\n", 4, "one two three four five"),
            // Code is text; a script's and a style's too, and a tag between them does not end a counted word.
            ("<pre><code class=\"language-swift\">let total = 1\nprint(total)\n</code></pre>\n", 5, "let total print"),
            ("<script>var items = 1;</script><style>p { color: red }</style>\n", 8, "var items color red"),
            // A comment is skipped as a tag is; a `<` with no `>` ends the text.
            ("<p>before <!-- hidden words --> after</p>\n<p>cut <here", 3, "before after cut"),
            ("", 0, ""),
        ]
        for (html, words, search) in cases {
            XCTAssertEqual(BodyText(html: html).words, words, html)
            XCTAssertEqual(BodyText.searchWords(html: html), search, html)
            var rendered = RenderedMarkdown(html: html, summaryHTML: "", headings: [])
            // A body the markdown stage did not read is read when asked.
            XCTAssertEqual(rendered.words, words, html)
            rendered.text = BodyText(html: html)
            XCTAssertEqual(rendered.words, words, html)
        }
    }

    private func searchWords(_ html: String) -> String { BodyText.searchWords(html: html) }

    /// Each post's words are written straight into its shard's bytes, one post after another (no `String` a post):
    /// every entry holds the words a plain reading, one scalar at a time, finds in its rendered body, for bodies of
    /// each kind the reader tells apart, whatever the lengths of the posts before it; and a build writes the same bytes.
    func testEachShardHoldsThePlainReadingsWordsOfEachPost() throws {
        try site.write("blog.yml", "title: Words\nbase_url: https://example.org/\n")
        let bodies = [
            "Café CAFÉ déjà-vu naïve straße Straße ΑΒΓ αβγ Кириллица Ünïcödé ſ 😀emoji",
            "R&D AT&T caf&eacute; &copy; 5 &lt; 6 &#39;quoted&#39; &amp;&amp; x&y &bogus;",
            "```swift\nlet total = items.reduce(0, +)\nprint(total) // total\n```\n\nAnd `inline_code(x: 1)` in <em>raw</em>html.",
            "“Quoted”—dashed… «guillemets» (parens) [brackets] {braces} a/b c-d e.f g,h i;j k:l! m? n_o p'q",
            "日本語のテキスト、中文。한국어 텍스트 日本語",
            "Pneumonoultramicroscopicsilicovolcanoconiosis " + String(repeating: "abcdefghij", count: 30)
                + " supercalifragilisticexpialidocious pneumonoultramicroscopicsilicovolcanoconiosis",
            "the The THE cat cat Cat dog the DOG a a b b 1 1 22 22",
            "",
            (0..<3000).map { "word\($0 % 1700)" }.joined(separator: " "),
            "Words after a full post: the cat café 日本語",
        ]
        for (number, body) in bodies.enumerated() {
            try site.write("content/posts/post-\(number).md", "Title: Post \(number)\nDate: 2024-01-\(10 + number)\n\n\(body)\n")
        }
        let options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path,
                                   now: Date(timeIntervalSince1970: 1_900_000_000))
        let (built, _) = try Pipeline.loadSite(options)
        let shards = SearchIndex.shards(built)
        XCTAssertEqual(shards.map(\.posts.count), [bodies.count])
        for (path, shard) in shards {
            let (data, _) = SearchIndex.shardBytes(shard, site: built, hook: nil)
            let found = try JSONDecoder().decode([Entry].self, from: data)
            XCTAssertEqual(found.map(\.t), shard.map { built.posts[$0].post.title })
            for (entry, index) in zip(found, shard) {
                let html = built.posts[index].rendered.html
                XCTAssertEqual(entry.w, Self.plainSearchWords(html), html)
                XCTAssertEqual(entry.w, BodyText.searchWords(html: html), html)
            }
            XCTAssertTrue(found.contains { $0.w.utf8.count > BodyText.searchBytes - 20 }, "a post fills its words")
            try build(["--no-cache"])
            XCTAssertEqual(try page(path), String(decoding: data, as: UTF8.self))
        }
    }

    /// The readers take eight bytes at a time; a plain reading of the same rules, one scalar at a
    /// time, finds the same words in random HTML: runs across the eight-byte steps, tags, references,
    /// characters beyond ASCII of every length, and texts long enough to fill the search words.
    func testTheReadersAgreeWithAScalarByScalarReading() {
        let pieces = ["word", "Word", "WORD", "a", "1", "22", " ", " ", " ", "\n", "\t", "\u{0B}", "\u{01}", "-", ".", "\"",
                      "<p>", "</p>", "<a href=\"x y\">", "<!-- a b -->",
                      // Tags whose `>` is in the first, second, third eight bytes after the `<`, and past them.
                      "<span class=\"k\">", "<span class=\"kt\">", "<span class=\"err\">", "</span>", "<code class=\"language-swift\">",
                      "<a href=\"https://example.org/a/long/path\">", "&amp;", "&#39;", "&eacute;", "&bogus", "&", "&averyverylongname;",
                      "é", "É", "café", "日本", "語", "、", "。", "\u{3000}", "\u{00A0}", "\u{2014}", "«", "\u{1680}", "\u{85}", "\u{FF01}",
                      "한국어", "😀", "abcdefghijklmnopqrstu", "x1y2Z3", "ABCDEFGH", "\u{2028}", "\u{B7}", "ſ",
                      // Runs and tags about the sixteen bytes read at once; a tag holding a reference and a character beyond ASCII.
                      "abcdefghijklmno", "Abcdefghijklmnop", "abcdefghijklmnopq", "<b>", "<i>x</i>", "x<em>y</em>z", "<a title=\"é &amp; b\">",
                      // A `>` outside a tag or within one's attribute, a `<` within a tag, tags side by side.
                      ">", "a > b", "<a title=\"x>y\">", "<<b>", "<!-- a < b -->", "</em></a><i>", "x</b>y"]
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<400 {
            var html = ""
            for _ in 0..<(round < 300 ? next(60) : 400 + next(2000)) {
                html += next(4) == 0 ? "w\(next(round < 300 ? 20 : 3000))" : pieces[next(pieces.count)]
            }
            if next(10) == 0 { html += "<unclosed " + pieces[next(pieces.count)] }
            // A `<` with no `>` within 8, 16, 24 bytes of the end, or farther.
            if next(10) == 0 { html += "<" + String(repeating: "x", count: next(30)) }
            XCTAssertEqual(BodyText(html: html).words, Self.plainWordCount(html), html)
            XCTAssertEqual(BodyText.searchWords(html: html), Self.plainSearchWords(html), html)
        }
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(BodyText.isWhitespace(value), scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }

    /// Words of one ASCII letter or digit are never kept, and the sixty-four-byte reader leaves them out before
    /// it asks whether a word fits: the words kept are still the plain reading's when the kept words end one,
    /// two, three bytes short of the limit and such a letter comes next, then longer words.
    func testOneLetterWordsAtTheLimitOfTheSearchWords() {
        for short in 0..<12 {
            // Distinct words of six letters (seven bytes with the space), then one word as long as makes the
            // kept bytes end `short` bytes before the limit.
            var words: [String] = [], used = 0
            while used + 7 + 20 <= BodyText.searchBytes {
                words.append("w" + String(words.count + 10_000))
                used += (used > 0 ? 1 : 0) + 6
            }
            let last = BodyText.searchBytes - short - used - 1
            if last > 0 { words.append(String(repeating: "z", count: last)) }
            for tail in ["a b 1 cd efg", "a", "a bc", "é a bc", "a <em>b</em> cd", "x" + String(repeating: " q", count: 40) + " rs"] {
                let html = "<p>" + words.joined(separator: " ") + " " + tail + "</p>"
                XCTAssertEqual(BodyText.searchWords(html: html), Self.plainSearchWords(html), "\(short) \(tail)")
            }
        }
    }

    /// The posts of a shard are read one after another with one table of words seen (``BodyText/SearchWordTable``),
    /// whose slots each post empties again: each post's words are still the plain reading's when the posts before
    /// it used the same words (the same words in every post, twice in one), filled the words (1,318 words of two to
    /// four bytes, the most slots a post fills, then a word that does not fit, which ends the reading), held words
    /// beyond ASCII, or none.
    func testPostsReadWithOneTableOfWordsSeenAreEachAPlainReading() {
        let characters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let pairs = characters.flatMap { first in characters.map { String([first, $0]) } }
        let full = (pairs + (100..<300).map { "x\($0)" }).joined(separator: " ")
        let vocabulary = pairs.prefix(40) + ["the", "The", "THE", "cat", "café", "CAFÉ", "日本語", "déjà", "a", "1", "x&amp;y",
                                             "<em>word</em>", "straße", "Pneumonoultramicroscopicsilicovolcanoconiosis", "x100", "x299"]
        var seed: UInt64 = 0x7AB1E
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var bodies = [full, "the cat the cat ab zz", full, full, "", "<p></p>", "café CAFÉ 日本語 日本語", pairs.joined(separator: " ")]
        for _ in 0..<200 {
            bodies.append((0..<next(300)).map { _ in next(20) == 0 ? full : vocabulary[next(vocabulary.count)] }.joined(separator: " "))
        }
        let table = BodyText.SearchWordTable()
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: BodyText.searchRoom)
        defer { out.deallocate() }
        for body in bodies {
            let html = "<p>" + body + "</p>"
            let count = BodyText.searchWords(html: html, into: out, table: table)
            XCTAssertEqual(String(decoding: UnsafeBufferPointer(start: out, count: count), as: UTF8.self), Self.plainSearchWords(html),
                           String(html.prefix(200)))
        }
    }

    /// The tags among sixty-four bytes, found at once by a prefix XOR when `<` and `>` alternate and one by one
    /// when they do not, are a plain reading's: each tag from its `<` to the first `>` after it, a `>` outside a
    /// tag and a `<` within one read as text, the reading stopped at a `<` not closed.
    func testTheTagsAmongSixtyFourBytesAreAPlainReadings() {
        var seed: UInt64 = 0x7A65
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<50_000 {
            // Mostly alternating, as in rendered HTML; every fourth round anything. The first byte is never a
            // `<` (the readers skip a tag there first), but may be a `>`.
            var opens: UInt64 = 0, closes: UInt64 = 0, inside = false
            for index in 0..<64 where next(5) == 0 {
                if round % 4 == 0 ? next(2) == 0 : !inside {
                    guard index > 0 else { continue }
                    opens |= 1 << index
                } else {
                    closes |= 1 << index
                }
                inside.toggle()
            }
            var bytes: UInt64 = 0, read = 64, open: Int?
            for index in 0..<64 {
                if let start = open {
                    if closes >> index & 1 != 0 {
                        for byte in start...index { bytes |= 1 << byte }
                        open = nil
                    }
                } else if opens >> index & 1 != 0 {
                    open = index
                }
            }
            if let start = open { read = start }
            let found = BodyText.tagBytes(opens: opens, closes: closes)
            XCTAssertEqual([found.bytes, UInt64(found.read)], [bytes, UInt64(read)], "opens \(opens), closes \(closes)")
        }
    }

    /// The SSE2 classification of sixty-four bytes (CSystem's `blog_search_bytes`, `blog_count_bytes`) and
    /// the byte-at-a-time one used where SSE2 is not (an ARM Mac, aarch64 Linux) agree on random bytes, drawn
    /// mostly from the ones the tests tell apart and the bounds of their ranges.
    func testTheSixtyFourByteClassificationsAgree() {
        let near: [UInt8] = Array("<>& \t\n\u{0B}\u{0C}\r/09:@AZ[`az{".utf8) + [0x08, 0x0E, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xFF]
        var seed: UInt64 = 0xB17E5
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var text = [UInt8](repeating: 0, count: 64), sse = [UInt8](repeating: 0, count: 64), bytewise = sse
        for _ in 0..<20_000 {
            for index in 0..<64 { text[index] = next(3) == 0 ? UInt8(next(256)) : near[next(near.count)] }
            let search = (blog_search_bytes(text, &sse), blog_search_bytes_bytewise(text, &bytewise))
            XCTAssertEqual([search.0.words, search.0.opens, search.0.closes, search.0.stops],
                           [search.1.words, search.1.opens, search.1.closes, search.1.stops], "\(text)")
            XCTAssertEqual(sse, bytewise, "\(text)")
            let count = (blog_count_bytes(text), blog_count_bytes_bytewise(text))
            XCTAssertEqual([count.0.words, count.0.opens, count.0.closes, count.0.stops],
                           [count.1.words, count.1.opens, count.1.closes, count.1.stops], "\(text)")
        }
    }

    /// ``BodyText/words`` read one scalar at a time.
    static func plainWordCount(_ html: String) -> Int {
        let scalars = Array(html.unicodeScalars)
        var count = 0, inWord = false, index = 0
        while index < scalars.count {
            let scalar = scalars[index], value = scalar.value
            index += 1
            if scalar == "<" {
                guard let close = scalars[index...].firstIndex(of: ">") else { break }
                index = close + 1
            } else if (0x3040...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
                        || (0xF900...0xFAFF).contains(value) || (0x20000...0x3134F).contains(value) || (0x31F0...0x31FF).contains(value) {
                count += 1
                inWord = false
            } else if scalar.properties.isWhitespace || (0x3000...0x303F).contains(value) || (0xFF00...0xFF0F).contains(value) {
                inWord = false
            } else if !inWord {
                inWord = true
                count += 1
            }
        }
        return count
    }

    /// ``BodyText/searchWords(html:)`` read one scalar at a time.
    static func plainSearchWords(_ html: String) -> String {
        let scalars = Array(html.unicodeScalars)
        var kept: [String] = [], seen: Set<String> = [], used = 0, word = "", index = 0
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                : scalar.value >= 0xC0 && !(0x2000...0x207F).contains(scalar.value)
        }
        // False when the word does not fit, which ends the words.
        func end() -> Bool {
            defer { word = "" }
            guard !word.isEmpty else { return true }
            guard (used > 0 ? used + 1 : 0) + word.utf8.count <= BodyText.searchBytes else { return false }
            if word.unicodeScalars.count == 1, word.unicodeScalars.first!.isASCII { return true }
            if seen.insert(word).inserted {
                used += (used > 0 ? 1 : 0) + word.utf8.count
                kept.append(word)
            }
            return true
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if isLetter(scalar) {
                word.unicodeScalars.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value | 0x20)! : scalar)
                index += 1
                continue
            }
            guard end() else { return kept.joined(separator: " ") }
            if scalar == "<" {
                guard let close = scalars[index...].firstIndex(of: ">") else { break }
                index = close + 1
            } else if scalar == "&" {
                var next = index + 1
                while next < min(scalars.count, index + 12), scalars[next].isASCII, isLetter(scalars[next]) || scalars[next] == "#" { next += 1 }
                index = next < scalars.count && scalars[next] == ";" ? next + 1 : index + 1
            } else {
                index += 1
            }
        }
        _ = end()
        return kept.joined(separator: " ")
    }

    /// The reader types a word into the box on the home page and sees the posts that have it.
    func testTypingInTheBoxShowsMatchingPostsInChromium() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("Chromium is not installed: apt-get install chromium")
        }
        try writeBlog()
        // A page beside the site that opens the home page in a frame, types, and writes what the box shows.
        try site.write("content/probe.html", """
            <!doctype html><html><head><title>probe</title></head><body>
            <iframe id="site" src="./"></iframe><output id="found"></output>
            <script>
            const frame = document.getElementById("site");
            frame.addEventListener("load", () => {
              const page = frame.contentDocument;
              const form = page.querySelector("form.site-search");
              const input = form.querySelector("input");
              input.focus();
              input.value = "ZEBRA";
              input.dispatchEvent(new Event("input"));
              let tries = 0;
              const look = () => {
                const links = [...page.querySelectorAll(".search-results a")];
                if (links.length === 0 && tries++ < 100) { setTimeout(look, 50); return; }
                document.getElementById("found").textContent = JSON.stringify({
                  hidden: form.hidden, status: page.querySelector(".search-status").textContent,
                  results: links.map(a => [a.textContent, a.getAttribute("href")])});
              };
              look();
            });
            </script></body></html>
            """)
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing()
        let run = try BlogCLI.run(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=15000", "--dump-dom",
                                   server.url + "probe.html"], in: site.root, program: URL(fileURLWithPath: chromium))
        let dom = run.stdout
        let start = try XCTUnwrap(dom.range(of: #"<output id="found">"#), run.stderr)
        let end = try XCTUnwrap(dom.range(of: "</output>", range: start.upperBound..<dom.endIndex))
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        struct Shown: Decodable { var hidden: Bool; var status: String; var results: [[String]] }
        let shown = try JSONDecoder().decode(Shown.self, from: Data(json.utf8))
        XCTAssertFalse(shown.hidden, "the script shows the box")
        XCTAssertEqual(shown.status, "1 post found.")
        XCTAssertEqual(shown.results, [[#"Copy-on-write, "explained""#, server.url + "posts/cow/"]])
    }
}
