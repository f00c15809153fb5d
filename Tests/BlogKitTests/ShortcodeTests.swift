@testable import BlogCore
@testable import BlogLiquid
@testable import BlogMarkdown
import XCTest

/// Hugo shortcodes in a post's body: the call handed to the site's template (arguments, inner content,
/// form), the built-ins, and where `{{< >}}` output goes.
final class ShortcodeTests: XCTestCase {
    /// Records each call; the test templates `note` (which takes inner content) and `badge` (which doesn't)
    /// render as `[name:<positional>|<named>|<inner>]`.
    private final class Calls: @unchecked Sendable {
        var calls: [ShortcodeCall] = []
    }

    private func run(_ body: String, page: MetaValue? = nil, site: [String: MetaValue] = [:]) -> (Liquid.Output, [ShortcodeCall]) {
        let calls = Calls()
        let context = LiquidContext(site: site, renderShortcode: { call in
            calls.calls.append(call)
            guard call.name == "note" || call.name == "badge" else { return nil }
            return "[\(call.name):\(call.positional.joined(separator: ","))|\(call.named.map { "\($0.key)=\($0.value)" }.joined(separator: ","))|\(call.inner ?? "-")]"
        }, shortcodeTakesInner: { name in
            ["note": true, "badge": false][name]
        })
        let output = Liquid.run(body, path: "post.md", firstLine: 5, context: context, page: page, runsLiquid: false)
        return (output, calls.calls)
    }

    /// The markdown with each mark replaced by its HTML.
    private func restored(_ output: Liquid.Output) -> String {
        ShortcodeMarks.restore(output.markdown, fragments: output.fragments)
    }

    func testArgumentsAndInnerContentReachTheTemplate() {
        let (output, calls) = run("A {{< badge \"x y\" 'z' >}} B {{< note kind=\"tip\" title=\"Say \\\"hi\\\"\" >}}inner *md*{{< / note >}} C")
        XCTAssertEqual(calls, [
            ShortcodeCall(name: "badge", positional: ["x y", "z"], named: [], inner: nil, markdown: false),
            ShortcodeCall(name: "note", positional: [], named: [ShortcodeArgument(key: "kind", value: "tip"), ShortcodeArgument(key: "title", value: "Say \"hi\"")],
                          inner: "inner *md*", markdown: false),
        ])
        XCTAssertEqual(restored(output), "A [badge:x y,z||-] B [note:|kind=tip,title=Say \"hi\"|inner *md*] C")
        XCTAssertEqual(output.diagnostics, [])
    }

    func testHTMLShortcodesGoInAfterTheMarkdownAndMarkdownOnesBefore() {
        let (html, _) = run("{{< note >}}*a*{{< /note >}}")
        XCTAssertFalse(html.markdown.contains("note"), "the markdown only has a mark: \(html.markdown)")
        XCTAssertEqual(ShortcodeMarks.restore("<p>" + html.markdown + "</p>\n", fragments: html.fragments), "[note:||*a*]\n",
                       "a mark alone in its paragraph takes the paragraph's place")
        let (markdown, calls) = run("{{% note %}}*a*{{% /note %}}")
        XCTAssertEqual(markdown.markdown, "[note:||*a*]", "{{% %}} output is markdown, rendered with the post")
        XCTAssertEqual(calls.first?.markdown, true)
    }

    func testUnknownShortcodesStayWithTheWarning() {
        let (output, _) = run("{{< gh \"@x\" >}} and {{< /gh >}}")
        XCTAssertEqual(output.markdown, "{{< gh \"@x\" >}} and {{< /gh >}}")
        XCTAssertEqual(output.diagnostics.first?.message.hasPrefix("2 template tags left as written ({{< gh >}} first)"), true,
                       output.diagnostics.first?.message ?? "")
    }

    func testFigure() {
        let (output, _) = run("{{< figure src=\"/a.png\" alt=\"A <b>\" title=\"T\" caption=\"C\" link=\"https://x.org\" class=\"wide\" >}}")
        XCTAssertEqual(restored(output), "<figure class=\"wide\"><a href=\"https://x.org\"><img src=\"/a.png\" alt=\"A &lt;b&gt;\" /></a>"
                       + "<figcaption><h4>T</h4><p>C</p></figcaption></figure>")
    }

    func testYoutubeGistAndParam() {
        XCTAssertTrue(restored(run("{{< youtube w7Ft2ymGmfc >}}").0).contains("<iframe src=\"https://www.youtube.com/embed/w7Ft2ymGmfc\""))
        XCTAssertTrue(restored(run("{{< youtube id=\"abc\" title=\"Talk\" >}}").0).contains("embed/abc\" style=") )
        XCTAssertEqual(restored(run("{{< gist spf13 7896402 \"img.html\" >}}").0),
                       "<script src=\"https://gist.github.com/spf13/7896402.js?file=img.html\"></script>")
        let page = MetaValue.map(["color": .string("blue & green")])
        XCTAssertEqual(restored(run("{{< param color >}}/{{< param author >}}", page: page, site: ["author": .string("Jo")]).0),
                       "blue &amp; green/Jo", "the page's value, else the site's")
    }

    func testHighlightBecomesAFencedCodeBlock() {
        let (output, _) = run("Before:\n{{< highlight Go \"linenos=table\" >}}\nfunc main() {}\n{{< /highlight >}}\nAfter.")
        XCTAssertEqual(output.markdown, "Before:\n```go {linenos=table}\nfunc main() {}\n```\nAfter.")
    }

    func testShortcodesInCodeAreNotRun() {
        let (output, calls) = run("`{{< note >}}`\n\n```\n{{< youtube x >}}\n```\n")
        XCTAssertEqual(output.markdown, "`{{< note >}}`\n\n```\n{{< youtube x >}}\n```\n")
        XCTAssertEqual(calls, [])
    }
}
