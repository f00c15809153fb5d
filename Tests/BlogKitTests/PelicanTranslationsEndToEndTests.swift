import Foundation
import XCTest

/// A small Pelican blog of our own writing with English and Japanese versions of two posts and a
/// page, headers written as Japanese Pelican blogs write them (`Title:遅延評価の威力`, an
/// ideographic space after `Summary:`, a tab-indented continuation, a key after spaces), built by
/// the real `blog` binary: every version gets its page, and every page links its translations.
final class PelicanTranslationsEndToEndTests: XCTestCase {
    var site: TempSite!

    /// One version of a post or page, as its header gives it.
    struct Version {
        var file: String
        var title: String
        var slug: String
        var lang: String
        var kind = "post"
        /// Its URL by the placement rule: a version in another language than the site's (`en`)
        /// goes under `/<lang>/`; posts at `posts/{slug}/`, pages at `{slug}/`.
        var url: String {
            "/blog/" + (lang == "en" ? "" : lang + "/") + (kind == "post" ? "posts/" : "") + slug + "/"
        }
    }

    let versions = [
        Version(file: "posts/lazy-evaluation.md", title: "The power of lazy evaluation", slug: "lazy-evaluation", lang: "en"),
        Version(file: "posts/lazy-evaluation-ja.md", title: "遅延評価の威力", slug: "lazy-evaluation", lang: "ja"),
        Version(file: "posts/tail-calls.md", title: "Tail calls, explained", slug: "tail-calls", lang: "en"),
        Version(file: "posts/tail-calls-ja.md", title: "末尾呼び出しの解説", slug: "tail-calls", lang: "ja"),
        Version(file: "pages/about.md", title: "About these notes", slug: "about", lang: "en", kind: "page"),
        Version(file: "pages/about-ja.md", title: "このノートについて", slug: "about", lang: "ja", kind: "page"),
    ]

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("blog.yml", "title: Notes\nbase_url: https://example.org/blog/\nlanguage: en\ntimezone: Asia/Tokyo\n")
        try site.write("content/posts/lazy-evaluation.md", """
        Title: The power of lazy evaluation
        Date: 2017-12-18 22:20
        Slug: lazy-evaluation
        Lang: en
        Tags: haskell, evaluation
        Summary: Work is delayed until a value is needed.

        Work is delayed until a value is needed: a *thunk* stands for it.

        ![A thunk]({static}/images/thunk.svg)
        """)
        try site.write("content/posts/lazy-evaluation-ja.md", """
        Title:遅延評価の威力
        Date:2017-12-18 22:20
        Slug:lazy-evaluation
        Lang:ja
        Tags:haskell, 評価
        Summary:\u{3000}値が必要になるまで計算を遅らせる。

        値が必要になるまで計算を遅らせるのが遅延評価です。

        ![サンク]({static}/images/thunk.svg)
        """)
        try site.write("content/posts/tail-calls.md", """
        Title: Tail calls, explained
        Date: 2018-01-05 09:00
        Slug: tail-calls
        Summary: A call in tail position
            needs no new stack frame.

        A call in tail position needs no new stack frame.
        """)
        try site.write("content/posts/tail-calls-ja.md", """
        Title:末尾呼び出しの解説
          Date:\u{3000}2018-01-05 09:00
        Slug:tail-calls
        Lang:ja
        Summary:末尾位置の呼び出しは
        \t新しいスタックフレームを必要としない。

        末尾位置の呼び出しは新しいスタックフレームを必要としません。
        """)
        try site.write("content/pages/about.md", "Title: About these notes\nSlug: about\n\nNotes on programming languages.\n")
        try site.write("content/pages/about-ja.md", "Title:このノートについて\nSlug:about\nLang:ja\n\nプログラミング言語についてのノート。\n")
        try site.write("content/images/thunk.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }

    override func tearDown() {
        site.remove()
    }

    func page(_ url: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = "public/" + url.dropFirst("/blog/".count) + "index.html"
        return try XCTUnwrap(site.read(path), "no \(path) in \(site.files(under: "public"))", file: file, line: line)
    }

    /// `blog list --format json`, by source path under `content/`.
    func listing() throws -> [String: [String: Any]] {
        let list = try BlogCLI.run(["list", "--format", "json"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: entries.map { (String(($0["source"] as! String).dropFirst("content/".count)), $0) })
    }

    func testEveryVersionIsBuiltAndLinksItsTranslations() throws {
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertFalse(build.stderr.contains("warning"), build.stderr)

        let listed = try listing()
        XCTAssertEqual(listed.count, versions.count)
        for version in versions {
            let entry = try XCTUnwrap(listed[version.file], version.file)
            XCTAssertEqual(entry["title"] as? String, version.title, version.file)
            XCTAssertEqual(entry["slug"] as? String, version.slug, version.file)
            XCTAssertEqual(entry["url"] as? String, version.url, version.file)
            XCTAssertEqual(entry["kind"] as? String, version.kind, version.file)
        }
        // Dates written without an offset, with or without a space (an ideographic one too) after
        // the colon, are read in the site's zone.
        for file in ["posts/lazy-evaluation.md", "posts/lazy-evaluation-ja.md"] {
            XCTAssertEqual((listed[file]?["date"] as? String)?.prefix(16), "2017-12-18T22:20", file)
        }
        XCTAssertEqual((listed["posts/tail-calls-ja.md"]?["date"] as? String)?.prefix(16), "2018-01-05T09:00")
        XCTAssertEqual(listed["posts/lazy-evaluation-ja.md"]?["tags"] as? [String], ["haskell", "評価"])

        for version in versions {
            let html = try page(version.url)
            XCTAssertTrue(html.contains("<h1 class=\"post-title\">\(version.title)</h1>"), version.url)
            if version.lang != "en" { XCTAssertTrue(html.contains(" lang=\"\(version.lang)\">"), version.url) }
            let others = versions.filter { $0.slug == version.slug && $0.kind == version.kind && $0.lang != version.lang }
            XCTAssertEqual(others.count, 1)
            for other in others {
                XCTAssertTrue(html.contains("<a href=\"\(other.url)\" hreflang=\"\(other.lang)\" lang=\"\(other.lang)\">\(other.title) (\(other.lang))</a>"),
                              "\(version.url) must link \(other.url):\n\(html)")
                XCTAssertTrue(html.contains("<link rel=\"alternate\" hreflang=\"\(other.lang)\" href=\"https://example.org\(other.url)\">"),
                              "\(version.url) must name \(other.url) in its head:\n\(html)")
            }
        }

        // The Japanese summaries lost their ideographic space and kept both lines.
        let lazyJA = try page(versions[1].url)
        XCTAssertTrue(lazyJA.contains("<meta name=\"description\" content=\"値が必要になるまで計算を遅らせる。\">"), lazyJA)
        XCTAssertTrue(lazyJA.contains("<p>値が必要になるまで計算を遅らせるのが遅延評価です。</p>"), lazyJA)
        let tailJA = try page(versions[3].url)
        XCTAssertTrue(tailJA.contains("末尾位置の呼び出しは") && tailJA.contains("新しいスタックフレームを必要としない。\">"), tailJA)

        // The site's language owns the lists: the home page shows the English posts only.
        let home = try XCTUnwrap(site.read("public/index.html"))
        for version in versions where version.kind == "post" {
            XCTAssertEqual(home.contains(version.title), version.lang == "en", version.title)
        }
        // The image both versions show is published once, and found from both.
        XCTAssertTrue(site.exists("public/images/thunk.svg"))
        XCTAssertTrue(lazyJA.contains("src=\"/blog/images/thunk.svg\""), lazyJA)

        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    /// Pelican itself reads the fixture's headers as `blog` does (title, slug, lang, date, tags).
    /// Runs when `python3` on PATH has Pelican (`pip install pelican markdown`); skipped otherwise.
    func testPelicanReadsTheHeadersAlike() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pelican_headers.py")
        let pelican = try BlogCLI.run(["python3", fixture.path, site.root.appendingPathComponent("content").path], in: site.root,
                                      program: URL(fileURLWithPath: "/usr/bin/env"))
        if pelican.status == 3 || pelican.status == 127 {
            throw XCTSkip("Python 3 with Pelican is needed to compare: `pip install pelican markdown` (status \(pelican.status))")
        }
        XCTAssertEqual(pelican.status, 0, pelican.stderr)
        let theirs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pelican.stdout.utf8)) as? [[String: Any]])
        let ours = try listing()
        XCTAssertEqual(Set(theirs.map { $0["source"] as! String }), Set(ours.keys))
        for entry in theirs {
            let source = entry["source"] as! String
            let mine = try XCTUnwrap(ours[source], source)
            XCTAssertEqual(mine["title"] as? String, entry["title"] as? String, source)
            XCTAssertEqual(mine["slug"] as? String, entry["slug"] as? String, source)
            // Pelican gives no `lang` to a post without one: it is in the site's language.
            XCTAssertEqual(mine["lang"] as? String ?? "en", entry["lang"] as? String ?? "en", source)
            XCTAssertEqual((mine["date"] as? String).map { String($0.prefix(16)) }, entry["date"] as? String, source)
            XCTAssertEqual(mine["tags"] as? [String], entry["tags"] as? [String], source)
        }
    }
}
