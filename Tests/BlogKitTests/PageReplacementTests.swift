import Foundation
import XCTest

/// A content file whose header names the URL of a generated page (the home page, the 404 page,
/// the tags index, the archives) is written there instead, with a note; the post list then moves
/// to `permalinks.home_list`. Built end to end with the `blog` binary.
final class PageReplacementTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
    }

    override func tearDown() {
        site.remove()
    }

    /// Three posts, two per list page, and an About page: a Pelican blog as it is.
    func writePosts(baseURL: String = "https://example.org/", extra: String = "") throws {
        try site.write("blog.yml", "title: Field Notes\nbase_url: \(baseURL)\npaginate: 2\n\(extra)")
        for (number, day) in [(1, "2021-03-01"), (2, "2021-04-02"), (3, "2021-05-03")] {
            try site.write("content/posts/post-\(number).md", "Title: Post \(number)\nDate: \(day)\nTags: notes\n\nBody of post \(number).\n")
        }
        try site.write("content/pages/about.md", "Title: About\n\nWho writes here.\n")
    }

    /// Lines of `text` holding `fragment`.
    func lines(_ text: String, containing fragment: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(fragment) }
    }

    /// The site menu of a page: each entry's text, href, and whether it is marked current.
    func menu(_ path: String) throws -> [String] {
        let html = try XCTUnwrap(site.read(path), path)
        let nav = try XCTUnwrap(html.range(of: "<nav class=\"site-nav\"").map { html[$0.lowerBound...] })
        let end = try XCTUnwrap(nav.range(of: "</nav>"))
        return lines(String(nav[..<end.lowerBound]), containing: "<li>").map { String($0) }
    }

    /// `blog build --strict`, which must succeed: notes are no warnings.
    func buildStrict(file: StaticString = #filePath, line: UInt = #line) throws -> BlogCLI.Result {
        let result = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result
    }

    func assertCheckIsClean(file: StaticString = #filePath, line: UInt = #line) throws {
        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stderr + check.stdout, file: file, line: line)
        XCTAssertTrue(check.stdout.contains(": no broken links"), check.stdout, file: file, line: line)
    }

    func testPelicanHomeAnd404Pages() throws {
        try writePosts()
        try site.write("content/pages/home.md", "Title: Welcome\nSave_as: index.html\nURL:\n\nThis is the *front* page.\n")
        try site.write("content/pages/404.md", "Title: Lost\nSave_as: 404.html\n\nNothing here; try the [archives](/archives/).\n")
        let result = try buildStrict()

        // One note each, on standard error, and nothing else said.
        let homeNotes = lines(result.stderr, containing: "content/pages/home.md:1:1: note: this page replaces the generated home page")
        XCTAssertEqual(homeNotes.count, 1, result.stderr)
        XCTAssertTrue(homeNotes[0].contains("the post list is at /blog/"), result.stderr)
        XCTAssertEqual(lines(result.stderr, containing: "content/pages/404.md:1:1: note: this page replaces the generated 404 page").count, 1, result.stderr)
        XCTAssertEqual(lines(result.stderr, containing: ": warning: ").count, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains("note:"), "notes go to standard error")

        // The home page is the page, with the page template.
        let home = try XCTUnwrap(site.read("public/index.html"))
        XCTAssertTrue(home.contains("<h1 class=\"post-title\">Welcome</h1>"), home)
        XCTAssertTrue(home.contains("This is the <em>front</em> page."), home)
        XCTAssertFalse(home.contains("post-summary"), "the home page lists no posts")
        XCTAssertTrue(home.contains("<link rel=\"canonical\" href=\"https://example.org/\">"), home)
        XCTAssertFalse(site.exists("public/pages/home/index.html") || site.exists("public/home/index.html"))

        // The post list at blog/, paginated under it, newest first.
        let first = try XCTUnwrap(site.read("public/blog/index.html"))
        let second = try XCTUnwrap(site.read("public/blog/page/2/index.html"))
        XCTAssertEqual(lines(first, containing: "class=\"post-title\"").map { $0.contains("Post 3") || $0.contains("Post 2") }, [true, true])
        XCTAssertEqual(lines(second, containing: "class=\"post-title\"").count, 1)
        XCTAssertTrue(second.contains("Post 1"), second)
        XCTAssertTrue(first.contains("<a class=\"older\" href=\"/blog/page/2/\" rel=\"next\">"), first)
        XCTAssertTrue(second.contains("<a class=\"newer\" href=\"/blog/\" rel=\"prev\">"), second)
        XCTAssertTrue(first.contains("<link rel=\"canonical\" href=\"https://example.org/blog/\">"), first)
        XCTAssertFalse(site.exists("public/page/2/index.html"), "no list page is left at the old place")

        // The menu: Home is the page, Blog the list; each marked current on its own page.
        XCTAssertEqual(try menu("public/index.html"), [
            "<li><a href=\"/\" aria-current=\"page\">Home</a></li>", "<li><a href=\"/blog/\">Blog</a></li>",
            "<li><a href=\"/tags/\">Tags</a></li>", "<li><a href=\"/archives/\">Archives</a></li>",
        ])
        XCTAssertEqual(try menu("public/blog/page/2/index.html"), [
            "<li><a href=\"/\">Home</a></li>", "<li><a href=\"/blog/\" aria-current=\"page\">Blog</a></li>",
            "<li><a href=\"/tags/\">Tags</a></li>", "<li><a href=\"/archives/\">Archives</a></li>",
        ])
        XCTAssertEqual(try menu("public/about/index.html").filter { $0.contains("aria-current") }, [])

        // The 404 page is the page: no canonical address (it is served anywhere), not in the sitemap.
        let notFound = try XCTUnwrap(site.read("public/404.html"))
        XCTAssertTrue(notFound.contains("<h1 class=\"post-title\">Lost</h1>"), notFound)
        XCTAssertFalse(notFound.contains("There is nothing at this address"), "the generated 404 page is not written")
        XCTAssertFalse(notFound.contains("rel=\"canonical\""), notFound)

        // Feeds list every post and point to the list; the sitemap has the home page and the list pages.
        let posts = site.files(under: "public/posts").filter { $0.hasSuffix("index.html") }.count
        XCTAssertEqual(posts, 3)
        let atom = try XCTUnwrap(site.read("public/feed.xml"))
        XCTAssertEqual(atom.components(separatedBy: "<entry>").count - 1, posts)
        XCTAssertTrue(atom.contains("<link rel=\"alternate\" type=\"text/html\" href=\"https://example.org/blog/\"/>"), atom)
        XCTAssertEqual(try XCTUnwrap(site.read("public/rss.xml")).components(separatedBy: "<item>").count - 1, posts)
        let json = try XCTUnwrap(site.read("public/feed.json"))
        XCTAssertTrue(json.contains("\"home_page_url\" : \"https://example.org/blog/\""), json)
        let sitemap = try XCTUnwrap(site.read("public/sitemap.xml"))
        for url in ["https://example.org/", "https://example.org/blog/", "https://example.org/blog/page/2/", "https://example.org/about/"] {
            XCTAssertEqual(sitemap.components(separatedBy: "<loc>\(url)</loc>").count - 1, 1, url)
        }
        XCTAssertFalse(sitemap.contains("404"), sitemap)
        XCTAssertFalse(sitemap.contains("<loc>https://example.org/page/2/</loc>"), sitemap)

        try assertCheckIsClean()
    }

    func testYAMLPagePermalinkRootWithHomeListSetting() throws {
        try writePosts(baseURL: "https://example.org/site/", extra: "permalinks:\n  home_list: news/\n")
        try site.write("content/pages/welcome.md", "---\ntitle: Welcome\npermalink: /\n---\n\nStart here, or read the [news](/site/news/).\n")
        let result = try buildStrict()
        XCTAssertEqual(lines(result.stderr, containing: "content/pages/welcome.md:1:1: note: this page replaces the generated home page; the post list is at /news/").count, 1, result.stderr)

        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("Start here"))
        XCTAssertTrue(site.exists("public/news/index.html"))
        XCTAssertTrue(site.exists("public/news/page/2/index.html"))
        XCTAssertFalse(site.exists("public/blog/index.html"), "home_list moves the list")
        XCTAssertTrue(try XCTUnwrap(site.read("public/news/index.html")).contains("href=\"/site/news/page/2/\" rel=\"next\""))
        XCTAssertEqual(try menu("public/news/index.html").prefix(2), [
            "<li><a href=\"/site/\">Home</a></li>", "<li><a href=\"/site/news/\" aria-current=\"page\">Blog</a></li>",
        ])
        // The generated 404 page stays, and its "latest posts" link goes to the list.
        XCTAssertTrue(try XCTUnwrap(site.read("public/404.html")).contains("<a href=\"/site/news/\">Latest posts</a>"))
        try assertCheckIsClean()
    }

    func testPagesReplaceTheTagsIndexAndTheArchives() throws {
        try writePosts()
        try site.write("content/pages/topics.md", "---\ntitle: Topics\nurl: /tags/\n---\n\nWhat I write about.\n")
        try site.write("content/pages/all.md", "Title: Everything\nSave_as: archives/index.html\nURL: archives/\n\nEvery post.\n")
        let result = try buildStrict()
        XCTAssertEqual(lines(result.stderr, containing: "content/pages/topics.md:1:1: note: this page replaces the generated tags index; each tag's page is still generated").count, 1, result.stderr)
        XCTAssertEqual(lines(result.stderr, containing: "content/pages/all.md:1:1: note: this page replaces the generated archives page").count, 1, result.stderr)

        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/index.html")).contains("What I write about."))
        XCTAssertTrue(try XCTUnwrap(site.read("public/archives/index.html")).contains("Every post."))
        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/notes/index.html")).contains("Post 3"), "tag pages are still generated")
        XCTAssertTrue(site.exists("public/tags/notes/feed.xml"))
        // The home page stays the list; the menu's Tags and Archives lead to the pages, current there.
        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("post-summary"))
        XCTAssertFalse(site.exists("public/blog/index.html"))
        XCTAssertEqual(try menu("public/tags/index.html"), [
            "<li><a href=\"/\">Home</a></li>", "<li><a href=\"/tags/\" aria-current=\"page\">Tags</a></li>",
            "<li><a href=\"/archives/\">Archives</a></li>",
        ])
        XCTAssertEqual(try menu("public/archives/index.html").filter { $0.contains("aria-current") },
                       ["<li><a href=\"/archives/\" aria-current=\"page\">Archives</a></li>"])
        try assertCheckIsClean()
    }

    func testTwoFilesClaimingOneGeneratedPageAreAnError() throws {
        try writePosts()
        try site.write("content/pages/home.md", "Title: Welcome\nSave_as: index.html\nURL:\n\nHello.\n")
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        let before = site.snapshot("public")
        XCTAssertFalse(before.isEmpty)

        try site.write("content/pages/start.md", "---\ntitle: Start\npermalink: /\n---\n\nAnother home.\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr)
        let errors = lines(result.stderr, containing: ": error: URL / is also wanted by")
        XCTAssertEqual(errors.count, 1, result.stderr)
        XCTAssertTrue(errors[0].contains("content/pages/home.md") && errors[0].contains("content/pages/start.md"), result.stderr)
        XCTAssertTrue(errors[0].contains("change the `save_as`, `url` or `permalink` of one of them"), result.stderr)
        XCTAssertEqual(site.snapshot("public"), before, "the published output must be untouched")
    }

    func testAURLFromASlugClaimsNothing() throws {
        try writePosts()
        // `pages/archives.md` gets `archives/` from its slug: that is a collision, not a replacement.
        try site.write("content/pages/archives.md", "Title: Archives\n\nMy own.\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("content/pages/archives.md:1:1: error: URL /archives/ is also wanted by the archives page: two pages can't share a URL; give one of them another `slug`"), result.stderr)
        XCTAssertFalse(result.stderr.contains("note:"), result.stderr)
    }

    func testAPageAtTheHomeListsURLCollides() throws {
        try writePosts()
        try site.write("content/pages/home.md", "Title: Welcome\nSave_as: index.html\nURL:\n\nHello.\n")
        try site.write("content/pages/blog.md", "Title: Blog\n\nMine.\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("content/pages/blog.md:1:1: error: URL /blog/ is also wanted by the post list (`permalinks.home_list`)"), result.stderr)
    }
}
