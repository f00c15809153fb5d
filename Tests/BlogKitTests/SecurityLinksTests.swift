import BlogCore
@testable import BlogOutput
import Foundation
import XCTest

/// Symbolic links are never published (issue 26): every file a build reads from the blog follows one rule
/// (BlogCore's BlogBoundary), a link leading out of the blog folder is skipped with a warning naming it, a
/// link that stays inside is published as the file it leads to, and the output never holds a link.
final class SecurityLinksTests: XCTestCase {
    /// A temporary folder holding the blog in `blog/` and files outside it in `etc/` and `outside/`.
    var top: TempSite!
    var blog: TempSite!

    override func setUpWithError() throws {
        top = try TempSite()
        blog = TempSite(existing: top.root.appendingPathComponent("blog"))
        try blog.write("blog.yml", "title: Links\nbase_url: https://example.org/\n")
        try blog.write("content/posts/first.md", "Title: First\nDate: 2024-01-01\n\nThe first body.\n\nMore.\n")
    }

    override func tearDown() {
        top.remove()
    }

    func link(_ path: String, to destination: String) throws {
        let url = blog.root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    /// `blog arguments…` in the blog folder.
    func run(_ arguments: [String]) throws -> BlogCLI.Result {
        try BlogCLI.run(arguments, in: blog.root)
    }

    /// Every symbolic link under `folder` of the blog (by `lstat`, never following one), relative.
    func links(under folder: String) -> [String] {
        var found: [String] = []
        var pending = [""]
        let root = blog.root.appendingPathComponent(folder).path
        while let relative = pending.popLast() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? root : root + "/" + relative)) ?? []
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(root + "/" + path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFLNK: found.append(path)
                case S_IFDIR: pending.append(path)
                default: break
                }
            }
        }
        return found.sorted()
    }

    /// `result` warns that the link `shown` was skipped, for it leads out of the blog to `target` in `outside/`.
    func assertSkipped(_ result: BlogCLI.Result, _ shown: String, to target: String, file: StaticString = #filePath, line: UInt = #line) {
        let outside = PathSafety.resolved(top.root.appendingPathComponent("outside"))
        XCTAssertTrue(result.stderr.contains("\(shown):1:1: warning: skipped: this symbolic link leads out of the blog folder, to \(outside)/\(target);"),
                      result.stderr, file: file, line: line)
    }

    /// A page bundle four folders down whose `x.txt` is `../../../../etc/passwd`: from `content/aa/b/c/d/e/deep/`
    /// that is `content/aa/b/etc/passwd`, inside the blog; from `public/posts/deep/` it would be the `etc/passwd`
    /// beside the blog folder.
    func writeDeepBundle() throws {
        try blog.write("content/aa/b/c/d/e/deep/index.md", "Title: Deep\nDate: 2024-01-02\n\n[the file](x.txt)\n")
        try blog.write("content/aa/b/etc/passwd", "inside the blog\n")
        try top.write("etc/passwd", "root:x:0:0:outside the blog\n")
        try link("content/aa/b/c/d/e/deep/x.txt", to: "../../../../etc/passwd")
    }

    func testABundleLinkThatStaysInsideIsPublishedAsTheFileItLeadsTo() throws {
        try writeDeepBundle()
        let built = try run(["build", "--strict"])
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertEqual(links(under: "public"), [])
        XCTAssertEqual(blog.read("public/posts/deep/x.txt"), "inside the blog\n")
        // Built again over that output (the spare copy reused), and in place after an edit past the summary.
        XCTAssertEqual(try run(["build"]).status, 0)
        try blog.write("content/posts/first.md", "Title: First\nDate: 2024-01-01\n\nThe first body.\n\nMore, edited.\n")
        let inPlace = try run(["build", "--timings"])
        XCTAssertTrue(inPlace.stderr.contains("cache: quick build") || inPlace.stdout.contains("cache: quick build"), inPlace.stdout + inPlace.stderr)
        XCTAssertTrue(blog.read("public/posts/first/index.html")?.contains("More, edited.") == true)
        XCTAssertEqual(links(under: "public"), [])
        XCTAssertEqual(blog.read("public/posts/deep/x.txt"), "inside the blog\n")
    }

    func testALinkLeftInTheOutputByAnOlderBuildIsReplacedByTheFile() throws {
        try writeDeepBundle()
        XCTAssertEqual(try run(["build"]).status, 0)
        // What an older `blog` published: the link itself, which from public/posts/deep/ leads out of the blog.
        let published = blog.root.appendingPathComponent("public/posts/deep/x.txt").path
        XCTAssertEqual(unlink(published), 0)
        XCTAssertEqual(symlink("../../../../etc/passwd", published), 0)
        XCTAssertEqual(blog.read("public/posts/deep/x.txt"), "root:x:0:0:outside the blog\n")
        // A body edit: a build in place, which keeps every other published file as it is.
        try blog.write("content/posts/first.md", "Title: First\nDate: 2024-01-01\n\nAn edited body.\n")
        let built = try run(["build"])
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(blog.read("public/posts/first/index.html")?.contains("An edited body.") == true)
        XCTAssertEqual(links(under: "public"), [])
        XCTAssertEqual(blog.read("public/posts/deep/x.txt"), "inside the blog\n")
    }

    /// The writer's own guarantee, whatever its caller hands it: a published file that is a link (an older
    /// build's) is never hard-linked into the new site, which would make the new site hold the link.
    func testTheWriterNeverLinksASymbolicLinkIntoTheOutput() throws {
        let output = top.root.appendingPathComponent("public")
        try top.write("outside.txt", "outside the blog")
        _ = try SiteWriter.write([OutputFile(path: "a.txt", contents: .bytes(Data("a".utf8))),
                                  OutputFile(path: "b.txt", contents: .bytes(Data("b".utf8)))], to: output, displayPath: "public")
        XCTAssertEqual(unlink(output.path + "/a.txt"), 0)
        XCTAssertEqual(symlink("../outside.txt", output.path + "/a.txt"), 0)
        // A build in place keeps a.txt and writes b.txt: it may not keep a.txt by linking the link.
        let patched = SiteWriter.patch(output: output, paths: ["a.txt", "b.txt"], changed: ["b.txt": Data("b2".utf8)], spareSamePaths: false)
        XCTAssertNil(patched, "refused, so that the caller builds in full")
        XCTAssertEqual(top.read("public/b.txt"), "b", "the published site is as it was")
        // A full write over it, copying a file through a link (one a reader let through): the bytes, never the link.
        XCTAssertEqual(symlink("outside.txt", top.root.path + "/link.txt"), 0)
        let copied = try SiteWriter.write([OutputFile(path: "a.txt", contents: .copy(from: top.root.appendingPathComponent("link.txt"))),
                                           OutputFile(path: "b.txt", contents: .bytes(Data("b2".utf8)))], to: output, displayPath: "public")
        XCTAssertEqual(copied.unchanged, 0)
        var status = stat()
        XCTAssertEqual(lstat(output.path + "/a.txt", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(top.read("public/a.txt"), "outside the blog")
    }

    func testServeAnswersWithTheFileInsideTheBlogNeverWithTheOneOutside() throws {
        try writeDeepBundle()
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: blog.root)
        defer { server.stop() }
        try server.waitUntilServing()
        let served = try ServeEndToEndTests.fetch(server.url + "posts/deep/x.txt")
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(served.body, "inside the blog\n")
        XCTAssertFalse(served.body.contains("root:"), served.body)
    }

    func testAContentLinkOutOfTheBlogIsAWarningAndNothingOfItIsPublished() throws {
        try top.write("outside/secret.png", "outside the blog")
        try top.write("outside/folder/inner.txt", "outside the blog")
        try link("content/images/secret.png", to: "../../../outside/secret.png")
        try link("content/shared", to: top.root.appendingPathComponent("outside/folder").path)
        try link("content/gone.png", to: "nothing-here.png")
        let built = try run(["build"])
        XCTAssertEqual(built.status, 0, built.stderr)
        assertSkipped(built, "content/images/secret.png", to: "secret.png")
        assertSkipped(built, "content/shared", to: "folder")
        XCTAssertTrue(built.stderr.contains("content/gone.png:1:1: warning: skipped: this symbolic link leads nowhere"), built.stderr)
        XCTAssertFalse(blog.exists("public/images/secret.png"))
        XCTAssertFalse(blog.exists("public/shared"))
        XCTAssertEqual(links(under: "public"), [])
        XCTAssertEqual(try run(["build", "--strict"]).status, 1)
    }

    /// A link inside the blog to a hidden file (`.git/config`, where a CI checkout keeps its token) is not read,
    /// nor a link to a hidden folder; links to hidden places reached through `_data/` neither.
    func testALinkToAHiddenFileOfTheBlogIsAWarningAndNothingOfItIsPublished() throws {
        try blog.write(".git/config", "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n")
        try blog.write(".secrets/token.txt", "secret\n")
        try link("content/posts/config.txt", to: "../../.git/config")
        try link("content/secrets", to: "../.secrets")
        try blog.write("_config.yml", "title: Links\n")
        try link("_data/git.yml", to: "../.git/config")
        let built = try run(["build"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let real = PathSafety.resolved(blog.root)
        for (shown, target) in [("content/posts/config.txt", ".git/config"), ("content/secrets", ".secrets"), ("_data/git.yml", ".git/config")] {
            XCTAssertTrue(built.stderr.contains("\(shown):1:1: warning: skipped: this symbolic link leads to \(real)/\(target), a hidden file or folder"),
                          built.stderr)
        }
        XCTAssertEqual(try run(["build", "--strict"]).status, 1)
        let published = blog.snapshot("public").values.map { String(decoding: $0, as: UTF8.self) }
        XCTAssertFalse(published.contains { $0.contains("c2VjcmV0") || $0.contains("secret\n") })
        XCTAssertEqual(links(under: "public"), [])
    }

    /// A Jekyll blog whose `_data/` holds a link to a file outside the blog, one to a file inside, and whose
    /// `_config.yml` is a link out.
    func testADataLinkOutOfTheBlogIsNotReadAndOneInsideIs() throws {
        try blog.write("blog.yml", "title: Links\nbase_url: https://example.org/\ncontent: _posts\n")
        try blog.write("_posts/2024-01-03-data.md", """
            ---
            title: Data
            ---
            Secret: {{ site.data.secret.token }}. Shared: {{ site.data.shared.name }}. Config: {{ site.owner }}.

            """)
        try top.write("outside/secret.yml", "token: SECRET-OUTSIDE\n")
        try top.write("outside/config.yml", "owner: CONFIG-OUTSIDE\n")
        try blog.write("shared/data.yml", "name: Shared inside\n")
        try link("_data/secret.yml", to: top.root.appendingPathComponent("outside/secret.yml").path)
        try link("_data/shared.yml", to: "../shared/data.yml")
        try link("_config.yml", to: "../outside/config.yml")
        let built = try run(["build"])
        XCTAssertEqual(built.status, 0, built.stderr)
        assertSkipped(built, "_data/secret.yml", to: "secret.yml")
        assertSkipped(built, "_config.yml", to: "config.yml")
        let page = try XCTUnwrap(blog.read("public/posts/data/index.html"))
        XCTAssertFalse(page.contains("SECRET-OUTSIDE"), page)
        XCTAssertFalse(page.contains("CONFIG-OUTSIDE"), page)
        XCTAssertTrue(page.contains("Shared: Shared inside."), page)
        XCTAssertEqual(try run(["build", "--strict"]).status, 1)
    }

    /// The default theme overridden through links: inside the blog they are read and published as files; out of
    /// it they are skipped with a warning, and the embedded file is used.
    func testThemeStaticAndTemplateLinksInsideAreReadAndOutsideAreWarnedAbout() throws {
        try blog.write("shared/extra.css", "/* inside the blog */\n")
        try blog.write("shared/404.mustache", "<!doctype html><title>404</title><p>Lost, from a linked template.</p>\n")
        try top.write("outside/secret.txt", "outside the blog")
        try top.write("outside/post.mustache", "<p>OUTSIDE TEMPLATE</p>\n")
        try link("themes/default/static/extra.css", to: "../../../shared/extra.css")
        try link("themes/default/templates/404.mustache", to: "../../../shared/404.mustache")
        try link("themes/default/static/secret.txt", to: top.root.appendingPathComponent("outside/secret.txt").path)
        try link("themes/default/templates/post.mustache", to: "../../../../outside/post.mustache")
        let built = try run(["build"])
        XCTAssertEqual(built.status, 0, built.stderr)
        assertSkipped(built, "themes/default/static/secret.txt", to: "secret.txt")
        assertSkipped(built, "themes/default/templates/post.mustache", to: "post.mustache")
        XCTAssertEqual(blog.read("public/extra.css"), "/* inside the blog */\n")
        XCTAssertTrue(blog.read("public/404.html")?.contains("Lost, from a linked template.") == true, blog.read("public/404.html") ?? "")
        XCTAssertFalse(blog.exists("public/secret.txt"))
        let post = try XCTUnwrap(blog.read("public/posts/first/index.html"))
        XCTAssertFalse(post.contains("OUTSIDE TEMPLATE"), post)
        XCTAssertTrue(post.contains("The first body."), post)
        XCTAssertEqual(links(under: "public"), [])
        XCTAssertEqual(try run(["build", "--strict"]).status, 1)
    }

    /// A theme whose folder is a link out of the blog is not read: the theme is missing, and the build fails
    /// without touching the published site.
    func testAThemeFolderLinkedOutOfTheBlogIsMissingAndTheBuildFails() throws {
        XCTAssertEqual(try run(["build"]).status, 0)
        let before = blog.snapshot("public")
        try top.write("outside/mine/templates/post.mustache", "OUTSIDE {{{content}}}\n")
        try link("themes/mine", to: top.root.appendingPathComponent("outside/mine").path)
        try blog.write("blog.yml", "title: Links\nbase_url: https://example.org/\ntheme: mine\n")
        let built = try run(["build"])
        XCTAssertEqual(built.status, 1, built.stderr)
        XCTAssertTrue(built.stderr.contains("themes/mine/templates:1:1: warning: skipped: a symbolic link on this path leads out of the blog folder"), built.stderr)
        XCTAssertTrue(built.stderr.contains("error: missing theme \"mine\""), built.stderr)
        XCTAssertEqual(blog.snapshot("public"), before)
    }
}

extension TempSite {
    /// The folder `root`, made if missing, deleted with whatever holds it.
    init(existing root: URL) {
        self.root = root
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }
}
