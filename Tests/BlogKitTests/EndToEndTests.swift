import XCTest

/// Runs the real `blog` binary on small blogs written into temporary folders and reads back what it wrote.
final class EndToEndTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
    }

    override func tearDown() {
        site.remove()
    }

    /// A small Pelican-style blog: headers as real blogs write them.
    func writePelicanBlog() throws {
        try site.write("blog.yml", """
        title: Field Notes
        author: Ana Lima
        base_url: https://example.org/blog/
        timezone: Europe/Paris
        paginate: 2
        """)
        try site.write("content/posts/restoring.md", """
        title: Restoring view controllers
        date: 25/11/2016
        tags: Swift; iOS
        category: Programming

        Restoring state is **easy** ([shell](../shell-tricks/), [below](#second)).

            :::swift
            let restored = true

        Second paragraph.
        """)
        try site.write("content/posts/shell.md", """
        Title: Shell tricks
        date: 2017-03-02 10:20
        tags: shell, cli,
        summary: Small tricks for
            the command line.

        Use `set -euo pipefail`.
        """)
        try site.write("content/posts/ios-notes-layout.markdown", """
        ---
        title: "iOS notes: layout"
        date: 11th March 2014
        tags: [ios, Layout]
        ---

        | a | b |
        |---|---|
        | 1 | 2 |

        A footnote.[^1]

        [^1]: The note.
        """)
        try site.write("content/posts/draft.md", """
        title: Unfinished
        date: 2018-4-27 9:05
        status: Draft

        Not yet.
        """)
        try site.write("content/posts/hidden.md", """
        title: Hidden page
        date: 2015-01-20
        status: hidden

        Only by link.
        """)
        try site.write("content/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }

    func testBuildsACompleteSite() throws {
        try writePelicanBlog()
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Built 4 posts (1 draft not shown: --drafts), 0 pages, 5 tags, "), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("into public/\n"), result.stdout)

        let files = site.files(under: "public")
        for expected in ["index.html", "page/2/index.html", "posts/restoring-view-controllers/index.html",
                         "posts/shell-tricks/index.html", "posts/ios-notes-layout/index.html", "posts/hidden-page/index.html",
                         "tags/index.html", "tags/ios/index.html", "tags/swift/index.html", "tags/cli/index.html",
                         "archives/index.html", "404.html", "images/pic.svg"] {
            XCTAssertTrue(files.contains(expected), "missing \(expected) in \(files)")
        }
        XCTAssertFalse(files.contains { $0.contains("unfinished") }, "drafts are left out")
        XCTAssertTrue(files.contains { $0.hasSuffix(".css") }, "the theme's static files are copied")

        // The post page: title, date in the site's zone, tags, code block with its language, links under /blog/.
        let post = try XCTUnwrap(site.read("public/posts/restoring-view-controllers/index.html"))
        XCTAssertTrue(post.contains("Restoring view controllers"))
        XCTAssertTrue(post.contains("datetime=\"2016-11-25T00:00:00+01:00\""), post)
        XCTAssertTrue(post.contains("Fri 25 November 2016"), post)
        XCTAssertTrue(post.contains("href=\"/blog/tags/swift/\""), post)
        XCTAssertTrue(post.contains("<code class=\"language-swift\"><span class=\"k\">let</span> <span class=\"nv\">restored</span> "
            + "<span class=\"o\">=</span> <span class=\"k\">true</span>"), post)
        XCTAssertFalse(post.contains(":::swift"))
        XCTAssertTrue(post.contains("href=\"/blog/posts/shell-tricks/\""), "link to the next (newer) post")
        XCTAssertTrue(post.contains("href=\"/blog/posts/ios-notes-layout/\""), "link to the previous (older) post")

        // Home: newest first, 2 per page, summaries.
        let home = try XCTUnwrap(site.read("public/index.html"))
        let shell = try XCTUnwrap(home.range(of: "Shell tricks")), restoring = try XCTUnwrap(home.range(of: "Restoring view controllers"))
        XCTAssertLessThan(shell.lowerBound, restoring.lowerBound)
        XCTAssertTrue(home.contains("<p>Small tricks for\nthe command line.</p>"), "the summary field is the summary: \(home)")
        XCTAssertFalse(home.contains("Second paragraph."), "the first paragraph is the summary")
        XCTAssertTrue(home.contains("<a href=\"/blog/posts/shell-tricks/\">shell</a>"), "relative links in a summary still work on list pages")
        XCTAssertTrue(home.contains("<a href=\"/blog/posts/restoring-view-controllers/#second\">below</a>"), home)
        XCTAssertFalse(home.contains("Hidden page"), "hidden posts are in no list")
        XCTAssertTrue(home.contains("href=\"/blog/page/2/\""))
        let page2 = try XCTUnwrap(site.read("public/page/2/index.html"))
        XCTAssertTrue(page2.contains("iOS notes: layout"))

        // One tag for two spellings; its page lists both posts.
        let ios = try XCTUnwrap(site.read("public/tags/ios/index.html"))
        XCTAssertTrue(ios.contains("Restoring view controllers") && ios.contains("iOS notes: layout"))
        let archives = try XCTUnwrap(site.read("public/archives/index.html"))
        XCTAssertTrue(archives.contains("2017") && archives.contains("2016") && archives.contains("2014"))
        XCTAssertTrue(archives.contains("November"))
        let ios2 = try XCTUnwrap(site.read("public/posts/ios-notes-layout/index.html"))
        XCTAssertTrue(ios2.contains("<table>") && ios2.contains("footnote"), ios2)
    }

    func testListJSON() throws {
        try writePelicanBlog()
        let result = try BlogCLI.run(["list", "--format", "json", "--drafts"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        let posts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(posts.map { $0["title"] as? String }, ["Unfinished", "Shell tricks", "Restoring view controllers", "Hidden page", "iOS notes: layout"])
        let restoring = posts[2]
        XCTAssertEqual(restoring["date"] as? String, "2016-11-25T00:00:00+01:00")
        XCTAssertEqual(restoring["tags"] as? [String], ["Swift", "iOS"])
        XCTAssertEqual(restoring["category"] as? String, "Programming")
        XCTAssertEqual(restoring["slug"] as? String, "restoring-view-controllers")
        XCTAssertEqual(restoring["url"] as? String, "/blog/posts/restoring-view-controllers/")
        XCTAssertEqual(restoring["source"] as? String, "content/posts/restoring.md")
        XCTAssertEqual(restoring["draft"] as? Bool, false)
        XCTAssertEqual(posts[0]["draft"] as? Bool, true)
        XCTAssertEqual(posts[1]["date"] as? String, "2017-03-02T10:20:00+01:00")
        XCTAssertEqual(posts[1]["tags"] as? [String], ["shell", "cli"])

        let table = try BlogCLI.run(["list"], in: site.root)
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.stdout.contains("2016-11-25  Restoring view controllers"), table.stdout)
        XCTAssertFalse(table.stdout.contains("Unfinished"))
    }

    /// `blog list` and `blog build` count posts and pages apart (issue 29): two pages of a
    /// Pelican blog are not counted as posts.
    func testSummariesCountPostsAndPagesApart() throws {
        try writePelicanBlog()
        try site.write("content/pages/about.md", "Title: About\n\nWho.\n")
        try site.write("content/pages/contact.md", "Title: Contact\n\nWhere.\n")
        let table = try BlogCLI.run(["list"], in: site.root)
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasSuffix("\n4 posts (1 draft not shown: --drafts), 2 pages\n"), table.stdout)
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stdout.hasPrefix("Built 4 posts (1 draft not shown: --drafts), 2 pages, 5 tags, "), build.stdout)
        XCTAssertTrue(site.files(under: "public").contains("about/index.html"), "\(site.files(under: "public"))")
        // Built again in place (the cache keeps the counts): the same summary.
        try site.write("content/posts/shell.md", site.read("content/posts/shell.md")! + "\nMore.\n")
        let again = try BlogCLI.run(["build"], in: site.root)
        XCTAssertTrue(again.stdout.hasPrefix("Built 4 posts (1 draft not shown: --drafts), 2 pages, 5 tags, "), again.stdout)
    }

    /// A Jekyll post without a title is titled from its file name with every word capitalised, and
    /// an apostrophe of the file name stays in its URL, as Jekyll does (issue 29; compared with
    /// Jekyll itself in JekyllComparisonTests).
    func testJekyllUntitledPostsAndApostrophes() throws {
        try site.write("blog.yml", "title: J\nbase_url: https://example.org/\ncontent: _posts\npermalinks: jekyll\n")
        try site.write("_posts/2021-02-03-don't-panic-now.md", "---\ndate: 2021-02-03\n---\nText.\n")
        try site.write("_posts/2021-02-04-my-iOS_tips.md", "---\ntitle: \"\"\n---\nText.\n")
        let list = try BlogCLI.run(["list", "--format", "json"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let posts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(posts.map { $0["title"] as? String }, ["My Ios_tips", "Don't Panic Now"])
        XCTAssertEqual(posts.map { $0["url"] as? String }, ["/2021/02/04/my-iOS_tips.html", "/2021/02/03/don't-panic-now.html"])
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(site.files(under: "public").contains("2021/02/03/don't-panic-now.html"), "\(site.files(under: "public"))")
    }

    func testFlagsSourceOutputBaseURLDraftsFuture() throws {
        try writePelicanBlog()
        try site.write("content/posts/future.md", "title: Tomorrow\ndate: 2999-01-01\n\nLater.\n")
        let out = site.root.appendingPathComponent("elsewhere").path
        let result = try BlogCLI.run(["build", "--source", site.root.path, "--output", out, "--base-url", "/sub/",
                                      "--drafts", "--future", "--quiet"], in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "", "--quiet prints nothing")
        XCTAssertTrue(site.exists("elsewhere/posts/unfinished/index.html"))
        XCTAssertTrue(site.exists("elsewhere/posts/tomorrow/index.html"))
        let home = try XCTUnwrap(site.read("elsewhere/index.html"))
        XCTAssertTrue(home.contains("href=\"/sub/posts/tomorrow/\""), home)
        XCTAssertFalse(site.exists("public"))
    }

    func testVersionHelpAndBadUsage() throws {
        let version = try BlogCLI.run(["--version"], in: site.root)
        XCTAssertEqual(version.status, 0)
        XCTAssertFalse(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        let help = try BlogCLI.run(["--help"], in: site.root)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("build") && help.stdout.contains("list"))
        XCTAssertEqual(try BlogCLI.run(["build", "--no-such-flag"], in: site.root).status, 2)
        XCTAssertEqual(try BlogCLI.run(["list", "--format", "xml"], in: site.root).status, 2)
        XCTAssertEqual(try BlogCLI.run(["frobnicate"], in: site.root).status, 2)
    }

    func testABlogWithoutThemesOrConfigBuilds() throws {
        try site.write("content/hello.md", "title: Hello\ndate: 2020-02-20\n\nHi.\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(site.exists("public/posts/hello/index.html"))
        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("href=\"/posts/hello/\""))
    }

    func testRawHTMLPassesThroughUnlessTagfilterIsOn() throws {
        try site.write("content/embed.md", "title: Embed\ndate: 2020-02-20\n\n<script async src=\"https://platform.twitter.com/widgets.js\"></script>\n")
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/embed/index.html")).contains("<script async src="))
        try site.write("blog.yml", "tagfilter: true\n")
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        let page = try XCTUnwrap(site.read("public/posts/embed/index.html"))
        XCTAssertTrue(page.contains("&lt;script async src="), page)
    }

    func testSiteOverridesOneTemplate() throws {
        try site.write("content/hello.md", "title: Hello\ndate: 2020-02-20\n\nHi.\n")
        try site.write("themes/default/templates/404.mustache", "<p>Lost: {{config.title}}</p>\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(site.read("public/404.html"), "<p>Lost: My Blog</p>\n")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/hello/index.html")).contains("<html"), "other templates stay the built-in ones")
    }

    func testTemplatesSeeAPostsDateParts() throws {
        try site.write("content/hello.md", "title: Hello\ndate: 2016-11-25\n\nHi.\n")
        try site.write("themes/default/templates/post.mustache",
                       "{{#post}}{{monthName}} {{month}} {{day}} {{year}} {{#monthName}}[{{.}}]{{/monthName}}{{/post}}\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(site.read("public/posts/hello/index.html"), "November 11 25 2016 [November]\n")
    }

    // MARK: Bad input: a clear message, exit 1, nothing already published lost.

    /// Builds a good site first, then breaks it with `breakIt`, and checks the failed build's message and
    /// that the published output is byte for byte what it was.
    func assertBuildFails(_ expected: [String], arguments: [String] = ["build"], _ breakIt: () throws -> Void,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        try site.write("content/good.md", "title: Good\ndate: 2020-02-20\n\nFine.\n")
        let first = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(first.status, 0, first.stderr, file: file, line: line)
        let before = site.snapshot("public")
        XCTAssertFalse(before.isEmpty, file: file, line: line)
        try breakIt()
        let result = try BlogCLI.run(arguments, in: site.root)
        XCTAssertEqual(result.status, 1, "stderr: \(result.stderr)", file: file, line: line)
        for text in expected {
            XCTAssertTrue(result.stderr.contains(text), "expected «\(text)» in:\n\(result.stderr)", file: file, line: line)
        }
        XCTAssertEqual(site.snapshot("public"), before, "the published output must be untouched", file: file, line: line)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") }
        XCTAssertEqual(leftovers, [], file: file, line: line)
    }

    /// Python-Markdown ends a Pelican header at a line that is not `Key: value` and reads the rest
    /// as the body: `blog` does too, with a warning at that line, which `--strict` makes fatal.
    func testHeaderLineThatIsNotKeyValue() throws {
        try site.write("blog.yml", "base_url: https://example.org/\n")
        try assertBuildFails(["content/bad.md:3:1: warning: the header ends here without a blank line",
                              "error: --strict: 1 warning above"], arguments: ["build", "--strict"]) {
            try site.write("content/bad.md", "title: Bad\ndate: 2020-01-01\nthis line is not a header\ntags: x\n\nBody\n")
        }
        let relaxed = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(relaxed.status, 0, relaxed.stderr)
        let page = try XCTUnwrap(site.read("public/posts/bad/index.html"))
        XCTAssertTrue(page.contains("<p>this line is not a header\ntags: x</p>"), page)
    }

    func testUnclosedYAMLBlock() throws {
        try assertBuildFails(["content/bad.md:1:1: error: unclosed front matter"]) {
            try site.write("content/bad.md", "---\ntitle: Bad\ndate: 2020-01-01\n\nBody with no closing line\n")
        }
    }

    func testInvalidYAML() throws {
        try assertBuildFails(["content/bad.md:3:7: error: invalid YAML: this `[` is never closed (still open at line 4); add its `]`"]) {
            try site.write("content/bad.md", "---\ntitle: Bad\ntags: [a, b\ndate: 2020-01-01\n---\n\nBody\n")
        }
    }

    func testImpossibleDate() throws {
        try assertBuildFails(["content/bad.md:2:7: error: ", "31/02/2016"]) {
            try site.write("content/bad.md", "title: Bad\ndate: 31/02/2016\n\nBody\n")
        }
    }

    func testTwoPostsWithTheSameURL() throws {
        try assertBuildFails(["URL /posts/twin/ is also wanted by", "content/a.md", "content/b.md"]) {
            try site.write("content/a.md", "title: Twin\ndate: 2020-01-01\n\nA\n")
            try site.write("content/b.md", "title: Twin\ndate: 2020-01-02\n\nB\n")
        }
    }

    func testSlugThatTriesToLeaveTheOutputFolder() throws {
        try assertBuildFails(["content/bad.md:3:7: error: unsafe slug \"../../etc\""]) {
            try site.write("content/bad.md", "title: Bad\ndate: 2020-01-01\nslug: ../../etc\n\nBody\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root.deletingLastPathComponent().appendingPathComponent("etc/index.html").path))
    }

    func testInvalidUTF8() throws {
        try assertBuildFails(["content/bad.md:", "content/bad.md:2:9: error: invalid UTF-8 at byte 19"]) {
            var bytes = Data("title: Bad\ndate: 20".utf8)
            bytes.append(contentsOf: [0xC3, 0x28])
            bytes.append(contentsOf: Data("20-01-01\n\nBody\n".utf8))
            try site.write("content/bad.md", data: bytes)
        }
    }

    func testTemplateWithAnError() throws {
        try assertBuildFails(["themes/default/templates/post.mustache:3:1: error: unclosed section"]) {
            try site.write("themes/default/templates/post.mustache", "<h1>{{post.title}}</h1>\n{{#post}}unclosed\n")
        }
    }

    func testMissingTheme() throws {
        try assertBuildFails(["error: missing theme"]) {
            try site.write("blog.yml", "theme: fancy\n")
        }
    }

    func testMissingTemplateInACustomTheme() throws {
        try assertBuildFails(["themes/fancy/templates/post.mustache", "error:"]) {
            try site.write("blog.yml", "theme: fancy\n")
            try site.write("themes/fancy/templates/base.mustache", "<html>{{$content}}{{/content}}</html>\n")
        }
    }

    func testEmptyContentFolder() throws {
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("content"), withIntermediateDirectories: true)
        try assertFirstBuildFails("error: no posts found in content/: expected")
    }

    /// `blog build` fails with `message`, and makes no output folder.
    func assertFirstBuildFails(_ message: String, not other: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(message), result.stderr, file: file, line: line)
        if let other { XCTAssertFalse(result.stderr.contains(other), result.stderr, file: file, line: line) }
        XCTAssertFalse(site.exists("public"), file: file, line: line)
    }

    /// A clean build walks the content folder beside the theme's compile: the theme's error is still the one said
    /// when the content folder is missing too, and the walk's own error, alone, is said as before.
    func testTheThemesErrorIsSaidBeforeTheContentWalksWalkedBesideIt() throws {
        try site.write("blog.yml", "title: Notes\n")
        try site.write("themes/default/templates/post.mustache", "<h1>{{post.title}}</h1>\n{{#post}}unclosed\n")
        try assertFirstBuildFails("themes/default/templates/post.mustache:3:1: error: unclosed section", not: "content folder")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("themes"))
        try assertFirstBuildFails("error: content folder content/ not found")
    }

    /// The content folder walked beside the theme's compile (a clean build) and in the full build (after a title edit,
    /// which a build in place refuses, with the theme compiled there): the same messages, the walk's own once.
    func testTheContentWalkedBesideTheCompileSaysWhatTheWalkInTheBuildSays() throws {
        try site.write("content/good.md", "title: Good\ndate: 2020-02-20\n\nFine.\n")
        try site.write(".hidden.md", "title: Hidden\ndate: 2020-02-21\n\nNot read.\n")
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("content/link.md").path,
                                                   withDestinationPath: "../.hidden.md")
        let clean = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(clean.status, 0, clean.stderr)
        try site.write("content/good.md", "title: Good, edited\ndate: 2020-02-20\n\nFine.\n")
        let edited = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(edited.status, 0, edited.stderr)
        func warnings(_ stderr: String) -> [String] { stderr.split(separator: "\n").map(String.init).filter { $0.contains("warning:") } }
        XCTAssertEqual(warnings(clean.stderr).filter { $0.contains("content/link.md") && $0.contains("a hidden file or folder") }.count, 1,
                       clean.stderr)
        XCTAssertEqual(warnings(clean.stderr), warnings(edited.stderr))
        XCTAssertTrue(site.files(under: "public").contains { site.read("public/" + $0)?.contains("Good, edited") == true })
    }

    func testOutputThatWouldDestroyTheSources() throws {
        try site.write("content/good.md", "title: Good\ndate: 2020-02-20\n\nFine.\n")
        for output in [".", "..", "/", "content", "content/public"] {
            let result = try BlogCLI.run(["build", "--output", output], in: site.root)
            XCTAssertEqual(result.status, 1, output)
            XCTAssertTrue(result.stderr.contains("error: refusing to build into"), result.stderr)
        }
        try site.write("blog.yml", "output: ..\n")
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 1)
        XCTAssertEqual(site.read("content/good.md"), "title: Good\ndate: 2020-02-20\n\nFine.\n")
    }

    func testStrictTurnsWarningsIntoAFailure() throws {
        try assertBuildFails(["blog.yml:2:1: warning: unknown setting `titel`", "error: --strict: 1 warning above"], arguments: ["build", "--strict"]) {
            try site.write("blog.yml", "base_url: https://example.org/\ntitel: Typo\n")
        }
        let relaxed = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(relaxed.status, 0, "without --strict a warning does not fail the build")
        XCTAssertTrue(relaxed.stderr.contains("warning: unknown setting `titel`"))
    }

    func testBadConfig() throws {
        try assertBuildFails(["blog.yml:2:11: error: `paginate` must be a whole number"]) {
            try site.write("blog.yml", "title: T\npaginate: lots\n")
        }
    }
}
