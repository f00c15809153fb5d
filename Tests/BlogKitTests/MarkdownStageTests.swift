@testable import BlogConfig
@testable import BlogContent
@testable import BlogCore
@testable import BlogLiquid
@testable import BlogMarkdown
import Foundation
import XCTest

/// The markdown stage on its own: what it takes from the placed site (Liquid's `page`, the link
/// resolvers, the Pelican link rewriter, the memo) comes in as closures, and each is used as the
/// build uses it.
final class MarkdownStageTests: XCTestCase {
    /// Records what the stage asks of and hands to the memo; `kept` answers for a post by content path.
    private final class Memo: MarkdownMemo, @unchecked Sendable {
        let lock = NSLock()
        var kept: [String: (RenderedMarkdown, [Diagnostic])] = [:]
        var keptNow: [String] = []
        var finished = 0

        func rendered(_ post: Post, options: MarkdownOptions) -> (RenderedMarkdown, [Diagnostic])? {
            lock.withLock { kept[post.contentPath] }
        }

        func keep(_ post: Post, options: MarkdownOptions, rendered: RenderedMarkdown, diagnostics: [Diagnostic]) {
            lock.withLock { keptNow.append(post.contentPath) }
        }

        func finishMarkdown(keepingOthers: Bool) { lock.withLock { finished += 1 } }
    }

    private func post(_ text: String, at path: String) throws -> Post {
        try PostReader.read(data: Data(text.utf8), source: "content/" + path, contentPath: path, timeZone: TimeZone(identifier: "UTC")!).0
    }

    func testTheSitesClosuresResolveLinksPagesAndTheMemo() throws {
        let jekyll = try post("---\ntitle: A\n---\nAt {{ page.url }}, see [B]({% post_url 2020-01-02-b %}).\n", at: "_posts/2020-01-01-a.md")
        let pelican = try post("Title: B\nDate: 2020-01-02\n\nSee [A]({filename}a.md) and [C]({filename}c.md).\n", at: "b.md")
        let kept = try post("# Kept\n\nNot rendered again.\n", at: "kept.md")
        let memo = Memo()
        let fromMemo = RenderedMarkdown(html: "<p>as kept</p>", summaryHTML: "", headings: [])
        memo.kept["kept.md"] = (fromMemo, [.warning("content/kept.md", "kept message")])

        var liquid = MarkdownStage.liquidContext(config: SiteConfig(), resolvePost: { $0 == "2020-01-02-b" ? "/b/" : nil },
                                                 resolvePath: { _ in nil })
        liquid.site = ["title": .string("T")]
        let pages = [jekyll, pelican, kept].enumerated().map { (post: $1, url: "/page\($0)/") }
        let (rendered, diagnostics) = MarkdownStage.render(
            pages.count, page: { pages[$0] }, config: SiteConfig(), liquid: liquid,
            liquidPage: { post, url in .map(["url": .string(url), "title": .string(post.title)]) },
            rewriteLinks: { html, post in
                let rewritten = html.replacingOccurrences(of: "%7Bfilename%7Da.md", with: "/a/")
                return html.contains("%7Bfilename%7Dc.md") ? (rewritten, [.warning(post.source, "no c.md")], nil) : (rewritten, [], nil)
            },
            memo: memo)

        XCTAssertEqual(rendered.count, 3)
        XCTAssertEqual(rendered[0].html, "<p>At /page0/, see <a href=\"/b/\">B</a>.</p>\n")
        XCTAssertEqual(rendered[1].html, "<p>See <a href=\"/a/\">A</a> and <a href=\"%7Bfilename%7Dc.md\">C</a>.</p>\n")
        XCTAssertEqual(rendered[2], fromMemo)
        // In the order of the posts; the rewriter's message once (for the body, not again for the summary).
        XCTAssertEqual(diagnostics.map { $0.map(\.message) }, [[], ["no c.md"], ["kept message"]])
        XCTAssertEqual(memo.keptNow.sorted(), ["_posts/2020-01-01-a.md", "b.md"])
        XCTAssertEqual(memo.finished, 1)
    }

    func testLiquidsSiteURLAndBasePathComeFromTheBaseURL() {
        var config = SiteConfig()
        config.baseURL = "https://example.org:8080/blog/"
        let liquid = MarkdownStage.liquidContext(config: config, resolvePost: { _ in nil }, resolvePath: { _ in nil })
        XCTAssertEqual(liquid.baseURL, "/blog")
        XCTAssertEqual(liquid.siteURL, "https://example.org:8080")
        config.baseURL = "/"
        let bare = MarkdownStage.liquidContext(config: config, resolvePost: { _ in nil }, resolvePath: { _ in nil })
        XCTAssertEqual(bare.baseURL, "")
        XCTAssertEqual(bare.siteURL, "")
    }
}
