import XCTest
@testable import BlogKit

final class SiteBuilderTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    /// 2016-11-25 + `day` days, at `hour` UTC.
    func date(_ day: Int, hour: Int = 12) -> Date {
        Date(timeIntervalSince1970: 1_480_032_000 + Double(day) * 86_400 + Double(hour) * 3_600)
    }

    func post(_ title: String, day: Int, hour: Int = 12, tags: [String] = [], status: PostStatus = .published,
              slug: String? = nil, source: String? = nil, category: String? = nil) -> RenderedPost {
        let p = Post(source: source ?? "content/\(Slug.make(title)).md", title: title, date: date(day, hour: hour),
                     tags: tags.map(Tag.init(name:)), category: category.map(Tag.init(name:)),
                     slug: slug ?? Slug.make(title), status: status, body: "Body of \(title)")
        return RenderedPost(post: p, rendered: RenderedMarkdown(html: "<p>\(title)</p>", summaryHTML: "<p>\(title)</p>", headings: []))
    }

    func build(_ posts: [RenderedPost], config: SiteConfig = SiteConfig(), drafts: Bool = false, future: Bool = false,
               now: Date? = nil) throws -> Site {
        try SiteBuilder.build(posts: posts, config: config,
                              options: SiteOptions(includeDrafts: drafts, includeFuture: future, now: now ?? date(1000)))
    }

    func testOrderIsNewestFirstWithStableTies() throws {
        let site = try build([
            post("Beta", day: 1), post("Alpha", day: 1), post("Old", day: -5), post("New", day: 9),
            post("Alpha", day: 1, slug: "alpha-2", source: "content/z/alpha.md"),
        ])
        XCTAssertEqual(site.posts.map(\.post.source),
                       ["content/new.md", "content/alpha.md", "content/z/alpha.md", "content/beta.md", "content/old.md"])
        // The same posts in another input order give the same site.
        let reversed = try build([
            post("Alpha", day: 1, slug: "alpha-2", source: "content/z/alpha.md"), post("New", day: 9),
            post("Old", day: -5), post("Alpha", day: 1), post("Beta", day: 1),
        ])
        XCTAssertEqual(reversed.posts.map(\.post.source), site.posts.map(\.post.source))
    }

    func testDraftsFutureAndHidden() throws {
        let posts = [post("Draft", day: 1, status: .draft), post("Hidden", day: 2, status: .hidden),
                     post("Future", day: 50), post("Now", day: 3)]
        let site = try build(posts, now: date(10))
        XCTAssertEqual(site.posts.map(\.post.title), ["Now", "Hidden"])
        XCTAssertEqual(site.listed.map { site.posts[$0].post.title }, ["Now"], "hidden posts get a page but are in no list")
        let all = try build(posts, drafts: true, future: true, now: date(10))
        XCTAssertEqual(all.posts.map(\.post.title), ["Future", "Now", "Hidden", "Draft"])
    }

    func testURLsFromPermalinkPattern() throws {
        var config = SiteConfig()
        config.permalinks.post = "{year}/{month}/{day}/{category}/{slug}/"
        config.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        // 2016-11-26 12:00 UTC is 21:00 the same day in Tokyo; hour 20 UTC is the next day there.
        let site = try build([post("Late", day: 1, category: "Dev Notes"), post("Plain", day: 2)], config: config)
        let late = site.posts.first { $0.post.title == "Late" }!
        XCTAssertEqual(late.url, "2016/11/26/dev-notes/late/")
        XCTAssertEqual(late.outputPath, "2016/11/26/dev-notes/late/index.html")
        XCTAssertEqual(site.posts.first { $0.post.title == "Plain" }!.url, "2016/11/27/uncategorized/plain/")
    }

    func testTagsMergeSpellingsAndListNewestFirst() throws {
        let site = try build([post("One", day: 1, tags: ["iOS", "Swift"]), post("Two", day: 2, tags: ["ios"]),
                              post("Three", day: 3, tags: ["Swift"], status: .hidden)])
        XCTAssertEqual(site.tags.map(\.tag.slug), ["ios", "swift"])
        let ios = site.tags[0]
        XCTAssertEqual(ios.tag.name, "iOS", "the oldest spelling names the tag")
        XCTAssertEqual(ios.posts.map { site.posts[$0].post.title }, ["Two", "One"])
        XCTAssertEqual(ios.url, "tags/ios/")
        XCTAssertEqual(site.tags[1].posts.map { site.posts[$0].post.title }, ["One"], "hidden posts are in no tag list")
    }

    func testPaginationOfHomeAndTags() throws {
        var config = SiteConfig()
        config.paginate = 2
        let site = try build((1...5).map { post("P\($0)", day: $0, tags: ["t"]) }, config: config)
        let home = site.pages.compactMap { page -> (String, Pagination)? in
            if case .home(let p) = page.kind { return (page.url, p) } else { return nil }
        }
        XCTAssertEqual(home.map(\.0), ["", "page/2/", "page/3/"])
        XCTAssertEqual(home[0].1.posts.map { site.posts[$0].post.title }, ["P5", "P4"])
        XCTAssertEqual(home[2].1.posts.map { site.posts[$0].post.title }, ["P1"])
        XCTAssertEqual(home[1].1.newerURL, "")
        XCTAssertEqual(home[1].1.olderURL, "page/3/")
        XCTAssertNil(home[2].1.olderURL)
        let tagPages = site.pages.compactMap { page -> String? in
            if case .tag = page.kind { return page.outputPath } else { return nil }
        }
        XCTAssertEqual(tagPages, ["tags/t/index.html", "tags/t/page/2/index.html", "tags/t/page/3/index.html"])
        XCTAssertTrue(site.pages.contains { $0.outputPath == "404.html" })
        XCTAssertTrue(site.pages.contains { $0.outputPath == "archives/index.html" })
        XCTAssertTrue(site.pages.contains { $0.outputPath == "tags/index.html" })
    }

    func testArchivesGroupByYearAndMonthInSiteZone() throws {
        var config = SiteConfig()
        config.timeZone = TimeZone(identifier: "America/New_York")!
        // day 36 = 2016-12-31 at 12:00 UTC; day 37 hour 2 = 2017-01-01 02:00 UTC = still 2016-12-31 in New York.
        let site = try build([post("A", day: 36), post("B", day: 37, hour: 0), post("C", day: 0), post("D", day: 38)], config: config)
        XCTAssertEqual(site.archives.map(\.year), [2017, 2016])
        XCTAssertEqual(site.archives[1].months.map(\.month), [12, 11])
        XCTAssertEqual(site.archives[1].months[0].posts.map { site.posts[$0].post.title }, ["B", "A"])
    }

    func testNeighbours() throws {
        let site = try build([post("A", day: 1), post("B", day: 2), post("C", day: 3)])
        let b = site.posts.firstIndex { $0.post.title == "B" }!
        let (older, newer) = site.neighbours(of: b)
        XCTAssertEqual(older.map { site.posts[$0].post.title }, "A")
        XCTAssertEqual(newer.map { site.posts[$0].post.title }, "C")
    }

    func testNeighboursSkipHiddenPostsAndStopAtTheEnds() throws {
        let site = try build([post("A", day: 1), post("H1", day: 2, status: .hidden), post("B", day: 3),
                              post("H2", day: 4, status: .hidden), post("C", day: 5)])
        func titles(_ title: String) -> [String?] {
            let (older, newer) = site.neighbours(of: site.posts.firstIndex { $0.post.title == title }!)
            return [older.map { site.posts[$0].post.title }, newer.map { site.posts[$0].post.title }]
        }
        XCTAssertEqual(titles("B"), ["A", "C"], "hidden posts are skipped")
        XCTAssertEqual(titles("C"), ["B", nil], "the newest has no newer post")
        XCTAssertEqual(titles("A"), [nil, "B"], "the oldest has no older post")
        XCTAssertEqual(titles("H1"), [nil, nil], "a hidden post has no neighbours")
        XCTAssertEqual(titles("H2"), [nil, nil])
    }

    func testTwoPostsWithTheSameURLNameBothFiles() {
        XCTAssertThrowsError(try build([post("Same", day: 1, source: "content/a.md"), post("Same", day: 2, source: "content/b.md")])) { error in
            let failure = error as! BuildFailure
            XCTAssertEqual(failure.diagnostics.count, 1)
            XCTAssertEqual(failure.diagnostics[0].description,
                           "content/a.md:1:1: error: URL /posts/same/ is also wanted by content/b.md: two pages can't share a URL; give one of them another `slug`")
        }
    }

    func testPostCollidingWithGeneratedPageOrAsset() {
        var config = SiteConfig()
        config.permalinks.post = "{slug}/"
        XCTAssertThrowsError(try build([post("Tags", day: 1)], config: config)) { error in
            XCTAssertTrue((error as! BuildFailure).diagnostics[0].description.hasPrefix(
                "content/tags.md:1:1: error: URL /tags/ is also wanted by the tags index"), "\(error)")
        }
        XCTAssertThrowsError(try SiteBuilder.build(posts: [post("X", day: 1)], assets: ["posts/x/index.html"],
                                                   config: SiteConfig(), options: SiteOptions(now: date(100)))) { error in
            XCTAssertTrue("\(error)".hasPrefix("content/posts/x/index.html:1:1: error: URL /posts/x/ is also wanted by content/x.md"), "\(error)")
        }
    }
}
