import Foundation
import XCTest

/// Issue 26, templates: no post or theme can make a build run without bound or crash. A post's Liquid
/// costs at most ten times its size (at least a few MB) and nests at most 64 blocks deep; a theme's
/// partials never include themselves. Each test builds a real blog folder with the `blog` binary, under a
/// time limit, and reads back what it printed and wrote.
final class SecurityTemplatesTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("blog.yml", "title: Red team\nbase_url: https://example.org/\n")
        try site.write("content/posts/good.md", "title: Good\ndate: 2020-02-20\n\nFine.\n")
    }

    override func tearDown() {
        site.remove()
    }

    /// `blog arguments…` in the site, stopped after `seconds`: a run that takes longer, or crashes, fails the test.
    func blog(_ arguments: [String] = ["build"], seconds: Double = 10, file: StaticString = #filePath,
              line: UInt = #line) throws -> BlogCLI.Result {
        let result = try BlogCLI.run(arguments, in: site.root, timeLimit: seconds)
        XCTAssertFalse(result.timedOut, "`blog \(arguments.joined(separator: " "))` ran more than \(seconds) s", file: file, line: line)
        XCTAssertFalse(result.signaled && !result.timedOut, "`blog` crashed (signal \(result.status)): \(result.stderr)", file: file, line: line)
        return result
    }

    /// Builds the good site, breaks it with `breakIt`, and checks that the next build fails, in time, with each of
    /// `expected` in its messages, and leaves the published site as it was.
    func assertBuildFails(_ expected: [String], _ breakIt: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        let first = try blog(file: file, line: line)
        XCTAssertEqual(first.status, 0, first.stderr, file: file, line: line)
        let before = site.snapshot("public")
        XCTAssertFalse(before.isEmpty, file: file, line: line)
        try breakIt()
        let result = try blog(file: file, line: line)
        XCTAssertEqual(result.status, 1, "stderr: \(result.stderr)", file: file, line: line)
        for text in expected {
            XCTAssertTrue(result.stderr.contains(text), "expected «\(text)» in:\n\(result.stderr)", file: file, line: line)
        }
        XCTAssertTrue(result.stderr.contains("build failed; the output folder was not changed"), result.stderr, file: file, line: line)
        XCTAssertEqual(site.snapshot("public"), before, "the published output must be untouched", file: file, line: line)
    }

    /// A Jekyll-form post (its Liquid is run) with `body` after a header of four lines: the body's first line is line 5.
    func writeJekyllPost(_ body: String) throws {
        try site.write("content/_posts/2024-01-01-red.md", "---\ntitle: Red\ndate: 2024-01-01\n---\n" + body + "\n")
    }

    // MARK: - Liquid's cost is bounded by the post's size (finding 4)

    /// The red team's post: 32,000 nested `{% if true %}` on one line, 768 KB. Each tag's column was counted
    /// from the start of the line, which took 44 s; now the post fails at once, at the first block nested too deep.
    func testThirtyTwoThousandNestedIfsFailAtOnceAtTheBlockTooDeep() throws {
        let depth = 32_000
        try assertBuildFails(["content/_posts/2024-01-01-red.md:5:833: error: {% if %} is inside 64 other blocks: "
                              + "expected Liquid blocks (if, unless, case, for, capture) nested at most 64 deep"]) {
            try writeJekyllPost(String(repeating: "{% if true %}", count: depth) + "x" + String(repeating: "{% endif %}", count: depth))
        }
    }

    /// The same cost for a post that is fine: 8,000 blocks one after another on one line (200 KB) took 16 s in a
    /// debug build, 18 s in a release one for 12,000; now a fraction of a second.
    func testManyTagsOnOneLineBuildInLinearTime() throws {
        try writeJekyllPost(String(repeating: "{% if true %}x{% endif %}", count: 8_000))
        let result = try blog(seconds: 8)
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = try XCTUnwrap(site.read("public/posts/red/index.html"))
        XCTAssertTrue(page.contains("<p>" + String(repeating: "x", count: 8_000) + "</p>"))
    }

    /// Blocks nested up to the limit still run.
    func testBlocksNestedSixtyFourDeepRun() throws {
        let open = (1...64).map { "{% if \($0) > 0 %}" }.joined(), close = String(repeating: "{% endif %}", count: 64)
        try writeJekyllPost("Deep: " + open + "**inside**" + close)
        let result = try blog()
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = try XCTUnwrap(site.read("public/posts/red/index.html"))
        XCTAssertTrue(page.contains("<p>Deep: <strong>inside</strong></p>"), page)
    }

    /// A text doubled by filters in a loop of 40,000 steps: at 8 MB each step took a second, for hours in all. It
    /// now stops once the post has made and read ten times its size (at least 8 MB), at the tag that ran out.
    func testATextDoubledInALongLoopStopsAtTheBudget() throws {
        try assertBuildFails(["content/_posts/2024-01-01-red.md:5:47: error: the Liquid in this file stopped at {% assign %} "
                              + "after making and reading 8 MB (ten times the file's body, at least 8 MB)"]) {
            try writeJekyllPost("{% assign x = \"ab\" %}{% for i in (1..40000) %}{% assign x = x | append: x | slice: 0, 8388608 %}{% endfor %}"
                                + "{{ x | size }}")
        }
    }

    /// The same work without growth: filters run again and again on a text of 256 KB, which the step limit let run
    /// 40,000 times (40 GB made and read), stop at the budget too.
    func testFiltersRunAgainAndAgainOnALongTextStopAtTheBudget() throws {
        try assertBuildFails(["content/_posts/2024-01-01-red.md:5:111: error: the Liquid in this file stopped at {% assign %} after making and reading"]) {
            try writeJekyllPost("{% assign x = \"ab\" %}{% for i in (1..17) %}{% assign x = x | append: x %}{% endfor %}"
                                + "{% for i in (1..40000) %}{% assign y = x | upcase | downcase %}{% endfor %}{{ y | size }}")
        }
    }

    /// One filter call that would make far more than it reads (each of 2,048 `a` replaced by 256 KB: 512 MB) stops
    /// before making it, and so does a long `join` separator.
    func testAReplaceOrJoinThatWouldMakeFarMoreThanItReadsStopsBeforeMakingIt() throws {
        let grow = "{% assign big = \"ab\" %}{% for i in (1..17) %}{% assign big = big | append: big %}{% endfor %}"
            + "{% assign small = \"aa\" %}{% for i in (1..10) %}{% assign small = small | append: small %}{% endfor %}"
        try assertBuildFails(["content/_posts/2024-01-01-red.md:5:195: error: the Liquid in this file stopped at {% assign %} after making and reading"]) {
            try writeJekyllPost(grow + "{% assign r = small | replace: \"a\", big %}{{ r | size }}")
        }
        try writeJekyllPost(grow + "{% assign parts = small | split: \"\" %}{% assign r = parts | join: big %}{{ r | size }}")
        let result = try blog()
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("2024-01-01-red.md:5:233: error: the Liquid in this file stopped at {% assign %} after making and reading"),
                      result.stderr)
    }

    /// A post whose Liquid does a real amount of work (a loop writing 50 KB, texts of a few hundred KB through
    /// filters) is far inside the budget.
    func testAPostDoingARealAmountOfWorkBuilds() throws {
        try writeJekyllPost("""
            {% assign x = "ab" %}{% for i in (1..17) %}{% assign x = x | append: x %}{% endfor %}
            Size: {{ x | upcase | replace: "A", "c" | size }}.

            {% for i in (1..10000) %}{{ i }} {% endfor %}
            """)
        let result = try blog()
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = try XCTUnwrap(site.read("public/posts/red/index.html"))
        XCTAssertTrue(page.contains("Size: 262144."), String(page.prefix(2000)))
        XCTAssertTrue(page.contains(" 9999 10000"))
    }

    // MARK: - Partials that include themselves (finding 8)

    /// `{{>post-meta}}` in `post-meta.mustache` crashed the build (SIGSEGV, no message): the theme is refused when
    /// it is loaded, at the tag.
    func testAPartialThatIncludesItselfIsAnErrorAtItsTag() throws {
        try assertBuildFails(["themes/default/templates/post-meta.mustache:2:1: error: partial includes itself: post-meta → post-meta"]) {
            try site.write("themes/default/templates/post-meta.mustache", "<p class=\"post-meta\">{{date}}</p>\n{{>post-meta}}\n")
        }
    }

    /// Through another partial, inside a section (recursion through data is refused too: see
    /// `TemplateCheck.partialLoops`), and through a parent that fills its own block with itself.
    func testLoopsThroughOtherPartialsSectionsAndBlocksAreErrorsAtTheTagThatClosesThem() throws {
        try assertBuildFails(["themes/default/templates/tag-list.mustache:2:14: error: partial includes itself: tag-list → post-meta → tag-list"]) {
            try site.write("themes/default/templates/post-meta.mustache", "<p>{{date}}</p>\n{{>tag-list}}\n")
            try site.write("themes/default/templates/tag-list.mustache", "<ul>\n{{#tags}}<li>{{>post-meta}}</li>{{/tags}}\n</ul>\n")
        }
        try site.write("themes/default/templates/post-meta.mustache", "<p>{{date}}</p>\n")
        try site.write("themes/default/templates/tag-list.mustache", "<ul></ul>\n")
        XCTAssertEqual(try blog().status, 0)
        // The page's block shows `{{>base}}` inside base, which shows the block again.
        try site.write("themes/default/templates/post.mustache", "{{<base}}\n{{$content}}\n<p>{{post.title}}</p>\n{{>base}}\n{{/content}}\n{{/base}}\n")
        var result = try blog()
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("themes/default/templates/post.mustache:4:1: error: partial includes itself: base → base"), result.stderr)
        // A parent that extends itself.
        try site.write("themes/default/templates/post.mustache", "{{<post}}{{$content}}x{{/content}}{{/post}}\n")
        result = try blog()
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("themes/default/templates/post.mustache:1:1: error: partial includes itself: post → post"), result.stderr)
    }

    /// A site's shortcode template that includes itself (its partials are the other shortcodes) crashed the build
    /// of any post using it.
    func testAShortcodeTemplateThatIncludesItselfIsAnErrorAtItsTag() throws {
        try site.write("content/posts/hugo.md", "+++\ntitle = \"Hugo\"\ndate = 2024-01-01\n+++\n{{< note >}}\n")
        try assertBuildFails(["shortcodes/warn.mustache:1:9: error: partial includes itself: warn → note → warn"]) {
            try site.write("shortcodes/note.mustache", "<aside>\n  {{>warn}}\n</aside>\n")
            try site.write("shortcodes/warn.mustache", "<b>!</b>{{>note}}\n")
        }
    }

    /// A partial named by a value (`{{>*name}}`) can't be known when the theme is loaded: a post whose header
    /// names the partial it is in fails the build with the chain, in a page and in a shortcode.
    func testAPartialNamedByAValueThatIncludesItselfStopsTheBuild() throws {
        try site.write("themes/default/templates/post-meta.mustache", "<p>{{date}}</p>{{#meta.extra}}{{>*meta.extra}}{{/meta.extra}}\n")
        try site.write("content/posts/extra.md", "title: Extra\ndate: 2021-01-01\nextra: post-meta\n\nText.\n")
        var result = try blog()
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("themes/default/templates/post-meta.mustache:1:31: error: partial includes itself through a partial named by a "
                                             + "value (`{{>*name}}`): "), result.stderr)
        XCTAssertTrue(result.stderr.contains("post-meta → post-meta"), result.stderr)
        try site.write("content/posts/extra.md", "title: Extra\ndate: 2021-01-01\n\nText.\n")
        XCTAssertEqual(try blog().status, 0)

        try site.write("shortcodes/box.mustache", "<div>{{>*0}}</div>\n")
        try site.write("content/posts/hugo.md", "+++\ntitle = \"Hugo\"\ndate = 2024-01-01\n+++\nText.\n\nSee {{< box box >}}.\n")
        result = try blog()
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("content/posts/hugo.md:7:5: error: {{< box >}} can't be rendered: partial includes itself through "
                                             + "a partial named by a value (`{{>*name}}`): box → box"), result.stderr)
    }

    /// A chain of partials without a loop is bounded too: 64 templates one inside another render, more are an error.
    func testAChainOfPartialsDeeperThanSixtyFourIsAnError() throws {
        // The longest chain, from 404 (index's is as long): 404 → base → post-summary → post-meta → c1 → … → cN.
        func chain(_ count: Int) throws {
            try? FileManager.default.removeItem(at: site.root.appendingPathComponent("themes"))
            try site.write("themes/default/templates/post-meta.mustache", "<p>{{date}}</p>{{>c1}}\n")
            for index in 1..<count { try site.write("themes/default/templates/c\(index).mustache", "{{>c\(index + 1)}}") }
            try site.write("themes/default/templates/c\(count).mustache", "<i>deep</i>")
        }
        try chain(60)
        var result = try blog()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/good/index.html")).contains("<i>deep</i>"))
        try chain(61)
        result = try blog()
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("themes/default/templates/404.mustache:2:1: error: templates included one inside another 65 deep: "
                                             + "404 → base → post-summary → post-meta → c1 → c2 → "), result.stderr)
    }

    /// An edit that makes a partial include itself while `blog serve` runs killed the server; now the build fails
    /// with the message, the server goes on serving the last good site, and serves the fixed one.
    func testServeSurvivesAnEditThatMakesAPartialIncludeItself() throws {
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing()
        let url = server.url + "posts/good/"
        XCTAssertTrue(try ServeEndToEndTests.fetch(url).body.contains("Fine."))
        try site.write("themes/default/templates/post-meta.mustache", "<p>{{date}}</p>\n{{>post-meta}}\n")
        try ServeEndToEndTests.eventually(10, "the error is printed") {
            server.errorOutput.contains("themes/default/templates/post-meta.mustache:2:1: error: partial includes itself: post-meta → post-meta")
        }
        XCTAssertTrue(server.process.isRunning, server.errorOutput)
        XCTAssertTrue(try ServeEndToEndTests.fetch(url).body.contains("Fine."))
        try site.write("themes/default/templates/post-meta.mustache", "<p class=\"fixed\">{{date}}</p>\n")
        try ServeEndToEndTests.eventually(10, "the fixed theme is served") { try ServeEndToEndTests.fetch(url).body.contains("<p class=\"fixed\">") }
    }
}
