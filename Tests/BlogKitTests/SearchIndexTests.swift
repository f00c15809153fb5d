import BlogCore
@testable import BlogRender
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
        XCTAssertNil(BodyText(html: long, searchWords: false).searchWords)
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
            let text = BodyText(html: html)
            XCTAssertEqual(text.words, words, html)
            XCTAssertEqual(text.searchWords, search, html)
            XCTAssertEqual(BodyText(html: html, searchWords: false).words, words, html)
            var rendered = RenderedMarkdown(html: html, summaryHTML: "", headings: [])
            // A body the markdown stage did not read is read when asked.
            XCTAssertEqual(rendered.words, words, html)
            XCTAssertEqual(rendered.searchWords, search, html)
            rendered.text = BodyText(html: html, searchWords: false)
            XCTAssertEqual(rendered.searchWords, search, "read when asked: \(html)")
        }
    }

    private func searchWords(_ html: String) -> String { BodyText(html: html).searchWords ?? "" }

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
