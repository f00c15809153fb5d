@testable import BlogBuild
@testable import BlogCheck
import Foundation
import XCTest

/// `blog check` on real sites built into temporary folders.
final class LinkCheckTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
    }

    override func tearDown() {
        site.remove()
    }

    /// A blog under a base path whose first post has valid links of every kind and three broken ones.
    func writeLinkedBlog() throws {
        try site.write("blog.yml", """
        title: Links
        base_url: https://example.org/blog/
        """)
        try site.write("content/posts/first.md", """
        title: First
        date: 2020-01-02

        Intro paragraph.

        ## Getting started

        Relative [second](../second/), absolute [with anchor](/blog/posts/second/#details),
        [the base URL](https://example.org/blog/posts/second/), [home](/blog/), ![pic](../../images/pic.svg),
        [external](https://swift.org/missing/), [mail](mailto:a@example.org), [here](#getting-started),
        [café](/blog/images/caf%C3%A9.svg), [no slash](/blog/posts/second), [top](#top).

        A [missing post](/blog/posts/nope/) and
        ![a missing image](images/nope.png)
        and [a missing anchor](../second/#nowhere).

            <a href="/blog/in-code/">not a link</a>

        <!-- <a href="/blog/in-comment/">x</a> -->
        """)
        try site.write("content/posts/second.md", """
        title: Second
        date: 2020-01-01

        Text.

        ## Details

        More.
        """)
        try site.write("content/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        try site.write("content/images/café.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }

    let expectedErrors = """
    content/posts/first.md:13:18: error: link to /blog/posts/nope/ which does not exist
    content/posts/first.md:14:20: error: link to images/nope.png which does not exist
    content/posts/first.md:15:24: error: link to ../second/#nowhere: no element with id "nowhere" there

    """

    func testReportsBrokenLinksAtTheirPostSourceLine() throws {
        try writeLinkedBlog()
        let result = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, expectedErrors)
        XCTAssertTrue(result.stdout.hasPrefix("Checked 6 pages, "), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix(": 3 broken\n"), result.stdout)
        XCTAssertFalse(site.exists("public"), "check must not write the output folder")
    }

    func testServesCheckReadsOnlyWhatChangedAndReportsWhatAWholeCheckReports() throws {
        // As `blog serve` builds and checks: each build into one folder, then the memo's check and a whole check.
        try writeLinkedBlog()
        let output = site.root.appendingPathComponent("out")
        var options = BuildOptions(source: site.root.path, output: output.path)
        options.buildsAgain = true
        options.cacheFolder = site.root.appendingPathComponent("cache").path
        let memo = LinkCheckMemo()
        var links: PreviewLinks?
        func buildAndCompare(_ what: String, line: UInt = #line) throws {
            let (_, made) = try Pipeline.buildForPreview(options)
            links = made ?? links
            let checker = try XCTUnwrap(links)
            let kept = try XCTUnwrap(checker.check(folder: output, memo: memo, stale: { false }), what, line: line)
            let whole = checker.check(folder: output)
            XCTAssertEqual(kept.broken.map(\.description), whole.broken.map(\.description), what, line: line)
            XCTAssertEqual(kept.links, whole.links, what, line: line)
            XCTAssertEqual(kept.pages, whole.pages, what, line: line)
            XCTAssertEqual(kept.missing.map(\.path), whole.missing.map(\.path), what, line: line)
        }
        try buildAndCompare("the first build")
        let pages = memo.lastRead
        XCTAssertGreaterThan(pages, 5)
        try buildAndCompare("nothing changed")
        XCTAssertEqual(memo.lastRead, 0, "no page changed")
        XCTAssertEqual(memo.lastResolved, 0, "no file appeared or went")
        // A body edit: the post's page and the lists that show its body are read again, not the rest.
        try site.write("content/posts/second.md", site.read("content/posts/second.md")! + "\n\nA new paragraph.\n")
        try buildAndCompare("a body edit")
        XCTAssertGreaterThan(memo.lastRead, 0)
        XCTAssertLessThan(memo.lastRead, pages)
        // A page that appears mends the link to it; its target's ids that change break an anchor into it.
        try site.write("content/posts/nope.md", "title: Nope\ndate: 2020-01-03\nslug: nope\n\nHere now.\n")
        try buildAndCompare("a new post the first links to")
        XCTAssertFalse(try XCTUnwrap(links).check(folder: output, memo: memo, stale: { false })!.broken.contains { $0.message.contains("/blog/posts/nope/") })
        try site.write("content/posts/second.md", site.read("content/posts/second.md")!.replacingOccurrences(of: "## Details", with: "## Other details"))
        try buildAndCompare("an anchor's heading renamed")
        XCTAssertTrue(try XCTUnwrap(links).check(folder: output, memo: memo, stale: { false })!.broken.contains { $0.message.contains("#details") })
        // A page that goes breaks every link to it, in pages that did not change.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/second.md"))
        try buildAndCompare("the second post removed")
        // A check overtaken by a build gives no report, and keeps nothing of what it read.
        try site.write("content/posts/first.md", site.read("content/posts/first.md")! + "\n\nLater.\n")
        _ = try Pipeline.buildForPreview(options)
        XCTAssertNil(try XCTUnwrap(links).check(folder: output, memo: memo, stale: { true }))
        try buildAndCompare("after a stopped check")
    }

    func testValidLinksOfEveryKindPass() throws {
        try writeLinkedBlog()
        try site.write("content/posts/first.md", site.read("content/posts/first.md")!
            .replacingOccurrences(of: "/blog/posts/nope/", with: "/blog/posts/second/")
            .replacingOccurrences(of: "images/nope.png", with: "/blog/images/pic.svg")
            .replacingOccurrences(of: "#nowhere", with: "#details"))
        let result = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.hasPrefix("Checked 6 pages, "), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix(" links: no broken links\n"), result.stdout)
    }

    func testChecksAnExistingOutputFolderWithoutBuilding() throws {
        try writeLinkedBlog()
        XCTAssertEqual(try BlogCLI.run(["build", "--quiet", "--output", "out"], in: site.root).status, 0)
        let before = site.snapshot("out")
        let result = try BlogCLI.run(["check", "--output", "out"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, expectedErrors)
        XCTAssertEqual(site.snapshot("out"), before)

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("out/posts/second/index.html"))
        let broken = try BlogCLI.run(["check", "--output", "out/"], in: site.root)
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("content/posts/first.md:8:19: error: link to ../second/ which does not exist\n"), broken.stderr)
        XCTAssertTrue(broken.stderr.contains("out/index.html:"), "list pages are named by their file: \(broken.stderr)")

        let missing = try BlogCLI.run(["check", "--output", "nowhere"], in: site.root)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("error: no folder to check at "), missing.stderr)
    }

    /// Pages with no post behind them are reported in the HTML; code, comments, scripts and styles hold no links.
    func testPagesWithoutSourceAreReportedInTheHTML() throws {
        try site.write("out/index.html", """
        <!DOCTYPE html>
        <html><head><title>t</title><link rel="stylesheet" href="/site/style.css"></head>
        <body>
        <h1 id="top-heading">x</h1><a name="old-anchor"></a>
        <a href="/site/missing/">a</a> <a href="#top-heading">ok</a> <a href="#old-anchor">ok</a> <a href="sub/#gone">b</a>
        <img srcset="/site/a.png 1x, /site/b.png 2x" src="/site/a.png" alt="">
        <pre><a href="/site/in-pre/">x</a></pre><code><a href="/site/in-code/">x</a></code>
        <script>var s = '<a href="/site/in-script/">';</script><style>a[href="/site/in-style/"]{}</style>
        <!-- <a href="/site/in-comment/"> -->
        <a href="/site/tags/caf%C3%A9/">café</a> <a href="x?q=1&amp;r=2">q</a> <a href="/site/other/file.html">f</a>
        <a href="/elsewhere/">out</a> <a href="//example.org/x/">ext</a> <a href="data:text/plain,x">d</a>
        </body></html>
        """)
        try site.write("out/style.css", "")
        try site.write("out/a.png", "")
        try site.write("out/sub/index.html", "<p>sub</p>")
        try site.write("out/tags/café/index.html", "<p>c</p>")
        try site.write("out/x/index.html", "<p>x</p>")
        try site.write("empty/.keep", "")
        let result = try BlogCLI.run(["check", "--source", "empty", "--output", "out", "--base-url", "/site/"], in: site.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, """
        out/index.html:5:10: error: link to /site/missing/ which does not exist
        out/index.html:5:100: error: link to sub/#gone: no element with id "gone" there
        out/index.html:6:14: error: link to /site/b.png which does not exist
        out/index.html:10:81: error: link to /site/other/file.html which does not exist
        out/index.html:11:10: error: link to /elsewhere/ which is outside the site (its base path is /site/)

        """)
        XCTAssertEqual(result.stdout, "Checked 4 pages, 12 links: 5 broken\n")
    }

    /// The sample blog of the repository, with its theme, has no broken link.
    func testSampleBlogChecksClean() throws {
        let result = try BlogCLI.run(["check", "--source", RepositorySample.root.path], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix(" links: no broken links\n"), result.stdout)
    }
}

/// The sample blog at the root of the repository (blog.yml, content/, themes/).
enum RepositorySample {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
