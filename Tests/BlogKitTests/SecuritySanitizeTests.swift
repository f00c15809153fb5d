import BlogCore
import BlogMarkdown
import Foundation
import XCTest

/// `html: sanitize` (issue 26, finding 10): a blog that publishes posts it did not write keeps
/// only an allow-list of elements, attributes and URL schemes, in bodies, summaries and shortcodes'
/// output. Real blog folders built by the `blog` binary, their pages read back, and loaded in
/// headless Chromium when it is installed.
final class SecuritySanitizeTests: BuiltSiteTestCase {
    /// What every vector runs when it gets through: the page's title changes.
    static let payload = "document.title='XSS'"

    /// Filter evasion vectors after OWASP's XSS Filter Evasion Cheat Sheet, written for this test,
    /// one block each. Each one, if any of it got through, would run ``payload`` (or would be a
    /// link or a frame that runs it).
    static let vectors: [String] = [
        // Script elements, in many spellings.
        #"<script>document.title='XSS'</script>"#,
        #"<SCRIPT SRC=data:text/javascript,document.title='XSS'></SCRIPT>"#,
        #"<ScRiPt>document.title='XSS'</sCrIpT>"#,
        #"<script/xss>document.title='XSS'</script>"#,
        #"<<SCRIPT>document.title='XSS';//<</SCRIPT>"#,
        #"<script>/*</script><script>*/document.title='XSS'</script>"#,
        #"<p>text <script >document.title='XSS'</script > inline</p>"#,
        // Event handlers.
        #"<img src=x onerror="document.title='XSS'">"#,
        #"<IMG SRC=x ONERROR="document.title='XSS'">"#,
        #"<img src=x:x onerror=document.title='XSS'>"#,
        #"<IMG SRC=/ onerror="document.title='XSS'"></img>"#,
        #"<img src=`x` onerror=document.title='XSS'>"#,
        #"<img src="x"/onerror="document.title='XSS'">"#,
        #"<img src="x"onerror="document.title='XSS'">"#,
        #"<img """><SCRIPT>document.title='XSS'</SCRIPT>">"#,
        #"<svg onload="document.title='XSS'">"#,
        #"<svg><script>document.title='XSS'</script></svg>"#,
        #"<body onload="document.title='XSS'">"#,
        #"<details open ontoggle="document.title='XSS'">toggle</details>"#,
        #"<input autofocus onfocus="document.title='XSS'">"#,
        #"<audio src=x onerror="document.title='XSS'"></audio>"#,
        #"<video><source onerror="document.title='XSS'"></video>"#,
        #"<a href="https://ok.example/" onclick="document.title='XSS'">onclick</a>"#,
        #"<x onmouseover="document.title='XSS'">custom element</x>"#,
        // javascript: URLs, spelt to get past a filter.
        #"<IMG SRC="javascript:document.title='XSS';">"#,
        #"<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;document.title='XSS'>"#,
        #"<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058document.title='XSS'">decimal, no semicolons</a>"#,
        #"<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;document.title='XSS'">hexadecimal</a>"#,
        "<a href=\"jav\tascript:document.title='XSS'\">a tab</a>",
        #"<a href="jav&#x09;ascript:document.title='XSS'">an encoded tab</a>"#,
        #"<a href="jav&#x0A;ascript:document.title='XSS'">an encoded newline</a>"#,
        #"<a href="jav&#x0D;ascript:document.title='XSS'">an encoded carriage return</a>"#,
        #"<a href=" &#14;  javascript:document.title='XSS'">spaces and a control character first</a>"#,
        #"<a href="javascript&colon;document.title='XSS'">a named colon</a>"#,
        #"<a href="JaVaScRiPt:document.title='XSS'">mixed case</a>"#,
        #"<a href="vbscript:msgbox('XSS')">vbscript</a>"#,
        #"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a data URL</a>"#,
        "[a markdown link](javascript:document.title='XSS')",
        "![a markdown image](javascript:document.title='XSS')",
        #"<img srcset="javascript:document.title='XSS' 1x, /ok.png 2x">"#,
        // Frames, plugins, and elements that change the page.
        #"<iframe src="javascript:parent.document.title='XSS'"></iframe>"#,
        #"<iframe srcdoc="<script>parent.document.title='XSS'</script>"></iframe>"#,
        #"<object data="javascript:document.title='XSS'"></object>"#,
        #"<embed src="data:text/html,<script>document.title='XSS'</script>">"#,
        #"<meta http-equiv="refresh" content="0;url=javascript:document.title='XSS'">"#,
        #"<form action="javascript:document.title='XSS'"><button>go</button></form>"#,
        #"<button formaction="javascript:document.title='XSS'">go</button>"#,
        #"<base href="javascript:document.title='XSS';//">"#,
        #"<link rel="stylesheet" href="javascript:document.title='XSS'">"#,
        // Styles.
        #"<style>@import 'javascript:document.title="XSS"';</style>"#,
        #"<div style="background-image: url(javascript:document.title='XSS')">style url</div>"#,
        #"<div style="width: expression(document.title='XSS');">expression</div>"#,
        #"<p STYLE="xss:expr/*XSS*/ession(document.title='XSS')">a comment inside</p>"#,
        #"<TABLE BACKGROUND="javascript:document.title='XSS'"><tr><td>table</td></tr></TABLE>"#,
        // Comments, raw text elements and parser tricks.
        #"<!--[if gte IE 4]><script>document.title='XSS'</script><![endif]-->"#,
        #"<!-- --><script>document.title='XSS'</script> -->"#,
        #"<noscript><p title="</noscript><img src=x onerror=document.title='XSS'>"></noscript>"#,
        #"<math><mtext><table><mglyph><style><img src=x onerror="document.title='XSS'"></style></mglyph></table></mtext></math>"#,
        #"<textarea><img src=x onerror="document.title='XSS'"></textarea>"#,
        #"<title><img src=x onerror="document.title='XSS'"></title>"#,
        #"<a href="javas<!-- -->cript:document.title='XSS'">a comment in the URL</a>"#,
        #"<IMG SRC="x" onerror="document.title='XSS'""#,
    ]

    /// The blog with the vectors: a Pelican-form post (body, and a header summary with vectors), a
    /// Jekyll post whose kramdown attribute list adds a handler, and a Hugo-form post whose
    /// shortcodes write a frame, a script and a link.
    func writeHostileBlog(config: String) throws {
        // The output folder's own path as the base path: the pages then work from file:// URLs.
        let output = site.root.appendingPathComponent("public").standardizedFileURL
        // No search box: the theme's own form and script would count as elements that run.
        try site.write("blog.yml", "title: Guests\nbase_url: \(output.path)/\nsearch: false\n" + config)
        try site.write("content/posts/guest.md", """
            ---
            title: Guest post
            date: 2024-01-02
            summary: >-
              A *guest* post <img src=x onerror="\(Self.payload)"> <script>\(Self.payload)</script>
            ---
            Before the vectors.

            \(Self.vectors.joined(separator: "\n\n"))

            After the vectors.
            """)
        try site.write("content/posts/2024-01-03-kramdown.md", """
            ---
            title: Kramdown
            ---
            A paragraph with a handler.
            {: onmouseover="\(Self.payload)" .note}
            """)
        try site.write("content/notes/shortcodes.md", """
            ---
            title: Shortcodes
            date: 2024-01-04
            ---
            {{< youtube dQw4w9WgXcQ >}}

            {{< gist someone 0123abcd >}}

            {{< figure src="/x.png" link="javascript:\(Self.payload)" caption="A figure" >}}
            """)
    }

    func testFilterEvasionVectorsLeaveNothingExecutable() throws {
        XCTAssertGreaterThanOrEqual(Self.vectors.count, 40)
        try writeHostileBlog(config: "html: sanitize\n")
        let result = try build(["--no-cache"])
        // What was removed is said, at the line of the first piece (the body's first vector).
        XCTAssertTrue(result.stderr.contains("content/posts/guest.md:9:1: warning: `html: sanitize` removed `<script>` and "),
                      result.stderr)
        for path in ["posts/guest/index.html", "posts/kramdown/index.html", "posts/shortcodes/index.html"] {
            let body = try postBody(page(path))
            XCTAssertEqual(Self.executable(in: body), [], "\(path):\n\(body)")
            XCTAssertEqual(Self.elementsNotAllowed(in: body), [], "\(path):\n\(body)")
        }
        let guest = try page("posts/guest/index.html")
        XCTAssertTrue(guest.contains("<p>Before the vectors.</p>") && guest.contains("<p>After the vectors.</p>"), guest)
        XCTAssertTrue(guest.contains(#"<a href="https://ok.example/">onclick</a>"#), guest)
        XCTAssertTrue(try page("posts/kramdown/index.html").contains(#"<p class="note">A paragraph with a handler.</p>"#))
        XCTAssertTrue(try page("posts/shortcodes/index.html").contains("<figcaption>"))
        // The summary, in the lists and the feeds, went through the same rules.
        let home = try page("index.html")
        XCTAssertTrue(home.contains("A <em>guest</em> post"), home)
        XCTAssertEqual(Self.executable(in: Self.bodyElement(home)), [], home)
        for path in ["feed.xml", "rss.xml"] {
            // A feed's own `<link>` and `<title>` elements are no HTML.
            let feed = Self.unescaped(try page(path))
            XCTAssertEqual(Self.executable(in: feed).filter { !["<link>", "<title>"].contains($0) }, [], "\(path):\n\(feed)")
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(page("feed.json").utf8)) as? [String: Any])
        for item in try XCTUnwrap(json["items"] as? [[String: Any]]) {
            let html = (item["content_html"] as? String ?? "") + (item["summary"] as? String ?? "")
            XCTAssertEqual(Self.executable(in: html), [], html)
        }
    }

    func testNoVectorRunsInChromium() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("Chromium is not installed: apt-get install chromium")
        }
        try writeHostileBlog(config: "html: sanitize\n")
        _ = try build(["--no-cache", "--quiet"])
        // One browser for every page: a harness loads each in a frame, waits for its images to
        // fail and its handlers to fire, and writes each page's title and body as the browser built them.
        let pages = ["posts/guest/index.html", "index.html", "posts/kramdown/index.html", "posts/shortcodes/index.html"]
        let output = site.root.appendingPathComponent("public").standardizedFileURL
        let harness = try site.write("harness.html", """
            <!doctype html><title>harness</title><output id="pages"></output>
            <script>
            const pages = \(String(decoding: try JSONEncoder().encode(pages.map { output.appendingPathComponent($0).absoluteString }), as: UTF8.self));
            Promise.all(pages.map(url => new Promise(done => {
              const frame = document.createElement("iframe");
              frame.onload = () => setTimeout(() => done([frame.contentDocument.title, frame.contentDocument.body.innerHTML]), 1000);
              frame.src = url;
              document.body.append(frame);
            }))).then(all => { document.getElementById("pages").textContent = JSON.stringify(all); });
            </script>
            """)
        let run = try BlogCLI.run(["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                                   "--virtual-time-budget=5000", "--dump-dom", harness.absoluteString],
                                  in: site.root, program: URL(fileURLWithPath: chromium))
        let dom = run.stdout
        XCTAssertTrue(dom.contains("<title>harness</title>"), "a vector changed the page around its frame:\n\(dom)")
        let start = try XCTUnwrap(dom.range(of: #"<output id="pages">"#), run.stderr)
        let end = try XCTUnwrap(dom.range(of: "</output>", range: start.upperBound..<dom.endIndex))
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&nbsp;", with: "\u{A0}")
            .replacingOccurrences(of: "&amp;", with: "&")
        let loaded = try JSONDecoder().decode([[String]].self, from: Data(json.utf8))
        XCTAssertEqual(loaded.map { $0[0] }, ["Guest post · Guests", "Guests", "Kramdown · Guests", "Shortcodes · Guests"], "a vector ran")
        for (path, page) in zip(pages, loaded) {
            // The DOM as Chromium built it from the page: nothing that runs.
            XCTAssertEqual(Self.executable(in: page[1]), [], "\(path):\n\(page[1])")
        }
    }

    func testHeaderSummaryIsMarkdownUnderTheBlogsPolicy() throws {
        // Trusted (the default): a header summary is markdown, raw HTML included, as a body is.
        try site.write("content/posts/one.md", "Title: One\nDate: 2024-01-02\nSummary: Some *words* <kbd>K</kbd> <b onclick=\"x()\">b</b>\n\nBody.\n")
        _ = try build(["--no-cache"])
        XCTAssertTrue(try page("index.html").contains(#"Some <em>words</em> <kbd>K</kbd> <b onclick="x()">b</b>"#))
        // Sanitized: the same markdown, the handler gone.
        try site.write("blog.yml", "html: sanitize\n")
        _ = try build(["--no-cache"])
        let home = try page("index.html")
        XCTAssertTrue(home.contains("Some <em>words</em> <kbd>K</kbd> <b>b</b>"), home)
        XCTAssertFalse(home.contains("onclick"), home)
    }

    func testAPostMayOnlyMakeThePolicyStricter() throws {
        let raw = #"<b onclick="x()">b</b>"#
        try site.write("content/posts/guest.md", "Title: Guest\nDate: 2024-01-02\nhtml: sanitize\n\n\(raw)\n")
        try site.write("content/posts/own.md", "Title: Own\nDate: 2024-01-03\n\n\(raw)\n")
        _ = try build(["--no-cache"])
        XCTAssertTrue(try page("posts/guest/index.html").contains("<p><b>b</b></p>"))
        XCTAssertTrue(try page("posts/own/index.html").contains("<p>\(raw)</p>"))
        // A post can't loosen blog.yml's.
        try site.write("blog.yml", "html: sanitize\n")
        try site.write("content/posts/own.md", "Title: Own\nDate: 2024-01-03\nhtml: trusted\n\n\(raw)\n")
        _ = try build(["--no-cache"])
        XCTAssertTrue(try page("posts/own/index.html").contains("<p><b>b</b></p>"))
        // A value that is none of the three is an error at its place, and nothing is published.
        let before = site.snapshot("public")
        try site.write("content/posts/own.md", "Title: Own\nDate: 2024-01-03\nhtml: sanitise\n\n\(raw)\n")
        let failed = try BlogCLI.run(["build", "--no-cache"], in: site.root)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("content/posts/own.md:3:7: error: unknown `html` \"sanitise\": use trusted, tagfilter or sanitize"),
                      failed.stderr)
        XCTAssertEqual(site.snapshot("public"), before)
    }

    func testBlogYmlKeyAndTheTagfilterAlias() throws {
        try site.write("content/posts/one.md", "Title: One\nDate: 2024-01-02\n\n<script>x()</script>\n\n<img src=x onerror=\"x()\">\n")
        // `html: tagfilter` and `tagfilter: true` are the same: GFM's tagfilter, which escapes
        // `<script>` but leaves an `<img onerror>` as it is (docs/security.md says so).
        var pages: [String] = []
        for config in ["html: tagfilter\n", "tagfilter: true\n", "tagfilter: true\nhtml: trusted\n"] {
            try site.write("blog.yml", config)
            let result = try build(["--no-cache"])
            XCTAssertFalse(result.stderr.contains("unknown setting"), result.stderr)
            pages.append(try page("posts/one/index.html"))
        }
        XCTAssertEqual(Set(pages).count, 1)
        XCTAssertTrue(pages[0].contains("&lt;script>x()&lt;/script>") && pages[0].contains(#"<img src=x onerror="x()">"#), pages[0])
        // The stricter of the two applies.
        try site.write("blog.yml", "tagfilter: true\nhtml: sanitize\n")
        _ = try build(["--no-cache"])
        let sanitized = try page("posts/one/index.html")
        XCTAssertTrue(sanitized.contains(#"<img src="x" />"#) && !sanitized.contains("x()"), sanitized)
        // A value that is none of the three is an error at its line.
        try site.write("blog.yml", "title: T\nhtml: sanitise\n")
        let failed = try BlogCLI.run(["build", "--no-cache"], in: site.root)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("blog.yml:2:7: error: `html` must be `trusted`"), failed.stderr)
    }

    /// What blog writes itself (footnotes, task lists, tables, highlighted code with line numbers,
    /// heading ids, definition lists, figures) is the same under `html: sanitize` as without.
    func testBlogsOwnMarkupIsKeptWhole() throws {
        try site.write("content/posts/features.md", """
            Title: Features
            Date: 2024-01-02

            ## A heading, with `code`

            Text with a footnote[^1], ~~struck~~, **strong** and a [link](https://example.org "title") to
            <https://auto.example> and [mail](mailto:a@example.org), and ![an image](/x.png "t").

            - [x] done
            - [ ] to do

            | left | right | centre |
            |:-----|------:|:------:|
            | 1    | 2     | 3      |

                #!python hl_lines="2" linenostart="3"
                def f(x):
                    return x + 1

            ```swift
            let a = [1, 2] // a comment
            ```

            Term
            :   Its definition

            1. one
            2. two

            > quoted

            [^1]: The note.
            """)
        try site.write("content/notes/figure.md", """
            ---
            title: Figure
            date: 2024-01-03
            ---
            {{< figure src="/x.png" alt="An image" title="Its title" caption="A caption" link="/somewhere/" >}}
            """)
        _ = try build(["--no-cache"])
        let trusted = try ["posts/features/index.html", "posts/figure/index.html"].map { try postBody(page($0)) }
        try site.write("blog.yml", "html: sanitize\n")
        let result = try build(["--no-cache"])
        XCTAssertFalse(result.stderr.contains("html: sanitize"), result.stderr)
        let sanitized = try ["posts/features/index.html", "posts/figure/index.html"].map { try postBody(page($0)) }
        XCTAssertEqual(sanitized, trusted)
        for needle in [#"<section class="footnotes" data-footnotes>"#, #"<input type="checkbox" checked="" disabled="" />"#,
                       #"<th align="right">"#, #"<span class="hll">"#, #"<h2 id="a-heading-with-code">"#, "<dd>", "<figcaption>"] {
            XCTAssertTrue(sanitized[0].contains(needle) || sanitized[1].contains(needle), "no \(needle) in:\n\(sanitized.joined())")
        }
    }

    /// Thousands of elements left open then thousands of stray end tags, and a link whose URL starts
    /// with a long run of spaces: the sanitizer's work grows with the post, not with its square.
    func testHostileMarkupIsSanitizedInLinearTime() throws {
        let count = 20_000
        try site.write("blog.yml", "html: sanitize\n")
        try site.write("content/posts/deep.md", "Title: Deep\nDate: 2024-01-02\n\n"
            + String(repeating: "<div>", count: count) + String(repeating: "</span>", count: count) + "\n\n"
            + "<p><a href=\"" + String(repeating: " ", count: 10 * count) + "x\">link</a></p>\n")
        // Quadratic work took 30 s here; linear takes about a second (a debug build, two busy cores).
        let process = Process()
        process.executableURL = BlogCLI.executable
        process.arguments = ["build", "--no-cache", "--quiet"]
        process.currentDirectoryURL = site.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        while process.isRunning, Date().timeIntervalSince(started) < 8 { usleep(20_000) }
        let finished = !process.isRunning
        if !finished { process.terminate() }
        process.waitUntilExit()
        XCTAssertTrue(finished, "the build was still running after 8 s")
        guard finished else { return }
        XCTAssertEqual(process.terminationStatus, 0)
        let body = try postBody(page("posts/deep/index.html"))
        XCTAssertEqual(body.components(separatedBy: "<div>").count - 1, count)
        XCTAssertEqual(body.components(separatedBy: "</div>").count - 1, count + 1)  // and the theme's own
        XCTAssertFalse(body.contains("</span>"))
        XCTAssertTrue(body.contains(#"<a href="x">link</a>"#))
    }

    /// Character references in attribute values decode as browsers decode them, so that a URL is
    /// checked as the browser will read it: every name of the table as Python's copy of the HTML
    /// standard's table says, the legacy ones without `;` too; a name outside it stays as written.
    func testCharacterReferencesDecodeAsInBrowsers() throws {
        let python = try BlogCLI.run(["-c", "import html.entities, json; print(json.dumps([html.entities.html5, html.entities.name2codepoint]))"],
                                     in: site.root, program: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(python.status, 0, python.stderr)
        let tables = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [[String: Any]])
        let html5 = try XCTUnwrap(tables[0] as? [String: String]), html4 = try XCTUnwrap(tables[1] as? [String: Int])
        var decoded = 0
        for (name, value) in html5 {
            let result = HTMLEntities.decodeAttribute("&" + name)
            XCTAssertTrue(result == value || result == "&" + name, "&\(name) gave \(result)")
            if result == value { decoded += 1 }
        }
        XCTAssertGreaterThan(decoded, 390)
        // Every HTML 4 name, and every name of an ASCII character (what a URL can be spelt with), is in the table.
        for name in html4.keys { XCTAssertEqual(HTMLEntities.decodeAttribute("&\(name);"), html5[name + ";"], name) }
        for (name, value) in html5 where value.unicodeScalars.allSatisfy(\.isASCII) {
            XCTAssertEqual(HTMLEntities.decodeAttribute("&" + name + (name.hasSuffix(";") ? "" : ";")), value, name)
        }
        XCTAssertEqual(HTMLEntities.decodeAttribute("&#106;&#x61;&#0000118&#X61;"), "java")
        XCTAssertEqual(HTMLEntities.decodeAttribute("&#0;&#xD800;&#x110000;&#99999999999;&#128;&#x9F;"), "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}€Ÿ")
        XCTAssertEqual(HTMLEntities.decodeAttribute("&ampx &amp=1 &amp x &hyphen; &# &#x;"), "&ampx &amp=1 & x &hyphen; &# &#x;")
    }

    /// The sanitizer's output is its own fixed point, and every element it opens it closes.
    func testSanitizedHTMLIsStableAndBalanced() {
        for html in Self.vectors + ["<div><b>x", "</div>a<p>b</b>c", #"<img src="a" alt='b"c' title=d>"#, "<a href=x>&amp;&lt;"] {
            let once = HTMLSanitizer.sanitize(html).html
            XCTAssertEqual(HTMLSanitizer.sanitize(once).html, once, html)
        }
        XCTAssertEqual(HTMLSanitizer.sanitize("<div><b>x").html, "<div><b>x</b></div>")
        XCTAssertEqual(HTMLSanitizer.sanitize("</div>a<p>b</b>c").html, "a<p>bc</p>")
        XCTAssertEqual(HTMLSanitizer.sanitize(#"<img src="a" alt='b"c' title=d>"#).html, #"<img src="a" alt="b&quot;c" title="d" />"#)
    }

    // MARK: - Reading the pages

    /// The post's body in a page of the default theme.
    func postBody(_ page: String) throws -> String {
        let start = try XCTUnwrap(page.range(of: #"<div class="post-body">"#), page)
        let end = page.range(of: "</article>", range: start.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
        return String(page[start.upperBound..<end])
    }

    /// What is inside a page's `<body>` (the head holds the theme's `<link>` and `<meta>` elements).
    static func bodyElement(_ page: String) -> String {
        guard let start = page.range(of: "<body"), let end = page[start.upperBound...].firstIndex(of: ">") else { return page }
        return String(page[page.index(after: end)...])
    }

    /// Text with the five XML escapes decoded (a feed's HTML content).
    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The tags of `html` as a simple reader sees them: name and attributes (names lower-cased,
    /// values with `&amp;`, `&quot;`, `&#39;` and numeric references decoded).
    static func tags(in html: String) -> [(name: String, attributes: [(String, String)])] {
        let tag = try! NSRegularExpression(pattern: #"<([A-Za-z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>"#)
        let attribute = try! NSRegularExpression(pattern: #"([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?"#)
        let text = html as NSString
        return tag.matches(in: html, range: NSRange(location: 0, length: text.length)).map { match in
            let name = text.substring(with: match.range(at: 1)).lowercased()
            let rest = text.substring(with: match.range(at: 2)) as NSString
            let attributes = attribute.matches(in: rest as String, range: NSRange(location: 0, length: rest.length)).map { found -> (String, String) in
                let value = (2...4).lazy.map { found.range(at: $0) }.first { $0.location != NSNotFound }.map { rest.substring(with: $0) } ?? ""
                return (rest.substring(with: found.range(at: 1)).lowercased(), decode(value))
            }
            return (name, attributes)
        }
    }

    /// `value` with the character references the vectors use decoded.
    static func decode(_ value: String) -> String {
        let reference = try! NSRegularExpression(pattern: "&#(x?)([0-9A-Fa-f]+);?")
        var out = value as NSString
        while let match = reference.firstMatch(in: out as String, range: NSRange(location: 0, length: out.length)) {
            let hex = out.substring(with: match.range(at: 1)) == "x"
            let code = UInt32(out.substring(with: match.range(at: 2)), radix: hex ? 16 : 10) ?? 0xFFFD
            out = out.replacingCharacters(in: match.range, with: String(Unicode.Scalar(code) ?? "\u{FFFD}")) as NSString
        }
        return (out as String).replacingOccurrences(of: "&colon;", with: ":").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Every piece of `html` that can run code: an element that runs or loads a document, styles
    /// or changes the page; an event handler, `style` or other attribute that runs or submits; a
    /// URL with a scheme other than http, https and mailto.
    static func executable(in html: String) -> [String] {
        let elements: Set<String> = ["script", "iframe", "frame", "object", "embed", "applet", "svg", "math", "style", "meta",
                                     "base", "link", "form", "button", "body", "noscript", "template", "textarea", "title"]
        let urlAttributes: Set<String> = ["href", "src", "poster", "cite", "action", "formaction", "data", "background", "srcset"]
        var found: [String] = []
        for tag in tags(in: html) {
            if elements.contains(tag.name) { found.append("<\(tag.name)>") }
            for (name, value) in tag.attributes {
                if name.hasPrefix("on") || ["style", "srcdoc", "formaction", "action", "xlink:href"].contains(name) {
                    found.append("<\(tag.name) \(name)>")
                }
                guard urlAttributes.contains(name) else { continue }
                for url in name == "srcset" ? value.split(separator: ",").map(String.init) : [value] {
                    var url = url.trimmingCharacters(in: CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(0x20)))
                    url.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
                    if let colon = url.firstIndex(of: ":"), url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
                       !["http", "https", "mailto"].contains(url[..<colon].lowercased()) {
                        found.append("<\(tag.name) \(name)=\"\(url)\">")
                    }
                }
            }
        }
        return found
    }

    /// The elements of `html` that `html: sanitize` does not allow.
    static func elementsNotAllowed(in html: String) -> [String] {
        let allowed = Set("""
            p div span br hr wbr em strong b i u s small mark sub sup kbd samp var code pre cite dfn abbr h1 h2 h3 h4 h5 h6
            ul ol li dl dt dd table caption colgroup col thead tbody tfoot tr th td figure figcaption details summary ruby
            rt rp bdi bdo section a img blockquote q del ins time input video audio source picture
            """.split(whereSeparator: \.isWhitespace).map(String.init))
        return tags(in: html).map(\.name).filter { !allowed.contains($0) }
    }
}
