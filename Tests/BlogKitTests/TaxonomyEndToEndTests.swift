import Foundation
import XCTest

/// Category and author pages, made as tag pages are (one code path for a taxonomy): each term's
/// list of posts newest first, paginated, with its Atom feed; an index of the terms; nothing for a
/// taxonomy the blog doesn't use; collisions are errors; a theme without their templates builds.
final class TaxonomyEndToEndTests: BuiltSiteTestCase {
    /// Five posts by two authors and the site's (one by both, with Pelican's `Authors:`), in two
    /// categories (`Notes` spelt twice), one hidden.
    func writeBlog(_ blogYML: String = "title: Terms\nauthor: Site Owner\nbase_url: https://example.org/\npaginate: 2\n") throws {
        try site.write("blog.yml", blogYML)
        let posts: [(file: String, title: String, date: String, header: String)] = [
            ("a.md", "Alpha", "2020-01-01", "category: Notes\nauthor: Ana"),
            ("b.md", "Bravo", "2020-02-01", "category: notes\nauthor: Bea"),
            ("c.md", "Charlie", "2020-03-01", "category: Travel"),
            ("d.md", "Delta", "2020-04-01", "category: Notes\nauthors: Ana, Bea"),
            ("e.md", "Echo", "2020-05-01", "category: Notes\nauthor: Ana\nstatus: hidden"),
        ]
        for post in posts {
            try site.write("content/posts/\(post.file)", "title: \(post.title)\ndate: \(post.date)\n\(post.header)\n\nThe body of \(post.title).\n")
        }
    }

    /// The titles of the posts a list page shows, in order.
    func titles(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let html = try page(path, file: file, line: line)
        let pattern = try NSRegularExpression(pattern: #"<h2 class="post-title"><a href="[^"]*">([^<]*)</a>"#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            String(html[Range($0.range(at: 1), in: html)!])
        }
    }

    func testCategoryAndAuthorPagesListTheirPostsNewestFirst() throws {
        try writeBlog()
        try build(["--no-cache"])
        // `Notes` and `notes` are one category, named by the oldest spelling; the hidden post is in no list.
        XCTAssertEqual(try titles("categories/notes/index.html"), ["Delta", "Bravo"])
        XCTAssertEqual(try titles("categories/notes/page/2/index.html"), ["Alpha"])
        XCTAssertTrue(try page("categories/notes/index.html").contains("<h1 class=\"page-title\">Posts in “Notes”</h1>"))
        XCTAssertEqual(try titles("categories/travel/index.html"), ["Charlie"])
        // A post with two authors is on both pages; one without is the site author's.
        XCTAssertEqual(try titles("authors/ana/index.html"), ["Delta", "Alpha"])
        XCTAssertEqual(try titles("authors/bea/index.html"), ["Delta", "Bravo"])
        XCTAssertEqual(try titles("authors/site-owner/index.html"), ["Charlie"])
        XCTAssertTrue(try page("authors/ana/index.html").contains("<h1 class=\"page-title\">Posts by Ana</h1>"))

        let categories = try page("categories/index.html")
        XCTAssertTrue(categories.contains("<li><a href=\"/categories/notes/\" rel=\"tag\">Notes</a> <span class=\"count\">3</span></li>\n<li><a href=\"/categories/travel/\" rel=\"tag\">Travel</a> <span class=\"count\">1</span></li>"), categories)
        let authors = try page("authors/index.html")
        for (slug, name, count) in [("ana", "Ana", 2), ("bea", "Bea", 2), ("site-owner", "Site Owner", 1)] {
            XCTAssertTrue(authors.contains("<li><a href=\"/authors/\(slug)/\" rel=\"tag\">\(name)</a> <span class=\"count\">\(count)</span></li>"), authors)
        }

        // The post page links its category and each author; a category's page links the index.
        let delta = try page("posts/delta/index.html")
        XCTAssertTrue(delta.contains("<span class=\"author\"><a href=\"/authors/ana/\" rel=\"author\">Ana</a>, <a href=\"/authors/bea/\" rel=\"author\">Bea</a></span>"), delta)
        XCTAssertTrue(delta.contains("<span class=\"category\"><a href=\"/categories/notes/\">Notes</a></span>"), delta)
        XCTAssertTrue(try page("categories/notes/index.html").contains("<a href=\"/categories/\">All categories</a>"))

        // Each term has its Atom feed, linked from its pages' head; the sitemap lists every page.
        let feed = try page("categories/notes/feed.xml")
        XCTAssertEqual(feed.components(separatedBy: "<entry>").count - 1, 3)
        XCTAssertLessThan(try XCTUnwrap(feed.range(of: "Delta")).lowerBound, try XCTUnwrap(feed.range(of: "Alpha")).lowerBound)
        XCTAssertFalse(feed.contains("Echo"), "hidden posts are in no feed")
        XCTAssertTrue(try page("categories/notes/index.html").contains("href=\"https://example.org/categories/notes/feed.xml\""))
        XCTAssertTrue(site.exists("public/authors/ana/feed.xml"))
        let sitemap = try page("sitemap.xml")
        for url in ["categories/", "categories/notes/", "categories/notes/page/2/", "categories/travel/", "authors/", "authors/ana/", "authors/site-owner/"] {
            XCTAssertTrue(sitemap.contains("<loc>https://example.org/\(url)</loc>"), url)
        }
    }

    func testTermFeedsAsAFeedReaderSeesThem() throws {
        try writeBlog()
        try build(["--no-cache"])
        for path in ["categories/notes/feed.xml", "authors/bea/feed.xml"] {
            let result = try FeedTestSite.run(["python3", FeedTestSite.fixture("read_feed.py").path, site.root.appendingPathComponent("public/" + path).path])
            if result.status == 3 || result.status == 127 { throw XCTSkip("Python 3 with feedparser is needed to read the feeds back") }
            XCTAssertEqual(result.status, 0, result.stderr)
            let feed = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            XCTAssertEqual(feed["bozo"] as? Bool, false, "\(feed["bozo_exception"] ?? "")")
            XCTAssertEqual(feed["version"] as? String, "atom10")
            let entries = (feed["entries"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
            XCTAssertEqual(entries, path.hasPrefix("categories") ? ["Delta", "Bravo", "Alpha"] : ["Delta", "Bravo"], path)
        }
    }

    func testNoPagesForATaxonomyTheBlogDoesNotUse() throws {
        // No categories, and every post by the site's author (named or not): neither kind has pages.
        try site.write("blog.yml", "title: Solo\nauthor: Ana\n")
        try site.write("content/posts/a.md", "title: One\ndate: 2020-01-01\n\nOne.\n")
        try site.write("content/posts/b.md", "title: Two\ndate: 2020-01-02\nauthor: Ana\n\nTwo.\n")
        try build(["--no-cache"])
        let files = site.files(under: "public")
        XCTAssertFalse(files.contains { $0.hasPrefix("categories/") || $0.hasPrefix("authors/") }, "\(files)")
        XCTAssertTrue(try page("posts/two/index.html").contains("<span class=\"author\">Ana</span>"), "no author page: no link")
        // Nor when one author, not the site's, wrote every post; a second author makes pages for both.
        try site.write("blog.yml", "title: Solo\n")
        try site.write("content/posts/a.md", "title: One\ndate: 2020-01-01\nauthor: Ana\n\nOne.\n")
        try build(["--no-cache"])
        XCTAssertFalse(site.files(under: "public").contains { $0.hasPrefix("authors/") })
        try site.write("content/posts/c.md", "title: Three\ndate: 2020-01-03\nauthor: Bea\n\nThree.\n")
        try build(["--no-cache"])
        XCTAssertTrue(site.exists("public/authors/ana/index.html") && site.exists("public/authors/bea/index.html"))
    }

    func testPresetsAndPermalinksChooseWhetherAndWhere() throws {
        try writeBlog("title: Terms\nauthor: Site Owner\npermalinks:\n  category: topics/{slug}.html\n  category_index: topics.html\n  author: none\n")
        try build(["--no-cache"])
        var files = site.files(under: "public")
        XCTAssertTrue(files.contains("topics/notes.html") && files.contains("topics.html") && files.contains("topics/notes/feed.xml"), "\(files)")
        XCTAssertFalse(files.contains { $0.hasPrefix("authors/") }, "`author: none` makes no author pages")
        XCTAssertTrue(try page("posts/delta/index.html").contains("<span class=\"author\">Ana, Bea</span>"))
        // Jekyll makes no category or author pages by itself.
        try site.write("blog.yml", "title: Terms\nauthor: Site Owner\npermalinks: jekyll\n")
        try build(["--no-cache"])
        files = site.files(under: "public")
        XCTAssertFalse(files.contains { $0.contains("categor") || $0.contains("author") }, "\(files)")
    }

    func testTwoTermsWithOneURLAreOneTermAndAPostWantingItsURLAnError() throws {
        // Pelican's ASCII slugs: `Café` and `Cafe` have one URL, so they are one category, as in Pelican, with a note.
        try site.write("blog.yml", "title: Terms\nbase_url: https://example.org/\npermalinks: pelican\n")
        try site.write("content/posts/a.md", "Title: One\nDate: 2020-01-01\nCategory: Café\n\nOne.\n")
        try site.write("content/posts/b.md", "Title: Two\nDate: 2020-01-02\nCategory: Cafe\n\nTwo.\n")
        var result = try BlogCLI.run(["build", "--no-cache", "--strict"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("content/posts/b.md:1:1: note: category \"Cafe\" has the URL /category/cafe.html of category \"Café\""), result.stderr)
        let category = try page("category/cafe.html")
        XCTAssertTrue(category.contains("href=\"/one.html\"") && category.contains("href=\"/two.html\""), category)
        XCTAssertTrue(try page("two.html").contains("href=\"/category/cafe.html\""), "the post links its category's one page")
        XCTAssertEqual(site.files(under: "public/category"), ["cafe.html"])
        // A post whose header asks for a category's URL is at fault, at its file.
        try site.write("blog.yml", "title: Terms\n")
        try site.write("content/posts/b.md", "Title: Two\nDate: 2020-01-02\nCategory: Café\nURL: /categories/café/\n\nTwo.\n")
        result = try BlogCLI.run(["build", "--no-cache"], in: site.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("content/posts/b.md:1:1: error: URL /categories/café/ is also wanted by the page of category \"Café\""), result.stderr)
    }

    func testAThemeWithoutTheTemplatesShowsThemAsTags() throws {
        try writeBlog("title: Terms\nauthor: Site Owner\ntheme: plain\n")
        for name in ["post", "index", "archives", "404"] {
            try site.write("themes/plain/templates/\(name).mustache", "{{page.title}}\n")
        }
        try site.write("themes/plain/templates/tag.mustache", "tag {{tag.name}}:{{#posts}} {{title}}{{/posts}}\n")
        try site.write("themes/plain/templates/tags.mustache", "tags:{{#tags}} {{name}}={{count}}{{/tags}}\n")
        try build(["--no-cache"])
        XCTAssertEqual(try page("categories/notes/index.html"), "tag Notes: Delta Bravo Alpha\n")
        XCTAssertEqual(try page("authors/site-owner/index.html"), "tag Site Owner: Charlie\n")
        XCTAssertEqual(try page("categories/index.html"), "tags: Notes=3 Travel=1\n")
        XCTAssertEqual(try page("authors/index.html"), "tags: Ana=2 Bea=2 Site Owner=1\n")
        XCTAssertEqual(try page("tags/index.html"), "tags:\n", "the tags index still shows the tags")
    }

    func testHugoSectionListsAndTaxonomyIndexFeeds() throws {
        try site.write("blog.yml", "title: Sections\nbase_url: https://example.org/\npaginate: 2\npermalinks: hugo\n")
        for (path, title, date, tags) in [("posts/a.md", "Alpha", "2020-01-01", "[x]"), ("posts/b.md", "Bravo", "2020-02-01", "[x, y]"),
                                          ("posts/c.md", "Charlie", "2020-03-01", "[y]"), ("notes/deep/d.md", "Delta", "2020-04-01", "[]"),
                                          ("news/e.md", "Echo", "2020-05-01", "[]"), ("top.md", "Top", "2020-06-01", "[]")] {
            try site.write("content/" + path, "---\ntitle: \(title)\ndate: \(date)\ntags: \(tags)\n---\nThe body of \(title).\n")
        }
        // A section with its own `_index.md` keeps that page at its URL: no list is made there.
        try site.write("content/news/_index.md", "---\ntitle: All the news\n---\nNews.\n")
        try build(["--no-cache"])
        XCTAssertEqual(try titles("posts/index.html"), ["Charlie", "Bravo"])
        XCTAssertEqual(try titles("posts/page/2/index.html"), ["Alpha"])
        XCTAssertTrue(try page("posts/index.html").contains("<h1 class=\"page-title\">Posts</h1>"))
        XCTAssertTrue(try page("posts/page/1/index.html").contains("https://example.org/posts/"), "page/1/ sends to the first page")
        XCTAssertEqual(try titles("notes/index.html"), ["Delta"], "a section is the top folder")
        XCTAssertTrue(try page("news/index.html").contains("All the news"))
        let postsFeed = try page("posts/index.xml")
        XCTAssertEqual(postsFeed.components(separatedBy: "<entry>").count - 1, 3)
        // The tags index's feed: a term per entry, newest first by its newest post.
        let tagsFeed = try page("tags/index.xml")
        let terms = tagsFeed.components(separatedBy: "<entry>").dropFirst().map { entry in
            String(entry[entry.range(of: "<title>")!.upperBound..<entry.range(of: "</title>")!.lowerBound])
        }
        XCTAssertEqual(terms, ["y", "x"])
        XCTAssertTrue(tagsFeed.contains("<summary type=\"html\">2 posts</summary>"))
        // Without the preset there are no section lists.
        try site.write("blog.yml", "title: Sections\n")
        try build(["--no-cache"])
        XCTAssertFalse(site.exists("public/posts/index.html") || site.exists("public/notes/index.html") || site.exists("public/tags/index.xml"))
    }

    func testPelicanLanguageFeedsHoldEachLanguagesPostsAndTranslations() throws {
        try site.write("blog.yml", "title: Langs\npermalinks: pelican\n")
        try site.write("content/posts/a.md", "Title: Hello\nDate: 2020-01-01\nSlug: hello\n\nHello.\n")
        try site.write("content/posts/a-fr.md", "Title: Bonjour\nDate: 2020-01-02\nSlug: hello\nLang: fr\n\nBonjour.\n")
        try site.write("content/posts/b.md", "Title: Only French\nDate: 2020-01-03\nLang: fr\n\nSeul.\n")
        try build(["--no-cache"])
        func titles(_ path: String) throws -> [String] {
            try page(path).components(separatedBy: "<entry>").dropFirst().map { entry in
                String(entry[entry.range(of: "<title>")!.upperBound..<entry.range(of: "</title>")!.lowerBound])
            }
        }
        XCTAssertEqual(try titles("feeds/all-en.atom.xml"), ["Hello"])
        XCTAssertEqual(try titles("feeds/all-fr.atom.xml"), ["Only French", "Bonjour"])
    }
}
