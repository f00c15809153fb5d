@testable import BlogBuild
@testable import BlogContent
@testable import BlogCore
@testable import BlogRender
@testable import BlogSite
import Foundation
import XCTest

/// The own parts of the posts' digests kept between the builds of `blog serve` (``PostDigestMemo``): given back
/// only for a post as it was, adding up to the digest made anew; and the builds of a process that keeps them
/// write, after each title edit, what a clean build writes.
final class PostDigestMemoTests: XCTestCase {
    private func post(_ text: String, path: String = "posts/a.md") throws -> Post {
        try PostReader.read(data: Data(text.utf8), source: "content/" + path, contentPath: path, timeZone: TimeZone(identifier: "UTC")!).0
    }

    private func sitePost(_ post: Post, url: String = "posts/a/") -> SitePost {
        SitePost(post: post, rendered: RenderedMarkdown(html: "<p>The body.</p>", summaryHTML: "<p>The body.</p>", headings: []),
                 url: url, outputPath: url + "index.html")
    }

    func testEveryStoredPropertyOfAPostIsCompared() throws {
        // A property added to Post must be compared too (PostDigestMemo.Kept.same), or a post that differs in it
        // alone would keep the last build's digest.
        let post = try post("title: A\ndate: 2020-01-01\n\nThe body.\n")
        XCTAssertEqual(Mirror(reflecting: post).children.count, PostDigestMemo.comparedPostProperties)
    }

    func testOwnPartIsGivenBackOnlyForThePostAsItWas() throws {
        let memo = PostDigestMemo()
        let first = sitePost(try post("title: A\ndate: 2020-01-01\ntags: Swift\n\nThe body.\n"))
        memo.keep([first], own: [Digest(high: 1, low: 2)])
        XCTAssertEqual(memo.own(of: first), Digest(high: 1, low: 2))
        XCTAssertEqual(memo.own(of: sitePost(try post("title: A\ndate: 2020-01-01\ntags: Swift\n\nThe body.\n"))), Digest(high: 1, low: 2),
                       "read again, equal in every property")
        for changed in ["title: B\ndate: 2020-01-01\ntags: Swift\n\nThe body.\n", "title: A\ndate: 2020-01-02\ntags: Swift\n\nThe body.\n",
                        // Tags compare by slug; a new spelling of the same tag is shown.
                        "title: A\ndate: 2020-01-01\ntags: swift\n\nThe body.\n",
                        "title: A\ndate: 2020-01-01\ntags: Swift\ndescription: New\n\nThe body.\n"] {
            XCTAssertNil(memo.own(of: sitePost(try post(changed))), changed)
        }
        XCTAssertNil(memo.own(of: sitePost(first.post, url: "posts/b/")), "another address")
        var future = first
        future.future = true
        XCTAssertNil(memo.own(of: future))
        var rendered = first
        rendered.rendered.html = "<p>Another body.</p>"
        XCTAssertNil(memo.own(of: rendered))
        memo.forget()
        XCTAssertNil(memo.own(of: first))
    }

    func testTheOwnPartAndTheRestAddUpToTheDigestMadeAnew() {
        let values: [String: Any] = ["title": "A", "html": "<!-- mark -->", "date": "1 January 2020",
                                     "tags": [["name": "Swift", "count": 3] as [String: Any]], "related": [["title": "B"] as [String: Any]]]
        let whole = TemplateContext.postDigest(values, html: "<p>The body.</p>")
        let made = TemplateContext.postDigest(values, html: "<p>The body.</p>", own: nil)
        XCTAssertEqual(made.digest, whole)
        XCTAssertEqual(TemplateContext.postDigest(values, html: "<p>The body.</p>", own: made.own).digest, whole)
        // What shows other posts is digested again: a related post's new title changes the digest.
        var renamed = values
        renamed["related"] = [["title": "C"] as [String: Any]]
        XCTAssertNotEqual(TemplateContext.postDigest(renamed, html: "<p>The body.</p>", own: made.own).digest, whole)
        XCTAssertEqual(TemplateContext.postDigest(renamed, html: "<p>The body.</p>", own: made.own).digest,
                       TemplateContext.postDigest(renamed, html: "<p>The body.</p>"))
    }

    func testRelatedEntriesSummedOnceGiveTheDigestOfTheEntriesWalked() {
        // Each post's entry (what another post's `related` shows of it) is summed once a build; a post's digest
        // made from those sums is the one its values walked give, and a related post's new title still changes it.
        var entries: [[String: Any]] = [["title": "A", "url": "/a/", "dated": true, "date": "1 January 2020"],
                                        ["title": "B", "url": "/b/", "dated": false], ["title": "C", "url": "/c/", "dated": true, "date": "3 May 2021"]]
        let related = [[2, 1], [], [0]]
        func values(_ index: Int) -> [String: Any] {
            ["title": entries[index]["title"]!, "html": "<!-- mark -->", "related": related[index].map { entries[$0] }]
        }
        for index in entries.indices {
            let summed = TemplateContext.postDigest(values(index), html: "<p>The body.</p>", own: nil,
                                                    related: TemplateContext.RelatedEntries(entries: entries.map(TemplateRecord.init), related: related), index: index)
            XCTAssertEqual(summed.digest, TemplateContext.postDigest(values(index), html: "<p>The body.</p>"), "post \(index)")
        }
        let before = TemplateContext.postDigest(values(0), html: "<p>The body.</p>", own: nil,
                                                related: TemplateContext.RelatedEntries(entries: entries.map(TemplateRecord.init), related: related), index: 0)
        entries[2]["title"] = "C, renamed"
        let after = TemplateContext.postDigest(values(0), html: "<p>The body.</p>", own: before.own,
                                               related: TemplateContext.RelatedEntries(entries: entries.map(TemplateRecord.init), related: related), index: 0)
        XCTAssertNotEqual(after.digest, before.digest)
        XCTAssertEqual(after.digest, TemplateContext.postDigest(values(0), html: "<p>The body.</p>"))
    }

    func testSearchWordsAreKeptForTheBodyTheyWereReadFrom() {
        let memo = PostDigestMemo()
        var made = 0
        func words(_ path: String, _ html: String) -> String {
            memo.searchWords(path: path, html: html) { made += 1; return BodyText.searchWords(html: html) }
        }
        XCTAssertEqual(words("posts/a.md", "<p>Kept words</p>"), BodyText.searchWords(html: "<p>Kept words</p>"))
        XCTAssertEqual(words("posts/a.md", "<p>Kept words</p>"), BodyText.searchWords(html: "<p>Kept words</p>"))
        XCTAssertEqual(made, 1, "the same body: its words are not read again")
        XCTAssertEqual(words("posts/a.md", "<p>New words</p>"), BodyText.searchWords(html: "<p>New words</p>"))
        XCTAssertEqual(made, 2, "another body: read")
        // A post no longer in the site is let go with the next build's posts.
        memo.keep([sitePost(try! post("title: B\n\nThe body.\n", path: "posts/b.md"), url: "posts/b/")], own: [.zero])
        _ = words("posts/a.md", "<p>New words</p>")
        XCTAssertEqual(made, 3)
        memo.forget()
        _ = words("posts/a.md", "<p>New words</p>")
        XCTAssertEqual(made, 4)
    }

    func testFeedEntriesAreKeptForThePostAsItWas() {
        let memo = PostDigestMemo()
        var made = 0
        func entry(_ sitePost: SitePost) -> FeedEntry {
            memo.feedEntry(of: sitePost) {
                made += 1
                return FeedEntry(title: sitePost.post.title, permalink: sitePost.url, author: "", published: sitePost.post.date,
                                 updated: sitePost.post.date, tags: [], summaryHTML: sitePost.rendered.summaryHTML,
                                 contentHTML: sitePost.rendered.html)
            }
        }
        let a = sitePost(try! post("title: A\n\nThe body.\n", path: "posts/a.md"), url: "posts/a/")
        XCTAssertEqual(entry(a).title, "A")
        XCTAssertEqual(entry(a).title, "A")
        XCTAssertEqual(made, 1, "the same post: kept")
        let retitled = sitePost(try! post("title: A, renamed\n\nThe body.\n", path: "posts/a.md"), url: "posts/a/")
        XCTAssertEqual(entry(retitled).title, "A, renamed")
        XCTAssertEqual(made, 2)
        let moved = sitePost(try! post("title: A, renamed\n\nThe body.\n", path: "posts/a.md"), url: "2024/a/")
        XCTAssertEqual(entry(moved).permalink, "2024/a/")
        XCTAssertEqual(made, 3)
        let rewritten = sitePost(try! post("title: A, renamed\n\nAnother body.\n", path: "posts/a.md"), url: "2024/a/")
        XCTAssertEqual(entry(rewritten).contentHTML, rewritten.rendered.html)
        XCTAssertEqual(made, 4, "another body: made again")
        memo.forget()
        _ = entry(rewritten)
        XCTAssertEqual(made, 5)
    }

    func testValuesManyPagesShowAreDigestedOnceByTheirIdentity() {
        var shared = SharedDigests()
        let nav: [[String: Any]] = [["title": "Home", "href": "/", "current": true], ["title": "Tags", "href": "/tags/", "current": false]]
        let config: [String: Any] = ["title": "Notes", "paginate": 2]
        let standIn = Digest(high: 7, low: 8)
        shared.add(nav, digest: PageInputs.digest(nav))
        shared.add(config, digest: standIn)
        let copy = nav, configCopy = config
        XCTAssertEqual(shared.digest(of: copy), PageInputs.digest(nav), "the same storage, under any key")
        XCTAssertEqual(shared.digest(of: configCopy), standIn, "a dictionary by its storage too")
        // Another value, equal or not, is not known: the caller walks it.
        var other = nav
        other[0]["current"] = false
        XCTAssertNil(shared.digest(of: other))
        XCTAssertNil(shared.digest(of: nav.map { $0 }.filter { _ in true }))
        var changed = config
        changed["title"] = "Other"
        XCTAssertNil(shared.digest(of: changed))
        XCTAssertNil(shared.digest(of: [[String: Any]]()), "an empty array is never known")
        XCTAssertNil(shared.digest(of: "Notes"))
        // The pages' digests of a site are the same from one render to the next, and differ where the menu does.
        let site = RenderFixture.site()
        let theme = try! Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/nonexistent-blog"))
        let first = SiteRenderer.pagesAndInputs(site, theme: theme, hook: nil).inputs
        XCTAssertEqual(SiteRenderer.pagesAndInputs(site, theme: theme, hook: nil).inputs, first)
        XCTAssertEqual(first.count, site.pages.count)
        var replaced = site
        replaced.config.title = "Another title"
        XCTAssertTrue(zip(SiteRenderer.pagesAndInputs(replaced, theme: theme, hook: nil).inputs, first).allSatisfy { $0 != $1 },
                      "the feeds' titles (and config) show the site's title on every page")
    }

    func testAPageMadeFromWhatTheLastBuildsWasKeepsItsDigestAndNoOtherDoes() throws {
        // `blog serve` keeps each page's digest with the digest of what its values are made from
        // (TemplateContext.source): a page made from the same takes the last build's digest, its values neither made
        // nor walked. After each change every page's digest is the one made anew, and the pages kept are those the
        // change leaves as they were.
        let hook = DigestMemoHook()
        let memo = try XCTUnwrap(hook.postDigests)
        let theme = try Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/nonexistent-blog"))
        var site = RenderFixture.site()
        var last: [String: Digest] = [:]
        /// `kept`: how many pages the memo gives back; nil: those whose digest made anew is the last build's.
        func assertKept(_ kept: Int?, _ what: String, line: UInt = #line) {
            let inputs = SiteRenderer.pagesAndInputs(site, theme: theme, hook: hook).inputs
            let fresh = SiteRenderer.pagesAndInputs(site, theme: theme, hook: nil).inputs
            XCTAssertEqual(inputs, fresh, what, line: line)
            let unchanged = site.pages.indices.filter { last[site.pages[$0].outputPath] == fresh[$0] }.count
            XCTAssertEqual(memo.pagesKept, kept ?? unchanged, what, line: line)
            last = Dictionary(uniqueKeysWithValues: site.pages.indices.map { (site.pages[$0].outputPath, fresh[$0]) })
        }
        let all = site.pages.count
        assertKept(0, "nothing to keep yet")
        assertKept(all, "nothing changed")
        // The oldest post's title: its page, its newer neighbour's, the second page of the list, the archives.
        site.posts[3].post.title = "First, renamed"
        assertKept(nil, "a title")
        XCTAssertLessThanOrEqual(memo.pagesKept, all - 4)
        assertKept(all, "nothing changed")
        // The picture a post's page shows (Open Graph) is the post's own value.
        site.posts[0].post.meta["headerimage"] = .string("/img/b.png")
        assertKept(nil, "an image")
        XCTAssertLessThanOrEqual(memo.pagesKept, all - 5, "the post's page, its older neighbour's, the first list page, its tag's, the archives")
        // Pages in another order keep theirs (by their file); a list's posts in another order do not.
        site.pages.swapAt(0, 1)
        assertKept(all, "the pages' order")
        guard case .home(var pagination) = site.pages[5].kind else { return XCTFail("the fixture's first list page") }
        pagination.posts.reverse()
        site.pages[5].kind = .home(pagination)
        assertKept(all - 1, "a list page's order")
        // What every page shows: none kept.
        site.config.title = "Another title"
        assertKept(0, "the site's title")
        site.assets = [SiteAsset(source: "posts/first/a.png", path: "posts/first/a.png")]
        assertKept(0, "a file a post's picture may be")
        site.tags[2].posts = [1]
        assertKept(0, "a term's count")
        memo.forget()
        assertKept(0, "forgotten")
    }

    func testPagesThatShowNoChangedPostKeepTheirSourcesAndEveryPageHasTheDigestMadeAnew() throws {
        // With the same pages in the same order, the same listed posts, generated pages and values every page shows,
        // `blog serve` takes the last build's source of a page none of whose posts changed, without making it
        // (TemplateContext.sourceIsKept). Each step changes what one of those checks is about: every page's digest must
        // be the one made anew, and the pages the change shows on must not be kept.
        let hook = DigestMemoHook()
        let memo = try XCTUnwrap(hook.postDigests)
        let theme = try Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/nonexistent-blog"))
        var site = RenderFixture.site()
        var last: [Digest] = []
        /// The pages whose digests changed since the last step; asserts every digest is the one made anew and that
        /// the memo kept the others.
        @discardableResult
        /// `exact`: the memo keeps every page whose digest stays (the site reads as before but for posts).
        func build(_ what: String, exact: Bool = true, line: UInt = #line) -> Set<String> {
            let inputs = SiteRenderer.pagesAndInputs(site, theme: theme, hook: hook).inputs
            let fresh = SiteRenderer.pagesAndInputs(site, theme: theme, hook: nil).inputs
            XCTAssertEqual(inputs, fresh, what, line: line)
            let changed = last.count == fresh.count ? Set(site.pages.indices.filter { last[$0] != fresh[$0] }.map { site.pages[$0].outputPath }) : []
            if exact, last.count == fresh.count { XCTAssertEqual(memo.pagesKept, site.pages.count - changed.count, what, line: line) }
            last = fresh
            return changed
        }
        build("first", exact: false)
        XCTAssertEqual(build("nothing changed"), [])
        XCTAssertEqual(memo.pagesKept, site.pages.count)
        // A title: the post's page, its neighbours', the list and tag pages that show it, the archives (the 404 page
        // shows them too).
        site.posts[1].post.title = "Second, renamed"
        XCTAssertEqual(build("a title"), ["404.html", "posts/second/index.html", "posts/swift-6/index.html", "posts/first/index.html", "index.html",
                                          "tags/café/index.html", "tags/swift/index.html", "archives/index.html"])
        site.posts[3].post.title = "First, renamed"
        XCTAssertEqual(build("the oldest post's title"), ["404.html", "posts/first/index.html", "posts/second/index.html", "page/2/index.html",
                                                          "archives/index.html"])
        // A field of a post that its values do not show (its digest stays) but its page does: the picture of a bundle.
        site.posts[1].post.meta["image"] = .string("a.png")
        site.assets = [SiteAsset(source: "posts/a.png", path: "posts/a.png")]
        build("a picture and a file of the content folder", exact: false)
        site.posts[1].post.isBundle = true
        XCTAssertEqual(build("the post is a bundle"), ["posts/second/index.html"])
        // Other neighbours with the same pages: the listed posts are compared.
        site.listed = [0, 3, 1]
        XCTAssertTrue(build("other neighbours", exact: false).contains("posts/first/index.html"))
        // A post in the place of the 404 page: the generated pages posts stand for are compared.
        site.replacements[.notFound] = 4
        XCTAssertTrue(build("a post stands for the 404 page", exact: false).contains("about/index.html"))
        // What every page shows.
        site.config.title = "Another title"
        XCTAssertEqual(build("the site's title", exact: false).count, site.pages.count)
        // The pages' order: each found by its file.
        site.pages.swapAt(0, 1)
        last.swapAt(0, 1)
        XCTAssertEqual(build("the pages' order", exact: false), [])
        memo.forget()
        XCTAssertEqual(build("forgotten", exact: false), [])
        XCTAssertEqual(memo.pagesKept, 0)
    }

    func testADigestOfASiteWithRelatedPostsIsThatOfThePostsValuesWalked() {
        // The values PostValues makes, with related posts: what the context digests with the entries summed once
        // is what walking each post's values gives.
        var site = RenderFixture.site()
        site.related = [[1, 3], [0], [], [0, 1], []]
        let context = TemplateContext(site: site, digests: true)
        var checked = 0
        for page in site.pages {
            guard case .post(let index) = page.kind, let values = (context.page(page).values["post"] as? TemplateRecord)?.dictionary else { continue }
            XCTAssertEqual((values["related"] as? [TemplateRecord])?.count, site.related[index].count)
            XCTAssertEqual(context.postDigests[index], TemplateContext.postDigest(values, html: site.posts[index].rendered.html), site.posts[index].url)
            checked += 1
        }
        XCTAssertEqual(checked, site.posts.count)
    }

    func testPostValuesAreKeptForThePostsThatShowNoChangedPost() {
        // `blog serve` keeps each post's values and digest while the post and the posts its values show (related,
        // series, translations) are as they were and so are the terms: the digests are those made anew.
        var site = RenderFixture.site()
        site.related = [[1, 3], [0], [], [0, 1], []]
        let memo = PostDigestMemo()
        func digests(_ site: Site) -> [Digest] {
            let kept = TemplateContext(site: site, digests: true, memo: memo)
            let fresh = TemplateContext(site: site, digests: true)
            XCTAssertEqual(kept.postDigests, fresh.postDigests)
            for page in site.pages {
                guard case .post = page.kind else { continue }
                let shown = kept.page(page).values.record, made = fresh.page(page).values.record
                XCTAssertEqual(kept.inputs(of: page, template: "post", values: shown, reads: nil),
                               fresh.inputs(of: page, template: "post", values: made, reads: nil), page.url)
                XCTAssertEqual(PageInputs.digest(shown["post"]!), PageInputs.digest(made["post"]!), page.url)
            }
            return kept.postDigests
        }
        let first = digests(site)
        XCTAssertEqual(memo.valuesKept, 0, "nothing to keep yet")
        XCTAssertEqual(digests(site), first)
        XCTAssertEqual(memo.valuesKept, site.posts.count, "nothing changed")
        XCTAssertEqual(memo.postsKept, site.posts.count, "every post's entry as it was")
        XCTAssertEqual(memo.entriesKept, site.posts.count, "what other posts show of each, as it was")
        // A title edit: the post and the one whose related posts show it are made again.
        site.posts[3].post.title = "First, renamed"
        let retitled = digests(site)
        XCTAssertEqual(memo.valuesKept, site.posts.count - 2)
        XCTAssertEqual(memo.entriesKept, site.posts.count - 1, "the renamed post's entry made anew")
        // The renamed post's entry is made anew (its own part given back for the post as it is now), the others kept.
        XCTAssertEqual(memo.postsKept, site.posts.count - 1)
        XCTAssertNotNil(memo.own(of: site.posts[3]))
        XCTAssertNotEqual(retitled[0], first[0])
        XCTAssertEqual(retitled[1], first[1])
        // Another related post.
        site.related[1] = [3]
        _ = digests(site)
        XCTAssertEqual(memo.valuesKept, site.posts.count - 1)
        // A series.
        site.series = [SeriesGroup(name: "A tour", posts: [3, 1])]
        site.seriesOf = [3: 0, 1: 0]
        _ = digests(site)
        XCTAssertEqual(memo.valuesKept, site.posts.count - 2)
        site.posts[1].post.title = "Second, renamed"
        _ = digests(site)
        XCTAssertEqual(memo.valuesKept, site.posts.count - 3, "the post, its series' other part and the post relating it")
        // A term's count shows on every post that has the term: all made again, but what other posts show of each
        // (which shows no term) is kept, but for a post renamed at once, whose related asides show the new title.
        site.tags[0].posts = [1, 0]
        site.posts[3].post.title = "First, renamed again"
        _ = digests(site)
        XCTAssertEqual(memo.valuesKept, 0)
        XCTAssertEqual(memo.entriesKept, site.posts.count - 1)
        // A date (which an entry shows) in place: the post keeps its place, its entry is made anew.
        site.posts[1].post.date += 60
        _ = digests(site)
        XCTAssertEqual(memo.entriesKept, site.posts.count - 1)
        XCTAssertEqual(digests(site), TemplateContext(site: site, digests: true).postDigests)
        XCTAssertEqual(memo.valuesKept, site.posts.count)
    }
}

extension IncrementalBuildTests {
    /// A build as `blog serve` makes it (each build's posts, markdown, digests and site model kept for the next).
    @discardableResult
    func serveBuild() throws -> BuildReport {
        // As `blog serve`'s watcher waits for 40 ms without a change: a post changed in the clock's tick in which
        // the build starts counts as changed while it ran, and the build keeps no state (serve keeps its theme,
        // so a build starts that soon).
        Thread.sleep(forTimeInterval: 0.04)
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
        options.buildsAgain = true
        options.quick = true
        return try Pipeline.build(options)
    }

    func testServeBuildsAfterTitleEditsWriteWhatACleanBuildWrites() throws {
        // As `blog serve` builds (each build's posts, markdown and digests kept for the next), with a series,
        // related posts (shared tags), a category, pages of two posts, and feeds: each title edit changes the
        // post's page, its neighbours' (prev/next), its series' parts, the related asides of others, its tag's,
        // category's and list pages, and the feeds.
        try site.write("blog.yml", """
        title: Cache Notes
        author: Ana Lima
        base_url: https://example.org/blog/
        paginate: 2
        related_posts: 3
        """)
        for number in 1...9 {
            try site.write("content/posts/part-\(number).md", """
            title: Part number \(number)
            slug: part-\(number)
            date: 2021-03-0\(number) 10:00
            tags: \(number % 3 == 0 ? "Swift; tools" : "shell; tools")
            category: Notes
            \(number <= 4 ? "series: A tour" : "")

            The body of part \(number).
            """)
        }
        try serveBuild()
        try serveBuild()
        func retitle(_ number: Int, _ title: String) throws {
            try edit("content/posts/part-\(number).md") { text in
                text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("title: ") ? "title: \(title)" : String($0) }
                    .joined(separator: "\n")
            }
            assertPartial(try serveBuild())
            try assertSameAsCleanBuild()
        }
        try retitle(2, "The second part, renamed")
        for path in ["posts/part-1/index.html", "posts/part-3/index.html", "posts/part-4/index.html", "feed.xml"] {
            XCTAssertTrue(try XCTUnwrap(site.read("public/" + path), path).contains("The second part, renamed"), path)
        }
        try retitle(6, "Six, renamed")
        try retitle(2, "Two, once more")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/part-3/index.html")).contains("Two, once more"), "the series and the neighbour")
        XCTAssertFalse(try XCTUnwrap(site.read("public/posts/part-3/index.html")).contains("The second part, renamed"))
        // A body edit and then a title edit of another post: the digests kept stay right.
        try edit("content/posts/part-5.md") { $0 + "\n\nA new paragraph.\n" }
        try serveBuild()
        try assertSameAsCleanBuild()
        try retitle(5, "Five, renamed")
        try retitle(9, "Nine, renamed")
        // A new tag: every post that shows a term whose count changed is made again (the values kept are not).
        try edit("content/posts/part-4.md") { $0.replacingOccurrences(of: "tags: shell; tools", with: "tags: shell; tools; Swift") }
        try serveBuild()
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/part-4/index.html")).contains("tags/swift/"))
        try retitle(3, "Three, renamed")
        // A title and a new tag at once: no post's values are kept (a term's count changed), what the others show of
        // each post is, but the renamed one's, which its neighbours, series and related asides show.
        try edit("content/posts/part-2.md") { text in
            text.replacingOccurrences(of: "tags: shell; tools", with: "tags: shell; tools; notes")
                .replacingOccurrences(of: "title: Two, once more", with: "title: Two, tagged")
        }
        try serveBuild()
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/part-3/index.html")).contains("Two, tagged"))
        // A time of day (the related asides show it in `datetime`) that leaves the posts' order.
        try edit("content/posts/part-8.md") { $0.replacingOccurrences(of: "date: 2021-03-08 10:00", with: "date: 2021-03-08 11:30") }
        try serveBuild()
        try assertSameAsCleanBuild()
        try retitle(8, "Eight, renamed")
        // The site's title (every page shows it), then title edits.
        try edit("blog.yml") { $0.replacingOccurrences(of: "title: Cache Notes", with: "title: Other Notes") }
        try serveBuild()
        try assertSameAsCleanBuild()
        try retitle(7, "Seven, renamed")
        try retitle(7, "Seven, once more")
        // A post template that shows the archives: a title edit shows on every post's page.
        try site.write("themes/default/templates/post.mustache",
                       "{{#post}}<h1>{{title}}</h1>{{/post}}{{#archives}}{{#months}}{{#posts}}{{title}};{{/posts}}{{/months}}{{/archives}}\n")
        try serveBuild()
        try assertSameAsCleanBuild()
        try retitle(9, "Nine, once more")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/part-1/index.html")).contains("Nine, once more;"))
        try retitle(1, "One, renamed")
    }
}

extension IncrementalBuildTests {
    func testServeBuildsSeeTheHeadingsOfATemplateChangedToShowThem() throws {
        // `blog serve` keeps its theme while its files are as they were, and with it which facts of a post's body the
        // templates show (``Theme/templateNames``, made once a theme): a template changed to show the headings makes
        // the theme anew, so a heading edited after it is shown, as a clean build shows it.
        func heading(_ old: String, _ new: String) throws {
            try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "## " + old, with: "## " + new) }
            try serveBuild()
            try assertSameAsCleanBuild()
        }
        try site.write("themes/default/templates/post.mustache", "{{#post}}<h1>{{title}}</h1>{{{html}}}{{/post}}\n")
        try serveBuild()
        try serveBuild()
        try heading("A heading", "Another heading")
        try site.write("themes/default/templates/post.mustache", "{{#post}}<h1>{{title}}</h1><nav>{{#headings}}{{id}};{{/headings}}</nav>{{{html}}}{{/post}}\n")
        try serveBuild()
        try assertSameAsCleanBuild()
        try heading("Another heading", "A third heading")
        let page = try XCTUnwrap(site.read("public/posts/post-number-4/index.html"))
        XCTAssertTrue(page.contains("<nav>a-third-heading;</nav>"), page)
    }
}

/// A render hook with a memo of its own, as `blog serve`'s build memo hands one to each build.
private final class DigestMemoHook: RenderHook, @unchecked Sendable {
    let postDigests: PostDigestMemo? = PostDigestMemo()
    func page(_ number: Int, holds holes: [BodyHole]) {}
    func feed(_ path: String, holds holes: [BodyHole]) {}
    func bodyTransformed(post: Int) {}
}
