import Foundation
import XCTest

/// Small Jekyll-form and Hugo-form blogs whose posts hold template code (Liquid, Hugo shortcodes,
/// kramdown attribute lists), built by the real `blog` binary: the pages show it rendered.
final class TemplateCodeEndToEndTests: BuiltSiteTestCase {
    /// The post body of a page (between the post-body div and the end of the article).
    func body(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try between("<div class=\"post-body\">", "</article>", in: path, file: file, line: line)
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

    // MARK: - kramdown attribute lists

    func testKramdownAttributeListsInAJekyllPost() throws {
        try writeJekyllSite()
        try site.write("_posts/2020-02-04-pictures.md", """
            ---
            title: Pictures
            ---
            ![Plot]({{ site.baseurl }}/images/plot.png){:width="100%"}

            Floated text
            {: style="float: left" .aside}

            {::options parse_block_html="true" /}
            {::comment}
            Not for readers.
            {:/comment}

            """)
        let result = try build()
        let html = try body("posts/pictures/index.html")
        XCTAssertTrue(html.contains("<p><img src=\"/blog/images/plot.png\" alt=\"Plot\" width=\"100%\" /></p>"), html)
        XCTAssertTrue(html.contains("<p class=\"aside\" style=\"float: left\">Floated text</p>"), html)
        XCTAssertFalse(html.contains("{:"), html)
        XCTAssertFalse(html.contains("Not for readers"), html)
        XCTAssertTrue(result.stderr.contains("_posts/2020-02-04-pictures.md:9:1: warning: kramdown options ({::options}) are not read"), result.stderr)
    }

    // MARK: - Hugo shortcodes

    func writeHugoSite() throws {
        try site.write("blog.yml", "title: Hugo\nbase_url: https://example.org/\nparams:\n  author: Site Author\n")
        try site.write("shortcodes/note.mustache", "<aside class=\"note {{0}}\">{{{inner}}}</aside>")
        try site.write("shortcodes/tip.mustache", "> **{{title}}**: {{{inner}}}")
        try site.write("shortcodes/badge.mustache", "<span class=\"badge\">{{#positional}}[{{.}}]{{/positional}}{{#named}}{{key}}={{value}};{{/named}}</span>")
        try site.write("content/posts/a.md", """
            ---
            title: A
            date: 2020-01-01
            color: blue
            ---
            Intro {{< param color >}} by {{< param author >}}, {{< badge "one" two >}} {{< badge size="big" >}}.

            {{< note "info" >}}Some <b>HTML</b>, not *markdown*{{< /note >}}

            {{% tip title="Careful" %}}This is *markdown*{{% /tip %}}

            {{< figure src="/img/a.png" alt="An A" caption="The caption" >}}

            {{< youtube w7Ft2ymGmfc >}}

            {{< highlight go >}}
            func main() {}
            {{< /highlight >}}

            {{< gh "@x" >}}

            """)
    }

    func testHugoShortcodesRenderThroughTemplatesAndBuiltIns() throws {
        try writeHugoSite()
        let result = try build()
        let html = try body("posts/a/index.html")
        XCTAssertTrue(html.contains("<p>Intro blue by Site Author, <span class=\"badge\">[one][two]</span> <span class=\"badge\">size=big;</span>.</p>"), html)
        XCTAssertTrue(html.contains("<aside class=\"note info\">Some <b>HTML</b>, not *markdown*</aside>"), "{{< >}} output is not markdown: \(html)")
        XCTAssertFalse(html.contains("<p><aside"), html)
        XCTAssertTrue(html.contains("<blockquote>\n<p><strong>Careful</strong>: This is <em>markdown</em></p>\n</blockquote>"),
                      "{{% %}} output is markdown: \(html)")
        XCTAssertTrue(html.contains("<figure><img src=\"/img/a.png\" alt=\"An A\" /><figcaption><p>The caption</p></figcaption></figure>"), html)
        XCTAssertTrue(html.contains("<iframe src=\"https://www.youtube.com/embed/w7Ft2ymGmfc\""), html)
        XCTAssertTrue(html.contains("<code class=\"language-go\"><span class=\"k\">func</span>"), html)
        XCTAssertTrue(html.contains("{{&lt; gh “@x” &gt;}}") || html.contains("{{&lt; gh \"@x\" &gt;}}"), html)
        XCTAssertTrue(result.stderr.contains("content/posts/a.md:20:1: warning: 1 template tag left as written ({{< gh >}})"), result.stderr)
    }

    func testAThemeShortcodeAndTheSiteOneOverIt() throws {
        try writeHugoSite()
        try site.write("themes/default/shortcodes/badge.mustache", "<b>theme {{0}}</b>")
        try site.write("themes/default/shortcodes/star.mustache", "<i>★{{0}}</i>")
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2020-01-01\n---\n{{< star 5 >}} {{< badge x >}}\n")
        _ = try build()
        XCTAssertTrue(try body("posts/a/index.html").contains("<p><i>★5</i> <span class=\"badge\">[x]</span></p>"))
        // A template edit is a full build: the cache knows the shortcodes.
        try site.write("themes/default/shortcodes/star.mustache", "<i>☆{{0}}</i>")
        _ = try build()
        XCTAssertTrue(try body("posts/a/index.html").contains("<i>☆5</i>"))
    }

    func testABrokenShortcodeTemplateFailsTheBuild() throws {
        try writeHugoSite()
        try site.write("shortcodes/bad.mustache", "{{#x}}unclosed")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("shortcodes/bad.mustache"), result.stderr)
    }
}
