import Foundation
import XCTest

/// A header value of each kind (text, whole and real numbers, true/false, a date, a list, a map), from a post's
/// header and from blog.yml's `params:`, reaching a Liquid tag or a Hugo shortcode and a template, read back from
/// the built pages: one value model (`MetaValue`) with one way to Liquid and one way to templates.
final class HeaderValueKindsTests: BuiltSiteTestCase {
    /// What the post template shows of the post's header values (`post.meta`), between `[meta` and `meta]`.
    static let postTemplate = """
        {{#post}}<article>[meta {{#meta}}{{text}}|{{whole}}|{{real}}|{{flag}}|{{#items}}{{.}},{{/items}}|{{nested.k}}|{{when}}|{{#none}}none{{/none}}{{/meta}} meta]
        <div class="post-body">{{{html}}}</div></article>{{/post}}

        """

    func testEachKindReachesLiquidAndTheTemplateFromAYAMLHeaderAndParams() throws {
        try site.write("blog.yml", """
            title: Kinds
            base_url: https://example.org/
            timezone: Europe/Paris
            content: _posts
            params:
              text: site words
              whole: 8
              real: 0.25
              flag: false
              items: [b, 2]
              nested: {k: site}

            """)
        try site.write("themes/default/templates/post.mustache", Self.postTemplate)
        try site.write("_posts/2020-02-02-kinds.md", """
            ---
            title: Kinds
            text: words
            whole: 7
            real: 2.5
            flag: true
            items: [a, 1]
            nested: {k: v}
            when: 2020-02-02 10:20:00 +01:00
            none: ~
            ---
            Page: {{ page.text }}|{{ page.whole | plus: 1 }}|{{ page.real | times: 2 }}|{{ page.flag }}|{{ page.items | join: "," }}|{{ page.nested.k }}|{{ page.when | date: "%-d %B %Y %H:%M" }}|{{ page.date }}

            Site: {{ site.text }}|{{ site.whole | plus: 1 }}|{{ site.real | times: 2 }}|{{ site.flag }}|{{ site.items | join: "," }}|{{ site.nested.k }}

            """)
        let result = try build()
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
        XCTAssertEqual(try between("[meta ", " meta]", in: "posts/kinds/index.html"),
                       "words|7|2.5|true|a,1,|v|2020-02-02 10:20:00 +01:00|")
        let body = try between("<div class=\"post-body\">", "</div>", in: "posts/kinds/index.html")
        XCTAssertTrue(body.contains("<p>Page: words|8|5.0|true|a,1|v|2 February 2020 10:20|2020-02-02 00:00:00 +0100</p>"), body)
        XCTAssertTrue(body.contains("<p>Site: site words|9|0.5|false|b,2|site</p>"), body)
    }

    func testEachKindReachesAShortcodeAndTheTemplateFromATOMLHeader() throws {
        try site.write("blog.yml", "title: Kinds\nbase_url: https://example.org/\ntimezone: Europe/Paris\n")
        try site.write("themes/default/templates/post.mustache", Self.postTemplate)
        try site.write("content/posts/kinds.md", """
            +++
            title = "Kinds"
            date = 2020-02-02
            text = "words"
            whole = 7
            real = 2.5
            flag = true
            items = ["a", 1]
            when = 2020-02-02T10:20:00+00:00
            [nested]
            k = "v"
            +++
            Page: {{< param text >}}|{{< param whole >}}|{{< param real >}}|{{< param flag >}}|{{< param items >}}|{{< param "nested.k" >}}|{{< param when >}}

            """)
        let result = try build()
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
        // A TOML date-time with an offset is an instant: shown in the site's zone.
        XCTAssertEqual(try between("[meta ", " meta]", in: "posts/kinds/index.html"),
                       "words|7|2.5|true|a,1,|v|2020-02-02T11:20:00+01:00|")
        let body = try between("<div class=\"post-body\">", "</div>", in: "posts/kinds/index.html")
        XCTAssertTrue(body.contains("<p>Page: words|7|2.5|true|a1|v|2020-02-02 11:20:00 +0100</p>"), body)
    }

    /// A header date written as text (here a TOML date-time as the description) says the day the header wrote,
    /// in the proleptic Gregorian calendar of every date of blog: Foundation's ISO 8601 formatter, used here
    /// before, wrote a day before 1582-10-15 in the Julian calendar (`0001-01-03`). A bug fixed.
    func testAnEarlyDateAsTextIsTheDayTheHeaderWrote() throws {
        try site.write("blog.yml", "title: Kinds\nbase_url: https://example.org/\n")
        try site.write("content/posts/old.md", "+++\ntitle = \"Old\"\ndate = 2020-01-01\ndescription = 0001-01-01T00:00:00Z\n+++\nBody\n")
        try build()
        XCTAssertTrue(try page("posts/old/index.html").contains("<meta name=\"description\" content=\"0001-01-01T00:00:00Z\">"))
    }
}
