import Foundation
import XCTest

/// The dialects end to end: a blog with a Pelican post, a Jekyll post and a Hugo post, each
/// holding the constructs its generator renders otherwise than CommonMark, built by the `blog`
/// binary, read back, and checked by `blog check`.
final class MarkdownDialectEndToEndTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("blog.yml", "title: Dialects\nbase_url: https://example.org/blog/\ntimezone: UTC\n")
        try site.write("content/posts/pelican.md", """
        Title: Pelican notes
        Date: 2020-01-01 10:00

        ##Getting started
        <img src="/blog/images/pic.svg" alt="A picture">
        ```swift
        let answer = 42
        ```

            ::python
            print("hi")

        Pelican
        :   A static site generator in *Python*.

        """)
        try site.write("content/_posts/2020-02-01-jekyll-notes.md", """
        ---
        title: Jekyll notes
        ---
        <br>
        Read [the Pelican notes](/blog/posts/pelican-notes/) first.

        ##No heading in kramdown

        """)
        try site.write("content/hugo/hugo-notes.md", """
        +++
        title = "Hugo notes"
        date = 2020-03-01
        +++
        Hugo
        : A static site generator in Go.

        """)
        try site.write("content/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }

    override func tearDown() {
        site.remove()
    }

    func testEachPostIsRenderedAsItsGeneratorDoes() throws {
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertEqual(build.stderr, "")

        let pelican = try XCTUnwrap(site.read("public/posts/pelican-notes/index.html"))
        XCTAssertTrue(pelican.contains("<h2 id=\"getting-started\">Getting started</h2>"), pelican)
        XCTAssertTrue(pelican.contains("<p><img src=\"/blog/images/pic.svg\" alt=\"A picture\"></p>"), pelican)
        XCTAssertTrue(pelican.contains("<pre><code class=\"language-swift\"><span class=\"k\">let</span> <span class=\"nv\">answer</span> "
            + "<span class=\"o\">=</span> <span class=\"m\">42</span>\n</code></pre>"), pelican)
        XCTAssertTrue(pelican.contains("<pre><code class=\"language-python\"><span class=\"nb\">print</span><span class=\"p\">(</span>"
            + "<span class=\"s\">&quot;hi&quot;</span><span class=\"p\">)</span>\n</code></pre>"), pelican)
        XCTAssertTrue(pelican.contains("<dl>\n<dt>Pelican</dt>\n<dd>A static site generator in <em>Python</em>.</dd>\n</dl>"), pelican)

        let jekyll = try XCTUnwrap(site.read("public/posts/jekyll-notes/index.html"))
        XCTAssertTrue(jekyll.contains("<p><br>\nRead <a href=\"/blog/posts/pelican-notes/\">the Pelican notes</a> first.</p>"), jekyll)
        XCTAssertTrue(jekyll.contains("<p>##No heading in kramdown</p>"), jekyll)

        let hugo = try XCTUnwrap(site.read("public/posts/hugo-notes/index.html"))
        XCTAssertTrue(hugo.contains("<dl>\n<dt>Hugo</dt>\n<dd>A static site generator in Go.</dd>\n</dl>"), hugo)

        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.hasSuffix(" links: no broken links\n"), check.stdout)
    }

    func testWhatCantBeRenderedIsAWarningThatStrictRefuses() throws {
        // hl_lines can't be shown without highlighting.
        try site.write("blog.yml", "title: Dialects\nbase_url: https://example.org/blog/\ntimezone: UTC\nhighlight: false\n")
        try site.write("content/posts/marked.md", """
        Title: Marked lines
        Date: 2020-04-01

        Intro.

            :::python hl_lines="1"
            a = 1

        """)
        let expected = "content/posts/marked.md:6:5: warning: hl_lines in a CodeHilite marker is not supported: the code block is shown without highlighted lines"
        let strict = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertTrue(strict.stderr.hasPrefix(expected + "\n"), strict.stderr)
        XCTAssertFalse(site.exists("public"), "--strict writes nothing")

        // Without --strict, the build goes on; the next build, done in place from the state the
        // first one left, warns the same.
        for _ in 1...2 {
            let build = try BlogCLI.run(["build", "--timings"], in: site.root)
            XCTAssertEqual(build.status, 0, build.stderr)
            XCTAssertTrue(build.stderr.contains(expected + "\n"), build.stderr)
        }
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/marked-lines/index.html")).contains("<code class=\"language-python\">a = 1\n</code>"))
    }
}
