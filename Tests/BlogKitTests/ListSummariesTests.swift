@testable import BlogRender
import Foundation
import XCTest

/// ListSummaries: list pages take each post's entry from one rendering per post when the theme allows it; the
/// pages must be the same, byte for byte, as when every entry is rendered on every page.
extension ThemeLoadTests {
    /// Writes a template of the site's `default` theme.
    func writeTemplate(_ path: String, _ text: String) throws {
        try write("themes/default/templates/\(path)", text)
    }

    /// Every page of the fixture site, rendered with `theme` and with the same theme without the cache.
    func pagesWithAndWithout(_ theme: Theme) throws -> (cached: [String: String], plain: [String: String]) {
        let site = RenderFixture.site()
        var plain = Theme(files: theme.files, library: theme.library)
        plain.hasPageTemplate = theme.hasPageTemplate
        func pages(_ theme: Theme) throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try SiteRenderer.render(site, theme: theme).map { file in
                guard case .bytes(let data) = file.contents else { return (file.path, "") }
                return (file.path, String(decoding: data, as: UTF8.self))
            })
        }
        return (try pages(theme), try pages(plain))
    }

    func testTheDefaultThemeRendersEachEntryOnceWithTheSamePages() throws {
        let theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(theme.listSummaries?.partial, "post-summary")
        // post-meta, on post pages and in every entry, is rendered once per post too.
        XCTAssertEqual(theme.listSummaries?.postPartials, ["post-meta"])
        let (cached, plain) = try pagesWithAndWithout(theme)
        XCTAssertEqual(cached, plain)
        XCTAssertTrue(cached["tags/swift/index.html"]!.contains("<h2 class=\"post-title\"><a href=\"/blog/posts/swift-6/\">Swift &lt;6&gt; &amp; You</a></h2>"))
    }

    func testAnEntryThatReadsThePageIsRenderedOnEveryPage() throws {
        // The entry shows the tag of the page it is on: it can't be rendered once per post.
        try writeTemplate("post-summary.mustache", "<li>{{title}}{{#tag}} in {{tag.name}}{{/tag}}</li>\n")
        let theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertNil(theme.listSummaries)
        let pages = try SiteRenderer.render(RenderFixture.site(), theme: theme)
        let swift = pages.first { $0.path == "tags/swift/index.html" }!
        guard case .bytes(let data) = swift.contents else { return XCTFail("rendered") }
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("<li>Second in Swift</li>"))
    }

    func testOnlyTheDefaultShapeAtTheTopOfTheListIsCached() throws {
        // Indented: swift-mustache indents every line of the partial, so it is rendered in place.
        try writeTemplate("index.mustache", "{{<base}}{{$content}}\n{{#posts}}\n  {{>post-summary}}\n{{/posts}}\n{{/content}}{{/base}}\n")
        var theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertNil(theme.listSummaries)
        var (cached, plain) = try pagesWithAndWithout(theme)
        XCTAssertEqual(cached, plain)

        // Inside another section: names the post lacks would be found in that section's object.
        try writeTemplate("index.mustache", "{{<base}}{{$content}}\n{{#config}}\n{{#posts}}\n{{>post-summary}}\n{{/posts}}\n{{/config}}\n{{/content}}{{/base}}\n")
        XCTAssertNil(try Theme.load(name: "default", siteRoot: siteRoot).listSummaries)

        // The partial also used on post pages: it must keep rendering there.
        try writeTemplate("index.mustache", "{{<base}}{{$content}}\n{{#posts}}\n{{>post-summary}}\n{{/posts}}\n{{/content}}{{/base}}\n")
        try writeTemplate("post.mustache", "{{<base}}{{$content}}\n{{#post}}\n{{>post-summary}}\n{{/post}}\n{{/content}}{{/base}}\n")
        theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertNil(theme.listSummaries)
        (cached, plain) = try pagesWithAndWithout(theme)
        XCTAssertEqual(cached, plain)
    }

    func testAnEntryInABlockExpandedInsideASectionOrIndentedIsRenderedInPlace() throws {
        // The list's block is expanded by a partial of base, inside {{#config}}: names the post
        // lacks are found in config there, not when the entry is rendered with the post alone.
        let base = try XCTUnwrap(String(data: ThemeFile.embedded["templates/base.mustache"]!, encoding: .utf8))
        try writeTemplate("base.mustache", base.replacingOccurrences(of: "{{$content}}{{/content}}", with: "{{>main}}"))
        try writeTemplate("main.mustache", "{{#config}}\n{{$content}}{{/content}}\n{{/config}}\n")
        try writeTemplate("post-summary.mustache", "<li>{{title}} {{baseURL}}</li>\n")
        let theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertNil(theme.listSummaries)
        let (cached, plain) = try pagesWithAndWithout(theme)
        XCTAssertEqual(cached, plain)
        XCTAssertTrue(plain["index.html"]!.contains("<li>Second https://example.org/blog/</li>"))

        // Expanded with indentation: swift-mustache indents every line of the entry there.
        try FileManager.default.removeItem(at: siteRoot.appendingPathComponent("themes/default/templates/main.mustache"))
        try writeTemplate("base.mustache", base.replacingOccurrences(of: "{{$content}}", with: "  {{$content}}"))
        try writeTemplate("post-summary.mustache", "<li>\n{{title}}\n</li>\n")
        let indented = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertNil(indented.listSummaries)
        let (cachedIndented, plainIndented) = try pagesWithAndWithout(indented)
        XCTAssertEqual(cachedIndented, plainIndented)
        XCTAssertTrue(plainIndented["index.html"]!.contains("\n  Second\n"), plainIndented["index.html"]!)
    }

    func testWhatAnEntryMayRead() {
        let base = ["index": "{{#posts}}\n{{>entry}}\n{{/posts}}\n", "tag": "x", "entry": ""]
        func partial(_ entry: String, _ extra: [String: String] = [:]) -> String? {
            ListSummaries.cacheablePartial(base.merging(["entry": entry].merging(extra) { $1 }) { $1 })
        }
        XCTAssertEqual(partial("{{title}} {{{summaryHTML}}} {{#author}}{{.}}{{/author}} {{^empty(tags)}}{{#tags}}{{name}}{{/tags}}{{/empty(tags)}}"), "entry")
        XCTAssertEqual(partial("{{>meta}}", ["meta": "{{date}}{{meta.rating}}"]), "entry")
        XCTAssertNil(partial("{{config.title}}"))
        XCTAssertNil(partial("{{#page.isIndex}}x{{/page.isIndex}}"))
        XCTAssertNil(partial("{{count(posts)}}"))
        XCTAssertNil(partial("{{>meta}}", ["meta": "{{pagination.number}}"]))
        XCTAssertNil(partial("{{>entry}}"), "a partial that includes itself")
        XCTAssertNil(partial("{{$block}}{{/block}}"))
        XCTAssertNil(partial("{{=<% %>=}}"))
        XCTAssertNil(partial("{{>*dynamic}}"))
    }

    func testAPostPartialIsRenderedOncePerPostOnlyWhereThePostIsOnTop() throws {
        let post = "{{<base}}{{$content}}\n{{#post}}\n<h1>{{title}}</h1>\n{{>post-meta}}\n{{{html}}}\n{{/post}}\n{{#neighbours}}{{#older}}<a href=\"{{url}}\">{{title}}</a>{{/older}}{{/neighbours}}\n{{/content}}{{/base}}\n"
        try writeTemplate("post.mustache", post)
        var theme = try Theme.load(name: "default", siteRoot: siteRoot)
        XCTAssertEqual(theme.listSummaries?.postPartials, ["post-meta"])
        var (cached, plain) = try pagesWithAndWithout(theme)
        XCTAssertEqual(cached, plain)
        XCTAssertTrue(cached["posts/swift-6/index.html"]!.contains("<ul class=\"tag-list\""), cached["posts/swift-6/index.html"]!)

        // Where the partial is shown for another object than the post, or indented, or outside a
        // post page, it is rendered in place everywhere; the pages stay the same.
        let refused = [
            ("post.mustache", post.replacingOccurrences(of: "{{/older}}", with: "{{>post-meta}}{{/older}}")),
            ("post.mustache", post.replacingOccurrences(of: "\n{{>post-meta}}\n", with: "\n  {{>post-meta}}\n")),
            ("post.mustache", post.replacingOccurrences(of: "{{/post}}\n", with: "{{/post}}\n{{>post-meta}}\n")),
            ("post.mustache", post.replacingOccurrences(of: "\n{{>post-meta}}\n", with: "\n{{#tags}}{{>post-meta}}{{/tags}}\n")),
            ("tags.mustache", "{{<base}}{{$content}}\n{{#post}}\n{{>post-meta}}\n{{/post}}\n{{/content}}{{/base}}\n"),
        ]
        for (path, text) in refused {
            try writeTemplate("post.mustache", post)
            try writeTemplate(path, text)
            theme = try Theme.load(name: "default", siteRoot: siteRoot)
            XCTAssertEqual(theme.listSummaries?.postPartials, [], text)
            (cached, plain) = try pagesWithAndWithout(theme)
            XCTAssertEqual(cached, plain, text)
        }
    }
}
