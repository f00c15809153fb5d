@testable import BlogRender
import Foundation
import XCTest

/// SharedPartials: partials that show the same text on every page of a kind are rendered once per
/// kind; the pages must be the same, byte for byte, as when they are rendered on every page.
extension ThemeLoadTests {
    func testTheDefaultThemesHeaderFooterAndHeadAreRenderedOncePerKindWithTheSamePages() throws {
        let theme = try Theme.load(name: "default", siteRoot: siteRoot)
        let shared = try XCTUnwrap(theme.sharedPartials)
        XCTAssertEqual(shared.names, ["site-footer", "site-head", "site-header"])
        for template in Theme.pageTemplates + ["page"] {
            XCTAssertEqual(shared.shown[template], ["site-footer", "site-head", "site-header"], template)
        }
        let (cached, plain) = try pagesWithAndWithout(theme)
        XCTAssertEqual(cached, plain)
        // Each kind has its own text: the menu marks the page's own entry, a tag's pages show its feeds.
        assertContains(cached["index.html"]!, ["<li><a href=\"/blog/\" aria-current=\"page\">Home</a></li>"])
        assertContains(cached["tags/index.html"]!, ["<li><a href=\"/blog/\">Home</a></li>",
                                                    "<a href=\"/blog/tags/\" aria-current=\"page\">Tags</a>"])
        func feeds(_ path: String) -> [Substring] {
            cached[path]!.split(separator: "\n").filter { $0.hasPrefix("<link rel=\"alternate\"") }
        }
        XCTAssertFalse(feeds("tags/swift/index.html").isEmpty)
        XCTAssertNotEqual(feeds("tags/swift/index.html"), feeds("tags/café/index.html"))
        XCTAssertEqual(feeds("posts/first/index.html"), feeds("index.html"))
    }

    func testAPartialIsSharedOnlyWhereThePagesValuesAloneAreOnTheStack() throws {
        let base = try XCTUnwrap(String(data: ThemeFile.embedded["templates/base.mustache"]!, encoding: .utf8))
        let footer = "<footer>{{config.title}} {{url}} {{name}}</footer>\n"
        // Each of these shows the partial where it would not give the same text on every page of
        // a kind; it is rendered in place, and the pages stay the same.
        let refused: [(name: String, templates: [String: String])] = [
            ("reads a page's own value", ["site-footer.mustache": "<footer>{{page.title}}</footer>\n"]),
            ("inside a section", ["site-footer.mustache": footer,
                                  "base.mustache": base.replacingOccurrences(of: "{{>site-footer}}\n",
                                                                             with: "{{#page}}\n{{>site-footer}}\n{{/page}}\n")]),
            ("indented", ["base.mustache": base.replacingOccurrences(of: "{{>site-header}}", with: "  {{>site-header}}")]),
            ("in a list entry", ["site-footer.mustache": footer,
                                 "post-summary.mustache": "<li>{{title}}</li>\n{{>site-footer}}\n"]),
            ("in a parent also shown as a partial", ["site-footer.mustache": footer,
                                                     "tags.mustache": "{{#tags}}\n{{>base}}\n{{/tags}}\n"]),
            ("in a block another partial expands", [
                "site-footer.mustache": footer,
                "base.mustache": base.replacingOccurrences(of: "{{$content}}{{/content}}", with: "{{>main}}"),
                "main.mustache": "{{#page}}\n{{$content}}{{/content}}\n{{/page}}\n",
                "post.mustache": "{{<base}}{{$content}}\n{{>site-footer}}\n{{/content}}{{/base}}\n"]),
        ]
        for (name, templates) in refused {
            try? FileManager.default.removeItem(at: siteRoot.appendingPathComponent("themes"))
            for (path, text) in templates { try writeTemplate(path, text) }
            let theme = try Theme.load(name: "default", siteRoot: siteRoot)
            let names = theme.sharedPartials?.names ?? []
            let partial = templates["site-footer.mustache"] != nil ? "site-footer" : "site-header"
            XCTAssertFalse(names.contains(partial), name)
            let (cached, plain) = try pagesWithAndWithout(theme)
            XCTAssertEqual(cached, plain, name)
        }
    }

    func testWhatASharedPartialMayRead() {
        let page = "{{<base}}{{$content}}{{/content}}{{/base}}\n"
        func shared(_ partial: String, _ extra: [String: String] = [:]) -> [String] {
            let sources = ["post": page, "base": "{{>p}}\n{{$content}}{{/content}}\n", "p": partial]
            return SharedPartials(sources: sources.merging(extra) { $1 }, pageTemplates: ["post"])?.names ?? []
        }
        XCTAssertEqual(shared("{{config.title}}{{#nav}}{{title}}{{#current}}!{{/current}}{{/nav}}{{#feeds}}{{href}}{{/feeds}}"), ["p"])
        XCTAssertEqual(shared("{{^empty(tags)}}{{#tags}}{{name}}{{.}}{{/tags}}{{/empty(tags)}}{{links.home}}"), ["p"])
        XCTAssertEqual(shared("{{>q}}", ["q": "{{#archives}}{{year}}{{/archives}}"]), ["p"])
        XCTAssertEqual(shared("text only"), ["p"])
        for name in TemplateContext.variableKeys {
            XCTAssertEqual(shared("{{config.title}}{{\(name)}}"), [], name)
            XCTAssertEqual(shared("{{#nav}}{{\(name).x}}{{/nav}}"), [], name)
        }
        XCTAssertEqual(shared("{{.}}"), [], "the whole page's values")
        XCTAssertEqual(shared("{{#config}}{{.title}}{{/config}}"), ["p"])
        XCTAssertEqual(shared("{{>q}}", ["q": "{{post.title}}"]), [])
        XCTAssertEqual(shared("{{>*dynamic}}"), [])
        XCTAssertEqual(shared("{{$block}}{{/block}}"), [])
        XCTAssertEqual(shared("{{__blog_shared_p}}"), [])
        // Shown directly by a page template at its top; not when a non-page template shows it too.
        XCTAssertEqual(SharedPartials(sources: ["post": "{{>p}}\n", "p": "{{config.title}}"], pageTemplates: ["post"])?.names, ["p"])
        XCTAssertEqual(SharedPartials(sources: ["post": "{{>p}}\n{{>q}}\n", "q": "{{>p}}", "p": "{{config.title}}"],
                                      pageTemplates: ["post"])?.names, ["q"])
        // A parent with a parent of its own, or a block inside a section.
        XCTAssertEqual(shared("x", ["base": "{{<top}}{{/top}}\n{{>p}}\n", "top": "{{$content}}{{/content}}"]), [])
        XCTAssertEqual(shared("x", ["base": "{{>p}}\n{{#page}}{{$content}}{{/content}}{{/page}}\n"]), [])
    }
}
