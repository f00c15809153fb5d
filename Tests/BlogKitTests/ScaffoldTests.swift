@testable import BlogConfig
import BlogContent
@testable import BlogScaffold
import Foundation
import XCTest

/// `blog init` and `blog new`: a new blog that builds and checks at once, and new posts that read back as written.
final class ScaffoldTests: XCTestCase {
    /// 2026-03-01 09:30:15 UTC.
    private let now = Date(timeIntervalSince1970: 1_772_357_415)

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("blog-scaffold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testInitMakesABlogThatBuildsStrictAndChecksClean() throws {
        let folder = try temporaryFolder()
        let made = try BlogCLI.run(["init", "site", "--base-url", "https://ann.example.net/"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1772357415"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let site = folder.appendingPathComponent("site")
        for path in ["blog.yml", "content/posts/welcome.md", ".gitignore", ".github/workflows/publish.yml"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent(path).path), path)
        }
        let built = try BlogCLI.run(["build", "--strict", "--source", "site"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1772357415"])
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertEqual(built.stderr, "")
        let page = try String(contentsOf: site.appendingPathComponent("public/posts/welcome/index.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("Welcome to your blog"))
        XCTAssertTrue(page.contains("class=\"language-swift\""), "the welcome post shows a code block")
        XCTAssertTrue(page.contains("href=\"/tags/meta/\""), "the welcome post has a tag")
        // The summary stops at <!-- more -->: the home page shows the first paragraph, not the code.
        let home = try String(contentsOf: site.appendingPathComponent("public/index.html"), encoding: .utf8)
        XCTAssertTrue(home.contains("This is your first post."))
        XCTAssertFalse(home.contains("let greeting"))
        let checked = try BlogCLI.run(["check", "--source", "site"], in: folder)
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        // What the build made is what .gitignore leaves out.
        let ignored = try String(contentsOf: site.appendingPathComponent(".gitignore"), encoding: .utf8)
        for made in ["public", ".public.blog-spare", ".blog-cache"] {
            XCTAssertTrue(ignored.contains("/\(made)/"), made)
        }
    }

    func testInitConfigShowsEverySettingWithItsDefault() throws {
        let text = StarterFiles.config(baseURL: "https://ann.github.io/notes/")
        let (config, warnings) = try ConfigLoader.parse(text, path: "blog.yml")
        XCTAssertEqual(warnings, [])
        var expected = SiteConfig()
        expected.baseURL = "https://ann.github.io/notes/"
        // The starter file writes `timezone: UTC`, the default zone, as a setting of the blog: Hugo-form posts
        // written with an offset are then shown in UTC, not in their own offset.
        expected.timeZoneIsSet = true
        XCTAssertEqual(config, expected)
        let keys = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let first = line.first, first != "#", first != " " else { return nil }
            return line.split(separator: ":").first.map(String.init)
        })
        XCTAssertEqual(keys, ConfigLoader.knownKeys, "blog.yml of blog init lists every setting blog.yml understands")
    }

    func testPagesAddressOfAGitHubRemote() {
        XCTAssertEqual(NewBlog.pagesURL(remote: "git@github.com:ann/notes.git"), "https://ann.github.io/notes/")
        XCTAssertEqual(NewBlog.pagesURL(remote: "https://github.com/Ann/notes\n"), "https://ann.github.io/notes/")
        XCTAssertEqual(NewBlog.pagesURL(remote: "https://token@github.com/ann/notes.git/"), "https://ann.github.io/notes/")
        XCTAssertEqual(NewBlog.pagesURL(remote: "ssh://git@github.com/ann/ann.github.io.git"), "https://ann.github.io/")
        XCTAssertNil(NewBlog.pagesURL(remote: "git@gitlab.com:ann/notes.git"))
        XCTAssertNil(NewBlog.pagesURL(remote: "https://github.com/ann"))
        XCTAssertNil(NewBlog.pagesURL(remote: "https://github.com/ann/notes/tree/main"))
        XCTAssertNil(NewBlog.pagesURL(remote: "https://github.com/ann/no<tes"))
    }

    /// Without --base-url nor a GitHub remote, blog.yml gets a placeholder that `blog build --strict` refuses at its
    /// line, saying what to set; --base-url replaces it. The folder becomes a git repository.
    func testInitWithoutAnAddressWritesAPlaceholderThatStrictRefuses() throws {
        let folder = try temporaryFolder()
        let made = try BlogCLI.run(["init", "site"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1772357415"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.contains("is a placeholder: set base_url in site/blog.yml"), made.stdout)
        XCTAssertTrue(made.stdout.contains("git push"), made.stdout)
        let site = folder.appendingPathComponent("site")
        XCTAssertEqual(Git.run(["rev-parse", "--is-inside-work-tree"], in: site)?.output, "true", "blog init runs git init")
        let config = try String(contentsOf: site.appendingPathComponent("blog.yml"), encoding: .utf8)
        let lines = config.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try XCTUnwrap(lines.firstIndex(of: "base_url: https://your-site.example.org/")) + 1

        let refused = try BlogCLI.run(["build", "--strict"], in: site)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("blog.yml:\(line):11: warning: `base_url` is still the placeholder that `blog init` wrote (https://your-site.example.org/): set it to the address where the site is published"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path), "nothing written")
        // Without --strict it builds, warning; with --base-url the placeholder is out of the way.
        let warned = try BlogCLI.run(["build"], in: site)
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("placeholder"), warned.stderr)
        let built = try BlogCLI.run(["build", "--strict", "--base-url", "https://ann.github.io/notes"], in: site)
        XCTAssertEqual(built.status, 0, built.stderr)
        let feed = try String(contentsOf: site.appendingPathComponent("public/feed.xml"), encoding: .utf8)
        XCTAssertTrue(feed.contains("https://ann.github.io/notes/posts/welcome/"), feed)
        XCTAssertFalse(feed.contains("example.org"), feed)
    }

    /// In a repository whose remote is on GitHub, base_url is its GitHub Pages address, and no second git
    /// repository is made; the workflow publishes with blog's action and has nothing to edit.
    func testInitInAGitHubRepositoryTakesItsPagesAddressAndWritesAWorkflowWithNoPlaceholder() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(Git.run(["init", "--quiet"], in: folder)?.status, 0)
        XCTAssertEqual(Git.run(["remote", "add", "origin", "git@github.com:ann/notes.git"], in: folder)?.status, 0)
        let made = try BlogCLI.run(["init", "."], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.contains("base_url: https://ann.github.io/notes/ (GitHub Pages of git@github.com:ann/notes.git)"), made.stdout)
        XCTAssertFalse(made.stdout.contains("git init"), made.stdout)
        let config = try String(contentsOf: folder.appendingPathComponent("blog.yml"), encoding: .utf8)
        XCTAssertTrue(config.contains("\nbase_url: https://ann.github.io/notes/\n"), config)
        let built = try BlogCLI.run(["build", "--strict"], in: folder)
        XCTAssertEqual(built.status, 0, built.stderr)

        let workflow = try String(contentsOf: folder.appendingPathComponent(".github/workflows/publish.yml"), encoding: .utf8)
        for placeholder in ["example.org", "BLOG_SOURCE", "rsync", "swift build", "your/"] {
            XCTAssertFalse(workflow.contains(placeholder), "\(placeholder) in the workflow:\n\(workflow)")
        }
        let version = try BlogCLI.run(["--version"], in: folder).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for step in ["actions/configure-pages@", "actions/upload-pages-artifact@", "actions/deploy-pages@",
                     "uses: \(StarterFiles.blogRepository)@v\(version)\n", "--base-url ${{ steps.pages.outputs.base_url }}/"] {
            XCTAssertTrue(workflow.contains(step), "\(step) missing from the workflow:\n\(workflow)")
        }
    }

    func testInitRefusesAFolderThatIsNotEmptyAndForceKeepsEveryFile() throws {
        let folder = try temporaryFolder()
        let mine = Data("title: Mine\n".utf8)
        try mine.write(to: folder.appendingPathComponent("blog.yml"))
        let refused = try BlogCLI.run(["init", "."], in: folder)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("error: the folder . is not empty (blog.yml)"), refused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["blog.yml"])

        let forced = try BlogCLI.run(["init", "--force"], in: folder)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stdout.contains("kept blog.yml"), forced.stdout)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("blog.yml")), mine)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("content/posts/welcome.md").path))
    }

    func testInitTakesAFolderWithOnlyHiddenEntries() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let report = try NewBlog.create(in: folder, display: "x", force: false, now: now)
        XCTAssertEqual(report.written, ["blog.yml", "content/posts/welcome.md", ".gitignore", ".github/workflows/publish.yml"])
        XCTAssertEqual(report.kept, [])
        let welcome = try String(contentsOf: folder.appendingPathComponent("content/posts/welcome.md"), encoding: .utf8)
        XCTAssertTrue(welcome.contains("date: 2026-03-01\n"))
    }

    /// Writes a new post into `blog` and reads it back the way a build does.
    private func newPost(_ post: NewPost, in blog: URL) throws -> (path: String, post: Post) {
        let path = try post.create(source: blog.path, now: now)
        XCTAssertTrue(path.hasPrefix(blog.path + "/content/"), path)
        let contentPath = String(path.dropFirst((blog.path + "/content/").count))
        let (read, warnings) = try PostReader.read(fileAt: URL(fileURLWithPath: path), source: path, contentPath: contentPath,
                                                   timeZone: TimeZone(identifier: "Europe/Paris")!)
        XCTAssertEqual(warnings.map(\.description), [])
        return (contentPath, read)
    }

    func testNewWritesEachHeaderFormSoThatItReadsBackAsGiven() throws {
        let blog = try temporaryFolder()
        try Data("timezone: Europe/Paris\n".utf8).write(to: blog.appendingPathComponent("blog.yml"))
        for format in NewPostFormat.allCases {
            var post = NewPost(title: "Tabs \\ \"quotes\": 遅延評価 (\(format.rawValue))")
            post.tags = ["Swift", "a, b", "C++"]
            post.category = "Notes: misc"
            post.draft = true
            post.format = format
            let (path, read) = try newPost(post, in: blog)
            XCTAssertEqual(read.headerFormat.rawValue, format.rawValue)
            XCTAssertEqual(read.title, post.title)
            XCTAssertEqual(read.tags.map(\.name), ["Swift", "a, b", "C++"])
            XCTAssertEqual(read.category?.name, "Notes: misc")
            XCTAssertEqual(read.status, .draft)
            // Pelican's header has no seconds (as Pelican blogs write dates); the others keep the instant.
            XCTAssertEqual(read.date, format == .pelican ? now.addingTimeInterval(-15) : now, format.rawValue)
            XCTAssertEqual(path, "posts/\(read.slug).md")
        }
    }

    func testNewTakesTheFormAndPlaceMostPostsHaveUnlessBlogYmlSaysOtherwise() throws {
        let blog = try temporaryFolder()
        let posts = blog.appendingPathComponent("content/_posts")
        try FileManager.default.createDirectory(at: posts, withIntermediateDirectories: true)
        try Data("Title: One\nDate: 2020-01-01\n\nText.\n".utf8).write(to: posts.appendingPathComponent("2020-01-01-one.md"))
        try Data("Title: Two\nDate: 2020-01-02\n\nText.\n".utf8).write(to: posts.appendingPathComponent("2020-01-02-two.md"))
        try Data("---\ntitle: Three\ndate: 2020-01-03\n---\nText.\n".utf8).write(to: posts.appendingPathComponent("three.md"))
        let (path, read) = try newPost(NewPost(title: "Four"), in: blog)
        XCTAssertEqual(path, "_posts/2026-03-01-four.md", "in the folder of most posts, named by date as most of them are")
        XCTAssertEqual(read.headerFormat, .pelican)
        XCTAssertEqual(read.slug, "four")

        try Data("new_post_format: toml\n".utf8).write(to: blog.appendingPathComponent("blog.yml"))
        var bundled = NewPost(title: "Five")
        bundled.bundle = true
        let (bundlePath, five) = try newPost(bundled, in: blog)
        XCTAssertEqual(bundlePath, "_posts/2026-03-01-five/index.md")
        XCTAssertEqual(five.headerFormat, .toml)
        XCTAssertEqual(five.slug, "five", "a folder post is named by its folder, date prefix stripped")
    }

    func testNewRefusesATakenSlugOrFileAndWritesNothing() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(try BlogCLI.run(["init", "blog"], in: folder).status, 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        // `welcome.md`'s slug is `welcome`, whatever its title says.
        let taken = try BlogCLI.run(["new", "Welcome!", "--source", "blog"], in: folder)
        XCTAssertEqual(taken.status, 1)
        XCTAssertEqual(taken.stdout, "")
        XCTAssertTrue(taken.stderr.contains("blog/content/posts/welcome.md:1:1: error: this post already has the slug `welcome`"), taken.stderr)
        let empty = try BlogCLI.run(["new", "!!!", "--source", "blog"], in: folder)
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("has no letter or digit"), empty.stderr)
        let badFormat = try BlogCLI.run(["new", "x", "--format", "json", "--source", "blog"], in: folder)
        XCTAssertEqual(badFormat.status, 2, "bad usage")
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted(), before)

        // A file where the post would go (a post that does not read has no slug) is never overwritten.
        let broken = folder.appendingPathComponent("blog/content/posts/second.md")
        try Data("---\ntitle: [unclosed\n---\n".utf8).write(to: broken)
        let clash = try BlogCLI.run(["new", "Second", "--source", "blog"], in: folder)
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("blog/content/posts/second.md:1:1: error: a file is already here"), clash.stderr)
        XCTAssertEqual(try String(contentsOf: broken, encoding: .utf8), "---\ntitle: [unclosed\n---\n")
    }

    func testNewPrintsAPathThatOpensFromTheWorkingFolderAndTheBlogBuildsIt() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(try BlogCLI.run(["init", "blog"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1772357415"]).status, 0)
        let made = try BlogCLI.run(["new", "Hello there", "--tags", "swift, shell", "--source", "blog/"], in: folder,
                                   environment: ["SOURCE_DATE_EPOCH": "1772357415"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(made.stdout, "blog/content/posts/hello-there.md\n")
        let text = try String(contentsOf: folder.appendingPathComponent("blog/content/posts/hello-there.md"), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("---\ntitle: \"Hello there\"\ndate: 2026-03-01T09:30:15Z\ntags: [\"swift\", \"shell\"]\n---\n"), text)
        let built = try BlogCLI.run(["build", "--strict", "--source", "blog", "--base-url", "https://ann.example.net/"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1772357415"])
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("blog/public/tags/shell/index.html").path))
    }
}
