@testable import BlogBuild
@testable import BlogCore
@testable import BlogIncremental
@testable import BlogOutput
@testable import BlogRender
import Foundation
import XCTest

/// Issue 26, the output folder: a build touches nothing but its output folder, the folders it keeps
/// beside it and its cache. Each test builds a real blog folder (`blog/`) with the `blog` binary,
/// next to a folder of someone else's files (`victim/`), and reads both back.
final class SecurityOutputTests: XCTestCase {
    var site: TempSite!
    var blog: URL { site.root.appendingPathComponent("blog") }

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("blog/blog.yml", "title: T\nbase_url: https://example.org/\n")
        try site.write("blog/content/hi.md", "title: Hi\ndate: 2020-01-01\nsummary: A greeting.\n\nHello.\n")
        try site.write("victim/keep.txt", "precious")
        try site.write("victim/hi/index.html", "someone else's page")
    }

    override func tearDown() {
        site.remove()
    }

    /// `blog arguments…` in the blog folder.
    func run(_ arguments: [String]) throws -> BlogCLI.Result {
        try BlogCLI.run(arguments, in: blog)
    }

    /// `blog build arguments…`, which must succeed.
    @discardableResult
    func build(_ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> BlogCLI.Result {
        let result = try run(["build"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result
    }

    /// `blog build arguments…`, which must fail with every one of `expected` in its messages.
    func refused(_ arguments: [String] = [], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(["build"] + arguments)
        XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
        for text in expected {
            XCTAssertTrue(result.stderr.contains(text), "expected «\(text)» in:\n\(result.stderr)", file: file, line: line)
        }
    }

    /// The victim's files are as they were, and no more.
    func assertVictimUntouched(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(site.snapshot("victim"), ["keep.txt": Data("precious".utf8), "hi/index.html": Data("someone else's page".utf8)],
                       file: file, line: line)
    }

    func link(_ path: String, to target: String) throws {
        let url = blog.appendingPathComponent(path)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    func kind(_ path: String) -> mode_t? {
        FileKind.of(blog.appendingPathComponent(path).path)
    }

    // MARK: - Finding 1: links where the build's folders belong, and inside them

    /// `mkdir public; ln -s ../victim .public.blog-spare; blog build` emptied `victim`, filled it
    /// with the site and made `public` a link to it. A link where the output folder, the staging
    /// folder or the spare belongs is now an error naming it, and what it points to is untouched.
    func testALinkWhereTheOutputOrAFolderBesideItBelongsIsRefused() throws {
        try FileManager.default.createDirectory(at: blog.appendingPathComponent("public"), withIntermediateDirectories: true)
        try link(".public.blog-spare", to: "../victim")
        try refused([], ["error: .public.blog-spare: the copy of the previous site beside the output folder is a symbolic link (to ../victim)"])
        assertVictimUntouched()
        XCTAssertEqual(kind("public"), S_IFDIR)
        XCTAssertEqual(kind(".public.blog-spare"), S_IFLNK, "the link is the user's to remove")

        try FileManager.default.removeItem(at: blog.appendingPathComponent(".public.blog-spare"))
        try link(".public.blog-staging", to: "../victim")
        try refused([], ["error: .public.blog-staging: the staging folder, where the new site is written, is a symbolic link (to ../victim)"])
        assertVictimUntouched()

        try FileManager.default.removeItem(at: blog.appendingPathComponent(".public.blog-staging"))
        try link("public", to: "../victim")
        try refused([], ["error: public: the output folder is a symbolic link (to ../victim)"])
        try refused(["--output", "public"], ["error: public: the output folder is a symbolic link"])
        assertVictimUntouched()

        try FileManager.default.removeItem(at: blog.appendingPathComponent("public"))
        try link(".blog-cache", to: "../victim")
        try refused([], ["error: .blog-cache: `cache_dir: .blog-cache` is a symbolic link (to ../victim)"])
        XCTAssertFalse(site.exists("blog/public"), "nothing was built")
        // Without the cache, the cache folder is not touched at all: the build goes on.
        try build(["--no-cache"])
        assertVictimUntouched()
        XCTAssertEqual(kind(".blog-cache"), S_IFLNK)
        XCTAssertNotNil(site.read("blog/public/index.html"))
    }

    /// Links inside the spare copy (planted, or left by anything but a build) are removed, never
    /// followed: not when a full build prunes the spare, not when a build in place patches it.
    func testLinksInsideTheSpareAreRemovedNotFollowed() throws {
        try build(["--no-cache"])
        try build(["--no-cache"])
        XCTAssertEqual(kind(".public.blog-spare"), S_IFDIR)
        // A full build prunes the spare it reuses.
        try link(".public.blog-spare/posts", to: "../../victim")
        try link(".public.blog-spare/index.html", to: "../../victim/keep.txt")
        try build(["--no-cache"])
        assertVictimUntouched()
        XCTAssertTrue(try XCTUnwrap(site.read("blog/public/posts/hi/index.html")).contains("Hello."))

        // A build in place patches the spare into the new site. After the first, the state says
        // which of the spare's files differ, and only those are looked at.
        try build()
        try site.write("blog/content/hi.md", "title: Hi\ndate: 2020-01-01\nsummary: A greeting.\n\nHello again.\n")
        XCTAssertTrue(try build(["--timings"]).stdout.contains("cache: quick build: 1 post changed"))
        try link(".public.blog-spare/posts", to: "../../victim")
        try site.write("blog/content/hi.md", "title: Hi\ndate: 2020-01-01\nsummary: A greeting.\n\nGoodbye.\n")
        XCTAssertTrue(try build(["--timings"]).stdout.contains("cache: quick build: 1 post changed"))
        assertVictimUntouched()
        XCTAssertTrue(try XCTUnwrap(site.read("blog/public/posts/hi/index.html")).contains("Goodbye."))
        XCTAssertEqual(kind("public/posts"), S_IFDIR)
    }

    // MARK: - Finding 6: an output folder that blog did not write

    /// `output: .git` erased the history; any folder that holds files no build wrote lost them.
    func testAFolderOfTheBlogsSourcesIsRefusedWhateverItHolds() throws {
        for folder in [".git", "_data", ".github", "themes", "shortcodes", "static", "layouts", "content"] {
            try site.write("blog/\(folder)/kept", "mine")
            try site.write("blog/\(folder)/.blog-output", "a marker does not make it an output folder")
            try refused(["--output", folder], ["error: refusing to build into", "the output folder is the blog's \(folder)/"])
            XCTAssertEqual(site.read("blog/\(folder)/kept"), "mine")
        }
        try site.write("blog/blog.yml", "title: T\nbase_url: https://example.org/\noutput: _data\n")
        try refused([], ["error: refusing to build into"])
        try site.write("blog/blog.yml", "title: T\nbase_url: https://example.org/\ncontent: site/posts\n")
        try site.write("blog/site/posts/hi.md", "title: Hi\ndate: 2020-01-01\n\nHello.\n")
        try refused(["--output", "site"], ["the output folder contains the blog's site/posts/"])
        XCTAssertNotNil(site.read("blog/site/posts/hi.md"))
    }

    func testAnOutputFolderThatHoldsFilesBlogDidNotWriteIsRefused() throws {
        try site.write("blog/notes/todo.txt", "mine")
        try refused(["--output", "notes"], ["error: refusing to build into", "nothing shows that blog wrote what it holds (\"todo.txt\")"])
        try refused(["--output", "../victim"], ["error: refusing to build into"])
        XCTAssertEqual(site.read("blog/notes/todo.txt"), "mine")
        assertVictimUntouched()

        // An empty folder, or one with hidden entries only (a deploy checkout's .git), is fine.
        try FileManager.default.createDirectory(at: blog.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try build(["--output", "empty"])
        try site.write("blog/checkout/.git/HEAD", "ref: refs/heads/gh-pages\n")
        try build(["--output", "checkout"])
        XCTAssertEqual(site.read("blog/checkout/.git/HEAD"), "ref: refs/heads/gh-pages\n")
        // A folder a build wrote is rebuilt, with --no-cache too: each build leaves its mark.
        XCTAssertEqual(kind("checkout/.blog-output"), S_IFREG)
        try site.write("blog/content/hi.md", "title: Hi\ndate: 2020-01-01\n\nChanged.\n")
        try build(["--output", "checkout", "--no-cache"])
        XCTAssertTrue(try XCTUnwrap(site.read("blog/checkout/posts/hi/index.html")).contains("Changed."))
    }

    /// Output folders written before builds left their mark: one that the last build's state
    /// describes file for file, or that has an earlier build's spare copy beside it, is blog's;
    /// one with neither is refused.
    func testAnOutputFolderOfAnEarlierVersionIsKnownByTheStateOrTheSpare() throws {
        let marker = blog.appendingPathComponent("public/.blog-output")
        try build()
        try FileManager.default.removeItem(at: marker)
        XCTAssertTrue(try build(["--timings"]).stdout.contains("cache: quick build: 0 posts changed"), "nothing to write")
        XCTAssertEqual(kind("public/.blog-output"), S_IFREG, "the folder is marked as blog's at once")

        // A build that writes keeps the site before as the spare.
        try site.write("blog/content/hi.md", "title: Hi\ndate: 2020-01-01\nsummary: A greeting.\n\nHello again.\n")
        try build()
        try FileManager.default.removeItem(at: marker)
        try FileManager.default.removeItem(at: blog.appendingPathComponent(".blog-cache"))
        XCTAssertEqual(kind(".public.blog-spare"), S_IFDIR)
        try build()
        XCTAssertEqual(kind("public/.blog-output"), S_IFREG)

        try FileManager.default.removeItem(at: marker)
        try FileManager.default.removeItem(at: blog.appendingPathComponent(".blog-cache"))
        try FileManager.default.removeItem(at: blog.appendingPathComponent(".public.blog-spare"))
        try refused([], ["error: refusing to build into", "the output of an earlier version of blog can be deleted"])
        XCTAssertTrue(try XCTUnwrap(site.read("blog/public/posts/hi/index.html")).contains("Hello again."), "the published site stays")
    }

    // MARK: - The build lock

    /// The build lock of the blog, as a build holds it (with the cache or without), until it is released.
    func holdLock(cache: Bool) throws -> BuildLock {
        try BuildLock.hold(blog: blog, folder: (blog.appendingPathComponent(".blog-cache"), ".blog-cache"), create: cache).0
    }

    /// A cache folder whose lock can't be held (`lock` a folder, `cache_dir` a file) is a warning,
    /// and the lock is held elsewhere: a second build is still refused.
    func testTheLockIsHeldElsewhereWhenTheCacheFolderCantHoldIt() throws {
        try FileManager.default.createDirectory(at: blog.appendingPathComponent(".blog-cache/lock"), withIntermediateDirectories: true)
        let warned = try build()
        XCTAssertTrue(warned.stderr.contains("warning: cannot hold the build lock .blog-cache/lock (Is a directory)"), warned.stderr)
        try refused(["--strict"], ["warning: cannot hold the build lock"])
        let holder = try holdLock(cache: true)
        try refused([], ["error: another `blog build` of this blog is running"])
        try refused(["--no-cache"], ["error: another `blog build` of this blog is running"])
        holder.release()

        try FileManager.default.removeItem(at: blog.appendingPathComponent(".blog-cache"))
        try site.write("blog/.blog-cache", "a file")
        XCTAssertTrue(try build().stderr.contains("warning: cannot hold the build lock .blog-cache/lock"))
        let second = try holdLock(cache: true)
        try refused([], ["error: another `blog build` of this blog is running"])
        second.release()
        XCTAssertEqual(site.read("blog/.blog-cache"), "a file")
    }

    /// Builds without the cache are kept apart from each other and from builds with it, also
    /// when there is no cache folder.
    func testBuildsWithoutTheCacheAreRefusedWhileAnotherRuns() throws {
        let holder = try holdLock(cache: false)
        try refused(["--no-cache"], ["error: another `blog build` of this blog is running"])
        try refused([], ["error: another `blog build` of this blog is running"])
        XCTAssertNil(kind(".blog-cache"), "a refused build makes nothing")
        holder.release()
        try build(["--no-cache"])
        XCTAssertNil(kind(".blog-cache"), "--no-cache makes no cache folder")
        let cached = try holdLock(cache: true)
        try refused(["--no-cache"], ["error: another `blog build` of this blog is running"])
        cached.release()
        // Once the cache folder is there, a build without the cache holds its lock too.
        try build()
        let uncached = try holdLock(cache: false)
        try refused([], ["error: another `blog build` of this blog is running (it holds .blog-cache/lock)"])
        try refused(["--no-cache"], ["error: another `blog build` of this blog is running"])
        uncached.release()
        try build(["--no-cache"])
    }

    /// A build's lock is the blog folder itself when there is no cache folder: builds with and without
    /// the cache write nothing in the temporary folder (a lock file there, one per blog ever built, was
    /// left behind by every `--no-cache` build).
    func testBuildsWriteNothingInTheTemporaryFolder() throws {
        let temporary = site.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        for arguments in [["build", "--no-cache"], ["build"], ["build", "--no-cache"]] {
            let result = try BlogCLI.run(arguments, in: blog, environment: ["TMPDIR": temporary.path])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [])
        XCTAssertTrue(try XCTUnwrap(site.read("blog/public/posts/hi/index.html")).contains("Hello."))
    }

    // MARK: - An output folder that is a mount point

    /// Runs `script` (sh) in the blog folder in a mount namespace of its own (`unshare -rm`), with
    /// `$BLOG` the binary; skips the test where that is not allowed.
    func inMountNamespace(_ script: String) throws -> BlogCLI.Result {
        let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
        guard FileManager.default.isExecutableFile(atPath: unshare.path),
              try BlogCLI.run(["-rm", "true"], in: blog, program: unshare).status == 0 else {
            throw XCTSkip("mount namespaces (unshare -rm) are not available here: Linux only, and not in every container")
        }
        return try BlogCLI.run(["-rm", "sh", "-c", "set -e\n" + script], in: blog, environment: ["BLOG": BlogCLI.executable.path], program: unshare)
    }

    /// An output folder that is a mount point (a tmpfs, a bind mount such as Docker's `-v`) failed
    /// every build with "Device or resource busy": its entries are now replaced instead.
    func testAnOutputFolderThatIsAMountPointIsPublishedInto() throws {
        try FileManager.default.createDirectory(at: blog.appendingPathComponent("public"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: blog.appendingPathComponent("shared"), withIntermediateDirectories: true)
        for mount in ["mount -t tmpfs none public", "mount --bind shared public"] {
            let result = try inMountNamespace("""
                \(mount)
                mkdir -p public/lost+found public/.git
                "$BLOG" build 2>&1
                printf 'title: Two\\ndate: 2021-01-01\\n\\nSecond.\\n' > content/two.md
                "$BLOG" build 2>&1
                printf 'title: Hi\\ndate: 2020-01-01\\n\\nEdited.\\n' > content/hi.md
                "$BLOG" build --timings 2>&1
                "$BLOG" build --no-cache 2>&1
                ls -a public > listing.txt
                cat public/posts/hi/index.html public/posts/two/index.html > pages.txt
                """)
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            XCTAssertFalse(result.stdout.contains("error"), result.stdout)
            let listing = try XCTUnwrap(site.read("blog/listing.txt")).split(separator: "\n")
            XCTAssertTrue(listing.contains("lost+found") && listing.contains(".git") && listing.contains(".blog-output"), "\(listing)")
            XCTAssertFalse(listing.contains { $0.contains("staging") || $0.contains("previous") }, "\(listing)")
            let pages = try XCTUnwrap(site.read("blog/pages.txt"))
            XCTAssertTrue(pages.contains("Edited.") && pages.contains("Second."), pages)
            try FileManager.default.removeItem(at: blog.appendingPathComponent("content/two.md"))
            try site.write("blog/content/hi.md", "title: Hi\ndate: 2020-01-01\n\nHello.\n")
            try? FileManager.default.removeItem(at: blog.appendingPathComponent(".blog-cache"))
        }
        XCTAssertEqual(FileManager.default.fileExists(atPath: blog.appendingPathComponent("shared/index.html").path), true,
                       "the bind mount's folder holds the site")
    }

    // MARK: - Messages that name the files at fault

    /// Two files that want one output path, and a name too long for the file system, are errors
    /// at the header line of the post that asks for them (`path:line:column`), naming the other
    /// file: they named the output path only (`public:1:1: error: two files want the same output
    /// path "feed.xml"`, `posts/xxx…:1:1: error: cannot create this output folder`).
    func testCollisionsAndLongNamesNameTheirSources() throws {
        try build()
        let before = site.snapshot("blog/public")
        try site.write("blog/content/feed.md", "title: Feed\ndate: 2020-01-02\nsave_as: feed.xml\n\nA page.\n")
        try refused([], ["content/feed.md:3:10: error: the output path \"feed.xml\" is wanted by content/feed.md and the file feed.xml that blog makes"])
        try FileManager.default.removeItem(at: blog.appendingPathComponent("content/feed.md"))

        let long = String(repeating: "x", count: 300)
        try site.write("blog/content/long.md", "---\ntitle: Long\ndate: 2020-01-02\nslug: \(long)\n---\nBody.\n")
        try refused([], ["content/long.md:4:7: error: the output path \"posts/xxxxxxxxxxxxxxxxxxxxxxxx…/index.html\" has a name of 300 bytes"])
        try site.write("blog/content/long.md", "Title: \(long)\nDate: 2020-01-02\n\nBody.\n")
        try refused([], ["content/long.md:1:8: error: the output path"])
        try FileManager.default.removeItem(at: blog.appendingPathComponent("content/long.md"))

        try site.write("blog/themes/default/static/rss.xml", "<rss/>")
        try refused([], ["themes/default/static/rss.xml:1:1: error: the output path \"rss.xml\" is wanted by themes/default/static/rss.xml and the file rss.xml that blog makes"])
        try FileManager.default.removeItem(at: blog.appendingPathComponent("themes"))

        try site.write("blog/content/archives", "an extensionless file")
        try site.write("blog/content/arch.md", "---\ntitle: Arch\ndate: 2020-01-02\npermalink: /archives/\n---\nBody.\n")
        try refused([], ["content/archives:1:1: error: the output path \"archives\" (of content/archives) is also the folder of \"archives/index.html\" (of content/arch.md)"])
        XCTAssertEqual(site.snapshot("blog/public"), before, "the published site stays")
    }
}
