@testable import BlogBuild
@testable import BlogContent
@testable import BlogCore
@testable import BlogIncremental
@testable import BlogMarkdown
import Foundation
import XCTest

/// The partial build (PartialBuild): when a post changed more than its body but the site keeps
/// its files (a title, a date, a tag the post already shares), only the pages whose values changed
/// are rendered and written, and the site is byte for byte what a clean build writes.
extension IncrementalBuildTests {
    /// The build rendered only part of the site: `partial build: <reason>; N of M files written`.
    func assertPartial(_ report: BuildReport, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(report.cacheSummary?.hasPrefix("partial build: ") ?? false, report.cacheSummary ?? "no summary", file: file, line: line)
        // Every file of public/ is the site's, but the mark each build leaves there (.blog-output).
        XCTAssertTrue(report.cacheSummary?.hasSuffix(" of \(site.files(under: "public").count - 1) files written") ?? false,
                      report.cacheSummary ?? "no summary", file: file, line: line)
    }

    /// The files of `public/` whose modification time is not `before`'s: those the build wrote.
    func filesWritten(since before: [String: Date]) -> Set<String> {
        Set(modificationTimes().filter { before[$0.key] != $0.value }.map(\.key))
    }

    func modificationTimes() -> [String: Date] {
        let root = site.root.appendingPathComponent("public")
        var times: [String: Date] = [:]
        for path in site.files(under: "public") {
            times[path] = (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path))?[.modificationDate] as? Date
        }
        return times
    }

    /// Gives post `number` a slug of its own, so that its address does not follow its title.
    func pinSlug(_ number: Int) throws {
        try edit("content/posts/post-\(number).md") { "slug: post-number-\(number)\n" + $0 }
    }

    func testPartialTitleEditWritesOnlyThePagesThatShowTheTitle() throws {
        try pinSlug(3)
        try buildTwice()
        let before = modificationTimes()
        Thread.sleep(forTimeInterval: 0.01)
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Post number 3", with: "title: A better title") }
        let report = try quickBuild()
        assertPartial(report)
        try assertSameAsCleanBuild()
        let written = filesWritten(since: before)
        XCTAssertEqual(report.files.written, written.count)
        // Its page, its neighbours' (they link to it by title), the home page that lists it, its
        // tag's page, the archives and the feeds.
        for path in ["posts/post-number-3/index.html", "posts/post-number-2/index.html", "posts/post-number-4/index.html",
                     "archives/index.html", "feed.xml"] {
            XCTAssertTrue(written.contains(path), "\(path) shows the title: \(written.sorted())")
        }
        XCTAssertTrue(written.contains { $0.hasPrefix("tags/shell/page/") || $0 == "tags/shell/index.html" }, "its tag's list: \(written.sorted())")
        for path in ["tags/swift/index.html", "style.css"] {
            XCTAssertFalse(written.contains(path), "\(path) does not show the title: \(written.sorted())")
        }
        // Another post's page that shows the title among its related posts is written; so may be one
        // whose neighbour's values (their related posts) changed, which its page does not show.
        for path in ["posts/post-number-1/index.html", "posts/post-number-6/index.html", "posts/post-number-7/index.html"] {
            if try XCTUnwrap(site.read("public/" + path)).contains("A better title") {
                XCTAssertTrue(written.contains(path), "\(path) shows the title: \(written.sorted())")
            }
        }
        // The next body edit is patched in place from the state the partial build left.
        try edit("content/posts/post-3.md") { $0 + "\n\nA paragraph after the retitling.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
    }

    func testPartialTitleEditsRewriteTheRelatedAsidesSeriesAndOnlyTheSearchShardThatHoldsThePost() throws {
        // Issue 31's pages: related posts under each post (by shared tags), a series' parts, and the search index
        // in shards of 1,000 posts. Enough posts for two shards; three of them a series.
        for number in 1...1_000 {
            try site.write("content/posts/more-\(number).md", """
            title: More number \(number)
            slug: more-number-\(number)
            date: 2019-01-01 \(String(format: "%02d:%02d", number / 60, number % 60))
            tags: \(["shell", "Swift", "notes", "tools"][number % 4])
            \(number <= 3 ? "series: A tour" : "")

            Body of \(number).

            More of \(number).
            """)
        }
        try pinSlug(7)
        try buildTwice()
        XCTAssertTrue(site.exists("public/search/posts-2.json"), "two shards")
        func retitle(_ path: String, _ old: String, _ new: String) throws -> Set<String> {
            let before = modificationTimes()
            Thread.sleep(forTimeInterval: 0.01)
            try edit(path) { $0.replacingOccurrences(of: "title: \(old)\n", with: "title: \(new)\n") }
            assertPartial(try quickBuild())
            try assertSameAsCleanBuild()
            return filesWritten(since: before)
        }
        // The shard that holds the post is written, the other is not.
        func assertOnlyItsShardWritten(_ written: Set<String>, _ title: String, line: UInt = #line) throws {
            let shards = ["search/posts-1.json", "search/posts-2.json"]
            let holding = try shards.filter { try XCTUnwrap(site.read("public/" + $0)).contains("\"t\":\"\(title)\"") }
            XCTAssertEqual(holding.count, 1, line: line)
            for shard in shards { XCTAssertEqual(written.contains(shard), holding.contains(shard), "\(shard): \(written.sorted())", line: line) }
        }
        var written = try retitle("content/posts/more-2.md", "More number 2", "The second part")
        try assertOnlyItsShardWritten(written, "The second part")
        for part in ["more-number-1", "more-number-3"] {
            XCTAssertTrue(try XCTUnwrap(site.read("public/posts/\(part)/index.html")).contains("The second part"), "\(part) lists its series' parts")
            XCTAssertTrue(written.contains("posts/\(part)/index.html"), written.sorted().description)
        }
        let related = site.files(under: "public/posts").filter { path in
            path.hasSuffix("index.html") && !path.contains("more-number-2/") && (site.read("public/posts/" + path) ?? "").contains("The second part")
        }
        XCTAssertGreaterThan(related.count, 2, "other posts show it among their related posts")
        for path in related { XCTAssertTrue(written.contains("posts/" + path), "posts/\(path) shows the title: \(written.sorted())") }
        written = try retitle("content/posts/post-7.md", "Post number 7", "Seven, renamed")
        try assertOnlyItsShardWritten(written, "Seven, renamed")
        // The newest of 2019 is in the first shard, the oldest (with the series) in the second.
        written = try retitle("content/posts/more-1000.md", "More number 1000", "A thousand, renamed")
        try assertOnlyItsShardWritten(written, "A thousand, renamed")
        // A body edit after them is patched in place into the shard, and the next title edit finds it so.
        try edit("content/posts/more-5.md") { $0 + "\n\nA word like zygomorphic.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
        written = try retitle("content/posts/more-5.md", "More number 5", "Five, renamed")
        try assertOnlyItsShardWritten(written, "Five, renamed")
    }

    func testPartialTitleEditOfAPostInACategory() throws {
        // Category and author pages list the post by its title, as tag pages do.
        for number in [2, 3] {
            try edit("content/posts/post-\(number).md") { "category: Notes\nauthor: Bea Ruiz\n" + $0 }
        }
        try pinSlug(3)
        try buildTwice()
        let before = modificationTimes()
        Thread.sleep(forTimeInterval: 0.01)
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Post number 3", with: "title: Filed under notes") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        let written = filesWritten(since: before)
        XCTAssertTrue(written.contains("categories/notes/index.html"), written.sorted().description)
        XCTAssertTrue(try XCTUnwrap(site.read("public/categories/notes/index.html")).contains("Filed under notes"))
    }

    func testPartialDateEditThatReordersThePosts() throws {
        // A new date moves the post among the others: pages change places in the list of files,
        // bodies in the pages left as they are count by the posts' new places.
        try buildTwice()
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "date: 2020-02-12 10:00", with: "date: 2020-06-30 10:00") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        for number in [1, 6, 2, 7] {
            try edit("content/posts/post-\(number).md") { $0 + "\n\nAfter the move, post \(number).\n" }
            assertQuick(try quickBuild(), changed: 1)
            try assertSameAsCleanBuild()
        }
    }

    func testPartialBuildRendersEveryPageThatReadsWhatChanged() throws {
        // A theme whose post pages show the archives (every post's title): a title edit changes
        // every post page, and each is rendered again.
        try site.write("themes/default/templates/post.mustache", """
        {{#post}}<h1>{{title}}</h1>{{{html}}}{{/post}}
        <nav>{{#archives}}{{#months}}{{#posts}}<a href="{{url}}">{{title}}</a>{{/posts}}{{/months}}{{/archives}}</nav>

        """)
        try pinSlug(5)
        try buildTwice()
        try edit("content/posts/post-5.md") { $0.replacingOccurrences(of: "title: Post number 5", with: "title: Five, renamed") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-1/index.html")).contains("Five, renamed"))
        // A partial names what it reads for the page that includes it.
        try site.write("themes/default/templates/post.mustache", "{{#post}}<h1>{{title}}</h1>{{{html}}}{{/post}}{{> sidebar}}\n")
        try site.write("themes/default/templates/sidebar.mustache", "<ul>{{#tags}}<li>{{name}} ({{count}})</li>{{/tags}}</ul>\n")
        try quickBuild()
        try edit("content/posts/post-5.md") { $0.replacingOccurrences(of: "tags: shell", with: "tags: shell; Swift") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-1/index.html")).contains("Swift (4)"))
    }

    /// A post's table of contents, headings and header values (`meta`) are made when a page reads them
    /// (BlogRender's `LazyValue`), and a page's digest counts them as what they make: a page that shows
    /// another post's header value is rendered again when only that value changes.
    func testPartialBuildSeesTheValuesMadeWhenAPageReadsThem() throws {
        // Post 4's page shows the header value and the headings of post 3 (the older one), not its title.
        try site.write("themes/default/templates/post.mustache", """
        {{#post}}<h1>{{title}}</h1>{{/post}}
        {{#neighbours.older}}<p>{{meta.mood}}</p><ol>{{#toc}}<li>{{level}} {{text}}{{#children}} ({{id}}){{/children}}</li>{{/toc}}</ol>\
        {{#headings}}{{level}}#{{id}};{{/headings}}{{{toc_html}}}{{/neighbours.older}}

        """)
        try edit("content/posts/post-3.md") { "Mood: calm\n" + $0 }
        try buildTwice()
        try assertSameAsCleanBuild()
        let shown = { try XCTUnwrap(self.site.read("public/posts/post-number-4/index.html")) }
        var page = try shown()
        XCTAssertTrue(page.contains("<p>calm</p><ol><li>2 A heading</li></ol>2#a-heading;<ul>\n<li><a href=\"#a-heading\">A heading</a></li>\n</ul>\n"), page)
        // Only its header value changes: post 4's page is rendered again for it alone.
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "Mood: calm", with: "Mood: glad") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        page = try shown()
        XCTAssertTrue(page.contains("<p>glad</p>"), page)
        // Its headings change: the table shows the new ones.
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "## A heading", with: "## Parts\n\n### First part") }
        try quickBuild()
        try assertSameAsCleanBuild()
        page = try shown()
        XCTAssertTrue(page.contains("<ol><li>2 Parts (first-part)</li></ol>2#parts;3#first-part;<ul>\n<li><a href=\"#parts\">Parts</a>\n<ul>\n"), page)
    }

    func testATitleEditRightAfterAFirstBuildIsAPartialBuild() throws {
        // `blog build` makes no pages' digests (a CI job's first build in a fresh clone would pay for them and never use
        // them; a later one, more than the pages they spare): the title edit right after a first build makes every page
        // and writes those that differ, as every later one does.
        try pinSlug(3)
        try quickBuild()
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Post number 3", with: "title: Three") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Three", with: "title: Three again") }
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
    }

    func testPartialBuildIsNotUsedWhenTheFilesChange() throws {
        try buildTwice()
        // A new tag makes new pages: the whole site is written.
        try edit("content/posts/post-1.md") { $0.replacingOccurrences(of: "tags: shell", with: "tags: shell; brand-new") }
        let report = try quickBuild()
        XCTAssertTrue(report.cacheSummary?.hasPrefix("full build: ") ?? false, report.cacheSummary ?? "no summary")
        try assertSameAsCleanBuild()
        // A published page changed by hand: the whole site is written again, the page restored.
        try site.write("public/posts/post-number-6/index.html", "changed by hand")
        try edit("content/posts/post-6.md") { $0.replacingOccurrences(of: "title: Post number 6", with: "title: Six") }
        let again = try quickBuild()
        XCTAssertTrue(again.cacheSummary?.hasPrefix("full build: ") ?? false, again.cacheSummary ?? "no summary")
        try assertSameAsCleanBuild()
    }
}

/// The rendered markdown that a process that builds again (`blog serve`) keeps for its next build.
extension IncrementalBuildTests {
    func testMemoGivesBackOnlyMarkdownWhoseSourceIsUnchanged() throws {
        func post(_ text: String) throws -> Post {
            try PostReader.read(data: Data(text.utf8), source: "content/posts/a.md", contentPath: "posts/a.md", timeZone: TimeZone(identifier: "UTC")!).0
        }
        let options = MarkdownOptions()
        let first = try post("title: A\ndate: 2020-01-01\n\nThe body.\n")
        let rendered = MarkdownRenderer.render(body: first.body, summary: first.summary, options: options)
        var memo = BuildMemo.memo(folder: "/blog/.blog-cache", inputs: .zero, started: 0)
        XCTAssertNil(memo.rendered(first, options: options))
        memo.keep(first, options: options, rendered: rendered, diagnostics: [])
        memo.finishMarkdown()
        memo = BuildMemo.memo(folder: "/blog/.blog-cache", inputs: .zero, started: 0)
        // A new title, the same body: the markdown is the one kept.
        XCTAssertEqual(memo.rendered(try post("title: B\ndate: 2020-01-01\n\nThe body.\n"), options: options)?.0, rendered)
        XCTAssertNil(memo.rendered(try post("title: A\ndate: 2020-01-01\n\nAnother body.\n"), options: options))
        var other = options
        other.html = .tagfilter
        XCTAssertNil(memo.rendered(first, options: other))
        memo.finishMarkdown()
        // Another blog, or other settings or theme, forget it.
        XCTAssertNil(BuildMemo.memo(folder: "/blog/.blog-cache", inputs: Digest(high: 1, low: 2), started: 0).rendered(first, options: options))
        // A body whose links resolve against other posts is never kept.
        memo = BuildMemo.memo(folder: "/blog/.blog-cache", inputs: .zero, started: 0)
        let linking = try post("title: A\ndate: 2020-01-01\n\nSee [b]({filename}b.md).\n")
        memo.keep(linking, options: options, rendered: MarkdownRenderer.render(body: linking.body, summary: nil, options: options), diagnostics: [])
        memo.finishMarkdown()
        XCTAssertNil(BuildMemo.memo(folder: "/blog/.blog-cache", inputs: .zero, started: 0).rendered(linking, options: options))
    }

    func testBuildsOfAProcessThatBuildsAgainWriteTheSameBytes() throws {
        // As `blog serve` builds: the markdown of each build is kept for the next.
        @discardableResult
        func serveBuild() throws -> BuildReport {
            var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
            options.buildsAgain = true
            return try Pipeline.build(options)
        }
        try pinSlug(4)
        try serveBuild()
        try serveBuild()
        try edit("content/posts/post-4.md") {
            $0.replacingOccurrences(of: "title: Post number 4", with: "title: Four").replacingOccurrences(of: "More text.", with: "New text.")
        }
        try serveBuild()
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-4/index.html")).contains("New text."))
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "title: Post number 2", with: "title: Two") }
        try serveBuild()
        try assertSameAsCleanBuild()
    }

    func testACommandLineBuildBetweenServedBuildsLeavesNoPageDigestOfTheBuildBefore() throws {
        // `blog build` makes no page digests: it makes every page and writes those that differ from the published ones.
        // A served build's digests are of the pages as it wrote them; a page the command line then wrote again has none
        // left in the state, or a served build that comes back to the first title would keep the page the command line wrote.
        // `serveBuild()`: as `blog serve` builds (PostDigestMemoTests), here into `public/`.
        func retitle(_ old: String, _ new: String) throws {
            Thread.sleep(forTimeInterval: 0.01)
            try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "title: \(old)\n", with: "title: \(new)\n") }
        }
        try pinSlug(4)
        _ = try serveBuild()
        _ = try serveBuild()
        try retitle("Post number 4", "Four")
        assertPartial(try serveBuild())
        try assertSameAsCleanBuild()
        try retitle("Four", "Four, from the command line")
        let before = modificationTimes()
        Thread.sleep(forTimeInterval: 0.01)
        assertPartial(try quickBuild())
        try assertSameAsCleanBuild()
        // Only the files whose bytes changed are written: the post's page shows the title, the style sheet does not.
        let written = filesWritten(since: before)
        XCTAssertTrue(written.contains("posts/post-number-4/index.html"), written.sorted().description)
        XCTAssertFalse(written.contains("style.css"), written.sorted().description)
        try retitle("Four, from the command line", "Four")
        _ = try serveBuild()
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-4/index.html")).contains("<title>Four"))
    }
}

extension IncrementalBuildTests {
    func testMemoReadsAgainOnlyAPostFileThatChanged() throws {
        let folder = site.root.appendingPathComponent("content")
        var reads = 0
        func read(started: Int64 = .max) -> String? {
            let memo = BuildMemo.memo(folder: "/blog/.blog-cache", inputs: .zero, started: started)
            defer { memo.finishReading() }
            return memo.post("posts/post-1.md", in: folder, bundle: false) {
                reads += 1
                let text = String(decoding: (try? Data(contentsOf: folder.appendingPathComponent("posts/post-1.md"))) ?? Data(), as: UTF8.self)
                return (try? PostReader.read(data: Data(text.utf8), source: "content/posts/post-1.md", contentPath: "posts/post-1.md",
                                             timeZone: TimeZone(identifier: "UTC")!).0, [])
            }.0?.title
        }
        XCTAssertEqual(read(), "Post number 1")
        XCTAssertEqual(read(), "Post number 1")
        XCTAssertEqual(reads, 1, "the file did not change: it is not read again")
        try edit("content/posts/post-1.md") { $0.replacingOccurrences(of: "title: Post number 1", with: "title: Post number one") }
        XCTAssertEqual(read(), "Post number one")
        XCTAssertEqual(reads, 2)
        // A file that changed after the build started may have changed again in the same tick: it
        // is read by the next build too.
        try edit("content/posts/post-1.md") { $0.replacingOccurrences(of: "one", with: "uno") }
        XCTAssertEqual(read(started: 0), "Post number uno")
        XCTAssertEqual(read(), "Post number uno")
        XCTAssertEqual(reads, 4)
    }
}

/// `blog serve` builds into a folder of its own, which nothing but its builds writes: a build there trusts what the
/// state its process saved says of the published files, instead of looking at each (see IncrementalBuild.build).
extension IncrementalBuildTests {
    /// A build as `blog serve` makes it, into its private output folder.
    @discardableResult
    func privateBuild() throws -> BuildReport {
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
        options.buildsAgain = true
        options.privateOutput = true
        return try Pipeline.build(options)
    }

    /// Edits a post a tick of the file times' clock before the build that follows: a change in the tick the build starts
    /// in leaves the next build no state.
    func editBeforeTheBuild(_ number: Int, _ old: String, _ new: String) throws {
        try edit("content/posts/post-\(number).md") { $0.replacingOccurrences(of: old, with: new) }
        Thread.sleep(forTimeInterval: 0.02)
    }

    /// Writes `text` over the file at `path` of the site in place: the same file (inode), other bytes.
    func overwriteInPlace(_ path: String, _ text: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: site.root.appendingPathComponent(path).path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    func testAPrivateOutputsFilesAreTakenToBeTheOnesItsLastBuildWroteWithoutLooking() throws {
        try pinSlug(4)
        try privateBuild()
        try editBeforeTheBuild(4, "title: Post number 4", "title: Four")
        assertPartial(try privateBuild())
        // The list of a tag post 4 does not have changed in place, which no build of `blog serve` does: not looked at,
        // it stays as it is.
        let page = "public/tags/shell/index.html"
        let original = try XCTUnwrap(site.read(page))
        try overwriteInPlace(page, "changed by hand")
        try editBeforeTheBuild(4, "title: Four", "title: Fourth")
        assertPartial(try privateBuild())
        XCTAssertEqual(site.read(page), "changed by hand")
        try editBeforeTheBuild(4, "More text.", "Other text.")
        assertQuick(try privateBuild(), changed: 1)
        XCTAssertEqual(site.read(page), "changed by hand")
        // Every other file is what a clean build writes.
        try overwriteInPlace(page, original)
        try assertSameAsCleanBuild()
    }

    func testAPrivateOutputIsLookedAtWhenTheStateIsNotOneThisProcessSaved() throws {
        try pinSlug(4)
        try privateBuild()
        try editBeforeTheBuild(4, "title: Post number 4", "title: Four")
        assertPartial(try privateBuild())
        // The same state, in a file this process did not write.
        let state = site.root.appendingPathComponent(".blog-cache/state")
        let copy = site.root.appendingPathComponent(".blog-cache/state.copy")
        try FileManager.default.copyItem(at: state, to: copy)
        XCTAssertEqual(rename(copy.path, state.path), 0)
        let page = "public/tags/shell/index.html"
        try overwriteInPlace(page, "changed by hand")
        try editBeforeTheBuild(4, "More text.", "Other text.")
        assertRebuilt(try privateBuild(), because: "public/tags/shell/index.html is not the file the last build wrote")
        try assertSameAsCleanBuild()
        // Nor in a build into a folder that is not its own (`blog build`), whose state this process saved.
        try overwriteInPlace(page, "changed by hand")
        try editBeforeTheBuild(4, "title: Four", "title: Fourth")
        let report = try quickBuild()
        XCTAssertTrue(report.cacheSummary?.hasPrefix("full build: ") ?? false, report.cacheSummary ?? "no summary")
        try assertSameAsCleanBuild()
    }
}
