import Foundation
import XCTest

/// Small Jekyll-form and Hugo-form blogs whose posts hold template code (Liquid, Hugo shortcodes,
/// kramdown attribute lists), built by the real `blog` binary: the pages show it rendered.
final class TemplateCodeEndToEndTests: BuiltSiteTestCase {
    /// The post body of a page (between the post-body div and the end of the article).
    func body(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let html = try page(path, file: file, line: line)
        guard let start = html.range(of: "<div class=\"post-body\">"), let end = html.range(of: "</article>", range: start.upperBound..<html.endIndex) else {
            XCTFail("no post body in \(html)", file: file, line: line)
            return ""
        }
        return String(html[start.upperBound..<end.lowerBound])
    }

    // MARK: - Liquid in a Jekyll blog

    /// A Jekyll site as it is: `_config.yml`, `_data/`, `_posts/`, and a blog.yml pointing at the posts.
    func writeJekyllSite() throws {
        try site.write("blog.yml", """
            title: Moved
            base_url: https://example.org/blog/
            timezone: Europe/Paris
            content: _posts
            params:
              repository: https://github.com/me/site

            """)
        try site.write("_config.yml", "repository: https://github.com/old/place\nauthor_name: Jo Doe\n")
        try site.write("_data/team.yml", "- name: Ann\n  role: lead\n- name: Bob\n  role: dev\n")
        try site.write("_data/links/main.yml", "home: /home/\n")
    }

    func testLiquidRunsInJekyllPostsWithConfigDataAndParams() throws {
        try writeJekyllSite()
        try site.write("_posts/2020-02-02-hello.md", """
            ---
            title: Hello
            issues: [12, 34]
            ---
            {% assign label = "Issue" | upcase %}
            {% for n in page.issues %}
            [#{{ n }}]: {{ site.repository }}/issues/{{ n }}
            {% endfor %}

            See [#12] and [#34], by {{ site.author_name }} ({{ label }}).
            {% comment %}Not shown.{% endcomment %}

            {% for m in site.data.team %}{% if forloop.first %}Team: {% endif %}{{ m.name }}{% unless forloop.last %}, {% endunless %}{% endfor %}.

            Home: [home]({{ site.data.links.main.home | relative_url }}) on {{ page.date | date: "%-d %B %Y" }}.

            `{{ code }}` stays.

            """)
        let result = try build()
        let html = try body("posts/hello/index.html")
        XCTAssertTrue(html.contains("<a href=\"https://github.com/me/site/issues/12\">#12</a> and <a href=\"https://github.com/me/site/issues/34\">#34</a>"),
                      "params: in blog.yml wins over _config.yml: \(html)")
        XCTAssertTrue(html.contains("by Jo Doe (ISSUE)."), html)
        XCTAssertFalse(html.contains("Not shown"), html)
        XCTAssertTrue(html.contains("<p>Team: Ann, Bob.</p>"), html)
        XCTAssertTrue(html.contains("Home: <a href=\"/blog/home/\">home</a> on 2 February 2020."), html)
        XCTAssertTrue(html.contains("<code>{{ code }}</code> stays."), html)
        XCTAssertFalse(html.contains("{%"), html)
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
    }

    func testUnsupportedLiquidAndMissingValuesWarnOncePerFile() throws {
        try writeJekyllSite()
        try site.write("_posts/2020-02-03-other.md", "---\ntitle: Other\n---\n{% include a.html %} {% include b.html %}\n\nSee {{ site.nope }}.\n")
        let result = try build()
        let html = try body("posts/other/index.html")
        XCTAssertTrue(html.contains("{% include a.html %} {% include b.html %}"), html)
        XCTAssertTrue(html.contains("See {{ site.nope }}."), html)
        XCTAssertTrue(result.stderr.contains("_posts/2020-02-03-other.md:4:1: warning: 2 template tags left as written ({% include %} first)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("_posts/2020-02-03-other.md:6:5: warning: 1 template value missing ({{ site.nope }}): `site.nope` has no value"),
                      result.stderr)
    }

    func testAChangedDataFileRebuildsThePages() throws {
        try writeJekyllSite()
        try site.write("_posts/2020-02-02-hello.md", "---\ntitle: Hello\n---\n{{ site.data.team[0].name }} leads.\n")
        _ = try build()
        XCTAssertTrue(try body("posts/hello/index.html").contains("Ann leads."))
        try site.write("_data/team.yml", "- name: Zoe\n  role: lead\n")
        _ = try build()
        XCTAssertTrue(try body("posts/hello/index.html").contains("Zoe leads."), "the build cache knows the data files")
    }

    func testABrokenDataFileIsAWarning() throws {
        try writeJekyllSite()
        try site.write("_data/bad.yml", "a: [1, 2\n")
        try site.write("_posts/2020-02-02-hello.md", "---\ntitle: Hello\n---\n{{ site.data.team[0].name }} leads.\n")
        let result = try build()
        XCTAssertTrue(result.stderr.contains("_data/bad.yml:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("the file is not read"), result.stderr)
        XCTAssertTrue(try body("posts/hello/index.html").contains("Ann leads."))
    }

    func testHugoPostsDoNotRunLiquid() throws {
        try site.write("blog.yml", "title: Hugo\nbase_url: https://example.org/\n")
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2020-01-01\n---\n{% assign x = 1 %}{{ x }}\n")
        let result = try build()
        XCTAssertTrue(try body("posts/a/index.html").contains("{% assign x = 1 %}{{ x }}"))
        XCTAssertTrue(result.stderr.contains("2 template tags left as written"), result.stderr)
    }
}
