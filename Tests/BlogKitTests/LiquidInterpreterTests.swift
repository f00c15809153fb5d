@testable import BlogCore
@testable import BlogLiquid
@testable import BlogMarkdown
import Foundation
import XCTest

/// The Liquid interpreter of Jekyll-form posts (`Liquid.process` given a `page`): tags, expressions,
/// filters and the values of `site` and `page`, checked against Shopify Liquid's and Jekyll's documented
/// behaviour.
final class LiquidInterpreterTests: XCTestCase {
    private let context = LiquidContext(
        baseURL: "/blog",
        siteURL: "https://example.org",
        resolvePost: { $0 == "2018-01-19-forums" ? "/blog/posts/forums/" : nil },
        site: [
            "baseurl": .string("/blog"), "url": .string("https://example.org"), "title": .string("My Blog"),
            "repository": .string("https://github.com/me/x"),
            "data": .map(["team": .list([
                .map(["name": .string("Ann"), "role": .string("lead")]),
                .map(["name": .string("Bob"), "role": .string("dev")]),
                .map(["name": .string("Cy"), "role": .string("dev")]),
            ])]),
        ],
        timeZone: TimeZone(identifier: "Europe/Paris")!
    )

    private let page = MetaValue.map([
        "title": .string("Hello World"),
        "date": .date(Date(timeIntervalSince1970: 1_580_601_600)),  // 2020-02-02T00:00:00Z
        "tags": .list([.string("swift"), .string("web")]),
        "count": .int(3),
        "filters_linked_to": .list([.string("where expression"), .string("find")]),
    ])

    /// `template` run as the body of a Jekyll-form post starting on line 5 of `post.md`.
    private func run(_ template: String) -> (String, [Diagnostic]) {
        Liquid.process(template, path: "post.md", firstLine: 5, context: context, page: page)
    }

    /// The output of `template`, which must give no warning.
    private func render(_ template: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let (out, diagnostics) = run(template)
        XCTAssertEqual(diagnostics, [], file: file, line: line)
        return out
    }

    // MARK: - Outputs and variables

    func testOutputsOfSiteAndPage() {
        XCTAssertEqual(render("{{ page.title }} on {{ site.title }}: {{ site.repository }}/issues"),
                       "Hello World on My Blog: https://github.com/me/x/issues")
        XCTAssertEqual(render("{{ page.tags[1] }} {{ page.tags.first }} {{ page.tags.last }} {{ page.tags.size }} {{ page['title'] }}"),
                       "web swift web 2 Hello World")
        XCTAssertEqual(render("{{ site.data.team[0].name }}"), "Ann")
        XCTAssertEqual(render("{{ page.tags }}"), "swiftweb", "a list prints as its items run together")
    }

    func testAnUnknownVariableIsLeftAsWrittenWithOneWarning() {
        let (out, diagnostics) = run("A {{ site.nothing }} and {{ page.none }}.")
        XCTAssertEqual(out, "A {{ site.nothing }} and {{ page.none }}.")
        XCTAssertEqual(diagnostics.map(\.description), [
            "post.md:5:3: warning: 2 template values missing ({{ site.nothing }} first): `site.nothing` has no value "
                + "(`site.x` comes from `params:` in blog.yml or the Jekyll site's _config.yml and _data/, `page.x` from the post's header); "
                + "an output of it alone is left as written, other uses read it as nil",
        ])
        XCTAssertEqual(render("{{ site.nothing | default: \"none\" }}"), "none", "a filter sees nil, as in Liquid; `default` expects it")
        XCTAssertEqual(render("{% if page.image %}img{% endif %}"), "", "a condition asks whether there is a value: no warning")
        let (loopOut, loopDiagnostics) = run("{% for r in site.data.releases %}x{% endfor %}{% assign y = site.data.x | sort %}")
        XCTAssertEqual(loopOut, "", "a loop over nothing, as in Liquid")
        XCTAssertEqual(loopDiagnostics.first?.message.hasPrefix("2 template values missing ({% for %} first): `site.data.releases` has no value"), true,
                       loopDiagnostics.first?.message ?? "")
    }

    func testAssignAndCapture() {
        XCTAssertEqual(render("{% assign n = page.count | plus: 2 %}{{ n }}"), "5")
        XCTAssertEqual(render("{% capture greeting %}Hi {{ page.title | downcase }}!{% endcapture %}[{{ greeting }}]"),
                       "[Hi hello world!]")
    }

    func testWhitespaceControl() {
        XCTAssertEqual(render("a  \n{%- assign x = 1 -%}\n  b"), "ab")
        XCTAssertEqual(render("a\n{% assign x = 1 %}\nb"), "a\n\nb", "without dashes the line breaks stay, as in Liquid")
    }

    // MARK: - Conditions

    func testIfElsifElseAndUnless() {
        let template = "{% if page.count > 5 %}big{% elsif page.count == 3 %}three{% else %}other{% endif %}"
        XCTAssertEqual(render(template), "three")
        XCTAssertEqual(render("{% unless page.count < 2 %}not small{% else %}small{% endunless %}"), "not small")
        XCTAssertEqual(render("{% if page.tags contains 'web' %}web{% endif %}{% if page.title contains 'World' %}!{% endif %}"), "web!")
        XCTAssertEqual(render("{% if page.count >= 3 and page.count <= 3 %}eq{% endif %}{% if page.count != 3 %}ne{% endif %}"), "eq")
    }

    func testOnlyNilAndFalseAreFalse() {
        XCTAssertEqual(render("{% if '' %}a{% endif %}{% if 0 %}b{% endif %}{% if page.none %}c{% endif %}{% if false %}d{% endif %}"), "ab")
        XCTAssertEqual(render("{% if page.none == empty %}x{% endif %}{% if '' == empty %}e{% endif %}{% if '  ' == blank %}b{% endif %}"), "eb")
    }

    func testAndOrAreEvaluatedFromTheRight() {
        // Liquid: `true or false and false` is `true or (false and false)`; `false and false or true` is `false and (false or true)`.
        XCTAssertEqual(render("{% if true or false and false %}yes{% else %}no{% endif %}"), "yes")
        XCTAssertEqual(render("{% if false and false or true %}yes{% else %}no{% endif %}"), "no")
    }

    func testCaseWhen() {
        XCTAssertEqual(render("{% case page.count %}{% when 1, 2 %}few{% when 3 %}three{% else %}many{% endcase %}"), "three")
        XCTAssertEqual(render("{% case 'x' %}{% when 'y' or 'z' %}yz{% else %}other{% endcase %}"), "other")
    }

    // MARK: - Loops

    func testForOverAHeaderListWithForloop() {
        let template = "{% for t in page.tags %}{{ forloop.index }}:{{ t }}{% if forloop.first %}(first){% endif %}"
            + "{% unless forloop.last %}, {% endunless %}{% endfor %}"
        XCTAssertEqual(render(template), "1:swift(first), 2:web")
    }

    func testForOverSiteDataWithLimitOffsetReversedAndElse() {
        XCTAssertEqual(render("{% for m in site.data.team limit: 2 %}{{ m.name }} {% endfor %}"), "Ann Bob ")
        XCTAssertEqual(render("{% for m in site.data.team offset: 1 %}{{ m.name }} {% endfor %}"), "Bob Cy ")
        XCTAssertEqual(render("{% for m in site.data.team reversed %}{{ m.name }} {% endfor %}"), "Cy Bob Ann ")
        XCTAssertEqual(render("{% for i in (1..4) %}{{ i }}{% if i == 2 %}{% break %}{% endif %}{% endfor %}"), "12")
        XCTAssertEqual(render("{% for i in (1..4) %}{% if i == 2 %}{% continue %}{% endif %}{{ i }}{% endfor %}"), "134")
        XCTAssertEqual(render("{% for x in page.tags offset: 5 %}x{% else %}none{% endfor %}"), "none")
    }

    func testTheJekyllIssueListIdiom() {
        let template = """
            {% assign issue_numbers = "1037|1040" | split: "|" %}
            {% for issue in issue_numbers %}
            [#{{ issue }}]: {{ site.repository }}/issues/{{ issue }}
            {% endfor %}
            """
        XCTAssertEqual(render(template), "\n\n[#1037]: https://github.com/me/x/issues/1037\n\n[#1040]: https://github.com/me/x/issues/1040\n")
    }

    func testALoopTooLongStopsWithAnError() {
        let (out, diagnostics) = run("{% for i in (1..1000000) %}{{ i }}{% endfor %}")
        XCTAssertLessThan(out.count, 2_000_000)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.severity, .error)
        XCTAssertTrue(diagnostics[0].message.contains("stopped at {% for %} after 50000 steps"), diagnostics[0].message)
    }

    /// The shape of a fuzzer's slow input: loops nested seven deep over a split list (7^7 rounds).
    func testNestedLoopsStopAtTheStepLimit() {
        let open = (0..<7).map { "{% for v\($0) in xs %}" }.joined()
        let close = String(repeating: "{% endfor %}", count: 7)
        let (out, diagnostics) = run("{% assign xs = \"a|b|c|d|e|f|g\" | split: \"|\" %}" + open + "{{ v6 }}" + close)
        XCTAssertLessThanOrEqual(out.count, LiquidEvaluator.maxSteps)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(diagnostics.first?.message.contains("after 50000 steps") == true, diagnostics.map(\.message).joined())
    }

    func testHugeNumbersAndRunawayTextsAndDeepNestingNeverCrash() {
        XCTAssertEqual(render("{% for i in (1..3) limit: 99999999999999999999 offset: -99999999999999999999 %}{{ i }}{% endfor %}"), "123")
        XCTAssertEqual(render("[{{ 'abc' | slice: 99999999999999999999 }}] {{ 2 | round: 99999999999999999999 }} {{ 7 | ceil: 1 | floor }}"), "[] 2.0 7")
        XCTAssertEqual(render("{{ 99999999999999999999 | date: '%Y' }}"), "1e+20")
        let (out, diagnostics) = run("{% assign x = 'ab' %}{% for i in (1..60) %}{% assign x = x | append: x %}{% endfor %}{{ x | size }}")
        XCTAssertLessThan(out.utf8.count, 100)
        XCTAssertTrue(diagnostics.first?.message.contains("after making and reading 8 MB") == true, diagnostics.map(\.message).joined())
        let deep = String(repeating: "{% if true %}", count: 5000) + "x" + String(repeating: "{% endif %}", count: 5000)
        XCTAssertTrue(run(deep).0.contains("x"), "blocks nested past the limit stay as written, without exhausting the stack")
        let brackets = "{{ a" + String(repeating: "[a", count: 5000) + String(repeating: "]", count: 5000) + " }}"
        XCTAssertEqual(run(brackets).0, brackets)
        let conditions = "{% if " + Array(repeating: "true", count: 5000).joined(separator: " and ") + " %}y{% endif %}"
        XCTAssertTrue(run(conditions).0.hasPrefix("{% if true and"))
    }

    // MARK: - Comments and what is not understood

    func testCommentsAreDropped() {
        XCTAssertEqual(render("a{% comment %} {{ nope }} {% include x %} {% endcomment %}b"), "ab")
    }

    func testUnknownTagsAndFiltersAndBrokenBlocksStayAsWrittenWithOneWarning() {
        let template = "{% include note.html %} {{ page.title | frobnicate }} {% if page.count %}open {% for %}x"
        let (out, diagnostics) = run(template)
        XCTAssertEqual(out, "{% include note.html %} {{ page.title | frobnicate }} {% if page.count %}open {% for %}x")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.description.hasPrefix("post.md:5:1: warning: 4 template tags left as written ({% include %} first)"), true,
                       diagnostics.first?.description ?? "")
        // A block never closed is put back, and what follows still runs.
        XCTAssertEqual(run("{% if true %}a {{ page.count }}").0, "{% if true %}a 3")
        XCTAssertEqual(run("{% endif %}{{ page.count }}").0, "{% endif %}3")
    }

    func testCodeIsNeverRun() {
        XCTAssertEqual(render("`{{ page.title }}` {{ page.title }}\n\n    {{ page.title }}\n"), "`{{ page.title }}` Hello World\n\n    {{ page.title }}\n")
        XCTAssertEqual(render("```\n{% if true %}x{% endif %}\n```\n"), "```\n{% if true %}x{% endif %}\n```\n")
    }

    func testWithoutAPageOnlyLinksAreRewritten() {
        let (out, diagnostics) = Liquid.process("{{ page.title }} {{ site.baseurl }}", path: "post.md", firstLine: 5, context: context)
        XCTAssertEqual(out, "{{ page.title }} /blog")
        XCTAssertEqual(diagnostics.count, 1)
    }

    func testRewrittenTagsStillWorkInsideBlocks() {
        XCTAssertEqual(render("{% if true %}[f]({% post_url 2018-01-19-forums %}) {{ site.baseurl }}{% endif %}"), "[f](/blog/posts/forums/) /blog")
    }

    // MARK: - Filters

    func testURLFilters() {
        XCTAssertEqual(render("{{ '/docs/x/' | relative_url }} {{ 'docs' | relative_url }} {{ '/a' | absolute_url }}"),
                       "/blog/docs/x/ /blog/docs https://example.org/blog/a")
        XCTAssertEqual(render("{{ 'https://x.org/a' | relative_url }}"), "https://x.org/a")
        XCTAssertEqual(render("{% for f in page.filters_linked_to %}{{ f | slugify | prepend: '/f/#' | relative_url }} {% endfor %}"),
                       "/blog/f/#where-expression /blog/f/#find ")
    }

    func testTextFilters() {
        XCTAssertEqual(render("{{ page.title | downcase }} {{ page.title | upcase }} {{ 'ab' | capitalize }}"), "hello world HELLO WORLD Ab")
        XCTAssertEqual(render("{{ '<a href=\"x\">T&C</a>' | escape }}"), "&lt;a href=&quot;x&quot;&gt;T&amp;C&lt;/a&gt;")
        XCTAssertEqual(render("{{ '<p>Hi <b>there</b></p><!-- c --><script>x</script>' | strip_html }}"), "Hi there")
        XCTAssertEqual(render("{{ 'Ground control to Major Tom.' | truncate: 20 }}|{{ 'abc' | truncate: 5 }}|{{ 'abcdef' | truncate: 4, '' }}"),
                       "Ground control to...|abc|abcd")
        XCTAssertEqual(render("{{ 'a b c' | truncatewords: 2 }} {{ 'x' | append: 'y' | prepend: 'w' }} {{ 'aXbX' | replace: 'X', '-' }}"), "a b... wxy a-b-")
        XCTAssertEqual(render("{{ '  x  ' | strip }}|{{ \"Don't stop\" | slugify }}"), "x|don-t-stop")
    }

    func testListFilters() {
        XCTAssertEqual(render("{{ 'a,b,,c' | split: ',' | join: '+' }} {{ page.tags | join: ', ' }} {{ page.tags | size }} {{ 'abc' | size }}"),
                       "a+b++c swift, web 2 3")
        XCTAssertEqual(render("{{ 'c b a b' | split: ' ' | sort | uniq | join }} {{ site.data.team | map: 'role' | uniq | join: '/' }}"),
                       "a b c lead/dev")
        XCTAssertEqual(render("{{ page.tags | first }} {{ page.tags | last }} {{ page.tags | reverse | join }}"), "swift web web swift")
    }

    func testDefaultFilter() {
        XCTAssertEqual(render("{{ page.none | default: 'x' }} {{ '' | default: 'y' }} {{ false | default: 'z' }} {{ page.count | default: 9 }}"), "x y z 3")
    }

    func testNumberFilters() {
        XCTAssertEqual(render("{{ 4 | plus: 2 }} {{ 4 | minus: 6 }} {{ 3 | times: 2.5 }} {{ 7 | divided_by: 2 }} {{ 7.0 | divided_by: 2 }} {{ 7 | modulo: 3 }}"),
                       "6 -2 7.5 3 3.5 1")
    }

    func testDateFilters() {
        // 2020-02-02 00:00 UTC is 01:00 in Paris, the site's zone.
        XCTAssertEqual(render("{{ page.date | date: '%b %-d, %Y %H:%M' }}"), "Feb 2, 2020 01:00")
        XCTAssertEqual(render("{{ '2016-11-25' | date: '%Y/%m/%d' }} {{ page.date | date_to_xmlschema }}"), "2016/11/25 2020-02-02T01:00:00+01:00")
        XCTAssertEqual(render("{{ 'not a date' | date: '%Y' }}"), "not a date")
    }
}
