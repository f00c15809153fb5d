import Foundation
import XCTest

/// Blogs whose posts are folders, built by the real `blog` binary: TextBundles as Ulysses, Bear and
/// iA Writer keep them (`2019-11-04-title.textbundle/text.md`, pictures in `assets/`, an
/// `info.json`) and a README alone in its folder. Each post is named and dated by its folder, its
/// files are beside its page, and `blog check` finds every link whole.
extension MigrationEndToEndTests {
    /// `blog list --format json`, by source.
    func bundleListing() throws -> [String: [String: Any]] {
        let list = try BlogCLI.run(["list", "--format", "json", "--drafts"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: entries.map { ($0["source"] as! String, $0) })
    }

    func assertCheckIsClean(file: StaticString = #filePath, line: UInt = #line) throws {
        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stderr + check.stdout, file: file, line: line)
        XCTAssertTrue(check.stdout.contains(": no broken links"), check.stdout, file: file, line: line)
    }

    func testTextBundlesAndAReadmeFolderAreNamedByTheirFoldersWithTheirFilesBeside() throws {
        // As an editor exports it: no header, the title as the first heading, a picture in assets/.
        try site.write("content/2019-11-04-some-title.textbundle/text.md", "# Sea pictures\n\nA picture: ![Sea](assets/sea.png)\n")
        try site.write("content/2019-11-04-some-title.textbundle/assets/sea.png", "PNG")
        try site.write("content/2019-11-04-some-title.textbundle/info.json", "{\"version\": 2, \"type\": \"net.daringfireball.markdown\"}")
        // `text.markdown`, a header, a picture two folders down.
        try site.write("content/2020-02-03-second.textbundle/text.markdown", "---\ntitle: Second\ntags: [travel]\n---\n![Map](assets/maps/map.svg)\n")
        try site.write("content/2020-02-03-second.textbundle/assets/maps/map.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        try site.write("content/2020-02-03-second.textbundle/info.json", "{}")
        // A README alone in its folder, with a file beside it.
        try site.write("content/posts/2021-05-06-third-post/README.md", "---\ntitle: Third\n---\nSee [the notes](notes.pdf).\n")
        try site.write("content/posts/2021-05-06-third-post/notes.pdf", "PDF")
        try site.write("content/plain.md", "---\ntitle: Plain\ndate: 2018-01-01\n---\nText.\n")
        let result = try build()
        XCTAssertFalse(result.stderr.contains("error"), result.stderr)

        let files = site.files(under: "public")
        XCTAssertTrue(files.contains("posts/some-title/index.html"), "\(files)")
        XCTAssertTrue(files.contains("posts/some-title/assets/sea.png"), "\(files)")
        XCTAssertTrue(files.contains("posts/second/assets/maps/map.svg"), "\(files)")
        XCTAssertTrue(files.contains("posts/third-post/notes.pdf"), "\(files)")
        XCTAssertFalse(files.contains { $0.hasSuffix("info.json") }, "a TextBundle's info.json is not published: \(files)")
        XCTAssertFalse(files.contains { $0.contains(".textbundle") || $0.contains("/text/") || $0.contains("README") }, "\(files)")
        XCTAssertTrue(try page("posts/some-title/index.html").contains("<img src=\"assets/sea.png\" alt=\"Sea\""))
        XCTAssertTrue(try page("posts/second/index.html").contains("<img src=\"assets/maps/map.svg\" alt=\"Map\""))
        XCTAssertTrue(try page("posts/third-post/index.html").contains("<a href=\"notes.pdf\">the notes</a>"))

        // Named and dated by their folders, in the order of those dates.
        let listed = try bundleListing()
        let expected: [(source: String, slug: String, day: String, title: String)] = [
            ("content/2019-11-04-some-title.textbundle/text.md", "some-title", "2019-11-04", "Sea pictures"),
            ("content/2020-02-03-second.textbundle/text.markdown", "second", "2020-02-03", "Second"),
            ("content/posts/2021-05-06-third-post/README.md", "third-post", "2021-05-06", "Third"),
        ]
        for post in expected {
            let entry = try XCTUnwrap(listed[post.source], "\(listed.keys.sorted())")
            XCTAssertEqual(entry["slug"] as? String, post.slug)
            XCTAssertEqual(entry["url"] as? String, "/blog/posts/\(post.slug)/")
            XCTAssertEqual((entry["date"] as? String)?.prefix(10), post.day[...])
            XCTAssertEqual(entry["title"] as? String, post.title)
        }
        let home = try page("index.html")
        let positions = ["third-post", "second", "some-title", "plain"].map { home.range(of: "posts/\($0)/")?.lowerBound }
        XCTAssertFalse(positions.contains(nil), home)
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), "newest first by the folders' dates")
        XCTAssertTrue(try page("posts/some-title/index.html").contains("datetime=\"2019-11-04"))
        // The exported text's first heading is its title: no warning, and not shown twice.
        XCTAssertFalse(result.stderr.contains("warning:"), result.stderr)
        let seaPage = try page("posts/some-title/index.html")
        XCTAssertEqual(seaPage.components(separatedBy: ">Sea pictures<").count - 1, 1, seaPage)
        XCTAssertTrue(seaPage.contains("<title>Sea pictures"), seaPage)
        try assertCheckIsClean()
    }

    /// A README beside other posts is an ordinary post, as before; its folder's files keep their
    /// paths. One at the top of the content folder is not published, with a warning.
    func testAReadmeBesideOtherPostsOrAtTheTopIsNoBundle() throws {
        try site.write("content/README.md", "# My blog's posts\n\nWrite them in posts/.\n")
        try site.write("content/docs/README.md", "---\ntitle: Docs index\ndate: 2020-01-01\n---\n[Guide](../guide/) ![Chart](../../docs/chart.png)\n")
        try site.write("content/docs/guide.md", "---\ntitle: Guide\ndate: 2020-01-02\n---\nText.\n")
        try site.write("content/docs/chart.png", "PNG")
        let result = try build()
        XCTAssertTrue(result.stderr.contains("content/README.md:1:1: warning: a README at the top of the content folder describes the folder: it is not published"), result.stderr)
        let files = site.files(under: "public")
        XCTAssertTrue(files.contains("posts/README/index.html"), "the file's name, as for any other post: \(files)")
        XCTAssertTrue(files.contains("posts/guide/index.html"), "\(files)")
        XCTAssertTrue(files.contains("docs/chart.png"), "\(files)")
        XCTAssertFalse(files.contains("README.md") || files.contains { $0.contains("my-blog") }, "\(files)")
        let listed = try bundleListing()
        XCTAssertNil(listed["content/README.md"])
        XCTAssertEqual(listed["content/docs/README.md"]?["slug"] as? String, "README")
        try assertCheckIsClean()
        // --strict: the README at the top is a warning like any other.
        let strict = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("--strict: 1 warning"), strict.stderr)
    }

    /// A README in a Hugo bundle's sub-folder names nothing: the sub-folder's files are the
    /// bundle's, beside the bundle's page, as Hugo has them.
    func testAReadmeInsideAHugoBundleLeavesItsFilesToTheBundle() throws {
        try site.write("content/posts/my-post/index.md", "---\ntitle: My post\ndate: 2020-01-01\n---\nRun [the example](example/main.go).\n")
        try site.write("content/posts/my-post/example/README.md", "---\ntitle: How to run it\ndate: 2020-01-01\n---\n`go run .`\n")
        try site.write("content/posts/my-post/example/main.go", "package main\n")
        _ = try build()
        let files = site.files(under: "public")
        XCTAssertTrue(files.contains("posts/my-post/example/main.go"), "\(files)")
        XCTAssertTrue(files.contains("posts/README/index.html"), "an ordinary post, as before: \(files)")
        XCTAssertFalse(files.contains { $0.hasPrefix("posts/example/") }, "\(files)")
        try assertCheckIsClean()
    }

    func testTwoFoldersWithTheSameNameAreTheDuplicateURLError() throws {
        try site.write("content/2019-01-01-trip.textbundle/text.md", "---\ntitle: A\n---\nA.\n")
        try site.write("content/posts/trip/index.md", "---\ntitle: B\ndate: 2019-02-02\n---\nB.\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr)
        let error = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains(": error: URL /posts/trip/ is also wanted by") }, result.stderr)
        XCTAssertTrue(error.contains("content/posts/trip/index.md") && error.contains("content/2019-01-01-trip.textbundle/text.md"), String(error))
    }

    func testADraftBundleAndTextBundlesBlogCannotRead() throws {
        try site.write("content/2019-01-01-secret.textbundle/text.md", "---\ntitle: Secret\ndraft: true\n---\n![x](assets/x.png)\n")
        try site.write("content/2019-01-01-secret.textbundle/assets/x.png", "PNG")
        try site.write("content/2019-01-02-plain.textbundle/text.txt", "Plain text, not markdown.")
        try site.write("content/2019-01-02-plain.textbundle/info.json", "{}")
        try site.write("content/2019-01-03-zipped.textpack", "PK")
        try site.write("content/post.md", "---\ntitle: Post\ndate: 2019-01-04\n---\nText.\n")
        let result = try build()
        let files = site.files(under: "public")
        XCTAssertFalse(files.contains { $0.contains("x.png") || $0.contains("secret") }, "a draft bundle's files are not published: \(files)")
        XCTAssertTrue(result.stderr.contains("warning: content/2019-01-02-plain.textbundle: a TextBundle without text.md or text.markdown"), result.stderr)
        XCTAssertTrue(files.contains("2019-01-02-plain.textbundle/text.txt"), "\(files)")
        XCTAssertFalse(files.contains { $0.hasSuffix("info.json") }, "\(files)")
        XCTAssertTrue(result.stderr.contains("content/2019-01-03-zipped.textpack:1:1: warning: a TextPack (a zipped TextBundle) is not read"), result.stderr)
        // With --drafts, the draft and its picture are published together.
        _ = try build(["--drafts"])
        XCTAssertTrue(site.files(under: "public").contains("posts/secret/assets/x.png"))
    }
}
