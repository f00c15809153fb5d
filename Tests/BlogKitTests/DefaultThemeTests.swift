import Foundation
import XCTest

/// What the default theme puts in `<head>` besides the title (Open Graph and Twitter card tags,
/// the icon, the browser's colours), and `highlight_style` checked against the theme's palettes,
/// through the `blog` binary.
final class DefaultThemeTests: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("content/posts/card/index.md", """
            ---
            title: With a card
            date: 2024-01-02
            description: A post whose header names a picture.
            cover:
              image: card.png
              alt: A card
            ---
            Text.
            """)
        try site.write("content/posts/card/card.png", data: Data([0x89, 0x50, 0x4E, 0x47]))
        try site.write("content/posts/plain.md", """
            ---
            title: Plain & simple
            date: 2024-01-01
            image: /shared/logo.png
            ---
            ```python
            print("hi")
            ```
            """)
        try site.write("content/posts/poster.md", "---\ntitle: Poster\ndate: 2023-01-01\nimages:\n  - images/poster.png\n---\nText.\n")
    }

    override func tearDown() {
        site.remove()
    }

    /// Builds with `config` as blog.yml; the result of the command.
    private func build(_ config: String, _ extra: [String] = []) throws -> BlogCLI.Result {
        try site.write("blog.yml", config)
        return try BlogCLI.run(["build", "--no-cache"] + extra, in: site.root)
    }

    private func page(_ path: String) throws -> String {
        try XCTUnwrap(site.read("public/" + path), path)
    }

    func testSharingTagsOfPostsAndOtherPages() throws {
        let result = try build("title: Notes & Code\nbase_url: https://example.org/blog/\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let card = try page("posts/card/index.html")
        for tag in [#"<meta property="og:title" content="With a card">"#,
                    #"<meta property="og:type" content="article">"#,
                    #"<meta property="og:site_name" content="Notes &amp; Code">"#,
                    #"<meta property="og:url" content="https://example.org/blog/posts/card/">"#,
                    #"<meta property="og:description" content="A post whose header names a picture.">"#,
                    // A file of the post's bundle, copied beside its page.
                    #"<meta property="og:image" content="https://example.org/blog/posts/card/card.png">"#,
                    #"<meta name="twitter:card" content="summary_large_image">"#] {
            XCTAssertTrue(card.contains(tag), "\(tag)\n\(card)")
        }
        XCTAssertTrue(site.exists("public/posts/card/card.png"))
        // A path from the root is resolved as a browser would resolve it on the post's page.
        let plain = try page("posts/plain/index.html")
        XCTAssertTrue(plain.contains(#"<meta property="og:image" content="https://example.org/shared/logo.png">"#), plain)
        XCTAssertTrue(plain.contains(#"<meta property="og:title" content="Plain &amp; simple">"#), plain)
        // A relative path that is no file of the post's bundle is from the site's root (Hugo's `images`).
        let poster = try page("posts/poster/index.html")
        XCTAssertTrue(poster.contains(#"<meta property="og:image" content="https://example.org/blog/images/poster.png">"#), poster)

        let home = try page("index.html")
        for tag in [#"<meta property="og:title" content="Notes &amp; Code">"#, #"<meta property="og:type" content="website">"#,
                    #"<meta property="og:url" content="https://example.org/blog/">"#, #"<meta name="twitter:card" content="summary">"#] {
            XCTAssertTrue(home.contains(tag), "\(tag)\n\(home)")
        }
        XCTAssertFalse(home.contains("og:image"), home)
        XCTAssertFalse(home.contains("og:description"), "the site has no description")
        // The 404 page is served at any address: it claims none.
        let missing = try page("404.html")
        XCTAssertTrue(missing.contains(#"<meta property="og:title" content="Page not found">"#), missing)
        XCTAssertFalse(missing.contains("og:url"), missing)
    }

    func testNoImageWithoutAnAbsoluteBaseURL() throws {
        let result = try build("title: T\nbase_url: /blog/\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let card = try page("posts/card/index.html")
        XCTAssertFalse(card.contains("og:image"), card)
        XCTAssertFalse(card.contains("og:url"), card)
        XCTAssertTrue(card.contains(#"<meta name="twitter:card" content="summary">"#), card)
    }

    func testIconAndBrowserColoursForBothSchemes() throws {
        let result = try build("title: T\nbase_url: https://example.org/blog/\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let icon = try page("favicon.svg")
        XCTAssertTrue(icon.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), icon)
        let css = try page("style.css")
        for path in ["index.html", "posts/card/index.html", "tags/index.html", "archives/index.html", "404.html"] {
            let html = try page(path)
            XCTAssertTrue(html.contains(#"<link rel="icon" href="/blog/favicon.svg" type="image/svg+xml">"#), path)
            // Each scheme's colour is the page background of that scheme in the stylesheet.
            for (scheme, background) in try [("light", Self.background(css, dark: false)), ("dark", Self.background(css, dark: true))] {
                let tag = #"<meta name="theme-color" content="\#(background)" media="(prefers-color-scheme: \#(scheme))">"#
                XCTAssertTrue(html.contains(tag), "\(path): \(tag)")
            }
        }
    }

    /// `--background` of the light scheme (`:root`) or of the dark one.
    private static func background(_ css: String, dark: Bool) throws -> String {
        let stylesheet = CSSCustomProperties(css)
        let value = (dark ? stylesheet.properties(selector: ":root", media: "(prefers-color-scheme: dark)") : [:])["--background"]
            ?? stylesheet.properties(selector: ":root", media: nil)["--background"]
        return try XCTUnwrap(value)
    }

    func testAnUnknownPaletteIsAWarningNamingTheThemesPalettes() throws {
        let result = try build("title: T\nhighlight_style: solarized\nbase_url: https://example.org/\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains(
            "blog.yml:2:18: warning: unknown highlight_style `solarized`: the theme \"default\" has `contrast`, `default`; using `default`"),
                      result.stderr)
        let plain = try page("posts/plain/index.html")
        XCTAssertTrue(plain.contains(#"<pre><code class="language-python">"#), plain)
        XCTAssertFalse(plain.contains("highlight-"), plain)
        // --strict makes it fail, as any warning.
        XCTAssertNotEqual(try build("title: T\nhighlight_style: solarized\nbase_url: https://example.org/\n", ["--strict"]).status, 0)
        // A palette the theme has is used.
        XCTAssertEqual(try build("title: T\nhighlight_style: contrast\nbase_url: https://example.org/\n").stderr, "")
        XCTAssertTrue(try page("posts/plain/index.html").contains(#"<pre class="highlight-contrast"><code class="language-python">"#))
    }

    func testAThemeDeclaresAPaletteByStylingItsClass() throws {
        try site.write("themes/default/static/solar.css", "pre.highlight-solar-2 { --hl-keyword: #586e75; }\n")
        let result = try build("title: T\nhighlight_style: solar-2\nbase_url: https://example.org/\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
        XCTAssertTrue(try page("posts/plain/index.html").contains(#"<pre class="highlight-solar-2"><code class="language-python">"#))
        let other = try build("title: T\nhighlight_style: solar\n")
        XCTAssertTrue(other.stderr.contains("has `contrast`, `default`, `solar-2`; using `default`"), other.stderr)
    }
}
