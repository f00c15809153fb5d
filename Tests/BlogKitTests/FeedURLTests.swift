@testable import BlogConfig
@testable import BlogCore
@testable import BlogSite
import XCTest

/// Links in feed content made absolute against a post's permalink.
final class FeedURLTests: XCTestCase {
    let permalink = "https://example.org/blog/posts/x/"

    func testResolvesReferencesAsABrowserWould() {
        let cases: [(String, String)] = [
            ("images/a.png", "https://example.org/blog/posts/x/images/a.png"),
            ("./a.png", "https://example.org/blog/posts/x/a.png"),
            ("../y/", "https://example.org/blog/posts/y/"),
            ("../../../../../etc", "https://example.org/etc"),
            ("/about/", "https://example.org/about/"),
            ("/a/./b/../c?q=1&amp;r=2#f", "https://example.org/a/c?q=1&amp;r=2#f"),
            ("#details", "https://example.org/blog/posts/x/#details"),
            ("?page=2", "https://example.org/blog/posts/x/?page=2"),
            ("a.png?v=1#top", "https://example.org/blog/posts/x/a.png?v=1#top"),
            ("..", "https://example.org/blog/posts/"),
            ("", "https://example.org/blog/posts/x/"),
            ("  b.png ", "https://example.org/blog/posts/x/b.png"),
            ("\n\tc.png\r\n", "https://example.org/blog/posts/x/c.png"),
            ("\u{A0}d.png\u{3000}", "https://example.org/blog/posts/x/d.png"),
            (" \u{301}e.png", "https://example.org/blog/posts/x/\u{301}e.png"),
            ("café.png ", "https://example.org/blog/posts/x/café.png"),
            // Absolute references stay as written.
            ("https://swift.org/a/../b", "https://swift.org/a/../b"),
            ("HTTP://Example.org/", "HTTP://Example.org/"),
            ("mailto:ana@example.org", "mailto:ana@example.org"),
            ("//cdn.example.org/c.png", "//cdn.example.org/c.png"),
            ("data:image/png;base64,iVBOR/w0=", "data:image/png;base64,iVBOR/w0="),
            ("tel:+331234", "tel:+331234"),
        ]
        for (reference, expected) in cases {
            XCTAssertEqual(AbsoluteURLs.resolve(reference, against: permalink), expected, reference)
        }
        // A base that is a file, or has a port, query and fragment.
        XCTAssertEqual(AbsoluteURLs.resolve("b.png", against: "http://localhost:8000/a/page.html?x#y"), "http://localhost:8000/a/b.png")
        XCTAssertEqual(AbsoluteURLs.resolve("#k", against: "http://localhost:8000/a/page.html?x#y"), "http://localhost:8000/a/page.html?x#k")
        XCTAssertEqual(AbsoluteURLs.resolve("/r", against: "http://localhost:8000/a/page.html"), "http://localhost:8000/r")
        // A base that is only a path (base_url: /blog/) gives paths.
        XCTAssertEqual(AbsoluteURLs.resolve("images/a.png", against: "/blog/posts/x/"), "/blog/posts/x/images/a.png")
        XCTAssertEqual(AbsoluteURLs.resolve("/about/", against: "/blog/posts/x/"), "/about/")
        XCTAssertEqual(AbsoluteURLs.resolve("#a", against: "/blog/posts/x/"), "/blog/posts/x/#a")
    }

    func testSiteURLsFromTheBaseURL() {
        var config = SiteConfig()
        config.baseURL = "https://example.org/blog/"
        XCTAssertTrue(AbsoluteURLs.isAbsolute(config))
        XCTAssertEqual(AbsoluteURLs.url("", config: config), "https://example.org/blog/")
        XCTAssertEqual(AbsoluteURLs.url("tags/café/", config: config), "https://example.org/blog/tags/caf%C3%A9/")
        config.baseURL = "/blog/"
        XCTAssertFalse(AbsoluteURLs.isAbsolute(config))
        XCTAssertEqual(AbsoluteURLs.url("posts/x/", config: config), "/blog/posts/x/")
    }

    func rewrite(_ html: String) -> String { AbsoluteURLs.rewrite(html: html, base: permalink) }

    func testRewritesURLAttributesOnly() {
        XCTAssertEqual(rewrite(#"<p><a href="/a" title="/not-a-url">/text</a> <img src='i.png' alt="i.png"></p>"#),
                       #"<p><a href="https://example.org/a" title="/not-a-url">/text</a> <img src='https://example.org/blog/posts/x/i.png' alt="i.png"></p>"#)
        XCTAssertEqual(rewrite(#"<video poster=p.jpg src = "v.mp4" controls><track src=t.vtt></video>"#),
                       #"<video poster=https://example.org/blog/posts/x/p.jpg src = "https://example.org/blog/posts/x/v.mp4" controls><track src=https://example.org/blog/posts/x/t.vtt></video>"#)
        XCTAssertEqual(rewrite(##"<A HREF="#top">up</A>"##), ##"<A HREF="https://example.org/blog/posts/x/#top">up</A>"##)
        XCTAssertEqual(rewrite(#"<img srcset="a.png, b.png 2x,/c.png 480w" data-src="d.png">"#),
                       #"<img srcset="https://example.org/blog/posts/x/a.png, https://example.org/blog/posts/x/b.png 2x,https://example.org/c.png 480w" data-src="d.png">"#)
        XCTAssertEqual(rewrite(#"<img srcset="data:image/png;base64,AA,BB 1x, x.png 2x">"#),
                       #"<img srcset="data:image/png;base64,AA,BB 1x, https://example.org/blog/posts/x/x.png 2x">"#)
        XCTAssertEqual(rewrite(#"<a href="https://swift.org/">s</a><a href="mailto:a@b.c">m</a>"#),
                       #"<a href="https://swift.org/">s</a><a href="mailto:a@b.c">m</a>"#)
        XCTAssertEqual(rewrite(#"<br/><img src="a.png"/><a href=b>x</a>"#),
                       #"<br/><img src="https://example.org/blog/posts/x/a.png"/><a href=https://example.org/blog/posts/x/b>x</a>"#)
    }

    func testLeavesCodeCommentsAndRawTextAlone() {
        let untouched = [
            #"<pre><code class="language-html">&lt;a href="/x"&gt;</code></pre>"#,
            #"<pre><a href="/shown-as-is">raw html in pre</a><img src="a.png"></pre>"#,
            #"<code><img src="inline.png"></code>"#,
            #"<pre><code><code></code><a href="/still-inside-pre">x</a></code></pre>"#,
            #"<!-- <a href="/commented"> --><!DOCTYPE html><?pi href="/x"?>"#,
            #"<script>document.write('<a href="/js">')</script>"#,
            #"<style>a[href="/x"] { color: red }</style>"#,
            #"<textarea><img src="a.png"></textarea>"#,
            "a < b and c <= d, 1 <2",
            "text with href=\"/x\" src=/y in it",
        ]
        for html in untouched { XCTAssertEqual(rewrite(html), html) }
        // After a code element closes, links are rewritten again; script src itself is rewritten.
        XCTAssertEqual(rewrite(#"<pre><a href="/a">x</a></pre><a href="/b">y</a>"#),
                       #"<pre><a href="/a">x</a></pre><a href="https://example.org/b">y</a>"#)
        XCTAssertEqual(rewrite(#"<script src="s.js"></script><a href="/b">y</a>"#),
                       #"<script src="https://example.org/blog/posts/x/s.js"></script><a href="https://example.org/b">y</a>"#)
        XCTAssertEqual(rewrite(#"<SCRIPT>x='<a href="/in">'</SCRIPT><img src=/out>"#),
                       #"<SCRIPT>x='<a href="/in">'</SCRIPT><img src=https://example.org/out>"#)
        // Element names in any case: code and raw text end at their closing tag, whatever its case.
        XCTAssertEqual(rewrite(#"<PRE><a href="/a">x</a></Pre><a href="/b">y</a>"#),
                       #"<PRE><a href="/a">x</a></Pre><a href="https://example.org/b">y</a>"#)
        XCTAssertEqual(rewrite(#"<TextArea><a href="/in"></textAREA><a Href="/out">"#),
                       #"<TextArea><a href="/in"></textAREA><a Href="https://example.org/out">"#)
        XCTAssertEqual(rewrite(#"<a hrefx="/a" xhref="/b" data-href="/c" SRC="/d">"#),
                       #"<a hrefx="/a" xhref="/b" data-href="/c" SRC="https://example.org/d">"#)
        // An unclosed comment or quote leaves the rest as it is, never crashing.
        for broken in [#"<a href="/x"#, "<!-- never closed <a href=/x>", "<a href=", "<", "<a", "</", "<img src='x.png"] {
            XCTAssertEqual(rewrite(broken), broken)
        }
    }

    /// HTML that the look at each `=` lets through without the walk over its tags comes out as the walk makes it: each
    /// case through ``AbsoluteURLs/rewrite(html:base:)`` and through the plain walk (every URL attribute resolved).
    func testHTMLLetThroughUnwalkedIsWhatTheWalkLeavesAlone() {
        func walked(_ html: String) -> String {
            HTMLAttributes.rewriteURLs(in: html) { value in
                value.isSrcset ? AbsoluteURLs.resolveSrcset(value.text, against: permalink) : AbsoluteURLs.resolve(value.text, against: permalink)
            }
        }
        // Absolute URLs only: let through, and the walk leaves each as it is.
        let absolute = [
            "", "<p>text only, no attribute</p>", "<p>Café — 東京, ]]&gt; and ]]> and &amp;amp;</p>",
            #"<a href="https://example.com/a?b=c&amp;d=e#f">x</a>"#, #"<A HREF='MAILTO:a@b.c'>m</A>"#,
            #"<img src=//cdn.example.org/i.png alt="a = b">"#, #"<video poster="data:image/png;base64,AA==" src = "HTTPS://v.org/v.mp4">"#,
            #"<pre><code class="language-swift"><span class="k">let</span> a = b == c</code></pre>"#,
            "<a\nhref\n=\n\"tel:+331234\" title=\"x=1\">t</a><a href=\"x-y.z+w:1\">s</a>",
            "<p>a = b, c=d, 1 == 2</p>", #"<a href="https://ok.org/">"#,
        ]
        for html in absolute {
            XCTAssertFalse(AbsoluteURLs.mayHaveRelativeURL(html), html)
            XCTAssertEqual(walked(html), html, html)
            XCTAssertEqual(rewrite(html), html, html)
        }
        // A value the walk changes, or may: walked, whatever else the text holds.
        let relative = [
            #"<a href="/a">a</a>"#, #"<a HREF = '/a'>a</a>"#, "<a\thref\r\n=\u{0C}\"/a\">a</a>", "<img src=i.png>", #"<video poster="p.jpg">"#,
            #"<img srcset="https://a.org/x.png 1x, y.png 2x">"#, ##"<a href="#top">up</a>"##, #"<a href="">here</a>"#, #"<a href="?q=1">q</a>"#,
            #"<a href="  /a">a</a>"#, #"<a href="&#47;a">a</a>"#, #"<a href="ht%74ps://x.org/">x</a>"#, #"<a href="1http://x">x</a>"#,
            #"<a href="https://ok.org/">ok</a> then <a title="t" href="/b">b</a>"#, #"<a href="/café/東京">c</a>"#,
            #"<a href="../x]]>">x</a>"#, "<a href=/a>", #"<img src="/a.png"/>"#, #"<img SRC="/a.png" src="https://x.org/">"#,
            #"<a href="/x" hreF="https://x.org/">"#, #"<a href=":x">x</a>"#, #"<a href="/">x</a>"#,
        ]
        for html in relative {
            XCTAssertTrue(AbsoluteURLs.mayHaveRelativeURL(html), html)
            XCTAssertNotEqual(walked(html), html, html)
            XCTAssertEqual(rewrite(html), walked(html), html)
        }
        // The look may send to the walk what the walk leaves alone: the same bytes either way.
        let either = [
            "<p>href = c, src=/x in text</p>", #"<pre><a href="/in-code">x</a></pre>"#, #"<img srcset="https://a.org/x.png 1x">"#,
            #"<!-- <a href="/commented"> -->"#, #"<a data-href="/x">"#, #"<a href="/never closed"#, "<a href=",
        ]
        for html in either { XCTAssertEqual(rewrite(html), walked(html), html) }
    }

    func testKeepsNonASCIITextIntact() {
        XCTAssertEqual(rewrite(#"<p>Café — 東京 <a href="über/">ü</a></p>"#),
                       #"<p>Café — 東京 <a href="https://example.org/blog/posts/x/über/">ü</a></p>"#)
    }
}
