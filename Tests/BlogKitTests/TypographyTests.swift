@testable import BlogConfig
@testable import BlogContent
@testable import BlogMarkdown
@testable import BlogScaffold
import Foundation
import XCTest

/// Curly quotes, dashes and ellipses (issue 29, class 1): Python-Markdown makes none unless the blog
/// enables `smarty`; kramdown's and goldmark's typographers are on by default; `markdown.smart_punctuation`
/// in blog.yml overrides, and `blog init --from` carries a Pelican blog's `smarty`.
final class TypographyTests: XCTestCase {
    private let text = "\"Don't,\" she said -- it's 1999---'til now...\n"
    private let plain = "<p>&quot;Don't,&quot; she said -- it's 1999---'til now...</p>\n"
    private let curly = "<p>“Don’t,” she said – it’s 1999—’til now…</p>\n"

    private func html(_ markdown: String, _ dialect: MarkdownDialect, smart: Bool? = nil) -> String {
        var options = MarkdownOptions(dialect: dialect)
        options.smartPunctuation = smart
        return MarkdownRenderer.render(body: markdown, summary: nil, options: options).html
    }

    func testEachDialectFollowsItsGenerator() {
        XCTAssertEqual(html(text, .pythonMarkdown), plain)
        for dialect in [MarkdownDialect.kramdown, .goldmark, .commonMark] {
            XCTAssertEqual(html(text, dialect), curly, "\(dialect)")
        }
        // The summary field and the parts the dialect passes rewrite (a `##Heading`, an HTML line) too.
        let rendered = MarkdownRenderer.render(body: "##It's here\n\n<br>\n\"quoted\" -- text\n", summary: "It's \"short\"",
                                               options: MarkdownOptions(dialect: .pythonMarkdown))
        XCTAssertEqual(rendered.html, "<h2 id=\"its-here\">It's here</h2>\n<p><br>\n&quot;quoted&quot; -- text</p>\n")
        XCTAssertEqual(rendered.summaryHTML, "<p>It's &quot;short&quot;</p>\n")
    }

    func testTheSettingOverridesTheDialect() {
        XCTAssertEqual(html(text, .pythonMarkdown, smart: true), curly)
        XCTAssertEqual(html(text, .kramdown, smart: false), plain)
        XCTAssertEqual(html(text, .goldmark, smart: false), plain)
        // Code is never curled.
        XCTAssertEqual(html("`it's`\n", .kramdown), "<p><code>it's</code></p>\n")
    }

    func testConfigSetting() throws {
        XCTAssertNil(SiteConfig().smartPunctuation)
        for (value, expected) in [("auto", nil), ("true", true), ("false", false)] as [(String, Bool?)] {
            let (config, warnings) = try ConfigLoader.parse("markdown:\n  smart_punctuation: \(value)\n", path: "blog.yml")
            XCTAssertEqual(config.smartPunctuation, expected, value)
            XCTAssertEqual(warnings, [])
        }
        XCTAssertThrowsError(try ConfigLoader.parse("markdown:\n  smart_punctuation: sometimes\n", path: "blog.yml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("blog.yml:2:22: error: `markdown.smart_punctuation` must be `auto`"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("markdown: true\n", path: "blog.yml"))
        let (_, warnings) = try ConfigLoader.parse("markdown:\n  smartypants: true\n", path: "blog.yml")
        XCTAssertEqual(warnings.map(\.message), ["unknown setting `markdown.smartypants` (known: smart_punctuation); ignored"])
        // The setting reaches each post's options; `auto` leaves it to the dialect.
        var post = Post(source: "content/a.md", title: "A", date: Date(timeIntervalSince1970: 0), slug: "a", body: "")
        post.headerFormat = .pelican
        var config = SiteConfig()
        XCTAssertNil(config.markdownOptions(for: post).smartPunctuation)
        config.smartPunctuation = true
        XCTAssertEqual(config.markdownOptions(for: post).smartPunctuation, true)
    }

    func testInitFromCarriesPelicansSmarty() {
        let withSmarty = """
        MARKDOWN = {
            'extension_configs': {
                'markdown.extensions.codehilite': {'css_class': 'highlight'},
                'markdown.extensions.smarty': {},  # curly quotes
            },
            'output_format': 'html5',
        }
        """
        XCTAssertTrue(ExistingBlog.pelicanTypography(withSmarty))
        XCTAssertTrue(ExistingBlog.pelicanTypography("MARKDOWN = {'extensions': ['smarty', 'extra']}\n"))
        XCTAssertTrue(ExistingBlog.pelicanTypography("MARKDOWN = {}\nMARKDOWN['extension_configs']['markdown.extensions.smarty'] = {}\n"))
        XCTAssertFalse(ExistingBlog.pelicanTypography("MARKDOWN = {\n    'extensions': ['extra'],  # no 'smarty'\n}\nPLUGINS = ['smarty']\n"))
        XCTAssertFalse(ExistingBlog.pelicanTypography("SITENAME = 'smarty'\n"))
        let found = ExistingBlog.pelican("SITENAME = 'A'\n" + withSmarty, publish: nil, hasContent: true)
        XCTAssertTrue(ExistingBlog.configText(found).contains("\nmarkdown:\n  smart_punctuation: true\n"), ExistingBlog.configText(found))
        XCTAssertTrue(ExistingBlog.configText(ExistingBlog.pelican("TYPOGRIFY = True\n", publish: nil, hasContent: true))
            .contains("\nmarkdown:\n  smart_punctuation: true\n"))
        XCTAssertFalse(ExistingBlog.configText(ExistingBlog.pelican("SITENAME = 'A'\n", publish: nil, hasContent: true)).contains("markdown"))
    }
}
