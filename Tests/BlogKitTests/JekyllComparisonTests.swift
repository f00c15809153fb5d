import Foundation
import XCTest

/// Jekyll itself (kramdown with its GFM input, Jekyll's defaults) as the oracle for Jekyll-form
/// posts: a small blog of our own posts is built by Jekyll, with a layout that prints the content
/// alone, and by `blog`; each body's block structure and text must be the same (see
/// `Fixtures/jekyll_compare.py`). Skipped where `jekyll` is not installed (Debian: `apt-get install jekyll`).
final class JekyllComparisonTests: XCTestCase {
    /// File name under `_posts/` -> the post: the Pelican comparison's own posts, with a YAML header
    /// and the site at the root.
    static let posts: [String: String] = [
        "2021-01-06-inline-html.md": jekyllForm(PelicanComparisonTests.posts["inline-html-lines.md"]!)
            + "\nOutro with \"quotes\" -- and 'dashes'...",
        // kramdown decides per item whether its first paragraph is a <p> (issue 29).
        "2021-01-07-lists.md": """
            ---
            title: Lists
            ---
            Steps:

            1. First step
            2. Second step
            3. Third step, with a nested list
               - nested a
               - nested b

            4. Fourth step, after a blank line

               Its second paragraph.
            5. Fifth step
            6. Last step

            Tight from the start, loose at the end:

            - x
            - y

            - z

            Loose throughout:

            * a

            * b

            * c

            One item:

            - alone

            The end.
            """,
        // kramdown's raw span elements: no markdown inside <code>, <kbd> (issue 29).
        "2021-01-09-raw-spans.md": """
            ---
            title: Raw spans
            ---
            #### New <code>`Sequence`</code> members

            The <code>``SymbolName``</code> syntax, <kbd>*b*</kbd>, <code>a_b_c *d* [e]</code>,
            `<code>*x*</code>` in a code span, and <span>`c`</span> in a span.
            """,
        // kramdown's link destinations with `\)` (the backslash kept, the parentheses counted), and raw
        // HTML blocks with blank lines inside, raw to their closing tag (issue 29).
        "2021-01-10-parentheses-and-raw-html.md": #"""
            ---
            title: Parentheses and raw HTML
            ---
            See [the article](https://example.org/wiki/Tree_(data_structure\)#Terms) for terms,
            [a path](/docs/a(b\)c) and [an odd one](/x\)y) here.

            <div class="outer"><div class="inner">
            <pre class="term">
            $ ./run

            Step *one* done

              <span class="dim">2</span> _two_
            </pre>
            </div></div>

            After the block, *markdown* again.
            """#,
        // kramdown's quotes after markup: closing before `s` or a space, though a later quote pairs with
        // them in CommonMark (issue 29).
        "2021-01-11-quotes-after-markup.md": """
            ---
            title: Quotes after markup
            ---
            A `Parser`'s state can't leak, and the `Lexer`'s tokens don't either; *this*'s fine,
            **that**' too, `x`'y' and `z`"w", <i>tag</i>'s 'quoted' words.
            """,
        // kramdown's footnotes: ids from the labels, its backlinks (issue 29).
        "2021-01-08-notes.md": """
            ---
            title: Notes
            ---
            A claim[^src] and a second one[^long], then the first again[^src], and a list[^list].

            [^src]: The source, with a [link](https://example.org/).

            [^long]: A note of two paragraphs.

                Its second paragraph.

            [^list]:
                - a list in a note
                - and its second item
            """,
    ]

    /// `post` (a Pelican-form post) with its `Title:` as a YAML header, and its links under `/blog/` at the root.
    static func jekyllForm(_ post: String) -> String {
        let title = post.prefix { $0 != "\n" }.dropFirst("Title: ".count)
        let body = post[post.range(of: "\n\n")!.upperBound...]
        return "---\ntitle: \(title)\n---\n" + body.replacingOccurrences(of: "/blog/", with: "/")
    }

    /// A blog folder for Jekyll (its `_config.yml` giving every page the layout `bare`, which is
    /// `layout`); skips the test where `jekyll` is not installed.
    static func jekyllBlog(layout: String) throws -> TempSite {
        let probe = try BlogCLI.run(["jekyll", "--version"], in: URL(fileURLWithPath: "/"), program: URL(fileURLWithPath: "/usr/bin/env"))
        guard probe.status == 0 else {
            throw XCTSkip("Jekyll is needed to compare with: apt-get install jekyll (\(probe.stderr.suffix(200)))")
        }
        let site = try TempSite()
        try site.write("_config.yml", "defaults:\n  - scope: {path: \"\"}\n    values: {layout: bare}\nexclude: [blog.yml, public]\n")
        try site.write("_layouts/bare.html", layout + "\n")
        return site
    }

    func testBodiesMatchJekylls() throws {
        let site = try compare(Self.posts)
        defer { site.remove() }
        // The footnotes' markup (ids, classes, backlinks), not only their text.
        let jekylls = try XCTUnwrap(site.read("_site/2021/01/08/notes.html"))
        let blogs = HugoComparisonTests.body(try XCTUnwrap(site.read("public/posts/notes/index.html")))
        XCTAssertEqual(HugoComparisonTests.footnoteMarkup(blogs), HugoComparisonTests.footnoteMarkup(jekylls))
        XCTAssertEqual(HugoComparisonTests.footnoteMarkup(blogs).count, 6, blogs)
    }

    /// Issue 29, class 7: kramdown's emphasis beside CJK and ASCII punctuation (`**「強調」**` is strong,
    /// where CommonMark leaves the asterisks) and its `(\__LINE__, etc)` (no emphasis); the Pelican
    /// comparison's post, whose `<em>` and `<strong>` are compared too.
    func testEmphasisMatchesJekylls() throws {
        let post = Self.jekyllForm(PelicanComparisonTests.emphasisPosts["emphasis.md"]!)
        try compare(["2021-03-01-emphasis.md": post], emphasis: true).remove()
    }

    /// Builds `posts` (under `_posts/`) with Jekyll and with blog and compares each body (`<em>` and
    /// `<strong>` too when `emphasis`); the site, for more checks, which the caller removes.
    @discardableResult
    func compare(_ posts: [String: String], emphasis: Bool = false) throws -> TempSite {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let site = try Self.jekyllBlog(layout: "{{ content }}")
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/\ncontent: _posts\n")
        try site.write("_posts/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        for (name, text) in posts { try site.write("_posts/\(name)", text + "\n") }

        let jekyll = try BlogCLI.run(["jekyll", "build", "--quiet", "--destination", site.root.appendingPathComponent("_site").path],
                                     in: site.root, program: env)
        XCTAssertEqual(jekyll.status, 0, jekyll.stdout + jekyll.stderr)
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)

        let pairs = posts.keys.sorted().map { name -> String in
            // 2021-01-06-inline-html.md: Jekyll's 2021/01/06/inline-html.html, blog's posts/inline-html/.
            let slug = name.dropFirst(11).dropLast(3)
            let date = name.prefix(10).replacingOccurrences(of: "-", with: "/")
            return site.root.appendingPathComponent("_site/\(date)/\(slug).html").path + "="
                + site.root.appendingPathComponent("public/posts/\(slug)/index.html").path
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/jekyll_compare.py")
        let compare = try BlogCLI.run(["python3", script.path] + (emphasis ? ["--emphasis"] : []) + pairs, in: site.root, program: env)
        XCTAssertEqual(compare.status, 0, "bodies that differ from Jekyll's:\n\(compare.stdout)\(compare.stderr)")
        return site
    }

    /// `{% link %}` and `{% post_url %}` give the URL Jekyll gives, under `permalinks: jekyll`.
    func testLinksMatchJekylls() throws {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let site = try Self.jekyllBlog(layout: "{{ content }}")
        defer { site.remove() }
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/\ncontent: _posts\npermalinks: jekyll\n")
        try site.write("_posts/2021-02-01-first.md", "---\ntitle: First\n---\nOne.\n")
        try site.write("_posts/notes/2021-02-02-second.markdown", "---\ntitle: Second\n---\nTwo.\n")
        try site.write("_posts/2021-02-03-links.md", """
            ---
            title: Links
            ---
            [a]({% link _posts/2021-02-01-first.md %}), [b]({% link _posts/notes/2021-02-02-second.markdown %}#top),
            [c]({% post_url 2021-02-01-first %}), [d]({% post_url notes/2021-02-02-second %}).

            """)
        let jekyll = try BlogCLI.run(["jekyll", "build", "--quiet", "--destination", site.root.appendingPathComponent("_site").path],
                                     in: site.root, program: env)
        XCTAssertEqual(jekyll.status, 0, jekyll.stdout + jekyll.stderr)
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        func hrefs(_ html: String) -> [String] {
            let regex = try! NSRegularExpression(pattern: "href=\"([^\"]*)\"")
            return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
        }
        let jekylls = hrefs(try XCTUnwrap(site.read("_site/2021/02/03/links.html")))
        XCTAssertEqual(jekylls.count, 4, "\(jekylls)")
        XCTAssertEqual(hrefs(HugoComparisonTests.body(try XCTUnwrap(site.read("public/2021/02/03/links.html")))), jekylls)
    }

    /// Posts without a `title`, one with an apostrophe in its file name: Jekyll's titles (every word
    /// capitalised, words split at `-`) and URLs (the apostrophe kept) under `permalinks: jekyll`.
    func testUntitledPostsTitleAndURLAsJekylls() throws {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let site = try Self.jekyllBlog(layout: "{{ page.title }}|{{ page.url }}")
        defer { site.remove() }
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/\ncontent: _posts\npermalinks: jekyll\n")
        let names = ["2021-02-03-don't-panic-now.md", "2021-02-04-my-iOS_tips-and-TRICKS.md", "2021-02-05-why-it-works..md"]
        for name in names { try site.write("_posts/\(name)", "---\nlayout: bare\n---\nText.\n") }

        let jekyll = try BlogCLI.run(["jekyll", "build", "--quiet", "--destination", site.root.appendingPathComponent("_site").path],
                                     in: site.root, program: env)
        XCTAssertEqual(jekyll.status, 0, jekyll.stdout + jekyll.stderr)
        var jekylls: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: site.root.appendingPathComponent("_site"), includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "html" else { continue }
            jekylls.insert(try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let list = try BlogCLI.run(["list", "--format", "json"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        let blogs = Set(entries.map { "\($0["title"] ?? "")|\($0["url"] ?? "")" })
        XCTAssertEqual(blogs, jekylls)
        XCTAssertTrue(blogs.contains("Don't Panic Now|/2021/02/03/don't-panic-now.html"), "\(blogs)")
        XCTAssertTrue(blogs.contains("My Ios_tips And Tricks|/2021/02/04/my-iOS_tips-and-TRICKS.html"), "\(blogs)")
    }
}
