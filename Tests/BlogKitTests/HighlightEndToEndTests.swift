import Foundation
import XCTest

/// `highlight` and `highlight_style` in blog.yml, through the `blog` binary: code comes out highlighted
/// by default, plain with `highlight: false`, and the cache keys on the setting.
final class HighlightEndToEndTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("content/post.md", """
            ---
            title: Code
            date: 2024-01-02
            ---
            ```python
            def f(): return "<x>"
            ```

                #!swift
                let a = 1
            """)
    }

    override func tearDown() {
        site.remove()
    }

    private func build(_ config: String) throws -> String {
        try site.write("blog.yml", "title: T\n" + config)
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(site.read("public/posts/post/index.html"))
    }

    func testHighlightedByDefaultPlainWhenOff() throws {
        let on = try build("")
        XCTAssertTrue(on.contains(#"<pre><code class="language-python"><span class="k">def</span> <span class="nf">f</span>"#), on)
        XCTAssertTrue(on.contains(#"<span class="s">&quot;&lt;x&gt;&quot;</span>"#), on)
        XCTAssertTrue(on.contains(#"<pre class="linenums"><code class="language-swift"><span class="ln">1</span><span class="k">let</span>"#), on)
        // The cache (on by default) must not hand back the highlighted body once highlighting is off.
        let off = try build("highlight: false\n")
        XCTAssertTrue(off.contains("<pre><code class=\"language-python\">def f(): return &quot;&lt;x&gt;&quot;\n</code></pre>"), off)
        XCTAssertTrue(off.contains("<pre class=\"linenums\"><code class=\"language-swift\">let a = 1\n</code></pre>"), off)
        XCTAssertFalse(off.contains("<span"), off)
        let contrast = try build("highlight_style: contrast\n")
        XCTAssertTrue(contrast.contains(#"<pre class="highlight-contrast"><code class="language-python"><span class="k">def</span>"#), contrast)
        XCTAssertTrue(contrast.contains(#"<pre class="linenums highlight-contrast"><code class="language-swift">"#), contrast)
        // The default theme styles the classes in both schemes, and the second palette.
        let css = try XCTUnwrap(site.read("public/style.css"))
        for rule in ["pre code .k {", "pre .ln {", "user-select: none", "pre.highlight-contrast {", "--hl-keyword: #ff7b72"] {
            XCTAssertTrue(css.contains(rule), rule)
        }
    }
}
