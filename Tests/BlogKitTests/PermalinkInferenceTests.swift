@testable import BlogConfig
@testable import BlogScaffold
import XCTest

/// URL patterns told by a blog's own links: `blog init --from` for a blog without a settings file,
/// and `blog check`'s hint for the links it found broken.
final class PermalinkInferenceTests: XCTestCase {
    /// A Pelican blog whose theme put pages at `/{slug}.html` and posts at `/blog/{slug}.html`, as
    /// its links say, without its pelicanconf.py; a link to a page that never existed stays broken.
    static let blog: [String: String] = [
        "content/pages/intro.md": "Title: Introduction\nSlug: introduction\n\nStart with [Flask](/flask.html), [the news](/blog/new-release.html) and [more news](/blog/second-look.html#top).\n",
        "content/pages/flask.md": "Title: Flask\n\nSee [the introduction](/introduction.html) and <a href=\"/django.html\">Django</a>.\n",
        "content/pages/django.md": "Title: Django\n\nBack to [Flask](/flask.html \"Flask\") or [the start][start].\n\n[start]: /introduction.html\n",
        "content/posts/a.md": "Title: New release\nDate: 2021-03-04\n\nRead [Flask](/flask.html) and [Django](/django.html).\n",
        "content/posts/b.md": "Title: Second look\nDate: 2021-03-05\n\nAfter [the release](/blog/new-release.html), see [the start](/introduction.html).\n",
    ]

    func testTheBlogsOwnLinksTellThePatternsAndCheckFindsNothingBroken() throws {
        let site = try TempSite()
        defer { site.remove() }
        for (path, text) in Self.blog { try site.write(path, text) }
        let initResult = try BlogCLI.run(["init", "--from", "."], in: site.root)
        XCTAssertEqual(initResult.status, 0, initResult.stderr)
        let text = try XCTUnwrap(site.read("blog.yml"))
        let (config, warnings) = try ConfigLoader.parse(text, path: "blog.yml")
        XCTAssertEqual(warnings, [], text)
        XCTAssertEqual(config.permalinks.preset, .pelican, text)
        XCTAssertEqual(config.permalinks.page, "{slug}.html", text)
        XCTAssertEqual(config.permalinks.post, "blog/{slug}.html", text)
        XCTAssertTrue(text.contains("# permalinks.page \"{slug}.html\" is told by the blog's own links"), text)
        XCTAssertEqual(config.permalinks.tag, PermalinkPreset.pelican.permalinks.tag, "the rest stays the preset's")

        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    func testCheckProposesThePatternsThatMendTheMostLinksInBlogYMLSyntax() throws {
        let site = try TempSite()
        defer { site.remove() }
        for (path, text) in Self.blog { try site.write(path, text) }
        try site.write("content/pages/flask.md", Self.blog["content/pages/flask.md"]! + "\nAnd [a page never written](/nowhere.html).\n")
        try site.write("blog.yml", "permalinks: pelican\n")
        let before = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(before.status, 1)
        let hint = try XCTUnwrap(before.stderr.split(separator: "\n").first { $0.contains("note:") && $0.contains("name posts and pages by slug") },
                                 before.stderr)
        let proposal = try XCTUnwrap(hint.range(of: "`permalinks: {").map { start in
            String(hint[hint.index(after: start.lowerBound)...].prefix { $0 != "`" })
        })
        XCTAssertEqual(proposal, "permalinks: {preset: pelican, page: \"{slug}.html\", post: \"blog/{slug}.html\"}", String(hint))
        let broken = { (result: BlogCLI.Result) in
            result.stderr.split(separator: "\n").filter { $0.contains(": error: link to ") }.count
        }
        let promised = try XCTUnwrap(hint.range(of: "in blog.yml, ").flatMap { Int(hint[$0.upperBound...].prefix { $0.isNumber }) })

        // As proposed, in blog.yml: exactly the promised links work, the page never written stays broken.
        try site.write("blog.yml", proposal + "\n")
        let after = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(after.status, 1)
        XCTAssertEqual(broken(after), 1, after.stderr)
        XCTAssertTrue(after.stderr.contains("link to /nowhere.html which does not exist"), after.stderr)
        XCTAssertEqual(broken(before) - broken(after), promised, before.stderr)
    }

    func testVotesDatesAndAmbiguity() {
        var inference = PermalinkInference([
            .init(key: "post", slugs: ["hello"], year: "2021", month: "03", day: "04"),
            .init(key: "post", slugs: ["world"], year: "2020", month: "12", day: "31"),
            .init(key: "page", slugs: ["about"]),
            .init(key: "page", slugs: ["both"]), .init(key: "post", slugs: ["both"]),
        ])
        for link in ["/2021/03/04/hello/", "/2020/12/31/world/index.html#x", "/blog/hello.html", "/about.html",
                     "https://example.org/about.html", "about.html", "/both.html", "/both.html", "/img/about.png"] {
            inference.add(link)
        }
        XCTAssertEqual(inference.proposals(), [
            .init(key: "post", pattern: "{year}/{month}/{day}/{slug}/", links: 2, example: "/2021/03/04/hello/"),
        ], "one link is too few for pages; a slug of a post and a page says nothing; other hosts and relative links are not read")
        inference.add("/about.html?ref=1")
        XCTAssertEqual(inference.proposals().first, .init(key: "page", pattern: "{slug}.html", links: 2, example: "/about.html"))
        let split = PermalinkInference.split("a/b/c")
        XCTAssertEqual(split?.prefix, ["a", "b"])
        XCTAssertEqual(split?.stem, "c")
        XCTAssertEqual(split?.suffix, "/")
        XCTAssertNil(PermalinkInference.split("a//b.html"))
    }
}
