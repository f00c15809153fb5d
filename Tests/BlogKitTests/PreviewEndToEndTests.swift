@testable import BlogCore
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
        XCTAssertTrue(build.stdout.hasPrefix("Built 1 post (1 draft and 1 future post not shown: --drafts, --future), 0 pages, 1 tag, "), build.stdout)
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

    func testABlogWithParamsIsBuiltInPlaceByTheNextProcess() throws {
        // Params whose keys a dictionary holds in an order of each process's hash seed, some in maps and lists.
        try site.write("blog.yml", """
        title: Params
        params:
          alpha: 1
          beta: two
          gamma: true
          delta: [x, {epsilon: 2.5, zeta: null, eta: {theta: a, iota: b}}]
          kappa: 2024-01-02
        """)
        try site.write("content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-02\n---\nHello.\n\nMore text.\n")
        try self.build()
        for round in 1...3 {
            try site.write("content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-02\n---\nHello.\n\nText \(round).\n")
            let again = try self.build(["--timings"])
            XCTAssertTrue(again.stdout.contains("cache: quick build: 1 post changed"), again.stdout)
            XCTAssertTrue(try page("posts/hello/index.html").contains("Text \(round)."))
        }
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

    // MARK: 1. A site that works from the file system

    /// The sample blog of this repository (content/ and blog.yml), copied into the test's folder.
    func copySampleBlog() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.removeItem(at: site.root)
        try FileManager.default.createDirectory(at: site.root, withIntermediateDirectories: true)
        for name in ["content", "blog.yml"] {
            try FileManager.default.copyItem(at: repository.appendingPathComponent(name), to: site.root.appendingPathComponent(name))
        }
    }

    /// Every URL in an `href`, `src` or `srcset` (outside code samples) of every HTML file under public/, with its page.
    func linksOfEveryPage() throws -> [(page: String, url: String)] {
        var links: [(String, String)] = []
        for path in site.files(under: "public") where path.hasSuffix(".html") {
            let bytes = Array(try page(path).utf8)
            HTMLAttributes.scan(bytes) { attribute in
                guard !attribute.inCode, ["href", "src", "srcset"].contains(attribute.name) else { return }
                let value = HTMLEntities.decodeAttribute(String(decoding: bytes[attribute.value], as: UTF8.self))
                if attribute.name == "srcset" {
                    _ = AbsoluteURLs.mapSrcset(value) { links.append((path, $0)); return $0 }
                } else {
                    links.append((path, value))
                }
            }
        }
        return links
    }

    func testRelativeURLsMakeEveryLinkOfEveryPageAFileThatExists() throws {
        try copySampleBlog()
        let result = try self.build(["--relative-urls"])
        XCTAssertTrue(result.stdout.hasPrefix("Built "), result.stdout)
        let links = try linksOfEveryPage()
        XCTAssertGreaterThan(links.count, 1000, "the sample blog has many links")
        var checked = 0
        for (page, url) in links {
            if url.isEmpty || url.hasPrefix("#") || url.hasPrefix("//") || AbsoluteURLs.hasScheme(url) { continue }
            XCTAssertFalse(url.hasPrefix("/"), "\(page): \(url) is from the root, which file:// reads as the disk's root")
            let path = String(url.prefix { $0 != "?" && $0 != "#" })
            let target = site.root.appendingPathComponent("public").appendingPathComponent(page).deletingLastPathComponent()
                .appendingPathComponent(path.removingPercentEncoding ?? path).standardizedFileURL
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder) && !isFolder.boolValue,
                          "\(page): \(url) is no file (\(target.path))")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 1000)
        // Feeds and the sitemap keep absolute addresses: they are read away from the site.
        let feed = try page("feed.xml")
        XCTAssertTrue(feed.contains(#"<link rel="alternate" type="text/html" href="https://blog.example.org/posts/"#), feed)
        XCTAssertFalse(feed.contains(#"href="../"#) || feed.contains(#"src="../"#), "no relative link in the feed")
        XCTAssertTrue(try page("sitemap.xml").contains("<loc>https://blog.example.org/</loc>"))
    }

    func testRelativeURLsInBlogYmlAndUnderABasePath() throws {
        try site.write("blog.yml", "title: T\nbase_url: https://example.org/blog/\nrelative_urls: true\npaginate: 1\n")
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-02\ntags: [x]\n---\nSee [B](/blog/posts/b/#top), [elsewhere](/other/) and ![i](/blog/posts/a/i.png).\n")
        try site.write("content/posts/a/i.png", "png")
        try site.write("content/posts/b.md", "---\ntitle: B\ndate: 2024-01-01\n---\nBack to [the list](/blog/?q=1).\n")
        try self.build()
        let a = try page("posts/a/index.html")
        XCTAssertTrue(a.contains(#"<a href="../b/index.html#top">B</a>"#), a)
        XCTAssertTrue(a.contains(#"<a href="/other/">elsewhere</a>"#), "a path outside the base path is not the site's: \(a)")
        XCTAssertTrue(a.contains(#"href="../../style.css""#), a)
        XCTAssertTrue(try page("posts/b/index.html").contains(#"<a href="../../index.html?q=1">the list</a>"#))
        XCTAssertTrue(try page("index.html").contains(#"href="page/2/index.html""#), "pagination")
        XCTAssertTrue(try page("page/2/index.html").contains(#"href="../../index.html""#), "pagination back to the first page")
        // Without the setting, the same site keeps links from the root.
        try site.write("blog.yml", "title: T\nbase_url: https://example.org/blog/\npaginate: 1\n")
        try self.build()
        XCTAssertTrue(try page("posts/a/index.html").contains(#"<a href="/blog/posts/b/#top">B</a>"#))
        // A value that is not true or false is an error at its place.
        try site.write("blog.yml", "title: T\nrelative_urls: sometimes\n")
        let bad = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.hasPrefix("blog.yml:2:16: error: `relative_urls` must be true or false\n"), bad.stderr)
    }

    /// Opened from the file system in headless Chromium, the home page built with --relative-urls is styled and
    /// its links lead to files; built without, it is not (which is what README's "open public/index.html" met).
    func testTheHomePageOpenedAsAFileInChromiumIsStyled() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("Chromium is not installed: apt-get install chromium")
        }
        try copySampleBlog()
        // What the browser reports once the page and its stylesheet are loaded: whether the theme's stylesheet
        // applies (its custom property), and where the page's links lead.
        let probe = """
            <output id="probe"></output><script>
            document.getElementById("probe").textContent = JSON.stringify({
              accent: getComputedStyle(document.documentElement).getPropertyValue("--accent").trim(),
              links: Array.from(document.querySelectorAll("a[href], link[href]")).map(e => e.href)
            });
            </script>
            """
        func open(_ arguments: [String]) throws -> (accent: String, links: [String]) {
            try self.build(arguments + ["--no-cache"])
            let home = try page("index.html")
            try site.write("public/probe.html", home.replacingOccurrences(of: "</body>", with: probe + "</body>"))
            let url = site.root.appendingPathComponent("public/probe.html").standardizedFileURL.absoluteString
            let run = try BlogCLI.run(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url], in: site.root,
                                      program: URL(fileURLWithPath: chromium), timeLimit: 60)
            let dom = run.stdout
            let start = try XCTUnwrap(dom.range(of: #"<output id="probe">"#), run.stderr)
            let end = try XCTUnwrap(dom.range(of: "</output>", range: start.upperBound..<dom.endIndex))
            let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            struct Probe: Decodable { var accent: String; var links: [String] }
            let found = try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
            return (found.accent, found.links)
        }
        let relative = try open(["--relative-urls"])
        XCTAssertFalse(relative.accent.isEmpty, "the stylesheet applies")
        let files = relative.links.filter { $0.hasPrefix("file://") }
        XCTAssertGreaterThan(files.count, 20, "\(relative.links)")
        for link in files {
            let path = try XCTUnwrap(URL(string: link)).path
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue, "\(link) is no file")
        }
        let rooted = try open([])
        XCTAssertEqual(rooted.accent, "", "without --relative-urls, /style.css is looked for at the disk's root")
    }

    // MARK: 8. Broken links while serving

    func testServeCountsBrokenLinksAfterEachBuildAndListsThem() throws {
        try site.write("blog.yml", "title: Links\nbase_url: https://example.org/\n")
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-02\n---\nSee [b](/posts/b/) and [gone](/posts/gone/).\n")
        try site.write("content/posts/b.md", "---\ntitle: B\ndate: 2024-01-01\n---\nBack to [a](/posts/a/#nowhere).\n")
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try server.waitUntilServing()
        let origin = String(server.url.dropLast())
        try ServeEndToEndTests.eventually(30, "the first link check") { server.output.contains("Links: ") }
        XCTAssertTrue(server.output.contains("Links: 4 broken links (\(origin)/__blog/links lists them)\n"), server.output)
        let links = try ServeEndToEndTests.fetch(origin + "/__blog/links")
        XCTAssertEqual(links.status, 200)
        XCTAssertTrue(links.body.contains("<h1>4 broken links</h1>"), links.body)
        // The same messages as `blog check`: each link at its post's line, and where the home page's summaries show it.
        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 1)
        let messages = check.stderr.split(separator: "\n").filter { $0.contains(": error: link to ") }
        XCTAssertEqual(messages.count, 4, check.stderr)
        XCTAssertEqual(messages.filter { $0.hasPrefix("content/posts/") }.count, 2, "at the posts' lines: \(messages)")
        for message in messages {
            XCTAssertTrue(links.body.contains("<li><code>" + String(message).replacingOccurrences(of: "\"", with: "&quot;") + "</code></li>"), "\(message) in \(links.body)")
        }
        // The open pages are told too (the script shows the count, linking to the list).
        XCTAssertTrue(try ServeEndToEndTests.fetch(origin + "/__blog/livereload.js").body.contains("/__blog/links"))

        // Mended, the next rebuild's check says so.
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-02\n---\nSee [b](/posts/b/).\n")
        try site.write("content/posts/b.md", "---\ntitle: B\ndate: 2024-01-01\n---\nBack to [a](/posts/a/).\n")
        try ServeEndToEndTests.eventually(30, "a check with no broken link") { server.output.contains(", none broken\n") }
        XCTAssertTrue(try ServeEndToEndTests.fetch(origin + "/__blog/links").body.contains("<h1>No broken links</h1>"))
        XCTAssertEqual(server.errorOutput, "")
    }

    func testInitSuggestsServe() throws {
        let result = try BlogCLI.run(["init", "notes"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\nNext: cd notes && blog serve --open (a preview that follows your edits), blog new \"A title\" in another terminal, then blog build;"), result.stdout)
    }
}
