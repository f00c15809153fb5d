@testable import BlogBuild
@testable import BlogContent
import BlogCore
import XCTest

/// Headers as Jekyll, Hugo and Pelican blogs write them, read by ``PostReader``.
final class MigrationReaderTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    func read(_ text: String, source: String = "content/posts/a.md", contentPath: String? = nil,
              file: StaticString = #filePath, line: UInt = #line) throws -> (Post, [String]) {
        let (post, warnings) = try PostReader.read(data: Data(text.utf8), source: source, contentPath: contentPath, timeZone: utc)
        return (post, warnings.map(\.description))
    }

    func iso(_ date: Date) -> String { DateText.iso8601(date, timeZone: utc) }

    // MARK: Jekyll

    func testJekyllFileNameGivesDateAndSlugAndHeaderDateWins() throws {
        let (post, _) = try read("---\ntitle: Hello World\n---\nBody", source: "_posts/2016-1-05-hello.md")
        XCTAssertEqual(post.slug, "hello")
        XCTAssertEqual(iso(post.date), "2016-01-05T00:00:00Z")
        let (timed, _) = try read("---\ntitle: Hello\ndate: 2016-01-06 10:20:00 +0100\n---\n", source: "_posts/2016-01-05-hello.md")
        XCTAssertEqual(iso(timed.date), "2016-01-06T09:20:00Z")
        XCTAssertEqual(timed.slug, "hello")
    }

    func testJekyllSlugKeepsTheFileNameAsWritten() throws {
        let (post, _) = try read("---\ntitle: Swift 5.6 Released!\n---\n", source: "_posts/2022-03-14-swift-5.6-released.md")
        XCTAssertEqual(post.slug, "swift-5.6-released")
        // A Pelican header makes the slug from the title, as Pelican does.
        let (pelican, _) = try read("Title: Swift 5.6 Released!\n\nBody", source: "posts/2022-03-14-x.md")
        XCTAssertEqual(pelican.slug, "swift-5-6-released")
    }

    func testCategoriesListSpaceStringAndCategory() throws {
        XCTAssertEqual(try read("---\ntitle: t\ndate: 2020-01-01\ncategories: [release, Swift]\n---\n").0.categories.map(\.name), ["release", "Swift"])
        XCTAssertEqual(try read("---\ntitle: t\ndate: 2020-01-01\ncategories: release  community\n---\n").0.categories.map(\.name), ["release", "community"])
        let (both, _) = try read("---\ntitle: t\ndate: 2020-01-01\ncategories:\n  - a\n  - b\ncategory: c\n---\n")
        XCTAssertEqual(both.categories.map(\.name), ["a", "b", "c"])
        XCTAssertEqual(both.category?.name, "a")
    }

    func testPelicanCategoryFromTheFolder() throws {
        let (post, _) = try read("Title: t\nDate: 2020-01-01\n\nBody", source: "content/posts/python/a.md", contentPath: "posts/python/a.md")
        XCTAssertEqual(post.categories.map(\.name), ["python"])
        let (named, _) = try read("Title: t\nDate: 2020-01-01\nCategory: Web\n\nBody", source: "content/posts/python/a.md")
        XCTAssertEqual(named.categories.map(\.name), ["Web"])
    }

    func testAuthorListPublishedFalseAndExcerptSeparator() throws {
        let (post, _) = try read("""
        ---
        title: t
        date: 2020-01-01
        author: [Ana, Ben]
        published: false
        excerpt_separator: <!--break-->
        ---
        First part.

        <!--break-->
        Rest.
        """)
        XCTAssertEqual(post.author, "Ana, Ben")
        XCTAssertEqual(post.status, .draft)
        XCTAssertEqual(post.summary?.trimmingCharacters(in: .whitespacesAndNewlines), "First part.")
    }

    func testPermalinkURLSaveAsAndAliases() throws {
        let (jekyll, _) = try read("---\ntitle: t\ndate: 2020-03-04\npermalink: /:year/:month/:title/\nredirect_from: /old/\n---\n",
                                   source: "_posts/2020-03-04-t.md")
        XCTAssertEqual(jekyll.permalink, "2020/03/t/")
        XCTAssertEqual(jekyll.aliases, ["old/"])
        let (pelican, _) = try read("Title: t\nDate: 2020-01-01\nURL: pages/t.html\nSave_as: pages/t.html\n\nBody")
        XCTAssertEqual(pelican.permalink, "pages/t.html")
        XCTAssertEqual(pelican.saveAs, "pages/t.html")
        let (hugo, warnings) = try read("+++\ntitle = \"t\"\ndate = 2020-01-01\naliases = [\"/a/b\", \"https://x.org/\"]\n+++\n")
        XCTAssertEqual(hugo.aliases, ["a/b/"])
        XCTAssertEqual(warnings, ["content/posts/a.md:4:11: warning: `aliases`: \"https://x.org/\" is not a path inside the site such as /old-name/: no redirect made for it"])
        XCTAssertThrowsError(try read("---\ntitle: t\ndate: 2020-01-01\nurl: /../../etc/\n---\n"))
    }

    func testLangIsKept() throws {
        XCTAssertEqual(try read("Title: t\nDate: 2020-01-01\nLang: fr\n\nBody").0.lang, "fr")
    }

    // MARK: Hugo

    func testSectionIndexAndPelicanPagesArePagesWithoutDates() throws {
        let (section, warnings) = try read("---\ntitle: News\n---\n", source: "content/news/_index.md", contentPath: "news/_index.md")
        XCTAssertEqual(section.kind, .page)
        XCTAssertFalse(section.dated)
        XCTAssertEqual(warnings, [])
        let (page, _) = try read("Title: About\nSlug: about\n\nBody", source: "content/pages/about.md", contentPath: "pages/about.md")
        XCTAssertEqual(page.kind, .page)
        XCTAssertEqual(page.slug, "about")
    }

    func testBundleIsNamedByItsFolderAndDraftIsRead() throws {
        let (post, _) = try read("---\ntitle: A Trip\ndate: 2020-01-01\ndraft: true\n---\n", source: "content/posts/my-trip/index.md")
        XCTAssertEqual(post.slug, "my-trip")
        XCTAssertEqual(post.status, .draft)
    }

    func testMissingDateIsAWarningAndTheHugoFallbackKeysAreRead() throws {
        let (post, warnings) = try read("---\ntitle: t\n---\nBody")
        XCTAssertFalse(post.dated)
        XCTAssertEqual(warnings, ["content/posts/a.md:1:1: warning: missing date: the post is listed after every dated post and shows no date; add a `date: YYYY-MM-DD` header line"])
        let (published, _) = try read("---\ntitle: t\npublishDate: 2021-02-03\n---\n")
        XCTAssertEqual(iso(published.date), "2021-02-03T00:00:00Z")
    }

    // MARK: Dates

    func testDatesRealBlogsWrite() throws {
        let cases = [
            ("2013-09-14 20:46:50 -0400", "2013-09-15T00:46:50Z"),
            ("2017/06/21 09:52", "2017-06-21T09:52:00Z"),
            ("\"2019-04-09T8:09:26-07:00\"", "2019-04-09T15:09:26Z"),
            ("2016-11-25 10:20", "2016-11-25T10:20:00Z"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(iso(try read("---\ntitle: t\ndate: \(text)\n---\n").0.date), expected, text)
        }
    }

    func testJekyllDateWithTheYearTwiceIsReadWithAWarning() throws {
        let (post, warnings) = try read("---\ntitle: t\ndate: 2023-01-29 18:30:22 2023 -0800\n---\n")
        XCTAssertEqual(iso(post.date), "2023-01-30T02:30:22Z")
        XCTAssertEqual(warnings, ["content/posts/a.md:3:7: warning: `date` \"2023-01-29 18:30:22 2023 -0800\" has the year twice, before the offset: read as 2023-01-30T02:30:22Z; remove the second year"])
        // Another year there is still wrong.
        XCTAssertThrowsError(try read("---\ntitle: t\ndate: 2023-01-29 18:30:22 2024 -0800\n---\n"))
        // A post of Jekyll's is read as Jekyll reads it: Ruby's Date._parse takes a zone only right after the
        // time (`Date._parse("2023-01-29 18:30:22 2023 -0800")` has no offset), so the time is the site's.
        let (jekyll, jekyllWarnings) = try read("---\ntitle: t\ndate: 2023-01-29 18:30:22 2023 -0800\n---\n", source: "_posts/2023-01-29-a.md")
        XCTAssertEqual(iso(jekyll.date), "2023-01-29T18:30:22Z")
        XCTAssertEqual(jekyllWarnings, ["_posts/2023-01-29-a.md:3:7: warning: `date` \"2023-01-29 18:30:22 2023 -0800\" has the year twice, before the offset: read as 2023-01-29T18:30:22Z in the site's time zone, without the offset, as Jekyll reads it; remove the second year"])
    }

    // MARK: Tags

    func testTagsEveryWay() throws {
        func tags(_ header: String) throws -> [String] { try read(header).0.tags.map(\.name) }
        XCTAssertEqual(try tags("---\ntitle: t\ndate: 2020-01-01\ntags: [a, b]\n---\n"), ["a", "b"])
        XCTAssertEqual(try tags("---\ntitle: t\ndate: 2020-01-01\ntags:\n  - a\n  - b\n---\n"), ["a", "b"])
        XCTAssertEqual(try tags("---\ntitle: t\ndate: 2020-01-01\ntags: []\n---\n"), [])
        XCTAssertEqual(try tags("---\ntitle: t\ndate: 2020-01-01\ntags: solo\n---\n"), ["solo"])
        XCTAssertEqual(try tags("Title: t\nDate: 2020-01-01\nTags: a, b,\n\nBody"), ["a", "b"])
        XCTAssertEqual(try tags("Title: t\nDate: 2020-01-01\nTags: a; b c;\n\nBody"), ["a", "b c"])
    }

    func testATOMLListHoldingOneCommaStringIsSplitWithAWarning() throws {
        let (post, warnings) = try read("+++\ntitle = \"t\"\ndate = 2020-01-01\ntags = [\"go, docker\"]\n+++\n")
        XCTAssertEqual(post.tags.map(\.name), ["go", "docker"])
        XCTAssertEqual(warnings, ["content/posts/a.md:4:8: warning: `tags` is a list holding one text with commas: read as 2 tags (go, docker); write one item per tag"])
    }

    // MARK: YAML that looks right but isn't

    func testUnquotedTitleWithHashWarns() throws {
        let (post, warnings) = try read("---\ntitle: Fixing issue #42\ndate: 2020-01-01\n---\n")
        XCTAssertEqual(post.title, "Fixing issue")
        XCTAssertEqual(warnings, ["content/posts/a.md:2:21: warning: `title` is \"Fixing issue\": YAML reads ` #42` as a comment; put the whole value in quotes to keep it"])
        // `C#` has no space before `#`: no comment, no warning.
        let (csharp, none) = try read("---\ntitle: C# tips\ndate: 2020-01-01\n---\n")
        XCTAssertEqual(csharp.title, "C# tips")
        XCTAssertEqual(none, [])
    }
}
