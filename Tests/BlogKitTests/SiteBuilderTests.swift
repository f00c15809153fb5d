@testable import BlogConfig
@testable import BlogContent
@testable import BlogCore
@testable import BlogMarkdown
@testable import BlogSite
import Foundation
import Synchronization
import XCTest

final class SiteBuilderTests: XCTestCase {
    /// A term's path is its pattern with its slug for every `{slug}`, as Foundation's `replacingOccurrences` makes it:
    /// patterns with none, one, two and adjoining placeholders, non-ASCII text around them, `{slug}` inside a slug,
    /// and Hugo's slugs of terms.
    func testTermPathIsThePatternWithTheSlugForEveryPlaceholder() {
        let patterns = ["tag/{slug}/", "{slug}", "t/{slug}/{slug}.xml", "{slug}{slug}", "tags/", "é/{slug}/ü", "{slu}{slug", "",
                        "{{slug}}", "日本/{slug}"]
        let names = ["Swift", "über Café", "{slug}", "日本語", "", "a/b"]
        for hugo in [false, true] {
            var permalinks = SiteConfig().permalinks
            permalinks.hugoTagSlugs = hugo
            for pattern in patterns {
                for name in names {
                    let term = Tag(name: name)
                    let slug = SiteBuilder.tagSlug(term, permalinks)
                    XCTAssertEqual(SiteBuilder.termPath(pattern, term, permalinks), pattern.replacingOccurrences(of: "{slug}", with: slug),
                                   "\(pattern) \(name)")
                }
            }
        }
    }

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

    /// Jekyll's and Hugo's references by path or by name pick, of the pages whose paths end alike, the first in the
    /// order of their content paths (sorted when first asked, from any thread), whatever the site's order.
    func testContentLinksMatchPathsInTheirSortedOrder() throws {
        let paths = ["fr/news/x/index.md", "en/news/x/index.md", "b/2020-01-01-hello.md", "a/2020-01-01-hello.md"]
        let site = try build(paths.enumerated().map { post($1, day: $0, source: "content/" + $1) })
        let links = ContentLinks(site: site)
        func href(_ path: String) -> String? { site.posts.first { $0.post.contentPath == path }.map { "/" + $0.url } }
        // Asked from two threads at once: the paths are sorted once, and both read them sorted.
        let (byPath, byName) = Parallel.both({ links.href(forPath: "news/x/index.md") }, { links.href(forPostNamed: "2020-01-01-hello") })
        XCTAssertEqual(byPath, href("en/news/x/index.md"))
        XCTAssertEqual(byName, href("a/2020-01-01-hello.md"))
        XCTAssertEqual(links.href(forPath: "x/index.md"), href("en/news/x/index.md"))
        XCTAssertNotNil(href("fr/news/x/index.md"))
    }

    /// Related posts as the index by tag finds them, against every pair of posts weighed one by one: with
    /// fewer posts to a tag than the index's window, it must find the same, in the same order. Tags
    /// listed twice, categories, posts of the same day and posts with neither tag nor category included.
    func testRelatedPostsAreTheBestOfAllPairs() throws {
        var seed: UInt64 = 31
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        let names = ["a", "b", "c", "d", "e"]
        let posts = (0..<45).map { number in
            post("Post \(number)", day: next(30), hour: next(3), tags: (0..<next(4)).map { _ in names[next(names.count)] },
                 category: next(3) == 0 ? nil : ["x", "y"][next(2)])
        }
        var config = SiteConfig()
        config.relatedPosts = 4
        let site = try build(posts, config: config)
        typealias Candidate = (index: Int, tags: Int, category: Bool, distance: Double)
        for (index, item) in site.posts.enumerated() {
            let post = item.post
            var candidates: [Candidate] = []
            for other in site.listed where other != index && site.posts[other].post.kind == .post {
                let otherPost = site.posts[other].post
                let shared = post.tags.reduce(0) { count, tag in count + otherPost.tags.filter { $0.slug == tag.slug }.count }
                let sameCategory = post.category != nil && otherPost.category?.slug == post.category?.slug
                guard shared > 0 || sameCategory else { continue }
                candidates.append((other, shared, sameCategory, abs(otherPost.date.timeIntervalSince(post.date))))
            }
            candidates.sort { a, b in
                if a.tags != b.tags { return a.tags > b.tags }
                if a.category != b.category { return a.category }
                if a.distance != b.distance { return a.distance < b.distance }
                return a.index < b.index
            }
            XCTAssertEqual(site.related[index], candidates.prefix(4).map(\.index), post.title)
        }
        XCTAssertTrue(site.related.contains { $0.count == 4 } && site.related.contains(where: \.isEmpty))
    }

    /// With more posts to a tag than ``SiteBuilder/relatedWindow`` on each side, only the window nearest the
    /// post in each list is weighed, and a candidate counts the tag windows it is in: the same as the rule
    /// applied list by list here, for tags shared by a few posts, by most and by every post, some on one day.
    func testRelatedPostsWeighTheWindowOfEachTag() throws {
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        let size = SiteBuilder.relatedWindow
        let posts = (0..<(5 * size)).map { number -> RenderedPost in
            var tags = ["all"]
            if next(4) != 0 { tags.append("most") }
            if next(9) == 0 { tags.append("few") }
            let turn = next(tags.count)
            return post("Post \(number)", day: next(200), hour: next(2), tags: Array(tags[turn...] + tags[..<turn]),
                        category: next(3) == 0 ? nil : ["x", "y"][next(2)])
        }
        var config = SiteConfig()
        config.relatedPosts = 6
        let site = try build(posts, config: config)
        func list(_ included: (Post) -> Bool) -> [Int] { site.listed.filter { included(site.posts[$0].post) } }
        for (index, item) in site.posts.enumerated() {
            let post = item.post
            var inWindows: [Int: Int] = [:]  // candidate -> tag windows it is in
            func window(_ list: [Int], counts: Bool) {
                let place = list.firstIndex { $0 >= index } ?? list.count
                for other in list[max(0, place - size)..<min(list.count, place + size + 1)] where other != index {
                    inWindows[other, default: 0] += counts ? 1 : 0
                }
            }
            for tag in post.tags { window(list { $0.tags.contains(tag) }, counts: true) }
            if let category = post.category { window(list { $0.category == category }, counts: false) }
            let expected = inWindows.sorted { a, b in
                let (pa, pb) = (site.posts[a.key].post, site.posts[b.key].post)
                let (ca, cb) = (post.category != nil && pa.category == post.category, post.category != nil && pb.category == post.category)
                let (da, db) = (abs(pa.date.timeIntervalSince(post.date)), abs(pb.date.timeIntervalSince(post.date)))
                if a.value != b.value { return a.value > b.value }
                if ca != cb { return ca }
                if da != db { return da < db }
                return a.key < b.key
            }.prefix(6).map(\.key)
            XCTAssertEqual(site.related[index], expected, post.title)
        }
        // The windows matter: a post of the middle has neighbours in "all" beyond the window on each side.
        XCTAssertGreaterThan(site.listed.count, 2 * size + 1)
    }

    /// The parts of the site model made beside each other on two cores (the taxonomies, archives, the
    /// assets' places with `{attach}` links, related posts, the URL check) are what each pass gives on
    /// its own over the same placed posts, in the same fields, build after build.
    func testPartsMadeOnTwoCoresAreWhatEachPassGivesAlone() throws {
        var seed: UInt64 = 39
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        let names = ["Swift", "swift", "Go", "Rust", "C", "Zig"]
        var posts = (0..<400).map { number in
            post("Post \(number)", day: next(900), hour: next(24), tags: (0..<next(4)).map { _ in names[next(names.count)] },
                 category: next(4) == 0 ? nil : ["Notes", "Code", "notes"][next(3)])
        }
        for number in stride(from: 3, to: posts.count, by: 37) {
            posts[number].post.body = "See {attach}files/f\(number % 5).txt and |attach|files/g\(number).txt here."
        }
        let assets = (0..<5).map { "files/f\($0).txt" } + ["files/g3.txt", "images/a.png"]
        var config = SiteConfig()
        config.relatedPosts = 3
        let first = try SiteBuilder.build(posts: posts, assets: assets, config: config, options: SiteOptions(now: date(1000)))
        func described(_ groups: [TagGroup]) -> [String] { groups.map { "\($0.tag.name) \($0.url) \($0.posts)" } }
        XCTAssertEqual(described(first.tags), described(SiteBuilder.termGroups(.tag, first.posts, listed: first.listed, config: config)))
        XCTAssertEqual(described(first.categories), described(SiteBuilder.termGroups(.category, first.posts, listed: first.listed, config: config)))
        XCTAssertEqual(described(first.authors), described(SiteBuilder.termGroups(.author, first.posts, listed: first.listed, config: config)))
        XCTAssertEqual(first.tags.count, 5, "Swift and swift are one tag")
        XCTAssertEqual(first.categories.count, 2)
        XCTAssertEqual(first.archives.map { "\($0.year) \($0.months.map { "\($0.month) \($0.posts)" })" },
                       SiteBuilder.archiveYears(first.posts, listed: first.listed, timeZone: config.timeZone).map {
                           "\($0.year) \($0.months.map { "\($0.month) \($0.posts)" })"
                       })
        let placed = SiteBuilder.placeAssets(assets, posts: first.posts, allPosts: posts)
        XCTAssertEqual(first.assets.map { "\($0.source) \($0.path)" }, placed.map { "\($0.source) \($0.path)" })
        XCTAssertTrue(first.assets.contains { $0.source == "files/g3.txt" && $0.path != $0.source }, "\(first.assets)")
        XCTAssertEqual(first.related, SiteBuilder.related(posts: first.posts, listed: first.listed, limit: 3))
        XCTAssertTrue(first.related.contains { $0.count == 3 })
        for _ in 0..<5 {
            let again = try SiteBuilder.build(posts: posts.shuffled(), assets: assets, config: config, options: SiteOptions(now: date(1000)))
            XCTAssertEqual(again.posts.map(\.url), first.posts.map(\.url))
            XCTAssertEqual(described(again.tags), described(first.tags))
            XCTAssertEqual(described(again.categories), described(first.categories))
            XCTAssertEqual(described(again.authors), described(first.authors))
            XCTAssertEqual(again.assets.map(\.path), first.assets.map(\.path))
            XCTAssertEqual(again.related, first.related)
        }
        // Two posts at one URL: the check made beside the related posts still fails the build.
        var twice = posts
        twice.append(post("Post 7", day: 950, slug: "post-7", source: "content/other.md"))
        XCTAssertThrowsError(try SiteBuilder.build(posts: twice, assets: assets, config: config, options: SiteOptions(now: date(1000)))) { error in
            XCTAssertTrue("\(error)".contains("is also wanted by"), "\(error)")
        }
    }

    func testParallelBothKeepsItsTwoResultsApart() {
        for count in [0, 1, 1000] {
            let (numbers, text) = Parallel.both({ (0..<count).map { $0 * 2 } }, { String(repeating: "a", count: count) })
            XCTAssertEqual(numbers, (0..<count).map { $0 * 2 })
            XCTAssertEqual(text.count, count)
        }
    }

    func testParallelMapGivesEachIndexItsOwnResultInOrder() {
        // Few items one at a time, many in runs (the last one short), and items of very uneven cost.
        XCTAssertEqual(Parallel.runLength(count: 5, cores: 2), 1)
        XCTAssertEqual(Parallel.runLength(count: 1000, cores: 2), 31)
        XCTAssertEqual(Parallel.runLength(count: 10000, cores: 2), 32)
        XCTAssertEqual(Parallel.runLength(count: 10000, cores: 0), 32)
        func value(_ index: Int) -> String {
            let work = index % 97 == 0 ? 2000 : 1
            return String((0..<work).reduce(index) { ($0 &* 31 &+ $1) % 1_000_003 }) + "/\(index)"
        }
        for count in [0, 1, 2, 5, 33, 1000, 10007] {
            let calls = Mutex<[Int]>([])
            let made = Parallel.map(count) { index -> String in
                calls.withLock { $0.append(index) }
                return value(index)
            }
            let serial = (0..<count).map(value)
            XCTAssertEqual(made, serial, "\(count) items")
            XCTAssertEqual(calls.withLock { $0.sorted() }, Array(0..<count), "each index once, \(count) items")
        }
    }

    /// `Parallel.waiting` runs each index's work once, on up to 16 threads at once, and gives the
    /// results in the order of the indices, as `map` does.
    func testParallelWaitingGivesEachResultInItsPlace() {
        for count in [0, 1, 2, 5, 16, 17, 100] {
            let seen = NSLock()
            var runs: [Int] = []
            let results = Parallel.waiting(count) { index -> String in
                usleep(UInt32(100 * (index % 3)))
                seen.withLock { runs.append(index) }
                return "item \(index)"
            }
            XCTAssertEqual(results, (0..<count).map { "item \($0)" })
            XCTAssertEqual(runs.sorted(), Array(0..<count), "each index once")
        }
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

    /// Every placeholder, repeated, next to each other, and none; in a folder and at the top (an empty `{folder}` takes
    /// its `/`); posts with categories and without (`{categories}` empty).
    func testURLsFromEveryPlaceholderRepeatedAndNone() throws {
        let posts = [post("Late", day: 1, source: "content/news/late.md", category: "Dev Notes"), post("Plain", day: 2)]
        for (pattern, late, plain) in [
            ("{year}/{month}/{day}/{slug}/", "2016/11/26/late/", "2016/11/27/plain/"),
            ("{folder}/{categories}/{slug}.html", "news/dev notes/late.html", "plain.html"),
            ("{category}/{slug}-{slug}/{year}{month}{day}/", "dev-notes/late-late/20161126/", "uncategorized/plain-plain/20161127/"),
            ("{folder}{slug}/{folder}/", "newslate/news/", "plain/"),
            ("archive/all.html", "archive/all.html", "archive/all.html"),
            ("{nope}/{slug}/{", "{nope}/late/{", "{nope}/plain/{"),
        ] {
            var config = SiteConfig()
            config.permalinks.post = pattern
            // Each post in a site of its own: with no placeholder, both would want the one URL.
            XCTAssertEqual(try build([posts[0]], config: config).posts.map(\.url), [late], pattern)
            XCTAssertEqual(try build([posts[1]], config: config).posts.map(\.url), [plain], pattern)
        }
    }

    /// A permalink filled in one walk over the pattern gives what replacing each placeholder in turn gives; it leaves
    /// the patterns and values where the two could differ (a `{` that starts no placeholder, a value with a `{`) to
    /// the replacing in turn, and takes every other.
    func testPermalinksFilledInOnePassAsInTurn() {
        let patterns = ["", "posts/{slug}/", "{year}/{month}/{day}/{slug}.html", "{slug}{slug}/{slug}", "{folder}/{slug}/",
                        "{categories}/{category}/{folder}", "{folder}", "{folder}/", "a/{categories}/{categories}/b",
                        "{day}{month}{year}", "日本/{slug}/é", "plain/path/", "{slug", "{{slug}}", "{fold{slug}",
                        "{nope}/{slug}/", "x/{categor}/{slug}"]
        let valueSets: [[String]] = [
            ["2016", "11", "26", "hello-world", "dev-notes", "dev/notes", "news/2016"],
            ["0099", "01", "02", "é", "", "", ""],
            ["2016", "11", "26", "er}", "{slug}", "{folder}", "{year}"],
            ["2016", "11", "26", "{year}", "c", "d", "e"],
        ]
        var onePass = 0
        for pattern in patterns {
            for values in valueSets {
                let inTurn = SiteBuilder.filledInTurn(pattern, values)
                if let filled = SiteBuilder.filledInOnePass(pattern, values) {
                    XCTAssertEqual(filled, inTurn, "\(pattern) with \(values)")
                    onePass += 1
                }
            }
        }
        XCTAssertEqual(SiteBuilder.filledInOnePass("{folder}/{categories}/{slug}", ["", "", "", "s", "", "", ""]), "s")
        XCTAssertNil(SiteBuilder.filledInOnePass("{fold{slug}", Array(repeating: "er}", count: 7)), "a `{` that starts no placeholder")
        XCTAssertNil(SiteBuilder.filledInOnePass("{slug}/{folder}", ["y", "m", "d", "{folder}", "c", "cs", "f"]), "a value with a `{`")
        XCTAssertEqual(onePass, 38, "every pattern whose `{`s are placeholders, with values without a `{`")
        XCTAssertEqual(SiteBuilder.placeholdersOf("{slug}/{year}/{slug}"), 0b1001)
        XCTAssertEqual(SiteBuilder.placeholdersOf("{categories}{folder}"), 0b110_0000)
        XCTAssertEqual(SiteBuilder.placeholdersOf("plain"), 0)
        XCTAssertNil(SiteBuilder.placeholdersOf("{slug}/{nope}"))
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
            if case .term(.tag, _, _) = page.kind { return page.outputPath } else { return nil }
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

/// Content files that name a generated page's URL replace it (see PageReplacementTests for whole builds).
extension SiteBuilderTests {
    /// A post read from `text`, a file at `content/<path>`.
    func read(_ path: String, _ text: String) throws -> RenderedPost {
        let (post, _) = try PostReader.read(data: Data(text.utf8), source: "content/" + path, contentPath: path, timeZone: utc)
        return RenderedPost(post: post, rendered: RenderedMarkdown(html: "", summaryHTML: "", headings: []))
    }

    func testEveryWayOfNamingAGeneratedPageReplacesIt() throws {
        let cases: [(String, String, GeneratedPage, String)] = [
            ("pages/home.md", "Title: Home\nSave_as: index.html\nURL:\n\nx\n", .home, ""),
            ("pages/home.md", "Title: Home\nSave_as: index.html\n\nx\n", .home, ""),
            ("pages/home.md", "---\ntitle: Home\npermalink: /\n---\nx\n", .home, ""),
            ("pages/home.md", "+++\ntitle = \"Home\"\nurl = \"/index.html\"\n+++\nx\n", .home, ""),
            ("pages/lost.md", "Title: Lost\nSave_as: 404.html\n\nx\n", .notFound, "404.html"),
            ("pages/lost.md", "---\ntitle: Lost\npermalink: /404.html\n---\nx\n", .notFound, "404.html"),
            ("pages/topics.md", "---\ntitle: Topics\nurl: /tags/\n---\nx\n", .tagIndex, "tags/"),
            ("pages/topics.md", "Title: Topics\nSave_as: tags/index.html\n\nx\n", .tagIndex, "tags/"),
            ("pages/all.md", "---\ntitle: All\npermalink: /archives/\n---\nx\n", .archives, "archives/"),
        ]
        for (path, text, generated, url) in cases {
            let site = try build([try read(path, text), post("A post", day: 1)])
            let index = try XCTUnwrap(site.posts.firstIndex { $0.post.kind == .page }, text)
            XCTAssertEqual(site.replacements, [generated: index], text)
            XCTAssertEqual(site.replaced(by: index), generated, text)
            XCTAssertEqual(site.posts[index].url, url, "its links go where the generated page's did: \(text)")
            XCTAssertEqual(site.posts[index].outputPath, generated.outputPath, text)
            XCTAssertEqual(site.pages.filter { $0.outputPath == generated.outputPath }.count, 1, "only the page is written there: \(text)")
            XCTAssertEqual(site.listURL, generated == .home ? "blog/" : "", text)
            XCTAssertEqual(SiteBuilder.replacementNotes(site).map(\.severity), [.note], text)
        }
    }

    func testTheHomeListMovesWithItsPagination() throws {
        var config = SiteConfig()
        config.paginate = 1
        config.permalinks.homeList = "news/"
        let site = try build([try read("pages/home.md", "Title: Home\nSave_as: index.html\n\nx\n"), post("A", day: 1), post("B", day: 2)],
                             config: config)
        let lists = site.pages.compactMap { page -> (String, Pagination)? in
            if case .home(let pagination) = page.kind { return (page.url, pagination) }
            return nil
        }
        XCTAssertEqual(lists.map(\.0), ["news/", "news/page/2/"])
        XCTAssertEqual(lists.map(\.1.newerURL), [nil, "news/"])
        XCTAssertEqual(lists.map(\.1.olderURL), ["news/page/2/", nil])
        XCTAssertEqual(lists.flatMap(\.1.posts).map { site.posts[$0].post.title }, ["B", "A"], "every listed post is in the list")
        XCTAssertEqual(SiteBuilder.replacementNotes(site).map(\.description),
                       ["content/pages/home.md:1:1: note: this page replaces the generated home page; the post list is at /news/ (`permalinks.home_list`)"])
    }

    /// Pelican writes an article with its own `save_as` over a generated file as it does a page
    /// (`override_output` for both): a post may take a generated page's place, and stays listed.
    func testAPostMayReplaceAGeneratedPageAndStaysListed() throws {
        let site = try build([try read("posts/hello.md", "Title: Hello\nDate: 2016-01-01\nSave_as: index.html\nURL:\n\nx\n"), post("Other", day: 1)])
        let hello = try XCTUnwrap(site.posts.firstIndex { $0.post.title == "Hello" })
        XCTAssertEqual(site.replacements, [.home: hello])
        XCTAssertTrue(site.listed.contains(hello))
        XCTAssertEqual(SiteBuilder.replacementNotes(site).first?.message.hasPrefix("this post replaces the generated home page"), true)
    }

    func testASlugURLOrAnotherFileNameIsNoClaim() throws {
        var config = SiteConfig()
        config.permalinks.page = "{slug}.html"
        // `404.html` from the page pattern and the slug: a collision, not a replacement.
        let failure = buildFailure { try build([try read("pages/404.md", "Title: 404\n\nx\n")], config: config) }
        XCTAssertEqual(failure.map(\.description),
                       ["content/pages/404.md:1:1: error: URL /404.html is also wanted by the 404 page: two pages can't share a URL; give one of them another `slug`"])
        // `/404/` is another file than `404.html`: nothing is replaced.
        let site = try build([try read("pages/lost.md", "---\ntitle: Lost\npermalink: /404/\n---\nx\n")])
        XCTAssertEqual(site.replacements, [:])
        XCTAssertEqual(site.listURL, "")
    }

    func testTwoClaimsOfOnePageNameBothFiles() throws {
        let failure = buildFailure {
            try build([try read("pages/a.md", "Title: A\nSave_as: 404.html\n\nx\n"), try read("pages/b.md", "---\ntitle: B\npermalink: /404.html\n---\nx\n")])
        }
        XCTAssertEqual(failure.count, 1)
        XCTAssertEqual(failure.first?.severity, .error)
        let message = failure.first?.description ?? ""
        XCTAssertTrue(message.contains("content/pages/a.md") && message.contains("content/pages/b.md"), message)
        XCTAssertTrue(message.contains("URL /404.html is also wanted by"), message)
    }
}

/// Pelican's translations: posts of one kind, status and slug in several languages.
final class SiteTranslationsTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    func post(_ title: String, slug: String, lang: String?, kind: PostKind = .post, status: PostStatus = .published,
              meta: [String: MetaValue] = [:]) -> RenderedPost {
        var p = Post(source: "content/\(Slug.make(title)).md", title: title, date: Date(timeIntervalSince1970: 1_500_000_000),
                     slug: slug, status: status, meta: meta, body: title)
        p.lang = lang
        p.kind = kind
        return RenderedPost(post: p, rendered: RenderedMarkdown(html: title, summaryHTML: title, headings: []))
    }

    func build(_ posts: [RenderedPost]) throws -> Site {
        try SiteBuilder.build(posts: posts, config: SiteConfig(), options: SiteOptions(includeDrafts: true, now: Date()))
    }

    /// Title -> titles of its translations, and the titles of the listed posts.
    func links(_ site: Site) -> (versions: [String: [String]], listed: Set<String>) {
        var versions: [String: [String]] = [:]
        for item in site.posts { versions[item.post.title] = item.translations.map { site.posts[$0].post.title } }
        return (versions, Set(site.listed.map { site.posts[$0].post.title }))
    }

    func testEveryVersionLinksEveryOtherAndOnlyTheSiteLanguageIsListed() throws {
        let site = try build([post("Lazy", slug: "lazy", lang: nil), post("Faul", slug: "lazy", lang: "de"),
                              post("遅延", slug: "lazy", lang: "ja"), post("Alone", slug: "alone", lang: "fr")])
        let (versions, listed) = links(site)
        XCTAssertEqual(versions["Lazy"], ["Faul", "遅延"], "other languages, by language")
        XCTAssertEqual(versions["Faul"], ["Lazy", "遅延"])
        XCTAssertEqual(versions["遅延"], ["Faul", "Lazy"])
        XCTAssertEqual(versions["Alone"], [])
        // A post without a version in the site's language is an original: listed.
        XCTAssertEqual(listed, ["Lazy", "Alone"])
        XCTAssertEqual(Set(site.translations.map { site.posts[$0].post.title }), ["Faul", "遅延"])
        let ja = try XCTUnwrap(site.posts.first { $0.post.title == "遅延" })
        XCTAssertEqual(ja.url, "ja/posts/lazy/")
    }

    func testKindAndStatusSeparateGroups() throws {
        let site = try build([post("About", slug: "about", lang: "en", kind: .page), post("À propos", slug: "about", lang: "fr", kind: .page),
                              post("About post", slug: "about", lang: "fr"),
                              post("Hidden", slug: "h", lang: nil, status: .hidden), post("Caché", slug: "h", lang: "fr")])
        let (versions, listed) = links(site)
        XCTAssertEqual(versions["About"], ["À propos"])
        XCTAssertEqual(versions["About post"], [], "a post is no translation of a page")
        XCTAssertEqual(versions["Hidden"], [], "a hidden post is no translation of a published one, as in Pelican")
        XCTAssertEqual(listed, ["About post", "Caché"])
    }

    /// `translation: true` makes a post in the site's language a translation; when every version is
    /// marked, the mark is ignored.
    func testTranslationMark() throws {
        let marked = try build([post("Original", slug: "x", lang: "fr"),
                                post("Translated", slug: "x", lang: nil, meta: ["translation": .string("true")])])
        XCTAssertEqual(links(marked).listed, ["Original"])
        XCTAssertEqual(links(marked).versions["Original"], ["Translated"])
        let allMarked = try build([post("A", slug: "x", lang: "fr", meta: ["translation": .bool(true)]),
                                   post("B", slug: "x", lang: nil, meta: ["translation": .string("yes")])])
        XCTAssertEqual(links(allMarked).listed, ["B"])
        let unmarked = try build([post("A", slug: "x", lang: "fr"), post("B", slug: "x", lang: nil, meta: ["translation": .string("False")])])
        XCTAssertEqual(links(unmarked).listed, ["B"])
    }
}
