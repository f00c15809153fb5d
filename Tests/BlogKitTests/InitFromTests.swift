@testable import BlogConfig
@testable import BlogScaffold
import XCTest

/// `blog init --from DIR`: what it tells from an existing blog, and that it never overwrites blog.yml.
final class InitFromTests: XCTestCase {
    /// Writes `files` into a new blog folder, runs `blog init --from .` there, and returns the
    /// blog.yml it wrote read back as settings (nil when the command failed).
    func initFrom(_ files: [String: String]) throws -> (SiteConfig?, String, BlogCLI.Result) {
        let site = try TempSite()
        defer { site.remove() }
        for (path, text) in files { try site.write(path, text) }
        let result = try BlogCLI.run(["init", "--from", "."], in: site.root)
        let text = site.read("blog.yml") ?? ""
        guard result.status == 0 else { return (nil, text, result) }
        let (config, warnings) = try ConfigLoader.parse(text, path: "blog.yml")
        XCTAssertEqual(warnings, [], text)
        return (config, text, result)
    }

    func testPelicanSettingsAndURLPatterns() throws {
        let (config, text, _) = try initFrom([
            "pelicanconf.py": """
            AUTHOR = 'Ada'
            SITENAME = "Ada's \\"notes\\""
            SITENAME = 'Ada: notes'  # the last one wins, as in Python
            SITEURL = ''
            TIMEZONE = 'Europe/Paris'
            DEFAULT_PAGINATION = 5
            ARTICLE_URL = 'blog/{date:%Y}/{slug}/'
            ARTICLE_SAVE_AS = 'blog/{date:%Y}/{slug}/index.html'
            PAGE_URL = '{slug}.html'
            TAG_URL = 'tag/{name}.html'
            THEME = os.path.join(HERE, 'theme')
            """,
            "publishconf.py": "from pelicanconf import *\nSITEURL = 'https://ada.example'\n",
            "content/posts/a.md": "Title: A\nDate: 2020-01-01\n\nA.\n",
        ])
        let c = try XCTUnwrap(config, text)
        XCTAssertEqual(c.title, "Ada: notes")
        XCTAssertEqual(c.baseURL, "https://ada.example/")
        XCTAssertEqual(c.timeZone.identifier, "Europe/Paris")
        XCTAssertEqual(c.paginate, 5)
        XCTAssertEqual(c.permalinks.preset, .pelican)
        XCTAssertEqual(c.permalinks.post, "blog/{year}/{slug}/")
        XCTAssertEqual(c.permalinks.page, "{slug}.html")
        XCTAssertEqual(c.permalinks.tag, "tag/{slug}.html", "a pattern blog can't follow keeps the preset's, with a comment")
        XCTAssertTrue(text.contains("# TAG_URL \"tag/{name}.html\" can't be followed"), text)
    }

    func testJekyllPermalinkStylesAndAddress() throws {
        let cases: [(String, PermalinkPreset, String)] = [
            ("", .jekyll, "{categories}/{year}/{month}/{day}/{slug}.html"),
            ("permalink: pretty\n", .jekyllPretty, "{categories}/{year}/{month}/{day}/{slug}/"),
            ("permalink: /:year/:title/\n", .jekyll, "{year}/{slug}/"),
            ("permalink: none\n", .jekyll, "{categories}/{slug}.html"),
            ("permalink: /:year/:i_day/:title/\n", .jekyll, "{categories}/{year}/{month}/{day}/{slug}.html"),
        ]
        for (line, preset, post) in cases {
            let (config, text, result) = try initFrom([
                "_config.yml": "title: Notes\nurl: https://x.example\nbaseurl: /blog\npaginate: 3\n" + line,
                "_posts/2020-01-02-a.md": "---\ntitle: A\n---\nA.\n",
            ])
            let c = try XCTUnwrap(config, result.stderr)
            XCTAssertEqual(c.permalinks.preset, preset, line)
            XCTAssertEqual(c.permalinks.post, post, line + text)
            XCTAssertEqual(c.content, "_posts")
            XCTAssertEqual(c.baseURL, "https://x.example/blog/")
            XCTAssertEqual(c.paginate, 3)
        }
    }

    func testHugoSettingsAndPathCase() throws {
        let (config, text, _) = try initFrom([
            "config.toml": "baseURL = 'https://h.example/'\ntitle = 'H'\ndisablePathToLower = true\n[pagination]\npagerSize = 4\n[params]\nx = 1\n",
            "content/posts/a.md": "+++\ntitle = 'A'\n+++\nA.\n",
        ])
        let c = try XCTUnwrap(config, text)
        XCTAssertEqual(c.permalinks.preset, .hugo)
        XCTAssertFalse(c.permalinks.lowercase, text)
        XCTAssertEqual(c.paginate, 4, text)
        XCTAssertEqual(c.title, "H")
    }

    /// Each generator's time zone setting becomes blog.yml's `timezone` (Pelican's `TIMEZONE`:
    /// testPelicanSettingsAndURLPatterns): Hugo's `timeZone` in hugo.toml, Jekyll's `timezone`.
    func testTimeZoneIsCarriedFromHugoAndJekyll() throws {
        let (hugo, hugoText, _) = try initFrom([
            "hugo.toml": "baseURL = 'https://h.example/'\ntitle = 'H'\ntimeZone = 'America/Denver'\n",
            "content/posts/a.md": "+++\ntitle = 'A'\n+++\nA.\n",
        ])
        XCTAssertEqual(try XCTUnwrap(hugo, hugoText).timeZone.identifier, "America/Denver", hugoText)
        let (jekyll, jekyllText, _) = try initFrom([
            "_config.yml": "title: J\ntimezone: Asia/Tokyo\n",
            "_posts/2020-01-02-a.md": "---\ntitle: A\n---\nA.\n",
        ])
        XCTAssertEqual(try XCTUnwrap(jekyll, jekyllText).timeZone.identifier, "Asia/Tokyo", jekyllText)
    }

    func testWithoutSettingsTheHeadersTell() throws {
        XCTAssertEqual(try initFrom(["content/posts/a.md": "Title: A\nDate: 2020-01-01\n\nA.\n"]).0?.permalinks.preset, .pelican)
        let jekyll = try initFrom(["_posts/2020-01-02-a.md": "---\ntitle: A\n---\nA.\n"]).0
        XCTAssertEqual(jekyll?.permalinks.preset, .jekyll)
        XCTAssertEqual(jekyll?.content, "_posts")
        XCTAssertEqual(try initFrom(["content/posts/a.md": "---\ntitle: A\ndate: 2020-01-01\n---\nA.\n"]).0?.permalinks.preset, .hugo)
        let (none, _, result) = try initFrom(["notes.txt": "hello"])
        XCTAssertNil(none)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("error: no Pelican, Jekyll or Hugo blog found in "), result.stderr)
    }

    func testNeverOverwritesBlogYML() throws {
        let (config, text, result) = try initFrom(["blog.yml": "title: Mine\n", "pelicanconf.py": "SITENAME = 'Other'\n"])
        XCTAssertNil(config)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(text, "title: Mine\n", "the blog.yml there is left as it was")
        XCTAssertTrue(result.stderr.contains("blog.yml:1:1: error: this blog has a blog.yml already"), result.stderr)
    }
}
