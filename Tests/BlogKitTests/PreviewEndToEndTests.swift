import Foundation
import XCTest

/// Issue 30, items 1, 2 and 8, through the real `blog` binary: drafts and future posts that a build leaves out
/// are named, with the flag that shows them; `blog serve` previews them, badged.
final class PreviewEndToEndTests: BuiltSiteTestCase {
    /// A blog of one published post, one draft (`blog new --draft`) and one post dated in 2999.
    func makeBlogWithDraftAndFuturePost() throws {
        try site.write("blog.yml", "title: Preview\nbase_url: https://example.org/\ntimezone: UTC\n")
        try site.write("content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-02\ntags: [one]\n---\nHello.\n")
        try site.write("content/posts/later.md", "---\ntitle: Later\ndate: 2999-01-01\n---\nNot yet.\n")
        let new = try BlogCLI.run(["new", "Idea", "--draft"], in: site.root)
        XCTAssertEqual(new.status, 0, new.stderr)
        XCTAssertEqual(new.stdout, "content/posts/idea.md\n")
    }

    func testBuildAndListSayWhatWasLeftOutAndHowToSeeIt() throws {
        try makeBlogWithDraftAndFuturePost()
        let build = try self.build()
        XCTAssertTrue(build.stdout.hasPrefix("Built 1 post (1 draft and 1 future post not shown: --drafts, --future), 0 pages, 1 tags, "), build.stdout)
        XCTAssertEqual(build.stderr, "")
        XCTAssertFalse(site.exists("public/posts/idea/index.html"))
        XCTAssertFalse(site.exists("public/posts/later/index.html"))

        let list = try BlogCLI.run(["list"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout.split(separator: "\n").last, "1 post (1 draft and 1 future post not shown: --drafts, --future), 0 pages")

        // Each spelling of the flag, on each command; what is shown is no longer counted as left out.
        for drafts in ["--draft", "--drafts"] {
            let shown = try BlogCLI.run(["list", drafts], in: site.root)
            XCTAssertEqual(shown.status, 0, shown.stderr)
            XCTAssertEqual(shown.stdout.split(separator: "\n").last, "2 posts (1 future post not shown: --future), 0 pages", drafts)
            XCTAssertTrue(shown.stdout.contains("[draft] Idea"), shown.stdout)
            let built = try self.build([drafts])
            XCTAssertTrue(built.stdout.hasPrefix("Built 2 posts (1 future post not shown: --future), 0 pages"), built.stdout)
        }
        let all = try self.build(["--drafts", "--future"])
        XCTAssertTrue(all.stdout.hasPrefix("Built 3 posts, 0 pages"), all.stdout)
        XCTAssertEqual(try BlogCLI.run(["list", "--future", "--draft"], in: site.root).stdout.split(separator: "\n").last, "3 posts, 0 pages")

        // The default theme marks what is not published yet; a published post has no badge.
        XCTAssertTrue(try page("posts/idea/index.html").contains(#"<span class="badge badge-draft">Draft</span>"#))
        XCTAssertTrue(try page("posts/later/index.html").contains(#"<span class="badge badge-future">Future</span>"#))
        XCTAssertFalse(try page("posts/hello/index.html").contains("badge"))
        let home = try page("index.html")
        XCTAssertEqual(home.components(separatedBy: "badge-draft").count - 1, 1, home)
        XCTAssertEqual(home.components(separatedBy: "badge-future").count - 1, 1, home)
    }

    func testABuildInPlaceStillSaysWhatWasLeftOut() throws {
        try makeBlogWithDraftAndFuturePost()
        try site.write("content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-02\ntags: [one]\n---\nHello.\n\nMore text.\n")
        // The first build has no site to keep as the spare copy that builds in place update.
        try self.build()
        try self.build()
        // A change below the summary: the new body is patched into the published pages.
        try site.write("content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-02\ntags: [one]\n---\nHello.\n\nOther text.\n")
        let again = try self.build(["--timings"])
        XCTAssertTrue(again.stdout.contains("cache: quick build"), again.stdout)
        XCTAssertTrue(again.stdout.hasPrefix("Built 1 post (1 draft and 1 future post not shown: --drafts, --future), "), again.stdout)
    }

    func testNewTakesEitherSpellingOfDraft() throws {
        try site.write("blog.yml", "title: Preview\n")
        try site.write("content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-02\n---\nHello.\n")
        for (title, flag) in [("One", "--draft"), ("Two", "--drafts")] {
            let new = try BlogCLI.run(["new", title, flag], in: site.root)
            XCTAssertEqual(new.status, 0, new.stderr)
        }
        let list = try BlogCLI.run(["list", "--format", "json"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.count, 1, "the two drafts are left out")
        let drafts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try BlogCLI.run(["list", "--format", "json", "--drafts"], in: site.root).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(drafts.filter { $0["draft"] as? Bool == true }.compactMap { $0["title"] as? String }.sorted(), ["One", "Two"])
    }

    func testServeShowsDraftsAndFuturePostsUnlessAskedNotTo() throws {
        try makeBlogWithDraftAndFuturePost()
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing()
        let draft = try ServeEndToEndTests.fetch(server.url + "posts/idea/")
        XCTAssertEqual(draft.status, 200)
        XCTAssertTrue(draft.body.contains(#"<span class="badge badge-draft">Draft</span>"#))
        let future = try ServeEndToEndTests.fetch(server.url + "posts/later/")
        XCTAssertEqual(future.status, 200)
        XCTAssertTrue(future.body.contains(#"<span class="badge badge-future">Future</span>"#))
        XCTAssertFalse(server.output.contains("not shown"), server.output)
        server.stop()

        let hiding = try ServeEndToEndTests.Server(["--port", "0", "--no-drafts", "--no-future"], in: site.root)
        defer { hiding.stop() }
        try hiding.waitUntilServing()
        XCTAssertEqual(try ServeEndToEndTests.fetch(hiding.url + "posts/idea/").status, 404)
        XCTAssertEqual(try ServeEndToEndTests.fetch(hiding.url + "posts/later/").status, 404)
        XCTAssertTrue(hiding.output.contains("files written (1 draft and 1 future post not shown, as --no-drafts and --no-future ask)\n"),
                      hiding.output)
    }
}
