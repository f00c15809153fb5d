@testable import BlogBuild
@testable import BlogConfig
@testable import BlogContent
@testable import BlogCore
@testable import BlogMarkdown
@testable import BlogRender
@testable import BlogSite
import Foundation
import XCTest

/// A small site built by hand, as the SiteBuilder would: four posts (one hidden), a page, three
/// tags (one with a non-ASCII name), two home pages, archives over two years, under `/blog/`.
enum RenderFixture {
    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    static func sitePost(_ title: String, slug: String, date: String, tags: [String] = [], category: String? = nil,
                         author: String? = nil, status: PostStatus = .published, meta: [String: MetaValue] = [:],
                         html: String, summary: String) -> SitePost {
        let post = Post(source: "content/posts/\(slug).md", title: title, date: Self.date(date), tags: tags.map(Tag.init),
                        category: category.map(Tag.init), slug: slug, author: author, status: status, meta: meta, body: "")
        return SitePost(post: post, rendered: RenderedMarkdown(html: html, summaryHTML: summary, headings: []),
                        url: "posts/\(slug)/", outputPath: "posts/\(slug)/index.html")
    }

    static func site(baseURL: String = "https://example.org/blog/") -> Site {
        var config = SiteConfig()
        config.title = "Notes"
        config.description = "Things I learnt"
        config.author = "Ann"
        config.baseURL = baseURL
        config.timeZone = TimeZone(identifier: "Europe/Paris")!
        config.paginate = 2
        var about = sitePost("About", slug: "about", date: "2016-01-01T00:00:00+01:00",
                             html: "<p>Who I am</p>\n", summary: "<p>Who I am</p>\n")
        about.post.kind = .page
        about.post.dated = false
        about.url = "about/"
        about.outputPath = "about/index.html"
        let posts = [
            sitePost("Swift <6> & You", slug: "swift-6", date: "2017-03-10T09:30:00+01:00", tags: ["Swift", "Linux"],
                     category: "Programming", author: "Bob",
                     meta: ["headerimage": .string("/img/a.png"), "draft": .null, "rating": .int(4)],
                     html: "<p>Body <em>zero</em></p>\n<pre><code>line1\n  line2\n</code></pre>\n",
                     summary: "<p>Summary <em>zero</em> &amp; more</p>\n"),
            sitePost("Second", slug: "second", date: "2016-11-25T00:00:00+01:00", tags: ["swift", "Café"],
                     html: "<p>Second body</p>\n", summary: "<p>Second body</p>\n"),
            sitePost("Hidden thing", slug: "hidden", date: "2016-11-20T12:00:00+01:00", tags: ["Secret", "Swift"],
                     status: .hidden, html: "<p>Psst</p>\n", summary: "<p>Psst</p>\n"),
            sitePost("First", slug: "first", date: "2016-10-01T08:00:00+02:00",
                     html: "<p>Hello</p>\n", summary: "<p>Hello</p>\n"),
            about,
        ]
        let tags = [
            TagGroup(tag: Tag(name: "Café"), posts: [1], url: "tags/café/"),
            TagGroup(tag: Tag(name: "Linux"), posts: [0], url: "tags/linux/"),
            TagGroup(tag: Tag(name: "Swift"), posts: [0, 1], url: "tags/swift/"),
        ]
        let archives = [
            ArchiveYear(year: 2017, months: [ArchiveMonth(month: 3, posts: [0])]),
            ArchiveYear(year: 2016, months: [ArchiveMonth(month: 11, posts: [1]), ArchiveMonth(month: 10, posts: [3])]),
        ]
        var pages = posts.indices.map { Page(kind: .post($0), url: posts[$0].url, outputPath: posts[$0].outputPath) }
        pages += [
            Page(kind: .home(Pagination(number: 1, count: 2, posts: [0, 1], newerURL: nil, olderURL: "page/2/")),
                 url: "", outputPath: "index.html"),
            Page(kind: .home(Pagination(number: 2, count: 2, posts: [3], newerURL: "", olderURL: nil)),
                 url: "page/2/", outputPath: "page/2/index.html"),
            Page(kind: .term(.tag, 0, Pagination(number: 1, count: 1, posts: [1], newerURL: nil, olderURL: nil)),
                 url: "tags/café/", outputPath: "tags/café/index.html"),
            Page(kind: .term(.tag, 2, Pagination(number: 1, count: 1, posts: [0, 1], newerURL: nil, olderURL: nil)),
                 url: "tags/swift/", outputPath: "tags/swift/index.html"),
            Page(kind: .termIndex(.tag), url: "tags/", outputPath: "tags/index.html"),
            Page(kind: .archives, url: "archives/", outputPath: "archives/index.html"),
            Page(kind: .notFound, url: "404.html", outputPath: "404.html"),
        ]
        return Site(config: config, posts: posts, listed: [0, 1, 3], tags: tags, archives: archives,
                    pages: pages, assets: [])
    }

    /// Every rendered page's HTML, by output path.
    static func render(_ site: Site, theme: Theme? = nil) throws -> [String: String] {
        let theme = try theme ?? Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/nonexistent-site"))
        var pages: [String: String] = [:]
        for file in try SiteRenderer.render(site, theme: theme) {
            guard case .bytes(let data) = file.contents else { XCTFail("\(file.path) is not bytes"); continue }
            pages[file.path] = String(decoding: data, as: UTF8.self)
        }
        return pages
    }
}

/// Asserts that each of `needles` occurs in `html`.
func assertContains(_ html: String, _ needles: [String], file: StaticString = #filePath, line: UInt = #line) {
    for needle in needles where !html.contains(needle) {
        XCTFail("missing: \(needle)", file: file, line: line)
    }
}

/// Asserts that `needles` occur in `html` in this order.
func assertInOrder(_ html: String, _ needles: [String], file: StaticString = #filePath, line: UInt = #line) {
    var rest = html[...]
    for needle in needles {
        guard let range = rest.range(of: needle) else {
            XCTFail("missing, or out of order: \(needle)", file: file, line: line)
            return
        }
        rest = rest[range.upperBound...]
    }
}

final class RenderSiteTests: XCTestCase {
    static let pages = Result { try RenderFixture.render(RenderFixture.site()) }

    func page(_ path: String) throws -> String {
        try XCTUnwrap(try Self.pages.get()[path], "no page \(path)")
    }

    func testFilesFollowThePagesInOrder() throws {
        let site = RenderFixture.site()
        let files = try SiteRenderer.render(site, theme: Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/none")))
        XCTAssertEqual(files.map(\.path), site.pages.map(\.outputPath))
    }

    func testPostPageShowsTitleDateAuthorCategoryAndBody() throws {
        let html = try page("posts/swift-6/index.html")
        XCTAssertTrue(html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        assertContains(html, [
            "<title>Swift &lt;6&gt; &amp; You · Notes</title>",
            "<h1 class=\"post-title\">Swift &lt;6&gt; &amp; You</h1>",
            "<time datetime=\"2017-03-10T09:30:00+01:00\">Fri 10 March 2017</time>",
            "<span class=\"author\">Bob</span>",
            "<span class=\"category\">Programming</span>",
            // The body is not escaped, and code keeps its lines exactly (no indentation added).
            "<p>Body <em>zero</em></p>\n<pre><code>line1\n  line2\n</code></pre>\n",
            "<meta name=\"description\" content=\"Summary zero &amp; more\">",
            "<link rel=\"canonical\" href=\"https://example.org/blog/posts/swift-6/\">",
            "<li><a href=\"/blog/\">Home</a></li>",
            "<link rel=\"stylesheet\" href=\"/blog/style.css\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        ])
    }

    func testPostDateInTheSiteZoneWithTheSiteAuthorAsDefault() throws {
        let html = try page("posts/second/index.html")
        assertContains(html, [
            "<time datetime=\"2016-11-25T00:00:00+01:00\">Fri 25 November 2016</time>",
            "<span class=\"author\">Ann</span>",
        ])
        XCTAssertFalse(html.contains("class=\"category\""))
    }

    func testTagLinksUseTheBasePathAndTheGroupsName() throws {
        let html = try page("posts/second/index.html")
        // "swift" on this post is the "Swift" tag: the first spelling names it.
        assertInOrder(html, ["<ul class=\"tag-list\" aria-label=\"Tags\">",
                             "<li><a href=\"/blog/tags/swift/\" rel=\"tag\">Swift</a></li>",
                             "<li><a href=\"/blog/tags/caf%C3%A9/\" rel=\"tag\">Café</a></li>", "</ul>"])
    }

    func testATagThatNoListShowsIsNotALink() throws {
        let html = try page("posts/hidden/index.html")
        assertContains(html, [
            "<li><span>Secret</span></li>",
            "<li><a href=\"/blog/tags/swift/\" rel=\"tag\">Swift</a></li>",
        ])
        XCTAssertFalse(html.contains("post-nav"), "a hidden post has no neighbours")
    }

    func testPreviousAndNextPostLinks() throws {
        let middle = try page("posts/second/index.html")
        assertInOrder(middle, ["<nav class=\"post-nav\"",
                               "<a class=\"older\" href=\"/blog/posts/first/\" rel=\"prev\">", "First</a>",
                               "<a class=\"newer\" href=\"/blog/posts/swift-6/\" rel=\"next\">",
                               "Swift &lt;6&gt; &amp; You</a>"])
        let newest = try page("posts/swift-6/index.html")
        XCTAssertTrue(newest.contains("href=\"/blog/posts/second/\" rel=\"prev\""))
        XCTAssertFalse(newest.contains("rel=\"next\""))
        let oldest = try page("posts/first/index.html")
        XCTAssertTrue(oldest.contains("href=\"/blog/posts/second/\" rel=\"next\""))
        XCTAssertFalse(oldest.contains("rel=\"prev\""))
    }

    func testHomeListsPostsNewestFirstWithSummariesAndPagination() throws {
        let home = try page("index.html")
        assertInOrder(home, [
            "<h2 class=\"post-title\"><a href=\"/blog/posts/swift-6/\">Swift &lt;6&gt; &amp; You</a></h2>",
            "<time datetime=\"2017-03-10T09:30:00+01:00\">Fri 10 March 2017</time>",
            "<a href=\"/blog/tags/swift/\" rel=\"tag\">Swift</a>",
            "<p>Summary <em>zero</em> &amp; more</p>",
            "<a href=\"/blog/posts/swift-6/\">Read more",
            "<a href=\"/blog/posts/second/\">Second</a>",
            "<a class=\"older\" href=\"/blog/page/2/\" rel=\"next\">",
        ])
        XCTAssertFalse(home.contains("Hidden thing"))
        XCTAssertFalse(home.contains("First</a>"), "the third post is on page 2")
        XCTAssertFalse(home.contains("class=\"newer\""))
        assertContains(home, ["<title>Notes</title>", "<li><a href=\"/blog/\" aria-current=\"page\">Home</a></li>"])

        let second = try page("page/2/index.html")
        assertContains(second, [
            "<a href=\"/blog/posts/first/\">First</a>",
            "<a class=\"newer\" href=\"/blog/\" rel=\"prev\">",
        ])
        XCTAssertFalse(second.contains("class=\"older\""))
        assertContains(second, [
            "<span class=\"page-number\">Page 2 of 2</span>",
            "<title>Page 2 · Notes</title>",
        ])
    }

    func testTagPageListsItsPosts() throws {
        let html = try page("tags/swift/index.html")
        assertContains(html, [
            "<h1 class=\"page-title\">Posts tagged “Swift”</h1>",
            "<title>Swift · Notes</title>",
        ])
        assertInOrder(html, ["<a href=\"/blog/posts/swift-6/\">Swift &lt;6&gt;", "<a href=\"/blog/posts/second/\">Second</a>"])
        XCTAssertFalse(html.contains("class=\"pagination\""), "one page: no pagination")
        XCTAssertTrue(try page("tags/café/index.html").contains("<link rel=\"canonical\" href=\"https://example.org/blog/tags/caf%C3%A9/\">"))
    }

    func testTagIndexShowsEveryTagWithItsCount() throws {
        let html = try page("tags/index.html")
        assertInOrder(html, [
            "<li><a href=\"/blog/tags/caf%C3%A9/\" rel=\"tag\">Café</a> <span class=\"count\">1</span></li>",
            "<li><a href=\"/blog/tags/linux/\" rel=\"tag\">Linux</a> <span class=\"count\">1</span></li>",
            "<li><a href=\"/blog/tags/swift/\" rel=\"tag\">Swift</a> <span class=\"count\">2</span></li>",
        ])
        XCTAssertTrue(html.contains("<a href=\"/blog/tags/\" aria-current=\"page\">Tags</a>"))
    }

    func testArchivesGroupByYearAndMonth() throws {
        let html = try page("archives/index.html")
        assertInOrder(html, [
            "<h2>2017</h2>", "<h3>March 2017</h3>", "Fri 10 March 2017</time> <a href=\"/blog/posts/swift-6/\">",
            "<h2>2016</h2>", "<h3>November 2016</h3>", "<a href=\"/blog/posts/second/\">Second</a>",
            "<h3>October 2016</h3>", "Sat 1 October 2016</time> <a href=\"/blog/posts/first/\">First</a>",
        ])
        XCTAssertFalse(html.contains("Hidden thing"))
    }

    func testAPageHasTheSiteMenuWithNoEntryCurrentAndNoDateOrNeighbours() throws {
        let html = try page("about/index.html")
        assertInOrder(html, ["<title>About · Notes</title>", "<nav class=\"site-nav\"",
                             "<li><a href=\"/blog/\">Home</a></li>", "<li><a href=\"/blog/tags/\">Tags</a></li>",
                             "<li><a href=\"/blog/archives/\">Archives</a></li>", "</nav>",
                             "<article class=\"page\">", "<h1 class=\"post-title\">About</h1>", "<p>Who I am</p>"])
        XCTAssertFalse(html.contains("aria-current"))
        XCTAssertFalse(html.contains("<time"))
        XCTAssertFalse(html.contains("post-nav"))
    }

    func testNotFoundPageLinksFromTheBasePathAndHasNoCanonical() throws {
        let html = try page("404.html")
        assertContains(html, [
            "<link rel=\"stylesheet\" href=\"/blog/style.css\">",
            "<li><a href=\"/blog/\">Latest posts</a></li>",
            "<li><a href=\"/blog/archives/\">Every post, by date</a></li>",
        ])
        XCTAssertFalse(html.contains("rel=\"canonical\""))
    }

    func testEveryPageHasTheLayoutAndBalancedMarkup() throws {
        for (path, html) in try Self.pages.get() {
            XCTAssertTrue(html.hasPrefix("<!doctype html>\n"), path)
            assertInOrder(html, ["<header class=\"site-header\">", "<a href=\"/blog/\">Notes</a>",
                                 "<nav class=\"site-nav\"", ">Home</a>", ">Tags</a>", ">Archives</a>",
                                 "<main id=\"content\"", "</main>", "<footer class=\"site-footer\">",
                                 "<p>Notes · Ann</p>", "</html>\n"])
            XCTAssertEqual(HTMLCheck.problems(html), [], path)
        }
    }

    func testARelativeBaseURLGivesNoCanonicalLink() throws {
        let pages = try RenderFixture.render(RenderFixture.site(baseURL: "/"))
        let html = try XCTUnwrap(pages["posts/second/index.html"])
        XCTAssertFalse(html.contains("rel=\"canonical\""))
        assertContains(html, [
            "<a href=\"/tags/caf%C3%A9/\" rel=\"tag\">Café</a>",
            "<link rel=\"stylesheet\" href=\"/style.css\">",
        ])
    }

    func testRenderingTwiceGivesTheSameBytes() throws {
        let site = RenderFixture.site()
        let theme = try Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/none"))
        func bytes() throws -> [Data] {
            try SiteRenderer.render(site, theme: theme).map {
                guard case .bytes(let data) = $0.contents else { return Data() }
                return data
            }
        }
        XCTAssertEqual(try bytes(), try bytes())
    }

    func testTheDefaultThemeCarriesItsStylesheet() throws {
        let theme = try Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/none"))
        XCTAssertEqual(theme.staticFiles.map(\.path), ["favicon.svg", "search.js", "style.css"])
        guard case .bytes(let data) = theme.staticFiles[2].contents else { return XCTFail("not embedded") }
        let css = String(decoding: data, as: UTF8.self)
        assertContains(css, [
            "@media (prefers-color-scheme: dark)",
            "pre .ln",
        ])
    }
}

/// A small check of HTML structure: every element that needs an end tag is closed in order, no
/// stray end tags, no duplicate ids.
enum HTMLCheck {
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                                            "meta", "source", "track", "wbr"]

    static func problems(_ html: String) -> [String] {
        var problems: [String] = []
        var open: [String] = []
        var ids: Set<String> = []
        let tag = try! NSRegularExpression(pattern: "<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|<!--.*?-->|<!doctype html>",
                                           options: [.dotMatchesLineSeparators])
        let idPattern = try! NSRegularExpression(pattern: "\\sid=\"([^\"]*)\"")
        let text = html as NSString
        for match in tag.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            guard match.range(at: 2).location != NSNotFound else { continue }
            let name = text.substring(with: match.range(at: 2)).lowercased()
            let attributes = text.substring(with: match.range(at: 3))
            if text.substring(with: match.range(at: 1)) == "/" {
                if open.last == name { open.removeLast() } else { problems.append("stray </\(name)> (open: \(open.last ?? "none"))") }
                continue
            }
            for id in idPattern.matches(in: attributes, range: NSRange(location: 0, length: (attributes as NSString).length)) {
                let value = (attributes as NSString).substring(with: id.range(at: 1))
                if !ids.insert(value).inserted { problems.append("duplicate id \(value)") }
            }
            if !voidElements.contains(name) { open.append(name) }
        }
        if !open.isEmpty { problems.append("unclosed: \(open)") }
        return problems
    }
}
