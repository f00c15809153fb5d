@testable import BlogCore
@testable import BlogLiquid
@testable import BlogMarkdown
import XCTest

final class LiquidTests: XCTestCase {
    private let context = LiquidContext(
        baseURL: "/blog",
        siteURL: "https://example.org",
        resolvePost: { name in
            ["2018-01-19-forums": "/blog/posts/forums/",
             "2015-12-03-welcome": "/blog/posts/welcome/",
             "releases/2014-05-06-two-oh": "/blog/posts/two-oh/"][name]
        },
        resolvePath: { path in
            ["_posts/2017-10-19-diversity-open-source.markdown": "/blog/posts/diversity-open-source/",
             "_posts/2017-03-02-three-four-one.markdown": "/blog/posts/three-four-one/",
             "news/0.120.0-relnotes/index.md": "/blog/news/0.120.0-relnotes/",
             "/news/0.120.0-relnotes/index.md": "/blog/news/0.120.0-relnotes/",
             "my-post.md": "/blog/posts/my-post/"][path]
        }
    )

    /// Processes `body` as if it started on line 5 of `post.md`.
    private func process(_ body: String) -> (String, [Diagnostic]) {
        Liquid.process(body, path: "post.md", firstLine: 5, context: context)
    }

    /// Asserts that `body` comes out exactly as written, without warnings.
    private func assertUnchanged(_ body: String, file: StaticString = #filePath, line: UInt = #line) {
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, body, file: file, line: line)
        XCTAssertEqual(diagnostics, [], file: file, line: line)
    }

    // MARK: - Nothing to do

    func testBodyWithoutTagsIsReturnedAsIs() {
        let body = "# Title\n\nSome *text* with {braces} and 100% of it, `code`.\n"
        XCTAssertFalse(Liquid.needsProcessing(body))
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, body)
        XCTAssertEqual(diagnostics, [])
        XCTAssertTrue(Liquid.needsProcessing("a {{ b }}"))
        XCTAssertTrue(Liquid.needsProcessing("a {% b %}"))
        XCTAssertFalse(Liquid.needsProcessing(""))
    }

    func testUnclosedOpenersAreText() {
        assertUnchanged("A set literal {{1, 2} and 50{%}\n\nthen {% on its own.\n")
    }

    // MARK: - highlight

    func testHighlightBecomesAFencedCodeBlock() {
        let body = "To install:\n\n{% highlight shell %}\n$ gem install jekyll --pre\n{% endhighlight %}\n\nDone.\n"
        XCTAssertEqual(process(body).0, "To install:\n\n```shell\n$ gem install jekyll --pre\n```\n\nDone.\n")
    }

    func testHighlightOptionsAreDroppedAndLanguageLowercased() {
        let body = "{% highlight Ruby linenos %}\ndef foo\n  puts 'foo'\nend\n{% endhighlight %}\n"
        XCTAssertEqual(process(body).0, "```ruby\ndef foo\n  puts 'foo'\nend\n```\n")
        let marked = "{% highlight yaml mark_lines=\"1 2\" %}\na: 1\n{% endhighlight %}\n"
        XCTAssertEqual(process(marked).0, "```yaml\na: 1\n```\n")
    }

    func testHighlightFenceIsLongerThanBackticksInside() {
        let body = "{% highlight markdown %}\nUse ```swift fences, or ```` for nesting, and `code`.\n{% endhighlight %}\n"
        XCTAssertEqual(process(body).0, "`````markdown\nUse ```swift fences, or ```` for nesting, and `code`.\n`````\n")
    }

    func testHighlightCodeIsKeptExactly() {
        // Template text, markdown, a quote marker, a fence: all code.
        let code = "> sanitized_path(\"/tmp/jail\", \"..c:/etc\")\n=> \"{{ site.url }}/x\" {% include x %}\n\n    indented\n~~~\n*not emphasis*"
        let (out, diagnostics) = process("Before:\n\n{% highlight ruby %}\n\(code)\n{% endhighlight %}\n\nAfter {{ site.url }}.\n")
        XCTAssertEqual(out, "Before:\n\n```ruby\n\(code)\n```\n\nAfter https://example.org.\n")
        XCTAssertEqual(diagnostics, [])
    }

    func testHighlightWithRawInsideShowsTheLiquidCode() {
        let body = "{% highlight html %}\n{% raw %}\n<a href=\"{{ site.url }}{{ page.url }}\">{% if page.next %}next{% endif %}</a>\n{% endraw %}\n{% endhighlight %}\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, "```html\n<a href=\"{{ site.url }}{{ page.url }}\">{% if page.next %}next{% endif %}</a>\n```\n")
        XCTAssertEqual(diagnostics, [])
    }

    func testHighlightRawCanHideAnEndhighlight() {
        let body = "{% highlight liquid %}{% raw %}{% highlight ruby %}\nx\n{% endhighlight %}{% endraw %}{% endhighlight %}\n"
        XCTAssertEqual(process(body).0, "```liquid\n{% highlight ruby %}\nx\n{% endhighlight %}\n```\n")
    }

    func testHighlightOnOneLineGetsItsOwnLines() {
        XCTAssertEqual(process("Run {% highlight sh %}make all{% endhighlight %} now.\n").0, "Run \n```sh\nmake all\n```\n now.\n")
    }

    func testHighlightInBlockQuoteAndListKeepsThePrefix() {
        XCTAssertEqual(process("> {% highlight ruby %}\n> puts 1\n> {% endhighlight %}\n").0, "> ```ruby\n> puts 1\n> ```\n")
        XCTAssertEqual(process("1. Step:\n\n   {% highlight sh %}\n   make\n   {% endhighlight %}\n").0,
                       "1. Step:\n\n   ```sh\n   make\n   ```\n")
    }

    func testUnclosedHighlightWarnsAndStaysAsWritten() {
        let body = "Intro.\n\n  {% highlight ruby %}\nputs 1\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, body)
        XCTAssertEqual(diagnostics.map(\.description), [
            "post.md:7:3: warning: {% highlight %} is never closed: expected {% endhighlight %} after the code; the tag is left as written",
        ])
    }

    // MARK: - raw

    func testRawPassesTextThroughExactly() {
        let body = "Write {% raw %}{{ page.title }} and {% include x.html %}{% endraw %} in a layout.\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, "Write {{ page.title }} and {% include x.html %} in a layout.\n")
        XCTAssertEqual(diagnostics, [])
    }

    func testRawAroundAFencedBlock() {
        let body = "Example:\n\n{% raw %}\n```liquid\n{{ \"/docs/assets/\" | relative_url }} => /myproject/docs/assets\n```\n{% endraw %}\n\nThen {{ site.baseurl }}.\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, "Example:\n\n\n```liquid\n{{ \"/docs/assets/\" | relative_url }} => /myproject/docs/assets\n```\n\n\nThen /blog.\n")
        XCTAssertEqual(diagnostics, [])
    }

    func testRawInsideCodeIsStrippedAsJekyllDoes() {
        // In a code span.
        XCTAssertEqual(process("We stopped overriding {% raw %}`{{ site.url }}`{% endraw %} and `{% raw %}{{ layout }}{% endraw %}`.\n").0,
                       "We stopped overriding `{{ site.url }}` and `{{ layout }}`.\n")
        // The raw text is everything up to the first endraw, even another raw tag.
        XCTAssertEqual(process("[`{% raw %}{% highlight %}{% endraw %}` now behaves like `{% raw %}{% raw %}{% endraw %}`](https://x)\n").0,
                       "[`{% highlight %}` now behaves like `{% raw %}`](https://x)\n")
        // In a fenced block.
        XCTAssertEqual(process("```liquid\n{% raw %}\n{% for p in site.pages %}{{ p.url }}{% endfor %}\n{% endraw %}\n```\n").0,
                       "```liquid\n\n{% for p in site.pages %}{{ p.url }}{% endfor %}\n\n```\n")
    }

    func testRawMayStartInACodeSpanAndEndAfterIt() {
        XCTAssertEqual(process("`{% raw %}{{ x }}`{% endraw %} and {{ site.url }}\n").0, "`{{ x }}` and https://example.org\n")
    }

    func testRawWithWhitespaceControl() {
        XCTAssertEqual(process("a {%- raw -%}{{ b }}{%-endraw-%} c\n").0, "a {{ b }} c\n")
    }

    func testUnclosedRawWarnsAndKeepsTheRestAsWritten() {
        let body = "Intro {{ site.url }}.\n\nSee {% raw %}{{ x }} and {% post_url 2018-01-19-forums %}\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, "Intro https://example.org.\n\nSee {% raw %}{{ x }} and {% post_url 2018-01-19-forums %}\n")
        XCTAssertEqual(diagnostics.map(\.description), [
            "post.md:7:5: warning: {% raw %} is never closed: expected {% endraw %} after the text to show as written; the rest of the file is left as written",
        ])
    }

    // MARK: - post_url, link, site

    func testPostURLAndLink() {
        let body = """
            > [the announcement here]({% post_url 2018-01-19-forums %}).
            [jekyll-1]: {% post_url releases/2014-05-06-two-oh %}
            Thanks to all for their [first
            contribution to open-source]({% link
            _posts/2017-10-19-diversity-open-source.markdown %}) and [3.4.1]({%link _posts/2017-03-02-three-four-one.markdown%}).

            """
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, """
            > [the announcement here](/blog/posts/forums/).
            [jekyll-1]: /blog/posts/two-oh/
            Thanks to all for their [first
            contribution to open-source](/blog/posts/diversity-open-source/) and [3.4.1](/blog/posts/three-four-one/).

            """)
        XCTAssertEqual(diagnostics, [])
    }

    func testUnknownPostWarnsAtItsFilePosition() {
        let body = "First line.\n\nÜber [the “news”]({% post_url 2099-01-01-nope %}) and {% link _docs/history.md %}#v3.\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, body)
        XCTAssertEqual(diagnostics.map(\.description), [
            "post.md:7:19: warning: unknown post \"2099-01-01-nope\" in {% post_url %}: expected the file name of a post in _posts/ (YYYY-MM-DD-slug)",
            "post.md:7:55: warning: unknown post \"_docs/history.md\" in {% link %}: expected the path of a post from the site folder (_posts/YYYY-MM-DD-slug.md)",
        ])
    }

    func testSiteBaseURLAndURL() {
        let body = "![plot]({{ site.baseurl }}/assets/a.png){:srcset=\"{{site.baseurl}}/assets/a@2x.png 2x\"}\n* [Building]({{site.url}}/guides/building.html) {{- site.url -}}\n"
        XCTAssertEqual(process(body).0,
                       "![plot](/blog/assets/a.png){:srcset=\"/blog/assets/a@2x.png 2x\"}\n* [Building](https://example.org/guides/building.html) https://example.org\n")
        let root = LiquidContext(baseURL: "", siteURL: "")
        XCTAssertEqual(Liquid.process("<img src=\"{{ site.baseurl }}/a.png\">", path: "p.md", firstLine: 1, context: root).0,
                       "<img src=\"/a.png\">")
    }

    func testBaseURLBeforePostURLIsNotDoubled() {
        let body = "[a]({{ site.baseurl }}{% post_url 2015-12-03-welcome %}) [b]({{ site.url }}{{ site.baseurl }}{% link _posts/2017-03-02-three-four-one.markdown %})\n"
        XCTAssertEqual(process(body).0,
                       "[a](/blog/posts/welcome/) [b](https://example.org/blog/posts/three-four-one/)\n")
    }

    // MARK: - Hugo

    func testHugoRefAndRelref() {
        let body = """
            [a]({{< ref "news/0.120.0-relnotes/index.md" >}}) [b]({{< relref '/news/0.120.0-relnotes/index.md' >}})
            [c]({{% relref my-post.md %}}) [d]({{<relref "my-post.md#setup">}}) [e]({{< relref path="my-post.md" lang="ja" >}})
            [f]({{< relref "#local" >}})

            """
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, """
            [a](https://example.org/blog/news/0.120.0-relnotes/) [b](/blog/news/0.120.0-relnotes/)
            [c](/blog/posts/my-post/) [d](/blog/posts/my-post/#setup) [e](/blog/posts/my-post/)
            [f](#local)

            """)
        XCTAssertEqual(diagnostics, [])
    }

    func testUnknownHugoRefWarns() {
        let body = "x\n[a]({{< ref \"missing.md\" >}}) {{% relref %}}\n"
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, body)
        XCTAssertEqual(diagnostics.map(\.description), [
            "post.md:6:5: warning: unknown post \"missing.md\" in {{< ref >}}: expected the path of a post in the content folder (posts/slug.md), or its file name",
            "post.md:6:31: warning: unknown post \"\" in {{% relref %}}: expected the path of a post in the content folder (posts/slug.md), or its file name",
        ])
    }

    func testHugoEscapedShortcodesShowAsShortcodes() {
        let body = """
            A new token `{{</* */>}}` alongside `{{%/* */%}}`; in prose {{</* gh "@bep" */>}} too.

            ```go-html-template
            {{</* relref path="document.md" lang="ja" */>}}
            ```

            """
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, """
            A new token `{{< >}}` alongside `{{% %}}`; in prose {{< gh "@bep" >}} too.

            ```go-html-template
            {{< relref path="document.md" lang="ja" >}}
            ```

            """)
        XCTAssertEqual(diagnostics, [])
    }

    // MARK: - Everything else: left as written, one warning

    func testUnsupportedTagsStayWithOneWarning() {
        let body = """
            Intro.

            {% assign issue_numbers = "1037|1040" | split: "|" %}
            {% for issue in issue_numbers %}
            - {{ issue }}
            {% endfor %}

            Thanks {{< gh "@spf13" >}}, {{< gh
            "@DigitalCraftsman" >}}. {{% note %}}Careful{{% /note %}} {{< tweet 1453110110599868418 >}}

            """
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, body)
        XCTAssertEqual(diagnostics.map(\.description), [
            "post.md:7:1: warning: 9 template tags left as written ({% assign %} first): blog does not run Liquid or Hugo shortcodes other than highlight, raw, post_url, link, site.baseurl, site.url, ref, relref, figure, youtube, gist, param and the site's shortcodes/",
        ])
    }

    func testUnsupportedLabels() {
        func firstMessage(_ body: String) -> String? { process(body).1.first?.message }
        XCTAssertEqual(firstMessage("See {{ \"/docs/themes/#assets\" | relative_url }}"),
                       "1 template tag left as written ({{ \"/docs/themes/#assets\" }}): blog does not run Liquid or Hugo shortcodes other than highlight, raw, post_url, link, site.baseurl, site.url, ref, relref, figure, youtube, gist, param and the site's shortcodes/")
        XCTAssertEqual(process("x\n\tSee {{ page.title }}").1.first?.description.hasPrefix("post.md:6:6: warning: 1 template tag left as written ({{ page.title }})"), true)
        XCTAssertEqual(firstMessage("{{< /imgproc >}}")?.hasPrefix("1 template tag left as written ({{< /imgproc >}})"), true)
        XCTAssertEqual(firstMessage("{{% note %}}x")?.hasPrefix("1 template tag left as written ({{% note %}})"), true)
        XCTAssertEqual(firstMessage("{% comment %}x{% endcomment %}")?.hasPrefix("2 template tags left as written ({% comment %} first)"), true)
    }

    // MARK: - Code is never touched

    func testFencedCodeIsUntouched() {
        assertUnchanged("""
            Template:

            ```html+django
            {% load static %}
            <p>Hello {{ user.name }}, see {% url 'home' %} and {{ site.baseurl }}.</p>
            {{< youtube w7Ft2ymGmfc >}} {{% note %}}x{{% /note %}} {{< ref "my-post.md" >}}
            ```

            ~~~~ {.liquid}
            {% post_url 2018-01-19-forums %}
            ```
            still code {{ x }}
            ~~~~

            > ```
            > {{ quoted }}
            > ```

            """)
    }

    func testIndentedCodeIsUntouched() {
        assertUnchanged("""
            A Flask template:

                <h1>Bugs found over the past {{ bars_count }} days</h1>
                {{ the_div|safe }}

                {% block content %}{% endblock %}
            # Heading
                {{ after_heading }}

            """)
    }

    func testIndentedCodeInAListNeedsTheDeeperIndent() {
        let body = """
            - Item with a link to {{ site.url }}.

                Continued paragraph, {{ site.baseurl }}.

                      {{ code.in_list }}

            After the list:

                {{ code.top_level }}

            """
        let (out, diagnostics) = process(body)
        XCTAssertEqual(out, """
            - Item with a link to https://example.org.

                Continued paragraph, /blog.

                      {{ code.in_list }}

            After the list:

                {{ code.top_level }}

            """)
        XCTAssertEqual(diagnostics, [])
    }

    func testIndentedLineInAParagraphIsProse() {
        XCTAssertEqual(process("A paragraph\n    continued {{ site.url }}\n").0, "A paragraph\n    continued https://example.org\n")
    }

    func testCodeSpansAreUntouched() {
        assertUnchanged("Replace the `{{ OKTA_ORG_URL }}` placeholder, use ``{% load static %}`` or ` {{ a }} `.\n")
        assertUnchanged("Write `{{< figure src=\"x.png\" >}}` or `{{% note %}}`, not `{% post_url x %}`.\n")
        assertUnchanged("A span `{{ over }}\nlines` too.\n")
        // An unmatched backtick is literal: what follows is prose again.
        XCTAssertEqual(process("A lone ` then {{ site.url }}.\n").0, "A lone ` then https://example.org.\n")
        // An escaped backtick opens nothing; but, as in CommonMark, one after a backslash can close a span.
        XCTAssertEqual(process("Escaped \\`{{ site.url }}\\` is prose.\n").0, "Escaped \\`https://example.org\\` is prose.\n")
        XCTAssertEqual(process("In `code\\` then {{ site.url }}.\n").0, "In `code\\` then https://example.org.\n")
        // A code span does not reach past the paragraph.
        XCTAssertEqual(process("A ` here.\n\nAnd {{ site.url }} ` there.\n").0, "A ` here.\n\nAnd https://example.org ` there.\n")
    }

    func testTagsDoNotReachPastTheParagraph() {
        let body = "Open {{ here\n\n```\n}} in code\n```\n"
        assertUnchanged(body)
    }

    func testFenceLongerThanTheOpenerAndCRLF() {
        assertUnchanged("````md\n```\n{{ not.closed }}\n```\n````\r\n")
        XCTAssertEqual(process("Hi {{ site.url }}\r\n\r\n```\r\n{{ x }}\r\n```\r\n").0, "Hi https://example.org\r\n\r\n```\r\n{{ x }}\r\n```\r\n")
    }

    // MARK: - Cost

    func testManyUnclosedOpenersStayLinear() {
        // Quadratic look-aheads would take minutes here.
        let body = String(repeating: "{{ a ` {% b ", count: 40_000) + "\n"
        let start = Date()
        let (out, _) = process(body)
        XCTAssertEqual(out, body)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }
}
