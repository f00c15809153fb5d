@testable import BlogBuild
@testable import BlogConfig
import XCTest

final class ConfigTests: XCTestCase {
    func testDefaultsWithoutFile() throws {
        let (config, warnings) = try ConfigLoader.load(path: "/nonexistent/blog.yml")
        XCTAssertEqual(config, SiteConfig())
        XCTAssertEqual(config.paginate, 10)
        XCTAssertEqual(config.basePath, "/")
        XCTAssertTrue(warnings.isEmpty)
    }

    func testReadsEverySetting() throws {
        let yaml = """
        title: Notes from the Field
        description: Swift, mostly
        author: Ana Lima
        base_url: https://example.org/blog
        language: pt
        timezone: Europe/Lisbon
        theme: default
        paginate: 5
        date_format: "%d/%m/%Y"
        output: site
        permalinks:
          post: "{year}/{slug}"
          tag: "topics/{slug}/"
        """
        let (config, warnings) = try ConfigLoader.parse(yaml, path: "blog.yml")
        XCTAssertTrue(warnings.isEmpty, "\(warnings)")
        XCTAssertEqual(config.title, "Notes from the Field")
        XCTAssertEqual(config.baseURL, "https://example.org/blog/")
        XCTAssertEqual(config.basePath, "/blog/")
        XCTAssertEqual(config.timeZone.identifier, "Europe/Lisbon")
        XCTAssertEqual(config.paginate, 5)
        XCTAssertEqual(config.output, "site")
        XCTAssertEqual(config.permalinks.post, "{year}/{slug}/")
        XCTAssertEqual(config.permalinks.tag, "topics/{slug}/")
        XCTAssertEqual(config.language, "pt")
    }

    func testFeedSettings() throws {
        XCTAssertEqual(SiteConfig().feedLimit, 20)
        XCTAssertEqual(SiteConfig().feedContent, .full)
        let (config, warnings) = try ConfigLoader.parse("feed_limit: 5\nfeed_content: summary\n", path: "blog.yml")
        XCTAssertTrue(warnings.isEmpty, "\(warnings)")
        XCTAssertEqual(config.feedLimit, 5)
        XCTAssertEqual(config.feedContent, .summary)
        let (full, _) = try ConfigLoader.parse("feed_limit: 1\nfeed_content: full\n", path: "blog.yml")
        XCTAssertEqual(full.feedLimit, 1)
        XCTAssertEqual(full.feedContent, .full)
    }

    func testTagfilter() throws {
        XCTAssertFalse(SiteConfig().tagfilter)
        XCTAssertTrue(try ConfigLoader.parse("tagfilter: true\n", path: "blog.yml").0.tagfilter)
        XCTAssertThrowsError(try ConfigLoader.parse("tagfilter: sometimes\n", path: "blog.yml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:1:12: error: `tagfilter` must be true or false"), "\(error)")
        }
    }

    func testHighlightSettings() throws {
        XCTAssertTrue(SiteConfig().highlight)
        XCTAssertEqual(SiteConfig().highlightStyle, "default")
        let (config, warnings) = try ConfigLoader.parse("highlight: false\nhighlight_style: contrast\n", path: "blog.yml")
        XCTAssertFalse(config.highlight)
        XCTAssertEqual(config.highlightStyle, "contrast")
        XCTAssertEqual(warnings, [])
        XCTAssertThrowsError(try ConfigLoader.parse("highlight: maybe\n", path: "blog.yml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:1:12: error: `highlight` must be true or false"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("highlight_style: ../Dark\n", path: "blog.yml")) { error in
            XCTAssertTrue("\(error)".contains("`highlight_style` must name one of the theme's palettes"), "\(error)")
        }
    }

    func testUnknownKeyIsAWarningWithItsLine() throws {
        let (config, warnings) = try ConfigLoader.parse("title: X\npaginat: 3\n", path: "blog.yml")
        XCTAssertEqual(config.title, "X")
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].description.hasPrefix("blog.yml:2:1: warning: unknown setting `paginat`"), warnings[0].description)
    }

    func testWrongTypesAreErrorsWithTheirLine() {
        let cases: [(String, String)] = [
            ("title: X\npaginate: ten\n", "blog.yml:2:11: error: `paginate` must be a whole number"),
            ("timezone: Mars/Olympus\n", "blog.yml:1:11: error: `timezone` must be a time zone name"),
            ("title: [a, b]\n", "blog.yml:1:8: error: `title` must be a string"),
            ("base_url: ftp:/x\n", "blog.yml:1:11: error: `base_url` must be a URL"),
            ("permalinks:\n  post: \"{year}/{name}/\"\n", "blog.yml:2:9: error: unknown placeholder `{name}`"),
            ("permalinks:\n  post: \"{year}/\"\n", "blog.yml:2:9: error: permalink \"{year}/\" must contain {slug}"),
            ("- a\n- b\n", "blog.yml:1:1: error: expected a mapping of settings"),
            ("title: \"unclosed\n", "blog.yml:1:8: error: invalid YAML: this quoted value is never closed"),
            ("title: X\nfeed_limit: 0\n", "blog.yml:2:13: error: `feed_limit` must be a whole number of posts per feed, 1 or more"),
            ("feed_limit: 2.5\n", "blog.yml:1:13: error: `feed_limit` must be a whole number"),
            ("feed_limit: [5]\n", "blog.yml:1:13: error: `feed_limit` must be a whole number"),
            ("title: X\n\nfeed_content: excerpt\n", "blog.yml:3:15: error: `feed_content` must be `full` (the whole post) or `summary`, got \"excerpt\""),
            ("feed_content: Full\n", "blog.yml:1:15: error: `feed_content` must be `full`"),
            // One line, at the key: not Yams' text, which quotes the whole file.
            ("title: X\noutput: public\npaginate: 5\noutput: .git\n",
             "blog.yml:2:1: error: invalid YAML: the key `output` is set here and again later in this mapping; keep one"),
        ]
        for (yaml, expected) in cases {
            XCTAssertThrowsError(try ConfigLoader.parse(yaml, path: "blog.yml"), yaml) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix(expected), "got: \(text)\nwanted: \(expected)")
                XCTAssertFalse(text.contains("\\u{A}"), "a message is one line: \(text)")
            }
        }
    }

    func testHomeListIsAFolderInsideTheSite() throws {
        XCTAssertEqual(SiteConfig().permalinks.homeList, "blog/")
        for (written, folder) in [("news/", "news/"), ("/news", "news/"), ("a/b", "a/b/"), ("\"/posts/all/\"", "posts/all/")] {
            let (config, warnings) = try ConfigLoader.parse("permalinks:\n  home_list: \(written)\n", path: "blog.yml")
            XCTAssertEqual(config.permalinks.homeList, folder, written)
            XCTAssertEqual(warnings, [], written)
        }
        let cases: [(String, String)] = [
            ("\"/\"", "blog.yml:2:14: error: `permalinks.home_list` must not be the site's root"),
            ("\"../up/\"", "blog.yml:2:14: error: `permalinks.home_list` \"../up/\" must be a folder inside the site"),
            ("https://x.org/a/", "blog.yml:2:14: error: `permalinks.home_list` \"https://x.org/a/\" must be a folder inside the site"),
            ("\"{slug}/\"", "blog.yml:2:14: error: `permalinks.home_list` \"{slug}/\" takes no placeholder"),
            ("list.html", "blog.yml:2:14: error: `permalinks.home_list` \"list.html\" must be a folder such as blog/, not a file"),
            ("[a]", "blog.yml:2:14: error: `permalinks.home_list` must be a string"),
        ]
        for (value, expected) in cases {
            XCTAssertThrowsError(try ConfigLoader.parse("permalinks:\n  home_list: \(value)\n", path: "blog.yml"), value) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "got: \(error)\nwanted: \(expected)")
            }
        }
        let (_, warnings) = try ConfigLoader.parse("permalinks:\n  home: blog/\n", path: "blog.yml")
        XCTAssertEqual(warnings.map(\.description), ["blog.yml:2:3: warning: unknown permalink `home` (known: post, tag, page, draft, draft_page, home_list, category, category_index, author, author_index); ignored"])
    }
}

extension ConfigTests {
    /// `permalinks.category`, `.author` and their indexes: a pattern with `{slug}` (an index: one
    /// page, no placeholder), or `none` for no such pages; a preset sets all four.
    func testCategoryAndAuthorPermalinks() throws {
        var (config, _) = try ConfigLoader.parse("permalinks:\n  category: /topics/{slug}\n  category_index: topics.html\n  author: none\n", path: "blog.yml")
        XCTAssertEqual(config.permalinks.category, TermPatterns(page: "topics/{slug}/", index: "topics.html"))
        XCTAssertNil(config.permalinks.author.page)
        XCTAssertEqual(config.permalinks.author.index, "authors/")
        (config, _) = try ConfigLoader.parse("permalinks:\n  preset: pelican\n  author_index: people/\n", path: "blog.yml")
        XCTAssertEqual(config.permalinks.category.page, "category/{slug}.html")
        XCTAssertEqual(config.permalinks.author, TermPatterns(page: "author/{slug}.html", index: "people/",
                                                              atomFeed: "feeds/{slug}.atom.xml", rssFeed: "feeds/{slug}.rss.xml"))
        for (yaml, problem) in [("category: topics/", "must contain {slug}"), ("author_index: people/{slug}/", "takes no placeholder"),
                                ("category_index: /", "other than its root")] {
            XCTAssertThrowsError(try ConfigLoader.parse("permalinks:\n  \(yaml)\n", path: "blog.yml"), yaml) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(error)")
            }
        }
    }
}
