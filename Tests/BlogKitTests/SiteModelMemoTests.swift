@testable import BlogBuild
@testable import BlogConfig
@testable import BlogContent
@testable import BlogCore
@testable import BlogIncremental
@testable import BlogMarkdown
@testable import BlogSite
import XCTest

/// The related posts and term notes `blog serve` keeps between site models (``SiteModelMemo``): given back only
/// while every post's terms, date, kind, file and place are as they were, and then the same as a site model made
/// without the memo.
final class SiteModelMemoTests: XCTestCase {
    private func post(_ number: Int, day: Int, tags: [String], category: String? = nil, title: String? = nil) -> RenderedPost {
        let title = title ?? "Post \(number)"
        let post = Post(source: "content/posts/p\(number).md", title: title,
                        date: Date(timeIntervalSince1970: 1_600_000_000 + Double(day) * 86_400),
                        tags: tags.map(Tag.init(name:)), category: category.map(Tag.init(name:)),
                        slug: "p\(number)", status: .published, body: "Body \(number)")
        return RenderedPost(post: post, rendered: RenderedMarkdown(html: "<p>\(number)</p>", summaryHTML: "", headings: []))
    }

    private func posts() -> [RenderedPost] {
        (0..<30).map { number in
            post(number, day: number, tags: [["Swift", "tools"], ["shell"], ["Swift"], []][number % 4],
                 category: number % 5 == 0 ? nil : (number % 2 == 0 ? "Café" : "Cafe"))
        }
    }

    private var config: SiteConfig {
        var config = SiteConfig()
        config.relatedPosts = 3
        config.permalinks = PermalinkPreset.pelican.permalinks
        return config
    }

    /// The site model of `posts` with `memo`, its notes through the memo as the pipeline asks for them; and the same
    /// made without a memo.
    private func models(_ posts: [RenderedPost], memo: SiteModelMemo) throws -> (kept: (Site, [Diagnostic]), made: (Site, [Diagnostic])) {
        let options = SiteOptions(now: Date(timeIntervalSince1970: 2_000_000_000))
        let kept = try SiteBuilder.build(posts: posts, config: config, options: options, memo: memo)
        let keptNotes = memo.mergedTermNotes(kept) { SiteBuilder.mergedTermNotes(kept) }
        let made = try SiteBuilder.build(posts: posts, config: config, options: options)
        return ((kept, keptNotes), (made, SiteBuilder.mergedTermNotes(made)))
    }

    private func assertSame(_ posts: [RenderedPost], memo: SiteModelMemo, kept: Int, _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let (withMemo, without) = try models(posts, memo: memo)
        XCTAssertEqual(memo.kept, kept, what, file: file, line: line)
        XCTAssertEqual(withMemo.0.related, without.0.related, what, file: file, line: line)
        XCTAssertEqual(withMemo.1, without.1, what, file: file, line: line)
    }

    func testKeptOnlyWhileEveryPostsTermsDatesAndOrderAreAsTheyWere() throws {
        let memo = SiteModelMemo()
        var posts = posts()
        try assertSame(posts, memo: memo, kept: 0, "the first build makes them")
        let (site, notes) = try models(posts, memo: memo).kept
        XCTAssertEqual(memo.kept, 2, "the same posts: both given back")
        XCTAssertTrue(site.related.contains { !$0.isEmpty })
        XCTAssertTrue(notes.contains { $0.message.contains("has the URL /category/cafe.html") }, "\(notes)")
        // A title edit leaves them.
        posts[7] = post(7, day: 7, tags: [], category: "Cafe", title: "Seven, renamed")
        try assertSame(posts, memo: memo, kept: 2, "a title edit")
        // A related post gains a tag; a tag is renamed (same slug, another name: the note names it); a date moves a
        // post in the order; a post's category changes spelling.
        posts[3] = post(3, day: 3, tags: ["Swift", "shell"], category: "Cafe")
        try assertSame(posts, memo: memo, kept: 0, "a tag gained")
        try assertSame(posts, memo: memo, kept: 2, "as it was")
        posts[3] = post(3, day: 3, tags: ["swift", "shell"], category: "Cafe")
        try assertSame(posts, memo: memo, kept: 0, "a tag spelled otherwise")
        posts[10] = post(10, day: 40, tags: ["shell"], category: "Café")
        try assertSame(posts, memo: memo, kept: 0, "a post's date changed its place")
        posts[1] = post(1, day: 1, tags: ["shell"], category: "Café")
        try assertSame(posts, memo: memo, kept: 0, "the first spelling of a category changed")
        try assertSame(Array(posts.dropLast()), memo: memo, kept: 0, "a post gone")
        memo.forget()
        try assertSame(Array(posts.dropLast()), memo: memo, kept: 0, "forgotten")
    }

    /// The whole site model, every field, as text: a site given back is compared with one made without the memo.
    private func text(_ site: Site) -> String {
        var text = ""
        dump(site, to: &text)
        return text
    }

    func testTheSiteIsGivenBackOnlyWhenThePostsDifferInWhatThePagesShow() throws {
        let memo = SiteModelMemo()
        var posts = posts()
        // Two posts of one day: their titles order them. Two posts' files differ only by case.
        posts[20] = post(20, day: 21, tags: ["shell"], category: "Cafe")
        posts[25].post.saveAs = "P5.html"
        func assertSite(kept: Bool, _ what: String, now: Double = 2_000_000_000, file: StaticString = #filePath, line: UInt = #line) throws {
            let options = SiteOptions(now: Date(timeIntervalSince1970: now))
            let withMemo = try SiteBuilder.build(posts: posts, config: config, options: options, memo: memo)
            XCTAssertEqual(memo.keptSite, kept, what, file: file, line: line)
            let made = try SiteBuilder.build(posts: posts, config: config, options: options)
            XCTAssertEqual(text(withMemo), text(made), what, file: file, line: line)
            let collisions = memo.caseCollisions(withMemo) { SiteBuilder.caseCollisions(withMemo) }
            XCTAssertEqual(collisions, SiteBuilder.caseCollisions(made), what, file: file, line: line)
            XCTAssertTrue(collisions.contains { $0.message.contains("differs only by case") }, what, file: file, line: line)
        }
        try assertSite(kept: false, "the first build makes it")
        try assertSite(kept: true, "the same posts")
        posts[7] = post(7, day: 7, tags: [], category: "Cafe", title: "Seven, renamed")
        try assertSite(kept: true, "a title edit")
        posts[7].post.body = "A new body."
        posts[7].post.summary = "A summary."
        try assertSite(kept: true, "a body and a summary")
        posts[21] = post(21, day: 21, tags: ["shell"], category: "Cafe", title: "Post 21, after Post 20 still")
        try assertSite(kept: true, "a title that keeps its place among the posts of its date")
        posts[21] = post(21, day: 21, tags: ["shell"], category: "Cafe", title: "A title before Post 20's")
        try assertSite(kept: false, "a title that breaks a tie of dates")
        posts[9].post.slug = "nine"
        try assertSite(kept: false, "a slug")
        posts[9].post.meta["series"] = .string("A tour")
        try assertSite(kept: false, "a series")
        posts[9].post.status = .draft
        try assertSite(kept: false, "a draft")
        posts[11] = post(11, day: 11, tags: ["shell"], category: "Café")
        try assertSite(kept: false, "a tag")
        try assertSite(kept: true, "as it was")
        posts[12] = post(12, day: 20_000, tags: ["shell"], category: "Cafe")
        try assertSite(kept: false, "a post in the future")
        try assertSite(kept: false, "that post due", now: 1_600_000_000 + 20_001 * 86_400)
        posts.removeLast()
        try assertSite(kept: false, "a post gone", now: 1_600_000_000 + 20_001 * 86_400)
        memo.forget()
        try assertSite(kept: false, "forgotten", now: 1_600_000_000 + 20_001 * 86_400)
    }

    /// The site given back is the memo's, its changed posts put in: when the build that had it let go of it, the posts'
    /// storage is changed in place, not copied (at 10,000 posts a copy of every post was 2% of a title edit's samples).
    func testTheChangedPostsArePutInTheKeptSitesPostsInPlace() throws {
        let memo = SiteModelMemo()
        var posts = posts()
        let options = SiteOptions(now: Date(timeIntervalSince1970: 2_000_000_000))
        func storage(_ site: Site) -> Int { site.posts.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }
        var last = storage(try SiteBuilder.build(posts: posts, config: config, options: options, memo: memo))
        for number in 1...3 {
            posts[7] = post(7, day: 7, tags: [], category: "Cafe", title: "Seven, renamed \(number)")
            let site = try SiteBuilder.build(posts: posts, config: config, options: options, memo: memo)
            XCTAssertTrue(memo.keptSite, "title edit \(number)")
            XCTAssertEqual(site.posts.first { $0.post.source.hasSuffix("/p7.md") }?.post.title, "Seven, renamed \(number)")
            XCTAssertEqual(storage(site), last, "title edit \(number): the kept site's posts, changed in place")
            last = storage(site)
        }
    }

    func testEveryFieldOfAPostIsComparedForItsPlaceOrShownOnly() {
        // A field added to Post is one the site model may read: it must be compared (or said to be only shown).
        let labels = Mirror(reflecting: post(1, day: 1, tags: []).post).children.compactMap(\.label)
        XCTAssertEqual(Set(labels), Set(SiteModelMemo.placingFields + SiteModelMemo.shownFields))
        XCTAssertEqual(labels.count, SiteModelMemo.placingFields.count + SiteModelMemo.shownFields.count)
    }

    func testNotesAreKeptOnlyForTheInputsTheirBuildComparedWith() throws {
        // Notes asked for without a site model made through the memo are made, not given back.
        let memo = SiteModelMemo()
        let posts = posts()
        _ = try models(posts, memo: memo)
        let options = SiteOptions(now: Date(timeIntervalSince1970: 2_000_000_000))
        let other = try SiteBuilder.build(posts: Array(posts.prefix(5)), config: config, options: options)
        var made = false
        _ = memo.mergedTermNotes(other) {
            made = true
            return SiteBuilder.mergedTermNotes(other)
        }
        XCTAssertTrue(made)
    }
}

extension IncrementalBuildTests {
    /// The served build's files and messages are a clean build's, and its messages include one that says `expected`.
    func assertServedAsClean(_ served: BuildReport, _ what: String, saying expected: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        try assertSameAsCleanBuild(file: file, line: line)
        let clean = try build(cache: false, output: "clean")
        XCTAssertEqual(served.warnings.map(\.description), clean.warnings.map(\.description), what, file: file, line: line)
        XCTAssertTrue(served.warnings.contains { $0.message.contains(expected) }, "\(served.warnings)", file: file, line: line)
    }

    /// Replaces `from` with `to` in the file of post `number`.
    func change(post number: Int, _ from: String, _ to: String) throws {
        try edit("content/posts/post-\(number).md") { $0.replacingOccurrences(of: from, with: to) }
    }

    func testServeBuildsAfterTermAndDateEditsWriteWhatACleanBuildWrites() throws {
        // As `blog serve` builds, with related posts and Pelican's URLs (two spellings of a category, one URL: a
        // note): after each edit of a post's terms or date the site and the messages are a clean build's, and a title
        // edit after them keeps the site model's related posts and notes from the build before.
        try site.write("blog.yml", """
        title: Cache Notes
        base_url: https://example.org/blog/
        related_posts: 1
        permalinks: pelican
        """)
        for number in 1...7 {
            try site.write("content/posts/post-\(number).md", """
            Title: Post number \(number)
            Date: 2020-0\(number)-1\(number) 10:00
            Tags: \(number % 3 == 0 ? "Swift, tools" : "shell")
            Category: \(number % 2 == 0 ? "Café" : "Cafe")

            The body of post \(number).
            """)
        }
        func assertSame(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try assertServedAsClean(try serveBuild(), what, saying: "has the URL", file: file, line: line)
        }
        func change(_ number: Int, _ from: String, _ to: String) throws { try self.change(post: number, from, to) }
        try serveBuild()
        try assertSame("a second build")
        // A related post gains a tag; a tag is renamed; a date moves a post among the others; the first spelling of
        // the category changes; then a title edit.
        XCTAssertFalse(try XCTUnwrap(site.read("public/post-number-3.html")).contains("post-number-1.html"))
        try change(1, "Tags: shell", "Tags: Swift, tools")
        try assertSame("a tag gained")
        XCTAssertTrue(try XCTUnwrap(site.read("public/post-number-3.html")).contains("post-number-1.html"), "post 1 is related to 3 now")
        try change(3, "Tags: Swift, tools", "Tags: SwiftUI, tools")
        try assertSame("a tag renamed")
        try change(7, "Date: 2020-07-17", "Date: 2019-07-17")
        try assertSame("a date moved")
        try change(1, "Category: Cafe", "Category: Café")
        try assertSame("the first spelling changed")
        try change(5, "Title: Post number 5", "Title: Five, renamed")
        try assertSame("a title edit")
        XCTAssertEqual(BuildMemo.shared.model.kept, 2, "a title edit keeps the related posts and notes")
        XCTAssertTrue(try XCTUnwrap(site.read("public/category/cafe.html")).contains("Five, renamed"))
        // An editor's save by a new file renamed over the post: the build sees the post's new state (its stat, as the
        // build found it before reading it, is what the next build compares with), and the one after it too.
        let post = site.root.appendingPathComponent("content/posts/post-6.md")
        let saved = try XCTUnwrap(site.read("content/posts/post-6.md")).replacingOccurrences(of: "Date: 2020-06-16", with: "Date: 2020-06-20")
        try Data(saved.utf8).write(to: site.root.appendingPathComponent("content/posts/.post-6.md.tmp"))
        XCTAssertEqual(rename(site.root.appendingPathComponent("content/posts/.post-6.md.tmp").path, post.path), 0)
        try assertSame("a post renamed over")
        XCTAssertTrue(try XCTUnwrap(site.read("public/post-number-6.html")).contains("2020-06-20"))
        try change(6, "Date: 2020-06-20", "Date: 2020-06-21")
        try assertSame("the renamed post edited")
        XCTAssertTrue(try XCTUnwrap(site.read("public/post-number-6.html")).contains("2020-06-21"))
    }
}

extension IncrementalBuildTests {
    func testServeBuildsKeepTheSiteModelOnlyForTitleAndBodyEditsAndWriteWhatACleanBuildWrites() throws {
        // As `blog serve` builds: a title edit keeps the site model (the post put in its place); a title that makes
        // the slug, one that breaks a tie of two posts' dates, a date, a draft and a renamed file make it again; after
        // each the site is a clean build's.
        try site.write("blog.yml", """
        title: Cache Notes
        base_url: https://example.org/blog/
        related_posts: 2
        """)
        for number in 1...6 {
            try site.write("content/posts/post-\(number).md", """
            title: Post number \(number)\(number == 3 ? "" : "\nslug: post-\(number)")
            date: 2020-0\(number)-1\(number == 5 ? 4 : number) 10:00
            tags: \(number % 2 == 0 ? "Swift" : "shell")

            The body of post \(number).
            """)
        }
        // A build in place (nothing or a body changed) makes no site model: nil.
        func assertSame(kept: Bool?, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try serveBuild()
            if let kept { XCTAssertEqual(BuildMemo.shared.model.keptSite, kept, what, file: file, line: line) }
            try assertSameAsCleanBuild(file: file, line: line)
        }
        func change(_ number: Int, _ from: String, _ to: String) throws {
            try edit("content/posts/post-\(number).md") { $0.replacingOccurrences(of: from, with: to) }
        }
        try serveBuild()
        try assertSame(kept: nil, "a second build")
        try change(2, "title: Post number 2", "title: Two, renamed")
        try assertSame(kept: true, "a title edit")
        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("Two, renamed"))
        try change(2, "The body of post 2.", "The new body of post 2.")
        try assertSame(kept: nil, "a body edit, in place")
        try change(2, "title: Two, renamed", "title: Two, once more")
        try assertSame(kept: true, "a title edit after a body edit in place")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-2/index.html")).contains("The new body of post 2."))
        try change(3, "title: Post number 3", "title: Three, renamed")
        try assertSame(kept: false, "a title that makes the slug")
        XCTAssertNotNil(site.read("public/posts/three-renamed/index.html"))
        try change(5, "date: 2020-05-14", "date: 2020-04-14")
        try assertSame(kept: false, "a date")
        try change(5, "title: Post number 5", "title: A, first of its day")
        try assertSame(kept: false, "a title that breaks a tie of dates")
        try change(6, "tags: Swift", "tags: Swift\nstatus: draft")
        try assertSame(kept: false, "a draft")
        try change(1, "title: Post number 1", "title: One, renamed")
        try assertSame(kept: true, "a title edit after them")
        let from = site.root.appendingPathComponent("content/posts/post-4.md")
        XCTAssertEqual(rename(from.path, site.root.appendingPathComponent("content/posts/post-4b.md").path), 0)
        try assertSame(kept: false, "a file renamed")
    }
}

extension IncrementalBuildTests {
    func testServeTitleEditsRenderOnlyTheChangedPostsAndThoseThatDependOnOtherFiles() throws {
        // As `blog serve` builds: with the site model kept, the markdown stage renders the changed posts and the posts
        // whose markdown depends on other files (a picture's size, a `{filename}` link), and takes every other post's
        // markdown and messages from the last build; after each step the site and the messages are a clean build's.
        try site.write("blog.yml", "title: Rendered Once\nbase_url: https://example.org/blog/\nhtml: sanitize\n")
        let bodies = [2: "See [three]({filename}post-3.md).", 4: "![a picture](/blog/images/pic.png)",
                      5: "Some <script>alert(1)</script> text."]
        for number in 1...6 {
            try site.write("content/posts/post-\(number).md", """
            title: Post number \(number)
            slug: post-\(number)
            date: 2020-0\(number)-1\(number) 10:00

            \(bodies[number] ?? "The body of post \(number).")

            A second paragraph.
            """)
        }
        try site.write("content/images/pic.png", data: Data(ImageBytes.png(10, 20)))
        func assertSame(rendered: Int?, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let served = try serveBuild()
            XCTAssertEqual(BuildMemo.shared.model.keptSite, rendered != nil, what, file: file, line: line)
            if let rendered { XCTAssertEqual(BuildMemo.shared.model.renderedPlaces, rendered, what, file: file, line: line) }
            try assertServedAsClean(served, what, saying: "sanitize", file: file, line: line)
        }
        func change(_ number: Int, _ from: String, _ to: String) throws { try self.change(post: number, from, to) }
        func page(_ number: Int) throws -> String { try XCTUnwrap(site.read("public/posts/post-\(number)/index.html")) }
        try serveBuild()
        try change(1, "title: Post number 1", "title: One, renamed")
        try assertSame(rendered: 3, "a title edit: that post, the link and the picture")
        try site.write("content/images/pic.png", data: Data(ImageBytes.png(30, 40)))
        try change(6, "title: Post number 6", "title: Six, renamed")
        try assertSame(rendered: 3, "a title edit and a picture's new size")
        XCTAssertTrue(try page(4).contains("width=\"30\" height=\"40\""))
        try change(3, "title: Post number 3", "title: Three, linked to")
        try assertSame(rendered: 3, "a title edit of the post linked to")
        // The linked post's URL changed: the site model is made again, and the post that links to it is rendered again.
        try change(3, "slug: post-3", "slug: post-three")
        try assertSame(rendered: nil, "the linked post's URL changed")
        XCTAssertTrue(try page(2).contains("/blog/posts/post-three/"))
        try change(3, "title: Three, linked to", "title: Three, moved")
        try assertSame(rendered: 3, "a title edit after the model was made again")
        try change(1, "The body of post 1.", "## A heading\n\nThe new body[^1] of [post one](https://example.org/).\n\n[^1]: A note.")
        try change(1, "title: One, renamed", "title: One, again")
        try assertSame(rendered: 3, "a title and a body with a heading, a link and a footnote")
        XCTAssertTrue(try page(1).contains("A heading"))
        try change(1, "A second paragraph.", "A second paragraph, edited.")
        try serveBuild()  // in place: the site model memo keeps the last build's inputs
        try change(6, "title: Six, renamed", "title: Six, after a body edit")
        try assertSame(rendered: 4, "a title edit after a body edit in place: the post edited then rendered too")
        XCTAssertTrue(try page(1).contains("A second paragraph, edited."))
        try change(5, "Some <script>alert(1)</script> text.", "Other <script>alert(2)</script> text <iframe></iframe>.")
        try change(5, "title: Post number 5", "title: Five, sanitized")
        try assertSame(rendered: 3, "a title and a body with other HTML removed")
        try change(1, "title: One, again", "title: One, with the message kept")
        try assertSame(rendered: 3, "a title edit: the message of post 5 kept")
        // Post 2 no longer links (not rendered again after its edit); post 6 gains a picture (rendered every build).
        try change(2, "See [three]({filename}post-3.md).", "No link now.")
        try change(2, "title: Post number 2", "title: Two, unlinked")
        try change(6, "The body of post 6.", "![the picture](/blog/images/pic.png)")
        try change(6, "title: Six, after a body edit", "title: Six, pictured")
        try assertSame(rendered: 3, "a link gone, a picture added")
        try change(1, "title: One, with the message kept", "title: One, last")
        try assertSame(rendered: 3, "a title edit: the two pictures, not the link gone")
        try site.write("content/images/pic.png", data: Data(ImageBytes.png(50, 60)))
        try change(3, "title: Three, moved", "title: Three, last")
        try assertSame(rendered: 3, "a picture's size again")
        XCTAssertTrue(try page(6).contains("width=\"50\" height=\"60\""))
        // A markdown option changed in blog.yml: every post rendered again, then title edits keep the site.
        try site.write("blog.yml", "title: Rendered Once\nbase_url: https://example.org/blog/\nhtml: sanitize\nmarkdown:\n  smart_punctuation: true\n")
        try assertSame(rendered: nil, "a markdown option changed")
        try change(4, "title: Post number 4", "title: Four, smart")
        try assertSame(rendered: 2, "a title edit after the option: that post and the two pictures")
    }
}
