import BlogCore
@testable import BlogIncremental
@testable import BlogMarkdown
@testable import BlogOutput
@testable import BlogRender
@testable import BlogSite
import XCTest

/// sitemap.xml checked against the sitemaps.org schema, and robots.txt.
final class SitemapTests: XCTestCase {
    /// Fails unless `xmllint` says `sitemap` is valid against the Sitemaps 0.9 schema; skips without xmllint.
    func assertValid(_ sitemap: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try FeedTestSite.write([OutputFile(path: "sitemap.xml", contents: .bytes(Data(sitemap.utf8)))])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try FeedTestSite.run(["xmllint", "--noout", "--schema", FeedTestSite.fixture("sitemap.xsd").path,
                                           folder.appendingPathComponent("sitemap.xml").path])
        if result.status == 127 {
            throw XCTSkip("xmllint is needed to check sitemap.xml against its schema: `apt-get install libxml2-utils`")
        }
        XCTAssertEqual(result.status, 0, "xmllint: \(result.stderr)\n\(sitemap)", file: file, line: line)
    }

    /// `<loc>` -> `<lastmod>` (or "" when there is none), in document order.
    func entries(_ sitemap: String) -> [(loc: String, lastmod: String)] {
        sitemap.components(separatedBy: "<url>").dropFirst().map { block in
            func value(_ tag: String) -> String {
                guard let start = block.range(of: "<\(tag)>"), let end = block.range(of: "</\(tag)>") else { return "" }
                return String(block[start.upperBound..<end.lowerBound])
            }
            return (value("loc"), value("lastmod"))
        }
    }

    func render(_ site: Site) throws -> (sitemap: String, robots: String) {
        let files = Sitemap.render(site)
        XCTAssertEqual(files.map(\.path), ["sitemap.xml", "robots.txt"])
        return (try XCTUnwrap(FeedTestSite.text(files, "sitemap.xml")), try XCTUnwrap(FeedTestSite.text(files, "robots.txt")))
    }

    func testEveryPublishedPageWithItsLastChange() throws {
        let (sitemap, robots) = try render(try FeedTestSite.build())
        try assertValid(sitemap)
        XCTAssertEqual(robots, "User-agent: *\nAllow: /\nSitemap: https://example.org/blog/sitemap.xml\n")
        let base = "https://example.org/blog/"
        let found = entries(sitemap)
        let lastmod = Dictionary(found.map { ($0.loc, $0.lastmod) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(lastmod.count, found.count, "every page once")

        let newest = "2017-08-01T08:00:00+02:00"  // Fish's `modified`, later than any published post's date
        XCTAssertEqual(lastmod[base + "posts/fish-and-chips/"], newest, "a post's modified date when it has one")
        XCTAssertEqual(lastmod[base + "posts/summer-post/"], "2017-07-14T18:00:00+02:00")
        XCTAssertEqual(lastmod[base + "posts/old-3/"], "2016-08-01T09:00:00+02:00")
        // Lists: the newest post shown on that page (the draft on page 1 does not count).
        XCTAssertEqual(lastmod[base], "2017-07-14T18:00:00+02:00")
        XCTAssertEqual(lastmod[base + "page/2/"], newest)
        XCTAssertEqual(lastmod[base + "page/3/"], "2016-09-02T09:00:00+02:00")
        XCTAssertEqual(lastmod[base + "tags/notes/page/2/"], "2016-08-01T09:00:00+02:00")
        XCTAssertEqual(lastmod[base + "tags/caf%C3%A9/"], "2016-10-03T09:00:00+02:00", "addresses are percent-encoded")
        // Pages without a date of their own: the site's newest post.
        XCTAssertEqual(lastmod[base + "tags/"], newest)
        XCTAssertEqual(lastmod[base + "archives/"], newest)
        XCTAssertEqual(lastmod[base + "tags/drafts/"], newest, "a list page showing only a draft")

        XCTAssertNil(lastmod[base + "posts/hidden-one/"], "hidden posts have a page but are not listed")
        XCTAssertNil(lastmod[base + "posts/draft-one/"], "drafts are never in the sitemap")
        XCTAssertFalse(sitemap.contains("404"), "the 404 page is not in the sitemap")
        // Author pages as tag pages: a list's newest post; the index, the site's newest.
        XCTAssertEqual(lastmod[base + "authors/bea-costa/"], "2017-07-14T18:00:00+02:00")
        XCTAssertEqual(lastmod[base + "authors/"], newest)
        let authorPages = found.filter { $0.loc.hasPrefix(base + "authors/") }.count
        XCTAssertEqual(found.count - authorPages, 17, "5 posts, 3 home pages, 7 tag pages, tags index, archives")
    }

    func testSiteWithoutPublishedPostsLeavesLastmodOut() throws {
        let site = try FeedTestSite.build([FeedTestSite.post("Only hidden", slug: "h", date: "2020-01-01T00:00:00Z", status: .hidden)])
        let (sitemap, _) = try render(site)
        try assertValid(sitemap)
        XCTAssertEqual(entries(sitemap).map(\.loc), ["https://example.org/blog/", "https://example.org/blog/tags/",
                                                     "https://example.org/blog/archives/"])
        XCTAssertFalse(sitemap.contains("<lastmod>"), "no date to tell, and the clock is never read")
    }

    func testEscapesAddresses() throws {
        var config = FeedTestSite.config
        config.baseURL = "https://example.org/r&d/"
        let (sitemap, robots) = try render(try FeedTestSite.build(config: config))
        try assertValid(sitemap)
        XCTAssertTrue(sitemap.contains("<loc>https://example.org/r&amp;d/posts/old-1/</loc>"), sitemap)
        XCTAssertTrue(robots.hasSuffix("Sitemap: https://example.org/r&d/sitemap.xml\n"), robots)
    }

    func testPathBaseURLGivesPaths() throws {
        var config = FeedTestSite.config
        config.baseURL = "/blog/"
        let (sitemap, robots) = try render(try FeedTestSite.build(config: config))
        XCTAssertEqual(entries(sitemap).first?.loc, "/blog/posts/summer-post/")
        XCTAssertEqual(robots, "User-agent: *\nAllow: /\nSitemap: /blog/sitemap.xml\n")
        XCTAssertFalse(Feeds.warnings(config: config).isEmpty, "the build is told that crawlers need an absolute base_url")
    }

    func testEachEntrysLinesAndEscaping() throws {
        // The sitemap is written as bytes: the lines an XMLWriter wrote, and each address escaped for XML.
        var config = FeedTestSite.config
        config.baseURL = "https://example.org/a&b/"
        let (sitemap, _) = try render(try FeedTestSite.build(config: config))
        try assertValid(sitemap)
        XCTAssertTrue(sitemap.hasPrefix("""
            <?xml version="1.0" encoding="utf-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url>
                <loc>https://example.org/a&amp;b/
            """), sitemap)
        XCTAssertTrue(sitemap.hasSuffix("</lastmod>\n  </url>\n</urlset>\n"), sitemap)
        let blocks = sitemap.components(separatedBy: "  <url>\n").dropFirst()
        XCTAssertGreaterThan(blocks.count, 15)
        for block in blocks {
            let lines = block.components(separatedBy: "\n")
            XCTAssertTrue(lines[0].hasPrefix("    <loc>https://example.org/a&amp;b/") && lines[0].hasSuffix("</loc>"), block)
            XCTAssertTrue(lines[1].hasPrefix("    <lastmod>2") && lines[1].hasSuffix("</lastmod>"), block)
            XCTAssertEqual(lines[2], "  </url>", block)
        }
    }

    func testSameSiteGivesTheSameBytes() throws {
        let first = try render(try FeedTestSite.build())
        let again = try render(try FeedTestSite.build(FeedTestSite.posts.reversed()))
        XCTAssertEqual(again.sitemap, first.sitemap)
        XCTAssertEqual(again.robots, first.robots)
    }
}

extension IncrementalBuildTests {
    func testServeBuildsKeepTheSitemapsEntriesAndWriteACleanBuildsSitemap() throws {
        // As `blog serve` builds, each `<url>` is the last build's text while its page's address and date are as they
        // were: after each edit the sitemap is a clean build's, and a title edit keeps every entry.
        let memo = BuildMemo.shared.digests
        func entries() throws -> [String] {
            try XCTUnwrap(site.read("public/sitemap.xml")).components(separatedBy: "<url>").dropFirst().map { String($0) }
        }
        func assertSame(changed: Bool = true, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try serveBuild()
            try assertSameAsCleanBuild(file: file, line: line)
            XCTAssertEqual(site.read("public/sitemap.xml"), site.read("clean/sitemap.xml"), what, file: file, line: line)
            let count = try entries().count
            XCTAssertEqual(memo.sitemap.last().count, count, what, file: file, line: line)
            // Some entries, not all, made again after a change of addresses or dates.
            XCTAssertTrue((changed ? 1..<count : count..<count + 1).contains(memo.sitemap.kept),
                          "\(what): \(memo.sitemap.kept) of \(count) kept", file: file, line: line)
        }
        // Slugs of their own: a title edit keeps the addresses. The first build keeps no state, so makes no entries;
        // the second makes them all.
        try pinSlug(3)
        try pinSlug(4)
        try serveBuild()
        try serveBuild()
        XCTAssertEqual(memo.sitemap.kept, 0)
        XCTAssertGreaterThan(try entries().count, 15)
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "title: Post number 4", with: "title: Four") }
        try assertSame(changed: false, "a title edit")
        // Post 7, the newest, goes last: its page's date, the home pages' and its tag's, and the site's newest change.
        try edit("content/posts/post-7.md") { $0.replacingOccurrences(of: "date: 2020-07-17", with: "date: 2019-07-17") }
        try assertSame("a date that moves a post")
        XCTAssertTrue(try XCTUnwrap(site.read("public/sitemap.xml")).contains("<lastmod>2019-07-17T10:00:00Z</lastmod>"))
        try site.write("content/posts/post-8.md", "title: Post number 8\ndate: 2020-08-18 10:00\ntags: shell\n\nA new post.\n")
        try assertSame("a new post")
        XCTAssertTrue(try XCTUnwrap(site.read("public/sitemap.xml")).contains("/post-number-8/</loc>"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/post-2.md"))
        try assertSame("a deleted post")
        XCTAssertFalse(try XCTUnwrap(site.read("public/sitemap.xml")).contains("/post-number-2/</loc>"))
        try edit("content/posts/post-1.md") { $0.replacingOccurrences(of: "tags: shell", with: "tags: bash") }
        try assertSame("a tag renamed")
        XCTAssertTrue(try XCTUnwrap(site.read("public/sitemap.xml")).contains("/tags/bash/</loc>"))
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Post number 3", with: "title: Three") }
        try assertSame(changed: false, "a title edit after them")
    }
}

extension IncrementalBuildTests {
    func testServeBuildsKeepTheFeedsWhoseChannelsAreAsTheyWereAndWriteACleanBuildsFeeds() throws {
        // As `blog serve` builds, a feed of posts is the last build's bytes while its title, page, entries and their
        // posts are as they were: after each edit every feed is a clean build's, and a title edit makes only the feeds
        // that show the post again (the site's, the post's tags') and keeps the others.
        let memo = BuildMemo.shared.digests
        func assertSame(kept: ClosedRange<Int>? = nil, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try serveBuild()
            try assertSameAsCleanBuild(file: file, line: line)
            for path in ["feed.xml", "rss.xml", "feed.json", "tags/shell/feed.xml", "tags/swift/feed.xml"] {
                XCTAssertEqual(site.read("public/" + path), site.read("clean/" + path), "\(what): \(path)", file: file, line: line)
            }
            let count = memo.feeds.last().count
            XCTAssertGreaterThan(count, 5, what, file: file, line: line)
            XCTAssertTrue((kept ?? 1...count - 1).contains(memo.feeds.kept), "\(what): \(memo.feeds.kept) of \(count) kept",
                          file: file, line: line)
        }
        try pinSlug(3)
        try pinSlug(4)
        try serveBuild()
        try serveBuild()
        // Post 4 is in the site's three feeds and in those of Swift and iOS, not in shell's.
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "title: Post number 4", with: "title: Four") }
        try assertSame("a title edit")
        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/swift/feed.xml")).contains("<title>Four</title>"))
        XCTAssertTrue(try XCTUnwrap(site.read("public/feed.json")).contains("\"title\" : \"Four\""))
        // A body edit is written in place, the feeds patched and the memo left as it was: the next title edit, of a post
        // shell's feed does not show, makes shell's feed again too (its bytes kept are of the old body).
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "More text.", with: "Other text.") }
        try serveBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/shell/feed.xml")).contains("Other text."))
        try edit("content/posts/post-6.md") { $0.replacingOccurrences(of: "title: Post number 6", with: "title: Six") }
        try assertSame(kept: 0...0, "a title edit after a body edit")
        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/shell/feed.xml")).contains("Other text."))
        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/swift/feed.xml")).contains("<title>Six</title>"))
        // Post 7, the newest, goes last: the posts' places change, and with them every feed's (its body holes name
        // posts by place); so with a new post and a deleted one.
        try edit("content/posts/post-7.md") { $0.replacingOccurrences(of: "date: 2020-07-17", with: "date: 2019-07-17") }
        try assertSame(kept: 0...0, "a date that moves a post")
        try site.write("content/posts/post-8.md", "title: Post number 8\ndate: 2020-08-18 10:00\ntags: shell\n\nA new post.\n")
        try assertSame(kept: 0...0, "a new post")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/post-2.md"))
        try assertSame(kept: 0...0, "a deleted post")
        // A term's name is its feed's title and in its posts' entries: the feeds that show them are made again.
        for number in [4, 6] {
            try edit("content/posts/post-\(number).md") { $0.replacingOccurrences(of: "tags: Swift; iOS", with: "tags: swift; iOS") }
        }
        try assertSame("a term spelt anew")
        XCTAssertTrue(try XCTUnwrap(site.read("public/tags/swift/feed.xml")).contains("<title>Cache Notes: swift</title>"))
        try edit("content/posts/post-1.md") { $0.replacingOccurrences(of: "tags: shell", with: "tags: bash") }
        try assertSame("a tag renamed")
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Post number 3", with: "title: Three") }
        try assertSame("a title edit after them")
    }
}
