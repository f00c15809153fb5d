import Foundation
import XCTest

/// What issue 31 adds to a post's page, read from sites built by the `blog` binary: its length
/// and reading time, its table of contents, its series and its related posts.
final class PostFeaturesTests: BuiltSiteTestCase {
    /// Replaces the default theme's post template by one that shows only `post.words` and
    /// `post.reading_minutes`, with `config` as blog.yml.
    private func useWordsTheme(_ config: String = "") throws {
        try site.write("themes/default/templates/post.mustache",
                       "{{#post}}{{words}} words{{#reading_minutes}}, {{.}} min read{{/reading_minutes}}{{/post}}\n")
        try site.write("blog.yml", config)
    }

    /// What the words theme shows of the post `name`.
    private func words(_ name: String) throws -> String {
        try page("posts/\(name)/index.html").trimmingCharacters(in: .newlines)
    }

    /// The words of a body, counted from its text (markup and attributes not), and the minutes at
    /// `words_per_minute`, in the default theme's meta line.
    func testWordsAndReadingMinutes() throws {
        // 6 words: a tag in the middle of a word leaves it one, an entity is a character.
        try site.write("content/posts/short.md", """
            ---
            title: Short
            date: 2024-01-01
            ---
            One <em>un</em>done [link](https://example.org/a-b-c "many words here") R&amp;D `code`

            - last
            """)
        // 410 words of English: three minutes at 200 a minute, two at 300.
        let long = (1...41).map { _ in "alpha beta gamma delta epsilon zeta eta theta iota kappa." }.joined(separator: " ")
        try site.write("content/posts/long.md", "---\ntitle: Long\ndate: 2024-01-02\n---\n\(long)\n")
        // Chinese and Japanese count by characters: 4 + 2 + 2, and one ASCII word; the full stop is none.
        try site.write("content/posts/cjk.md", "---\ntitle: CJK\ndate: 2024-01-03\n---\n你好世界。中文 ひら test\n")
        try site.write("content/posts/empty.md", "---\ntitle: Empty\ndate: 2024-01-04\n---\n![](a.png)\n")
        // A table of contents in the body repeats its headings: its words are not counted.
        try site.write("content/posts/toc.md", "Title: TOC\nDate: 2024-01-05\n\n[TOC]\n\n# A\n\n# B\n")
        try useWordsTheme()
        try build(["--no-cache"])
        XCTAssertEqual(try words("toc"), "2 words, 1 min read")
        XCTAssertEqual(try words("short"), "6 words, 1 min read")
        XCTAssertEqual(try words("long"), "410 words, 3 min read")
        XCTAssertEqual(try words("cjk"), "9 words, 1 min read")
        XCTAssertEqual(try words("empty"), "0 words", "a body without words has no reading time")
        // The default theme's meta line, in the lists too.
        XCTAssertTrue(try page("index.html").contains(" · 3 min read\n</p>"))
        XCTAssertFalse(try page("index.html").contains("0 min read"))

        try useWordsTheme("words_per_minute: 300\n")
        try build(["--no-cache"])
        XCTAssertEqual(try words("long"), "410 words, 2 min read")
        try site.write("blog.yml", "words_per_minute: 0\n")
        let failed = try BlogCLI.run(["build", "--no-cache"], in: site.root)
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.stderr.contains("blog.yml:1:19: error: `words_per_minute` must be a whole number"), failed.stderr)
    }

    /// A body edit that changes the number of words is not patched in place when a template shows it.
    func testBuildInPlaceFollowsTheWordCount() throws {
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nOne two three.\n")
        try useWordsTheme()
        try build()
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nOne two three four.\n")
        try build()
        XCTAssertEqual(try words("a"), "4 words, 1 min read")
    }

    /// The theme's table of contents: on a post with three headings of `toc_levels` or more, on any
    /// post with a heading when its header says `toc: true`, never with `toc: false`, nested by level.
    func testTableOfContentsInTheTheme() throws {
        try site.write("content/posts/three.md", """
            ---
            title: Three
            date: 2024-01-01
            ---
            ## One
            ### One & a half
            #### Too deep
            ## Two
            """)
        try site.write("content/posts/two.md", "---\ntitle: Two\ndate: 2024-01-02\n---\n## One\n## Two\n")
        try site.write("content/posts/asked.md", "---\ntitle: Asked\ndate: 2024-01-03\ntoc: true\n---\n## Only\n")
        try site.write("content/posts/refused.md", "Title: Refused\nDate: 2024-01-04\nToc: false\n\n# A\n\n# B\n\n# C\n")
        try build(["--no-cache"])
        let toc = try between(#"<nav class="toc" aria-label="Contents">"#, "</nav>", in: "posts/three/index.html")
        XCTAssertEqual(toc, """

            <h2 class="toc-title">Contents</h2>
            <ul>
            <li><a href="#one">One</a>
            <ul>
            <li><a href="#one-a-half">One &amp; a half</a></li>
            </ul>
            </li>
            <li><a href="#two">Two</a></li>
            </ul>

            """)
        // Every link leads to a heading of the page.
        let three = try page("posts/three/index.html")
        for id in ["one", "one-a-half", "two"] { XCTAssertTrue(three.contains(#"id="\#(id)">"#), id) }
        XCTAssertFalse(try page("posts/two/index.html").contains(#"class="toc""#), "two headings: no table")
        XCTAssertTrue(try page("posts/asked/index.html").contains(##"<li><a href="#only">Only</a></li>"##))
        XCTAssertFalse(try page("posts/refused/index.html").contains(#"class="toc""#))

        // Levels from blog.yml: 4 only.
        try site.write("blog.yml", "toc_levels: 3-4\n")
        try build(["--no-cache"])
        XCTAssertFalse(try page("posts/asked/index.html").contains(#"class="toc""#), "no heading of levels 3-4: no table, even asked for")
        XCTAssertFalse(try page("posts/three/index.html").contains(#"class="toc""#), "two headings of levels 3-4 make no table")
        for bad in ["0-2", "3-2", "2-7", "two", "[2, 3]"] {
            try site.write("blog.yml", "toc_levels: \(bad)\n")
            let failed = try BlogCLI.run(["build", "--no-cache"], in: site.root)
            XCTAssertNotEqual(failed.status, 0, bad)
            XCTAssertTrue(failed.stderr.contains("blog.yml:1:13: error: `toc_levels` must be"), failed.stderr)
        }
    }

    /// Python-Markdown's `[TOC]` in a Pelican-form post and Hugo's `{{< toc >}}` in a Hugo-form one put
    /// the table in the body, and then the theme shows none; the words of the table are not the post's.
    func testTableOfContentsMarkersInTheBody() throws {
        try site.write("content/posts/pelican.md", "Title: Pelican\nDate: 2024-01-01\n\n[TOC]\n\n# A\n\n## B\n\n# C\n")
        try site.write("content/posts/hugo.md", "---\ntitle: Hugo\ndate: 2024-01-02\n---\nIntro.\n\n{{< toc >}}\n\n## A\n\n## B\n\n## C\n")
        // In a Jekyll-form post `[TOC]` is text.
        try site.write("content/_posts/2024-01-03-jekyll.md", "---\ntitle: Jekyll\n---\n[TOC]\n\n## A\n")
        try build(["--no-cache"])
        let pelican = try between(#"<div class="post-body">"#, "</div>", in: "posts/pelican/index.html")
        XCTAssertTrue(pelican.hasPrefix("""

            <nav class="toc" aria-label="Contents">
            <ul>
            <li><a href="#a">A</a>
            <ul>
            <li><a href="#b">B</a></li>
            </ul>
            </li>
            <li><a href="#c">C</a></li>
            </ul>
            </nav>
            <h1 id="a">A</h1>
            """), pelican)
        let hugo = try page("posts/hugo/index.html")
        XCTAssertTrue(hugo.contains("""
            <p>Intro.</p>
            <nav class="toc" aria-label="Contents">
            <ul>
            <li><a href="#a">A</a></li>
            """), hugo)
        for html in [try page("posts/pelican/index.html"), hugo] {
            XCTAssertEqual(html.components(separatedBy: #"class="toc""#).count, 2, "one table, the body's")
        }
        XCTAssertTrue(try page("posts/pelican/index.html").contains("</time> · 1 min read\n</p>"))
        // The list's summary has no table (its links lead into the post).
        XCTAssertFalse(try page("index.html").contains(#"class="toc""#))
        XCTAssertTrue(try page("posts/jekyll/index.html").contains("<p>[TOC]</p>"))
    }

    /// A `series` header groups posts, oldest first; each shows its place and links to the others.
    func testSeries() throws {
        try site.write("content/posts/p2.md", "---\ntitle: Part two\ndate: 2024-02-01\nseries: [Learning Swift]\n---\nText.\n")
        try site.write("content/posts/p1.md", "Title: Part one\nDate: 2024-01-01\nSeries: Learning Swift\n\nText.\n")
        try site.write("content/posts/p3.md", "---\ntitle: Part three\ndate: 2024-03-01\nseries: learning swift\n---\nText.\n")
        try site.write("content/posts/other.md", "---\ntitle: Other\ndate: 2024-02-15\nseries: Elsewhere\n---\nText.\n")
        try site.write("content/posts/alone.md", "---\ntitle: Alone\ndate: 2024-02-16\n---\nText.\n")
        // A hidden post is in no series.
        try site.write("content/posts/hidden.md", "---\ntitle: Hidden\ndate: 2024-02-17\nseries: Learning Swift\nstatus: hidden\n---\nText.\n")
        try build(["--no-cache"])
        let box = try between(#"<nav class="series" aria-label="Series">"#, "</nav>", in: "posts/p2/index.html")
        XCTAssertEqual(box, """

            <p class="series-title">Part 2 of 3 of <strong>Learning Swift</strong></p>
            <ol class="series-list">
            <li><a href="/posts/part-one/">Part one</a></li>
            <li><span aria-current="page">Part two</span></li>
            <li><a href="/posts/p3/">Part three</a></li>
            </ol>

            """)
        XCTAssertTrue(try page("posts/p3/index.html").contains("Part 3 of 3 of <strong>Learning Swift</strong>"))
        XCTAssertTrue(try page("posts/other/index.html").contains("Part 1 of 1 of <strong>Elsewhere</strong>"))
        XCTAssertFalse(try page("posts/alone/index.html").contains(#"class="series""#))
        XCTAssertFalse(try page("posts/hidden/index.html").contains(#"class="series""#))
    }

    /// Related posts: the most shared tags first, then the category, then the nearest date; never
    /// the post itself, nor a post sharing nothing; `related_posts` of them.
    func testRelatedPosts() throws {
        func post(_ name: String, _ day: Int, tags: [String], category: String? = nil) throws {
            try site.write("content/posts/\(name).md", """
                ---
                title: \(name)
                date: 2024-01-\(String(format: "%02d", day))
                tags: [\(tags.joined(separator: ", "))]
                \(category.map { "categories: [\($0)]" } ?? "")
                ---
                Text.
                """)
        }
        try post("me", 10, tags: ["a", "b", "c"], category: "x")
        try post("twotags", 1, tags: ["a", "b"])
        try post("onetagfar", 20, tags: ["c"])
        try post("onetagnear", 11, tags: ["a"])
        try post("onetagcategory", 25, tags: ["b"], category: "x")
        try post("categoryonly", 9, tags: [], category: "x")
        try post("nothing", 10, tags: ["z"])
        try build(["--no-cache"])
        func related(_ name: String) throws -> [String] {
            let html = try page("posts/\(name)/index.html")
            guard let start = html.range(of: #"<aside class="related""#) else { return [] }
            return html[start.upperBound...].components(separatedBy: "</aside>")[0]
                .components(separatedBy: #"<li><a href="/posts/"#).dropFirst().map { String($0.prefix { $0 != "/" }) }
        }
        XCTAssertEqual(try related("me"), ["twotags", "onetagcategory", "onetagnear", "onetagfar", "categoryonly"])
        XCTAssertEqual(try related("nothing"), [])
        XCTAssertEqual(try related("categoryonly"), ["me", "onetagcategory"], "the category, nearest first")
        try site.write("blog.yml", "related_posts: 2\n")
        try build(["--no-cache"])
        XCTAssertEqual(try related("me"), ["twotags", "onetagcategory"])
        try site.write("blog.yml", "related_posts: 0\n")
        try build(["--no-cache"])
        XCTAssertFalse(try page("posts/me/index.html").contains(#"class="related""#))
    }

    /// A fenced `mermaid` block is a diagram, `<pre class="mermaid">` with its text escaped, never
    /// highlighted; TeX math in Hugo- and Jekyll-form posts reaches the page as written (goldmark's
    /// passthrough rules); each page loads the renderers blog.yml names only when it has what they draw.
    func testDiagramsAndMath() throws {
        try site.write("content/posts/diagram.md", """
            ---
            title: Diagram
            date: 2024-01-01
            ---
            ```mermaid
            graph TD
              A[Start & go] --> B{<b>?</b>}
            ```
            """)
        try site.write("content/posts/math.md", #"""
            ---
            title: Math
            date: 2024-01-02
            ---
            Inline $a_*b_* < c$ and \(x^*\), escaped \$5, code `$not math$`.

            $$
            \sum_{i=1}^n i = \frac{n(n+1)}{2}
            $$

            \[ e^{i\pi} + 1 = 0 \]

            An opener alone: $ and no more.

            Empty: $$ stays.

                $indented code$
            """#)
        try site.write("content/_posts/2024-01-03-kramdown.md", "---\ntitle: Kramdown\n---\nJekyll too: $$E = mc^2$$ and $x_1 *y*$.\n")
        try site.write("content/posts/pelican.md", "Title: Pelican\nDate: 2024-01-04\n\nPelican is not: $a *b* c$.\n")
        try site.write("content/posts/plain.md", "---\ntitle: Plain\ndate: 2024-01-05\n---\nNo math.\n")
        try site.write("blog.yml", "mermaid_script: js/mermaid.min.js\nmath_script: https://cdn.example.org/mathjax/tex-chtml.js\nbase_url: /blog/\n")
        try build(["--no-cache"])
        let diagram = try page("posts/diagram/index.html")
        XCTAssertTrue(diagram.contains("<pre class=\"mermaid\">graph TD\n  A[Start &amp; go] --&gt; B{&lt;b&gt;?&lt;/b&gt;}\n</pre>"), diagram)
        XCTAssertTrue(diagram.contains(#"<script src="/blog/js/mermaid.min.js" defer></script>"#))
        XCTAssertFalse(diagram.contains("mathjax"))

        let math = try between(#"<div class="post-body">"#, "</div>", in: "posts/math/index.html")
        XCTAssertEqual(math, #"""

            <p>Inline $a_*b_* &lt; c$ and \(x^*\), escaped $5, code <code>$not math$</code>.</p>
            $$
            \sum_{i=1}^n i = \frac{n(n+1)}{2}
            $$
            \[ e^{i\pi} + 1 = 0 \]
            <p>An opener alone: $ and no more.</p>
            <p>Empty: $$ stays.</p>
            <pre><code>$indented code$
            </code></pre>


            """#)
        let mathPage = try page("posts/math/index.html")
        XCTAssertTrue(mathPage.contains(#"<script src="https://cdn.example.org/mathjax/tex-chtml.js" defer></script>"#))
        XCTAssertFalse(mathPage.contains("mermaid"))
        XCTAssertTrue(try page("posts/kramdown/index.html").contains("<p>Jekyll too: $$E = mc^2$$ and $x_1 *y*$.</p>"))
        XCTAssertTrue(try page("posts/pelican/index.html").contains("<p>Pelican is not: $a <em>b</em> c$.</p>"))
        for plain in ["posts/plain/index.html", "posts/pelican/index.html", "index.html"] {
            XCTAssertFalse(try loadsARenderer(page(plain)), plain)
        }
        // Without the settings, no page loads anything, and math is markdown (`\(` an escaped parenthesis).
        try site.write("blog.yml", "base_url: /blog/\n")
        try build(["--no-cache"])
        XCTAssertFalse(try loadsARenderer(page("posts/math/index.html")))
        XCTAssertTrue(try page("posts/math/index.html").contains("<p>Inline $a_<em>b_</em> &lt; c$ and (x^*), escaped $5"))
        XCTAssertFalse(try loadsARenderer(page("posts/diagram/index.html")))
    }

    /// Whether a page loads a script other than the theme's search box's.
    func loadsARenderer(_ page: String) -> Bool {
        page.components(separatedBy: "<script").count - 1 > page.components(separatedBy: #"search.js" defer></script>"#).count - 1
    }
}
