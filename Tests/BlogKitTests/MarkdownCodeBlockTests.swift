@testable import BlogBuild
import BlogCore
import BlogHighlight
@testable import BlogMarkdown
import XCTest

/// Code block languages: CodeHilite markers on indented blocks, lower-cased fence languages.
final class MarkdownCodeBlockTests: XCTestCase {
    private func html(_ markdown: String) -> String {
        MarkdownRenderer.render(body: markdown, summary: nil).html
    }

    func testColonMarkerSetsLanguageAndIsRemoved() {
        XCTAssertEqual(html("Intro:\n\n    :::swift\n    let a = [1] <> 2\n"),
                       "<p>Intro:</p>\n<pre><code class=\"language-swift\">let a = [1] &lt;&gt; 2\n</code></pre>\n")
        // Two colons are enough, as in CodeHilite's pattern `^::+`.
        XCTAssertEqual(html("    ::swift\n    let a = 1\n"),
                       "<pre><code class=\"language-swift\">let a = 1\n</code></pre>\n")
        XCTAssertEqual(html("    ::::Python\n    print('hi')\n"),
                       "<pre><code class=\"language-python\">print('hi')\n</code></pre>\n")
        XCTAssertEqual(html("    :::python hl_lines=\"1\"\n    x = 1\n"),
                       "<pre><code class=\"language-python\">x = 1\n</code></pre>\n")
    }

    func testShebangMarkerAddsLineNumbersAndIsRemoved() {
        XCTAssertEqual(html("    #!python\n    if a < b and c:\n        print(\"&\")\n\nAfter.\n"), """
            <pre class="linenums"><code class="language-python">if a &lt; b and c:
                print(&quot;&amp;&quot;)
            </code></pre>
            <p>After.</p>

            """)
    }

    func testShebangWithPathStaysInTheCode() {
        XCTAssertEqual(html("    #!/usr/bin/python\n    import os\n"),
                       "<pre class=\"linenums\"><code class=\"language-python\">#!/usr/bin/python\nimport os\n</code></pre>\n")
        XCTAssertEqual(html("    #!/usr/bin/env python3\n    import os\n"),
                       "<pre class=\"linenums\"><code class=\"language-python3\">#!/usr/bin/env python3\nimport os\n</code></pre>\n")
    }

    func testIndentedBlockWithoutMarkerIsUnchanged() {
        XCTAssertEqual(html("    let x = 1\n    :::swift\n"), "<pre><code>let x = 1\n:::swift\n</code></pre>\n")
        XCTAssertEqual(html("    #include <stdio.h>\n"), "<pre><code>#include &lt;stdio.h&gt;\n</code></pre>\n")
        XCTAssertEqual(html("    :one colon\n"), "<pre><code>:one colon\n</code></pre>\n")
        XCTAssertEqual(html("    :::swift!\n"), "<pre><code>:::swift!\n</code></pre>\n")
    }

    func testFencedLanguageIsLowerCasedFirstWord() {
        XCTAssertEqual(html("```Swift\nlet x = \"<\"\n```\n"),
                       "<pre><code class=\"language-swift\">let x = &quot;&lt;&quot;\n</code></pre>\n")
        XCTAssertEqual(html("```swift, showLineNumbers, wrap=80\nf()\n```\n"),
                       "<pre><code class=\"language-swift\">f()\n</code></pre>\n")
        XCTAssertEqual(html("~~~\n:::swift\n~~~\n"), "<pre><code>:::swift\n</code></pre>\n")
    }

    /// The marker read from `line`, as `language linenums:… keeps:…`.
    private func marker(_ line: Substring, exact: Bool) -> String? {
        CodeHiliteMarker(line: line, exact: exact).map { "\($0.language) linenums:\($0.lineNumbers) keeps:\($0.keepsLine)" }
    }

    func testMarkerParsing() {
        func read(_ line: Substring) -> String? { marker(line, exact: false) }
        XCTAssertEqual(read("#!/bin/bash -e"), "bash linenums:true keeps:true")
        XCTAssertEqual(read(":::c++  "), "c++ linenums:false keeps:false")
        XCTAssertEqual(read("#!C#\r"), "c# linenums:true keeps:false")
        XCTAssertEqual(read("#! /bin/sh"), "sh linenums:true keeps:true")
        XCTAssertEqual(read("#!/usr/bin/env -S python3 -u"), "python3 linenums:true keeps:true")
        XCTAssertEqual(read("::: Ruby"), "ruby linenums:false keeps:false")
        XCTAssertEqual(read("::go"), "go linenums:false keeps:false")
        XCTAssertNil(read(":go"))
        XCTAssertEqual(CodeHiliteMarker(line: "::python hl_lines=\"1 3\"")?.highlightsLines, true)
        XCTAssertEqual(CodeHiliteMarker(line: "::python")?.highlightsLines, false)
        XCTAssertNil(read("#!"))
        XCTAssertNil(read("#!/usr/bin/"))
        XCTAssertNil(read("# python"))
    }

    /// In Pelican posts, CodeHilite's own reading (issue 29, class 10): its pattern
    /// `(?:^::+|^#!)(?P<path>(?:/\w+)*[/ ])?(?P<lang>[\w#.+-]*)` is searched in the first line, and the
    /// whole line is dropped unless it holds a path (expected values are Python-Markdown 3.x's).
    func testCodeHiliteReadingInPelicanPosts() {
        let expected: KeyValuePairs<Substring, String?> = [
            "::swift::": "swift linenums:false keeps:false", ":::swift   ": "swift linenums:false keeps:false",
            ":::swift!": "swift linenums:false keeps:false", ":::python hl_lines=\"1\"": "python linenums:false keeps:false",
            "::": " linenums:false keeps:false", "#!": " linenums:true keeps:false", "#!C#\r": "c# linenums:true keeps:false",
            // One space after the marker is CodeHilite's path: the line stays, the word after names the language.
            "::: Ruby": "ruby linenums:false keeps:true", ":: Int -> Int": "int linenums:false keeps:true",
            // Real shebangs keep blog's reading of the interpreter.
            "#!/usr/bin/env python3": "python3 linenums:true keeps:true", "#!/usr/bin/": " linenums:true keeps:true",
            ":go": nil, "# python": nil,
        ]
        for (line, reading) in expected { XCTAssertEqual(marker(line, exact: true), reading, String(line)) }
        XCTAssertEqual(CodeHiliteMarker(line: "::swift:: hl_lines=\"2\"", exact: true)?.highlightsLines, true)

        func pelican(_ markdown: String) -> String {
            MarkdownRenderer.render(body: markdown, summary: nil, options: MarkdownOptions(dialect: .pythonMarkdown)).html
        }
        XCTAssertEqual(pelican("    ::swift::\n    let a = 1\n"), "<pre><code class=\"language-swift\">let a = 1\n</code></pre>\n")
        XCTAssertEqual(pelican("    :::swift   \n    let a = 1\n"), "<pre><code class=\"language-swift\">let a = 1\n</code></pre>\n")
        XCTAssertEqual(pelican("    #!\n    a < b\n"), "<pre class=\"linenums\"><code>a &lt; b\n</code></pre>\n")
        XCTAssertEqual(pelican("    ::: python\n    x = 1\n"), "<pre><code class=\"language-python\">::: python\nx = 1\n</code></pre>\n")
        // Other generators have no markers: only a clean one is read, as before.
        XCTAssertEqual(html("    ::swift::\n    let a = 1\n"), "<pre><code>::swift::\nlet a = 1\n</code></pre>\n")
    }

    // MARK: - Highlighting (MarkdownOptions.highlight)

    private func highlighted(_ markdown: String, style: String = "default") -> RenderedMarkdown {
        MarkdownRenderer.render(body: markdown, summary: nil, options: MarkdownOptions(highlight: true, highlightStyle: style))
    }

    func testKnownLanguageIsHighlightedInTheSameOuterMarkup() {
        XCTAssertEqual(highlighted("```Python\nx = 1 # <\n```\n").html, """
            <pre><code class="language-python">x <span class="o">=</span> <span class="m">1</span> <span class="c"># &lt;</span>
            </code></pre>

            """)
        // Another palette is named on <pre>.
        XCTAssertEqual(highlighted("```sh\nls\n```\n", style: "contrast").html,
                       "<pre class=\"highlight-contrast\"><code class=\"language-sh\">ls\n</code></pre>\n")
    }

    func testUnknownOrMissingLanguageRendersAsWithoutHighlighting() {
        for markdown in ["```klingon\nqapla' <b>\n```\n", "```\nplain & <b>\n```\n", "```text\nx = 1\n```\n",
                         "    :::klingon\n    a < b\n"] {
            XCTAssertEqual(highlighted(markdown).html, html(markdown), markdown)
        }
    }

    func testShebangMarkerNumbersHighlightedLines() {
        XCTAssertEqual(highlighted("    #!python\n    x = 1\n    y\n").html, """
            <pre class="linenums"><code class="language-python"><span class="ln">1</span>x <span class="o">=</span> <span class="m">1</span>
            <span class="ln">2</span>y
            </code></pre>

            """)
    }

    func testHighlightedLinesInInfoStringsAndMarkers() {
        let hugo = highlighted("```python {linenos=false,hl_lines=[2,\"3-4\"]}\na\nb\nc\nd\ne\n```\n")
        XCTAssertEqual(hugo.html, "<pre><code class=\"language-python\">a\n<span class=\"hll\">b\n</span><span class=\"hll\">c\n</span>"
            + "<span class=\"hll\">d\n</span>e\n</code></pre>\n")
        XCTAssertEqual(highlighted("```go {linenos=table}\nx\n```\n").html,
                       "<pre class=\"linenums\"><code class=\"language-go\"><span class=\"ln\">1</span>x\n</code></pre>\n")
        // Pelican's form, on a CodeHilite marker: supported now, so no warning.
        let pelican = highlighted("    :::python hl_lines=\"1\"\n    x\n")
        XCTAssertEqual(pelican.html, "<pre><code class=\"language-python\"><span class=\"hll\">x\n</span></code></pre>\n")
        XCTAssertEqual(pelican.warnings, [])
        XCTAssertEqual(MarkdownRenderer.render(body: "    :::python hl_lines=\"1\"\n    x\n", summary: nil).warnings.count, 1)
    }

    func testDisplayOptionsParsing() {
        XCTAssertEqual(CodeDisplay(options: " hl_lines=\"2 4-5\"").lines.highlighted, [2, 4, 5])
        XCTAssertEqual(CodeDisplay(options: " {hl_lines=[1, \"3-3\"], linenos=inline}").lines,
                       Highlighter.Lines(numbers: true, highlighted: [1, 3]))
        XCTAssertEqual(CodeDisplay(options: " {hl_lines=[0, 5-2, x, 1-999999999]}").lines.highlighted, [])
        XCTAssertEqual(CodeDisplay(options: "").lines, Highlighter.Lines())
        // Options without `=` are not searched for the keys (both end in it): the same as no options.
        XCTAssertEqual(CodeDisplay(options: " linenos hl_lines 2").lines, Highlighter.Lines())
        // The key's own `=` is the only one, or the last byte; an `=` elsewhere only.
        XCTAssertEqual(CodeDisplay(options: " linenos=true").lines, Highlighter.Lines(numbers: true))
        XCTAssertEqual(CodeDisplay(options: "linenos=").lines, Highlighter.Lines())
        XCTAssertEqual(CodeDisplay(options: " {title=\"a b\"}").lines, Highlighter.Lines())
    }
}
