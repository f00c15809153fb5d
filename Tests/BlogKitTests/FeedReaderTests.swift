@testable import BlogBuild
@testable import BlogConfig
@testable import BlogContent
import BlogCore
@testable import BlogMarkdown
@testable import BlogOutput
@testable import BlogRender
@testable import BlogSite
import Foundation
import XCTest

/// A small real blog for the feed and sitemap tests: markdown rendered by cmark-gfm, placed by
/// SiteBuilder, with a hidden post, a draft (the build includes drafts, so it is listed), posts in
/// two UTC offsets, a `modified` date, and a title that needs escaping.
enum FeedTestSite {
    static let fishBody = """
    Intro with [a root link](/about/) and [a section](#details), ![a cat](images/cat.png "Cat").

    <!-- more -->

    ## Details

    See [the previous post](../old-1/), [mail](mailto:ana@example.org) and [Swift](https://swift.org/).

    ```html
    <a href="/not-rewritten">code</a>
    ```

    Inline `<img src="inline.png">` code, and text with ]]> in it.

    <picture><source srcset="img/a.png 1x, /img/b.png 2x"><img src="//cdn.example.org/c.png" alt=""></picture>
    """

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func post(_ title: String, slug: String, date: String, modified: String? = nil, tags: [String] = [],
                     author: String? = nil, status: PostStatus = .published, body: String? = nil) -> RenderedPost {
        let body = body ?? "Body of \(title).\n\nSecond paragraph."
        let post = Post(source: "content/\(slug).md", title: title, date: self.date(date), modified: modified.map(self.date),
                        tags: tags.map(Tag.init(name:)), slug: slug, author: author, status: status, body: body)
        return RenderedPost(post: post, rendered: MarkdownRenderer.render(body: body, summary: nil))
    }

    static let posts: [RenderedPost] = [
        post("Fish & Chips <b>", slug: "fish-and-chips", date: "2016-11-25T10:20:00+01:00",
             modified: "2017-08-01T08:00:00+02:00", tags: ["Swift", "iOS"], body: fishBody),
        post("Summer post", slug: "summer-post", date: "2017-07-14T18:00:00+02:00", tags: ["Swift"], author: "Bea Costa"),
        post("Hidden one", slug: "hidden-one", date: "2018-01-01T12:00:00+01:00", tags: ["Swift"], status: .hidden),
        post("Draft one", slug: "draft-one", date: "2018-02-01T12:00:00+01:00", tags: ["Swift", "Drafts"], status: .draft),
        post("Old 1", slug: "old-1", date: "2016-10-03T09:00:00+02:00", tags: ["Notes", "Café"]),
        post("Old 2", slug: "old-2", date: "2016-09-02T09:00:00+02:00", tags: ["Notes"]),
        post("Old 3", slug: "old-3", date: "2016-08-01T09:00:00+02:00", tags: ["Notes"]),
    ]

    static var config: SiteConfig {
        var config = SiteConfig()
        config.title = "Notes & <Thoughts>"
        config.description = "Swift, mostly"
        config.author = "Ana Lima"
        config.baseURL = "https://example.org/blog/"
        config.timeZone = TimeZone(identifier: "Europe/Paris")!
        config.feedLimit = 4
        config.paginate = 2
        return config
    }

    static func build(_ posts: [RenderedPost] = posts, config: SiteConfig = config) throws -> Site {
        try SiteBuilder.build(posts: posts, config: config,
                              options: SiteOptions(includeDrafts: true, now: date("2030-01-01T00:00:00Z")))
    }

    /// Writes `files` under a new temporary folder and returns it.
    static func write(_ files: [OutputFile]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("blog-feeds-\(UUID().uuidString)")
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard case .bytes(let data) = file.contents else { XCTFail("\(file.path) is not made by the build"); continue }
            try data.write(to: url)
        }
        return root
    }

    static func text(_ files: [OutputFile], _ path: String) -> String? {
        guard let file = files.first(where: { $0.path == path }) else { return nil }
        switch file.contents {
        case .bytes(let data): return String(decoding: data, as: UTF8.self)
        case .made(let maker): return (try? maker.make()).map { String(decoding: $0, as: UTF8.self) }
        case .copy: return nil
        }
    }

    /// The file beside this one in `Fixtures/`.
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    /// Runs `arguments` through `/usr/bin/env` (so found on PATH); exit status 127 when the tool is missing.
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Tools here write little to stderr, so reading stdout to its end first cannot block them.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
    }
}

/// The feeds of a real site, read back by a real feed reader (Python's feedparser).
final class FeedReaderTests: XCTestCase {
    var folder: URL!

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// What feedparser saw in the feed at `path` (relative to the rendered folder).
    func read(_ path: String) throws -> [String: Any] {
        let result = try FeedTestSite.run(["python3", FeedTestSite.fixture("read_feed.py").path, folder.appendingPathComponent(path).path])
        if result.status == 3 || result.status == 127 {
            throw XCTSkip("Python 3 with feedparser is needed to read the feeds back: `pip install feedparser` (status \(result.status))")
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stderr)
    }

    func render(_ config: SiteConfig = FeedTestSite.config) throws -> [OutputFile] {
        let files = Feeds.render(try FeedTestSite.build(config: config))
        folder = try FeedTestSite.write(files)
        return files
    }

    func epoch(_ text: String) -> Int { Int(FeedTestSite.date(text).timeIntervalSince1970) }

    let base = "https://example.org/blog/"
    /// The site feed's posts, newest first: hidden and draft left out, cut at feed_limit 4 (Old 3 is fifth).
    lazy var expected: [(title: String, link: String, published: Int, updated: Int, tags: [String], author: String)] = [
        ("Summer post", base + "posts/summer-post/", epoch("2017-07-14T18:00:00+02:00"), epoch("2017-07-14T18:00:00+02:00"), ["Swift"], "Bea Costa"),
        ("Fish & Chips <b>", base + "posts/fish-and-chips/", epoch("2016-11-25T10:20:00+01:00"), epoch("2017-08-01T08:00:00+02:00"),
         ["Swift", "iOS"], "Ana Lima"),
        ("Old 1", base + "posts/old-1/", epoch("2016-10-03T09:00:00+02:00"), epoch("2016-10-03T09:00:00+02:00"), ["Notes", "Café"], "Ana Lima"),
        ("Old 2", base + "posts/old-2/", epoch("2016-09-02T09:00:00+02:00"), epoch("2016-09-02T09:00:00+02:00"), ["Notes"], "Ana Lima"),
    ]

    func entries(_ feed: [String: Any]) -> [[String: Any]] { feed["entries"] as? [[String: Any]] ?? [] }
    func feedInfo(_ feed: [String: Any]) -> [String: Any] { feed["feed"] as? [String: Any] ?? [:] }
    func links(_ feed: [String: Any]) -> [String] {
        (feedInfo(feed)["links"] as? [[String: Any]] ?? []).map { "\($0["rel"] ?? "") \($0["href"] ?? "")" }
    }

    /// What Atom and RSS share: parsed without error, the site's title, updated when its newest
    /// post was (`modified` included), and the expected posts with their links, ids, dates, tags, authors.
    func assertSiteFeed(_ feed: [String: Any], version: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(feed["bozo"] as? Bool, false, "\(feed["bozo_exception"] ?? "")", file: file, line: line)
        XCTAssertEqual(feed["version"] as? String, version, file: file, line: line)
        XCTAssertEqual(feedInfo(feed)["title"] as? String, "Notes & <Thoughts>", file: file, line: line)
        XCTAssertEqual(feedInfo(feed)["updated"] as? Int, epoch("2017-08-01T08:00:00+02:00"), file: file, line: line)
        let items = entries(feed)
        XCTAssertEqual(items.count, 4, "feed_limit posts, hidden and draft left out", file: file, line: line)
        XCTAssertEqual(items.map { $0["title"] as? String }, expected.map(\.title), file: file, line: line)
        XCTAssertEqual(items.map { $0["link"] as? String }, expected.map(\.link), file: file, line: line)
        XCTAssertEqual(items.map { $0["id"] as? String }, expected.map(\.link), file: file, line: line)
        XCTAssertEqual(items.map { $0["published"] as? Int }, expected.map(\.published), file: file, line: line)
        XCTAssertEqual(items.map { $0["tags"] as? [String] ?? [] }, expected.map(\.tags), file: file, line: line)
        XCTAssertEqual(items.map { $0["author"] as? String }, expected.map(\.author), file: file, line: line)
    }

    func testRendersTheFilesTheSiteLinksTo() throws {
        let site = try FeedTestSite.build()
        XCTAssertEqual(Feeds.render(site).map(\.path),
                       ["feed.xml", "rss.xml", "feed.json", "tags/caf\u{e9}/feed.xml", "tags/drafts/feed.xml",
                        "tags/ios/feed.xml", "tags/notes/feed.xml", "tags/swift/feed.xml",
                        "authors/ana-lima/feed.xml", "authors/bea-costa/feed.xml"])
        XCTAssertEqual(Feeds.feedLinks(site: site, term: nil), [
            FeedLink(type: "application/atom+xml", title: "Notes & <Thoughts> (Atom)", href: base + "feed.xml"),
            FeedLink(type: "application/rss+xml", title: "Notes & <Thoughts> (RSS)", href: base + "rss.xml"),
            FeedLink(type: "application/feed+json", title: "Notes & <Thoughts> (JSON Feed)", href: base + "feed.json"),
        ])
        let cafe = try XCTUnwrap(site.tags.first { $0.tag.name == "Café" })
        XCTAssertEqual(Feeds.feedLinks(site: site, term: (.tag, cafe)).last,
                       FeedLink(type: "application/atom+xml", title: "Notes & <Thoughts>: Café (Atom)", href: base + "tags/caf%C3%A9/feed.xml"))
        var pathConfig = FeedTestSite.config
        pathConfig.baseURL = "/blog/"
        let pathSite = try FeedTestSite.build(config: pathConfig)
        XCTAssertEqual(Feeds.feedLinks(site: pathSite, term: nil).map(\.href), ["/blog/feed.xml", "/blog/rss.xml", "/blog/feed.json"])
    }

    func testAtomFeedAsAFeedReaderSeesIt() throws {
        let files = try render()
        let feed = try read("feed.xml")
        assertSiteFeed(feed, version: "atom10")
        XCTAssertEqual(feedInfo(feed)["language"] as? String, "en")
        XCTAssertEqual(links(feed), ["alternate \(base)", "self \(base)feed.xml"])
        let items = entries(feed)
        XCTAssertEqual(items.map { $0["updated"] as? Int }, expected.map(\.updated))

        let fish = items[1]
        let content = try XCTUnwrap((fish["content"] as? [String])?.first)
        XCTAssertTrue(content.contains(#"<a href="https://example.org/about/">a root link</a>"#), content)
        XCTAssertTrue(content.contains(#"<a href="https://example.org/blog/posts/fish-and-chips/#details">"#), content)
        XCTAssertTrue(content.contains(#"<img src="https://example.org/blog/posts/fish-and-chips/images/cat.png" alt="a cat" title="Cat" />"#), content)
        XCTAssertTrue(content.contains(#"<a href="https://example.org/blog/posts/old-1/">"#), content)
        XCTAssertTrue(content.contains(#"<a href="mailto:ana@example.org">"#), content)
        XCTAssertTrue(content.contains(#"srcset="https://example.org/blog/posts/fish-and-chips/img/a.png 1x, https://example.org/img/b.png 2x""#), content)
        XCTAssertTrue(content.contains(#"<img src="//cdn.example.org/c.png""#), content)
        XCTAssertTrue(content.contains("&lt;a href=&quot;/not-rewritten&quot;&gt;"), "code blocks are left as written: \(content)")
        XCTAssertTrue(content.contains("<code>&lt;img src=&quot;inline.png&quot;&gt;</code>"), content)
        XCTAssertTrue(content.contains("text with ]]&gt; in it"), content)
        let summary = try XCTUnwrap(fish["summary"] as? String)
        XCTAssertTrue(summary.hasPrefix("<p>Intro with"), summary)
        XCTAssertFalse(summary.contains("Details"), "the summary stops at <!-- more -->: \(summary)")
        XCTAssertTrue(summary.contains(#"src="https://example.org/blog/posts/fish-and-chips/images/cat.png""#), summary)

        // As written: escaped text, the offset of each date, the author.
        let xml = try XCTUnwrap(FeedTestSite.text(files, "feed.xml"))
        XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">\n"), xml)
        XCTAssertTrue(xml.contains("<title>Fish &amp; Chips &lt;b&gt;</title>"))
        XCTAssertTrue(xml.contains("<published>2016-11-25T10:20:00+01:00</published>"))
        XCTAssertTrue(xml.contains("<updated>2017-08-01T08:00:00+02:00</updated>"))
        XCTAssertTrue(xml.contains("<published>2017-07-14T18:00:00+02:00</published>"))
        XCTAssertTrue(xml.contains(#"<category term="iOS"/>"#))
        XCTAssertTrue(xml.contains("<content type=\"html\">&lt;p&gt;Intro with"))
    }

    func testRSSFeedAsAFeedReaderSeesIt() throws {
        let files = try render()
        let feed = try read("rss.xml")
        assertSiteFeed(feed, version: "rss20")
        XCTAssertEqual(feedInfo(feed)["link"] as? String, base)
        XCTAssertTrue(links(feed).contains("self \(base)rss.xml"), "\(links(feed))")
        let items = entries(feed)
        let content = try XCTUnwrap((items[1]["content"] as? [String])?.first)
        XCTAssertTrue(content.contains(#"<a href="https://example.org/about/">a root link</a>"#), content)
        XCTAssertTrue((items[1]["summary"] as? String ?? "").hasPrefix("<p>Intro with"))

        let xml = try XCTUnwrap(FeedTestSite.text(files, "rss.xml"))
        XCTAssertTrue(xml.contains(#"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/""#), xml)
        XCTAssertTrue(xml.contains("<pubDate>Fri, 25 Nov 2016 10:20:00 +0100</pubDate>"))
        XCTAssertTrue(xml.contains("<pubDate>Fri, 14 Jul 2017 18:00:00 +0200</pubDate>"))
        XCTAssertTrue(xml.contains("<lastBuildDate>Tue, 01 Aug 2017 08:00:00 +0200</lastBuildDate>"))
        XCTAssertTrue(xml.contains(#"<guid isPermaLink="true">https://example.org/blog/posts/summer-post/</guid>"#))
    }

    func testTagFeedHoldsOnlyThatTagsPublishedPosts() throws {
        _ = try render()
        let feed = try read("tags/swift/feed.xml")
        XCTAssertEqual(feed["bozo"] as? Bool, false, "\(feed["bozo_exception"] ?? "")")
        XCTAssertEqual(feedInfo(feed)["title"] as? String, "Notes & <Thoughts>: Swift")
        XCTAssertEqual(links(feed), ["alternate \(base)tags/swift/", "self \(base)tags/swift/feed.xml"])
        XCTAssertEqual(entries(feed).map { $0["title"] as? String }, ["Summer post", "Fish & Chips <b>"],
                       "the hidden and the draft post tagged Swift are left out")
        XCTAssertEqual(entries(feed).map { $0["published"] as? Int }, expected.prefix(2).map(\.published))

        let notes = try read("tags/notes/feed.xml")
        XCTAssertEqual(entries(notes).map { $0["title"] as? String }, ["Old 1", "Old 2", "Old 3"])
        let drafts = try read("tags/drafts/feed.xml")
        XCTAssertEqual(drafts["bozo"] as? Bool, false, "\(drafts["bozo_exception"] ?? "")")
        XCTAssertEqual(entries(drafts).count, 0, "a tag with only a draft has an empty feed")
    }

    func testJSONFeed() throws {
        let files = try render()
        let data = Data(try XCTUnwrap(FeedTestSite.text(files, "feed.json")).utf8)
        let feed = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(feed["version"] as? String, "https://jsonfeed.org/version/1.1")
        XCTAssertEqual(feed["title"] as? String, "Notes & <Thoughts>")
        XCTAssertEqual(feed["home_page_url"] as? String, base)
        XCTAssertEqual(feed["feed_url"] as? String, base + "feed.json")
        XCTAssertEqual(feed["description"] as? String, "Swift, mostly")
        XCTAssertEqual((feed["authors"] as? [[String: String]])?.first?["name"], "Ana Lima")
        let items = try XCTUnwrap(feed["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["title"] as? String }, expected.map(\.title))
        XCTAssertEqual(items.map { $0["id"] as? String }, expected.map(\.link))
        XCTAssertEqual(items.map { $0["url"] as? String }, expected.map(\.link))
        XCTAssertEqual(items.map { $0["tags"] as? [String] ?? [] }, expected.map(\.tags))
        XCTAssertEqual(items.map { ($0["authors"] as? [[String: String]])?.first?["name"] }, expected.map(\.author))
        XCTAssertEqual(items[1]["date_published"] as? String, "2016-11-25T10:20:00+01:00")
        XCTAssertEqual(items[1]["date_modified"] as? String, "2017-08-01T08:00:00+02:00")
        XCTAssertEqual(items[0]["date_published"] as? String, "2017-07-14T18:00:00+02:00")
        let summary = try XCTUnwrap(items[1]["summary"] as? String)
        XCTAssertTrue(summary.hasPrefix("Intro with a root link and a section"), summary)
        XCTAssertFalse(summary.contains("<"), "JSON Feed's summary is plain text: \(summary)")
        let content = try XCTUnwrap(items[1]["content_html"] as? String)
        XCTAssertTrue(content.contains(#"src="https://example.org/blog/posts/fish-and-chips/images/cat.png""#), content)
        XCTAssertTrue(content.contains("<h2"), "the whole post: \(content)")
    }

    func testSummaryContentLeavesTheBodyOut() throws {
        var config = FeedTestSite.config
        config.feedContent = .summary
        let files = try render(config)
        let atom = try read("feed.xml"), rss = try read("rss.xml")
        for feed in [atom, rss] {
            XCTAssertEqual(feed["bozo"] as? Bool, false)
            XCTAssertEqual(entries(feed).count, 4)
            XCTAssertEqual(entries(feed).map { ($0["content"] as? [String])?.count ?? 0 }, [0, 0, 0, 0])
            XCTAssertTrue((entries(feed)[1]["summary"] as? String ?? "").contains("https://example.org/blog/posts/fish-and-chips/images/cat.png"))
        }
        XCTAssertFalse(try XCTUnwrap(FeedTestSite.text(files, "feed.xml")).contains("<content"))
        XCTAssertFalse(try XCTUnwrap(FeedTestSite.text(files, "rss.xml")).contains("content:encoded>"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(FeedTestSite.text(files, "feed.json")).utf8)) as? [String: Any])
        let fish = try XCTUnwrap((json["items"] as? [[String: Any]])?[1]["content_html"] as? String)
        XCTAssertTrue(fish.hasPrefix("<p>Intro with"), fish)
        XCTAssertFalse(fish.contains("Details"), "only the summary: \(fish)")
    }

    func testTextXMLCannotCarryIsLeftOutAndTheFeedStillParses() throws {
        var posts = FeedTestSite.posts
        posts.append(FeedTestSite.post("Bell\u{07} & tab\tend", slug: "bell", date: "2020-01-01T00:00:00Z"))
        let files = Feeds.render(try FeedTestSite.build(posts))
        folder = try FeedTestSite.write(files)
        for path in ["feed.xml", "rss.xml"] {
            let feed = try read(path)
            XCTAssertEqual(feed["bozo"] as? Bool, false, "\(path): \(feed["bozo_exception"] ?? "")")
            XCTAssertEqual(entries(feed).first?["title"] as? String, "Bell & tab\tend")
        }
    }

    func testSameSiteGivesTheSameBytes() throws {
        func bytes(_ files: [OutputFile]) -> [String] {
            files.map { file in
                guard case .bytes(let data) = file.contents else { return file.path }
                return file.path + "\n" + String(decoding: data, as: UTF8.self)
            }
        }
        let first = bytes(Feeds.render(try FeedTestSite.build()))
        XCTAssertEqual(bytes(Feeds.render(try FeedTestSite.build())), first)
        XCTAssertEqual(bytes(Feeds.render(try FeedTestSite.build(FeedTestSite.posts.reversed()))), first,
                       "the order posts are read in does not matter")
    }

    func testWarnsWhenBaseURLIsOnlyAPath() throws {
        XCTAssertEqual(Feeds.warnings(config: FeedTestSite.config), [])
        var config = FeedTestSite.config
        config.baseURL = "/blog/"
        let warnings = Feeds.warnings(config: config, path: "site/blog.yml")
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?.severity, .warning)
        XCTAssertTrue(warnings.first?.description.hasPrefix("site/blog.yml:1:1: warning: `base_url` is only a path (\"/blog/\")") == true,
                      "\(warnings)")
        XCTAssertTrue(warnings.first?.message.contains("https://example.org/blog/") == true)
        // The feeds are still made, with paths.
        let atom = try XCTUnwrap(FeedTestSite.text(Feeds.render(try FeedTestSite.build(config: config)), "feed.xml"))
        XCTAssertTrue(atom.contains("<id>/blog/posts/summer-post/</id>"), atom)
        XCTAssertTrue(atom.contains("src=&quot;/blog/posts/fish-and-chips/images/cat.png&quot;"), atom)
    }

    func testEmptyFeedHasAFixedDateNotTheClock() throws {
        let site = try FeedTestSite.build([FeedTestSite.post("Only hidden", slug: "h", date: "2020-01-01T00:00:00Z", status: .hidden)])
        let atom = try XCTUnwrap(FeedTestSite.text(Feeds.render(site), "feed.xml"))
        XCTAssertTrue(atom.contains("<updated>1970-01-01T01:00:00+01:00</updated>"), atom)
        XCTAssertFalse(atom.contains("<entry>"))
        let rss = try XCTUnwrap(FeedTestSite.text(Feeds.render(site), "rss.xml"))
        XCTAssertFalse(rss.contains("lastBuildDate"))
    }

    /// The writer's bytes, piece by piece: the declaration, indentation, attributes and texts escaped, text of several
    /// bytes a character, a fragment (an empty one too) put in at its depth, the range of an escaped text in bytes, and
    /// more bytes than the buffer starts with (it grows without `reserve`).
    func testXMLWriterWritesTheDocumentItsPiecesSay() throws {
        let long = String(repeating: "été <b>&amp;</b>\u{1} ", count: 100)
        var entry = XMLWriter(fragmentDepth: 1)
        entry.open("entry")
        entry.element("title", text: "Café & <thé>")
        let range = entry.element("content", [("type", "html")], escaping: long)
        entry.close()
        let fragment = entry.bytes()
        XCTAssertEqual(String(decoding: fragment[range], as: UTF8.self), Escaping.xml(long))

        var xml = XMLWriter()
        xml.open("feed", [("xmlns", "http://www.w3.org/2005/Atom"), ("xml:lang", "pt-\"BR\"")])
        xml.element("link", [("rel", "self"), ("href", "https://example.org/?a=1&b=ç")], text: nil)
        let start = xml.count
        xml.append(fragment: fragment)
        xml.append(fragment: [])
        xml.close()
        let text = String(decoding: xml.data(), as: UTF8.self)
        let expected = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="pt-&quot;BR&quot;">
              <link rel="self" href="https://example.org/?a=1&amp;b=ç"/>
              <entry>
                <title>Café &amp; &lt;thé&gt;</title>
                <content type="html">\(Escaping.xml(long))</content>
              </entry>
            </feed>

            """
        XCTAssertEqual(text, expected)
        XCTAssertEqual(Array(text.utf8)[start + range.lowerBound..<start + range.upperBound], Array(Escaping.xml(long).utf8)[...])
    }
}
