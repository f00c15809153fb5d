import Foundation
import XCTest

/// Hostile headers and bodies (issue 26): each is a small blog built by the real `blog` binary in a temporary
/// folder, which must end in time with a message at the file, line and column at fault, or build as written;
/// never crash, stall or grow without bound.
final class SecurityInputTests: BuiltSiteTestCase {
    /// A post every blog of these tests has, so that a build has something to publish.
    func writeBlog(_ extra: [String: String] = [:]) throws {
        try site.write("content/posts/hello.md", "Title: Hello\nDate: 2020-01-01\n\nHello.\n")
        for (path, text) in extra { try site.write(path, text) }
    }

    /// `blog arguments…` in the site, which must end within `seconds`: it is killed then (exit status 137), and held
    /// to 4 GB of memory where the system allows it (Linux), so that a regression fails the test instead of
    /// stalling it or the machine.
    func run(_ arguments: [String], within seconds: Int = 10, file: StaticString = #filePath,
             line: UInt = #line) throws -> BlogCLI.Result {
        let bounded = "ulimit -v 4194304 2>/dev/null; \"$0\" \"$@\" & child=$!; "
            + "{ trap 'kill $timer 2>/dev/null; exit' TERM; sleep \(seconds) & timer=$!; wait $timer; kill -9 $child 2>/dev/null; } & "
            + "watcher=$!; wait $child; status=$?; kill $watcher 2>/dev/null; wait $watcher; exit $status"
        let start = Date()
        let result = try BlogCLI.run(["-c", bounded, BlogCLI.executable.path] + arguments, in: site.root,
                                     program: URL(fileURLWithPath: "/bin/sh"))
        let took = Date().timeIntervalSince(start)
        XCTAssertLessThan(took, Double(seconds), "blog \(arguments.joined(separator: " ")) took \(took) s", file: file, line: line)
        return result
    }

    // MARK: Files in one-character folders

    /// A file that is not a post, in a folder of content/ whose name is one character (or a file `content/x`), is
    /// copied as it is: Linux's Foundation stopped the process on the one-character folder name.
    func testFilesInOneCharacterFoldersAreCopied() throws {
        try writeBlog(["content/a/x.png": "png", "content/2/p.jpg": "jpg", "content/x": "x", "content/é/y.txt": "y"])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(site.read("public/a/x.png"), "png")
        XCTAssertEqual(site.read("public/2/p.jpg"), "jpg")
        XCTAssertEqual(site.read("public/x"), "x")
        XCTAssertEqual(site.read("public/é/y.txt"), "y")
    }

    /// `blog serve` builds the same site, and serves the file.
    func testServeCopiesFilesInOneCharacterFolders() throws {
        try writeBlog(["content/a/x.png": "png"])
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing(seconds: 10)
        let fetched = try ServeEndToEndTests.fetch(server.url + "a/x.png")
        XCTAssertEqual(fetched.status, 200, server.errorOutput)
        XCTAssertEqual(fetched.body, "png")
        XCTAssertTrue(server.process.isRunning, server.errorOutput)
    }

    // MARK: YAML aliases

    /// Nine lines of nine aliases each: `a: &a [lol, …]`, `b: &b [*a, …]`, … `i: &i [*h, …]`, 9⁹ values in 396 bytes.
    static let aliasBomb: String = {
        let names = "abcdefghi".map(String.init)
        var lines = ["a: &a [" + Array(repeating: "lol", count: 9).joined(separator: ", ") + "]"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// The bomb in a post's header, and an alias of it as a mapping key (which Yams hashed whole while composing):
    /// each an error at the alias that passes the bound (line 5 of the bomb, its third `*d`), at once.
    func testYAMLAliasBombInHeaderFailsFast() throws {
        try writeBlog(["content/posts/bomb.md": "---\ntitle: Bomb\n" + Self.aliasBomb + "---\nBody.\n",
                       "content/posts/key.md": "---\ntitle: Key\n" + Self.aliasBomb + "*i : x\n---\nBody.\n"])
        let result = try run(["build"], within: 5)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("content/posts/bomb.md:7:16: error: the alias `*d`"), result.stderr)
        XCTAssertTrue(result.stderr.contains("content/posts/key.md:7:16: error: the alias `*d`"), result.stderr)
        XCTAssertFalse(site.exists("public"))
    }

    /// The same bomb in blog.yml's `params:` (which Liquid's `site` reads): an error at its line.
    func testYAMLAliasBombInConfigFailsFast() throws {
        let indented = Self.aliasBomb.split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        try writeBlog(["blog.yml": "title: Bomb\nparams:\n" + indented])
        let result = try run(["build"], within: 5)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("blog.yml:7:18: error: the alias `*d`"), result.stderr)
    }

    /// In a Jekyll `_data/` file, which `site.data` reads: the file is not read, with a warning at the alias, and
    /// the build goes on (as for any `_data/` file that is not YAML).
    func testYAMLAliasBombInJekyllDataIsNotRead() throws {
        try site.write("_data/bomb.yml", Self.aliasBomb)
        try site.write("_config.yml", "title: Jekyll\n")
        try writeBlog(["content/posts/2020-01-02-liquid.md": "---\ntitle: Liquid\n---\n{{ site.data.bomb.i | size }} values.\n"])
        let result = try run(["build"], within: 5)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("_data/bomb.yml:5:16: warning: the alias `*d`"), result.stderr)
        let liquid = try page("posts/liquid/index.html")
        XCTAssertTrue(liquid.contains("<p>0 values.</p>"), liquid)
    }

    /// `init --from` reads a Jekyll `_config.yml` as a header: it ends at once, and still writes blog.yml.
    func testYAMLAliasBombInJekyllConfigForInitFrom() throws {
        try site.write("_config.yml", Self.aliasBomb)
        try site.write("_posts/2020-01-01-a.md", "---\ntitle: A\n---\nA.\n")
        let result = try run(["init", "--from", "."], within: 5)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(site.exists("blog.yml"))
    }

    /// Aliases as blogs use them still read: what each one repeats is small.
    func testYAMLAliasesWithinTheBoundRead() throws {
        try writeBlog(["content/posts/alias.md": "---\ntitle: Alias\ndate: 2020-01-02\nkeys: &keys [swift, linux]\ntags: *keys\n---\nBody.\n"])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(site.exists("public/tags/swift/index.html"), "\(site.files(under: "public"))")
        XCTAssertTrue(site.exists("public/tags/linux/index.html"))
    }

    // MARK: Dates

    /// A date whose year, once its offset or the site's zone is applied, is not from 1 to 9999 is an error at its
    /// line, for every date field and header form: pages and feeds write four-digit years (`0000-01-01` made
    /// `datetime="00-1-12-30…"`, and `9999-12-31T23:59:59-12:00` the year 10000 in feeds).
    func testDatesOutsideYears1To9999AreErrors() throws {
        try writeBlog([
            "blog.yml": "timezone: Pacific/Kiritimati\n",
            "content/posts/zero.md": "---\ntitle: Zero\ndate: 0000-01-01\n---\nx\n",
            "content/posts/late.md": "+++\ntitle = \"Late\"\ndate = 9999-12-31T23:59:59-12:00\n+++\nx\n",
            "content/posts/pelican.md": "Title: Pelican\nDate: 2020-01-01\nModified: 0001-01-01 00:00 +0100\n\nx\n",
            "content/posts/zone.md": "Title: Zone\nDate: 9999-12-31 20:00 +0000\n\nx\n",
            "content/_posts/0000-12-31-name.md": "---\ntitle: Name\n---\nx\n",
        ])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 1)
        for expected in [
            "content/posts/zero.md:3:7: error: `date`: impossible date: there is no year 0 (years go from 1 to 9999)",
            "content/posts/late.md:3:8: error: `date`: impossible date: \"10000-01-01T11:59:59Z\" falls in the year 10000 in UTC",
            "content/posts/pelican.md:3:11: error: `modified`: impossible date: \"0001-01-01 00:00 +0100\" falls in the year 0 in UTC",
            "content/posts/zone.md:2:7: error: `date`: impossible date: \"9999-12-31 20:00 +0000\" falls in the year 10000 in Pacific/Kiritimati",
            "content/_posts/0000-12-31-name.md:1:1: error: date in the file name: impossible date: there is no year 0",
        ] {
            XCTAssertTrue(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
        XCTAssertFalse(site.exists("public"))
    }

    /// The last instant of the year 9999 in UTC, and the first of the year 1, still build, with four-digit years.
    func testDatesAtTheEdgesOfYears1To9999Build() throws {
        try writeBlog(["content/posts/last.md": "---\ntitle: Last\ndate: 9999-12-31T23:59:59Z\n---\nx\n",
                       "content/posts/first.md": "Title: First\nDate: 0001-01-01\n\nx\n"])
        XCTAssertEqual(try run(["build", "--future", "--base-url", "https://example.org/"]).status, 0)
        XCTAssertTrue(try page("posts/last/index.html").contains("datetime=\"9999-12-31T23:59:59Z\""))
        XCTAssertTrue(try page("posts/first/index.html").contains("datetime=\"0001-01-01T00:00:00Z\""))
        XCTAssertTrue(try page("feed.xml").contains("<updated>9999-12-31T23:59:59Z</updated>"))
    }

    // MARK: blog new

    /// No value `blog new` writes into a header may hold a line break, in any header form: `--tags $'a\nSave_as:
    /// index.html'` wrote a Pelican header line of its own, and the new post replaced the home page. Each is an error
    /// naming its option, with exit 1 and nothing written.
    func testNewRefusesLineBreaksInEveryValueAndForm() throws {
        try writeBlog()
        let before = site.files(under: "content")
        for format in ["pelican", "yaml", "toml"] {
            let tags = try run(["new", "--format", format, "--tags", "a\nSave_as: index.html", "Tagged"])
            XCTAssertEqual(tags.status, 1, format)
            XCTAssertTrue(tags.stderr.contains("error: --tags: a tag \"a\\u{A}Save_as: index.html\" holds a line break"), tags.stderr)
            let title = try run(["new", "--format", format, "Two\r\nlines"])
            XCTAssertEqual(title.status, 1, format)
            XCTAssertTrue(title.stderr.contains("error: blog new: the title \"Two\\u{D}\\u{A}lines\" holds a line break"), title.stderr)
            let category = try run(["new", "--format", format, "--category", "x\u{2028}Status: hidden", "Filed"])
            XCTAssertEqual(category.status, 1, format)
            XCTAssertTrue(category.stderr.contains("error: --category: the category"), category.stderr)
        }
        XCTAssertEqual(site.files(under: "content"), before)
        XCTAssertEqual(try run(["build"]).status, 0)
        XCTAssertTrue(try page("index.html").contains("Hello"))
    }

    // MARK: Messages

    /// Control characters that a message quotes from a file (a header value, a file name) are shown escaped
    /// (`\u{1B}`), so that a post can't clear the screen, colour the log or fake a line of it.
    func testMessagesShowControlCharactersEscaped() throws {
        try writeBlog(["content/posts/bad\u{1B}[2J.md": "Title: Bad\nDate: \u{1B}[31mred\u{7F}\u{9B}0m\n\nx\n"])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("content/posts/bad\\u{1B}[2J.md:2:7: error: `date`: unrecognised date \"\\u{1B}[31mred\\u{7F}\\u{9B}0m\""),
                      result.stderr)
        for control in ["\u{1B}", "\u{7F}", "\u{9B}"] { XCTAssertFalse(result.stderr.contains(control), result.stderr) }
    }

    // MARK: Wide tables

    /// A table row's cost in cmark-gfm grows with the square of its cells. A line with more than 100 `|` is read
    /// as text, its `|` shown as written, with a warning at its line; a code block keeps such a line as it is, and
    /// a table with a row that wide keeps its other rows.
    func testTableRowsWiderThan100CellsAreText() throws {
        let columns = 10_000
        func row(_ cell: String) -> String { "|" + Array(repeating: cell, count: columns).joined(separator: "|") + "|" }
        let body = "Wide:\n\n" + row("h") + "\n" + row("-") + "\n" + Array(repeating: row("x"), count: 10).joined(separator: "\n")
            + "\n\n```\n" + row("c") + "\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n" + row("y") + "\n"
        try writeBlog(["content/posts/wide.md": "---\ntitle: Wide\ndate: 2020-01-02\n---\n" + body])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The body starts at line 5: the header row is line 7, the delimiter row 8, the rows 9 to 18, the code
        // block's line 21, and the small table's wide row 27.
        for line in [7, 8, 9, 18, 27] {
            XCTAssertTrue(result.stderr.contains("content/posts/wide.md:\(line):1: warning: this line has \(columns + 1) `|`, more than the 100 cells"),
                          "line \(line): \(result.stderr.prefix(2_000))")
        }
        XCTAssertFalse(result.stderr.contains("wide.md:21:1"), "the code block's line is no row")
        let html = try page("posts/wide/index.html")
        XCTAssertTrue(html.contains("<p>" + row("h") + "\n" + row("-")), "the rows are text, their | as written")
        XCTAssertTrue(html.contains("<code>" + row("c") + "\n</code>"), "the code block is as written")
        XCTAssertTrue(html.contains("<td>1</td>\n<td>2</td>"), "the small table stays a table")
        XCTAssertFalse(html.contains("<th>h</th>"))
    }

    // MARK: Repeated titles and posts

    /// A title over 1,000 characters is an error at its line (a million characters with 500 tags wrote 1.5 GB: each
    /// tag's page and feed repeats it); 1,000 build.
    func testTitlesOver1000CharactersAreErrors() throws {
        try writeBlog(["content/posts/long.md": "Title: " + String(repeating: "é", count: 1_001) + "\nSlug: long\nDate: 2020-01-02\nTags: a\n\nx\n",
                       "content/posts/ok.md": "Title: " + String(repeating: "o", count: 1_000) + "\nSlug: ok\nDate: 2020-01-03\nTags: a\n\nx\n"])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("content/posts/long.md:1:8: error: the title has 1001 characters: a title may have at most 1000"), result.stderr)
        XCTAssertFalse(result.stderr.contains("ok.md"), result.stderr)
        try site.write("content/posts/long.md", "Title: Short\nDate: 2020-01-02\n\nx\n")
        XCTAssertEqual(try run(["build"]).status, 0)
    }

    /// A post's bytes times its tags, categories and authors, what their pages and feeds repeat, is at most 100 MB:
    /// 300 KB with 400 tags is an error at its tags; 100 KB with 100 tags builds. More than 1,000 authors is an error.
    func testPostsRepeatedOverTheirTagsAreBounded() throws {
        func post(_ title: String, kilobytes: Int, tags: Int) -> String {
            "Title: \(title)\nDate: 2020-01-02\nTags: " + (0..<tags).map { "\(title)\($0)" }.joined(separator: ", ") + "\n\n"
                + String(repeating: String(repeating: "word ", count: 199) + "word\n\n", count: kilobytes)
        }
        try writeBlog(["content/posts/wide.md": post("wide", kilobytes: 300, tags: 400)])
        let result = try run(["build"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("content/posts/wide.md:3:7: error: this post's 30") && result.stderr.contains("bytes are repeated on the page and feed of each of its 400 tags, categories and authors"), result.stderr)
        XCTAssertFalse(site.exists("public"))
        // Authors have the cap tags have: each one's page lists the post with all of them.
        try site.write("content/posts/wide.md", "---\ntitle: Authors\ndate: 2020-01-02\nauthor: [" + (0...1_000).map { "a\($0)" }.joined(separator: ", ") + "]\n---\nx\n")
        let authors = try run(["build"])
        XCTAssertTrue(authors.stderr.contains("content/posts/wide.md:4:9: error: 1001 authors: a post may have at most 1000"), authors.stderr)
        try site.write("content/posts/wide.md", post("wide", kilobytes: 100, tags: 100))
        XCTAssertEqual(try run(["build"]).status, 0)
        XCTAssertTrue(site.exists("public/tags/wide99/index.html"))
    }
}
