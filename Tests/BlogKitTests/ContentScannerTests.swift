@testable import BlogBuild
@testable import BlogContent
@testable import BlogCore
@testable import BlogIncremental
import XCTest

final class ContentScannerTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func write(_ relative: String, in base: URL? = nil) throws {
        let url = (base ?? root).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url)
    }

    func testPostsAndAssetsSortedWithHiddenSkipped() throws {
        for path in ["posts/b.md", "posts/a.markdown", "posts/C.MD", "posts/2016/x.Markdown", "about.md",
                     "images/logo.png", "images/Z.jpg", "posts/a/notes.txt", "README",
                     ".hidden.md", "posts/.draft.md", ".git/config", "posts/.cache/x.md", "images/.DS_Store"] {
            try write(path)
        }
        let inventory = try ContentScanner.scan(root, displayPath: "content")
        // Byte order: upper case before lower case, "/" (0x2F) before letters and after "-".
        XCTAssertEqual(inventory.posts, ["about.md", "posts/2016/x.Markdown", "posts/C.MD", "posts/a.markdown", "posts/b.md"])
        XCTAssertEqual(inventory.assets, ["README", "images/Z.jpg", "images/logo.png", "posts/a/notes.txt"])
    }

    func testByteOrderIsNotLocaleOrder() throws {
        for path in ["a-b.md", "a/b.md", "a.md", "B.md", "é.md", "e.md"] { try write(path) }
        let inventory = try ContentScanner.scan(root, displayPath: "content")
        XCTAssertEqual(inventory.posts, ["B.md", "a-b.md", "a.md", "a/b.md", "e.md", "é.md"])
    }

    func testEmptyFolder() throws {
        let inventory = try ContentScanner.scan(root, displayPath: "content")
        XCTAssertEqual(inventory.posts, [])
        XCTAssertEqual(inventory.assets, [])
        XCTAssertEqual(inventory.warnings, [])
        // The folder it read, by real path: what a build in place compares to know the files are the same.
        XCTAssertEqual(inventory.folders, [PathSafety.resolved(root)])
    }

    func testFoldersReadAreListedByRealPath() throws {
        for path in ["a/one.md", "a/b/two.md", "c/picture.png"] { try write(path) }
        let inventory = try ContentScanner.scan(root, displayPath: "content")
        let real = PathSafety.resolved(root)
        XCTAssertEqual(inventory.folders.first, real)
        XCTAssertEqual(Set(inventory.folders), [real, real + "/a", real + "/a/b", real + "/c"])
    }

    func testSymlinksLeadingOutAreNotFollowed() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try write("secret.md", in: outside)
        try write("etc/passwd", in: outside)
        try write("posts/real.md")
        let fm = FileManager.default
        try fm.createSymbolicLink(at: root.appendingPathComponent("posts/leak.md"),
                                  withDestinationURL: outside.appendingPathComponent("secret.md"))
        try fm.createSymbolicLink(at: root.appendingPathComponent("etc"), withDestinationURL: outside.appendingPathComponent("etc"))
        // A link inside the folder to a file inside it is listed under its own name.
        try fm.createSymbolicLink(at: root.appendingPathComponent("alias.md"),
                                  withDestinationURL: root.appendingPathComponent("posts/real.md"))
        // A link to a folder inside (a loop) is not followed.
        try fm.createSymbolicLink(at: root.appendingPathComponent("posts/loop"), withDestinationURL: root)
        let inventory = try ContentScanner.scan(root, displayPath: "content")
        XCTAssertEqual(inventory.posts, ["alias.md", "posts/real.md"])
        XCTAssertEqual(inventory.assets, [])
    }

    func testLinksIntoTheBlogFolderAreFollowedAndTheOthersAreWarnedAbout() throws {
        let blog = root!
        let content = blog.appendingPathComponent("content")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try write("outside.png", in: outside)
        try write("shared-images/logo.png")
        try write("shared-images/icons/star.svg")
        try write("content/posts/real.md")
        let fm = FileManager.default
        // A shared folder of the blog, linked into content/ (relative link), is followed like a folder of content/.
        try fm.createSymbolicLink(atPath: content.appendingPathComponent("images").path, withDestinationPath: "../shared-images")
        try fm.createSymbolicLink(atPath: content.appendingPathComponent("posts/out.png").path,
                                  withDestinationPath: outside.appendingPathComponent("outside.png").path)
        try fm.createSymbolicLink(atPath: content.appendingPathComponent("posts/gone.md").path, withDestinationPath: "nothing-here.md")
        try fm.createSymbolicLink(atPath: content.appendingPathComponent("posts/again").path, withDestinationPath: "..")
        // A name that is not UTF-8 ("f\xFF.md").
        let badName = content.path + "/posts/f"
        let fd = open(badName.utf8CString.dropLast() + [CChar(bitPattern: 0xFF)] + ".md".utf8CString, O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let inventory = try ContentScanner.scan(content, displayPath: "content", blogFolder: blog)
        XCTAssertEqual(inventory.posts, ["posts/real.md"])
        XCTAssertEqual(inventory.assets, ["images/icons/star.svg", "images/logo.png"])
        XCTAssertEqual(inventory.warnings.map(\.description), [
            "content/posts/again:1:1: warning: skipped: this symbolic link leads to \(PathSafety.resolved(content)), a folder it is in: a loop",
            "content/posts/f\u{FFFD}.md:1:1: warning: skipped: the file name is not valid UTF-8 (shown with \u{FFFD} for the bytes that are not); rename it",
            "content/posts/gone.md:1:1: warning: skipped: this symbolic link leads nowhere, or into a loop of links",
            "content/posts/out.png:1:1: warning: skipped: this symbolic link leads out of the blog folder, to \(PathSafety.resolved(outside))/outside.png; only links to files and folders inside it are followed",
        ])
        // Without a blog folder, the content folder is the limit: the shared images are outside it.
        XCTAssertEqual(try ContentScanner.scan(content, displayPath: "content").assets, [])
    }

    func testAFoldersEntriesComeWithTheirTypesAndAPipeIsSkipped() throws {
        try write("a.md")
        try write("sub/b.md")
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.md"),
                                                   withDestinationURL: root.appendingPathComponent("a.md"))
        XCTAssertEqual(mkfifo(root.appendingPathComponent("pipe.md").path, 0o600), 0)
        let entries = try XCTUnwrap(FolderEntries.of(root.path))
        let types = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.type) })
        XCTAssertEqual(Set(types.keys), ["a.md", "sub", "link.md", "pipe.md"])
        // From readdir on ext4 and tmpfs; from lstat where the file system doesn't say.
        for (name, type) in [("a.md", S_IFREG), ("sub", S_IFDIR), ("link.md", S_IFLNK), ("pipe.md", S_IFIFO)] {
            XCTAssertEqual(types[name], type, name)
        }
        XCTAssertNil(FolderEntries.of(root.appendingPathComponent("missing").path))
        let inventory = try ContentScanner.scan(root, displayPath: "content")
        XCTAssertEqual(inventory.posts, ["a.md", "link.md", "sub/b.md"])
    }

    func testMissingFolderIsAnError() {
        XCTAssertThrowsError(try ContentScanner.scan(root.appendingPathComponent("nope"), displayPath: "content")) { error in
            XCTAssertEqual((error as? BuildFailure)?.description, "error: content folder content/ not found")
        }
    }

    func testAFileInsteadOfAFolderIsAnError() throws {
        try write("file")
        XCTAssertThrowsError(try ContentScanner.scan(root.appendingPathComponent("file"), displayPath: "content")) { error in
            XCTAssertEqual((error as? BuildFailure)?.diagnostics.first?.severity, .error)
        }
    }

    func testUnreadableSubfolderIsAnError() throws {
        guard getuid() != 0 else { throw XCTSkip("root reads every folder") }
        try write("posts/a.md")
        let posts = root.appendingPathComponent("posts")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: posts.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: posts.path) }
        XCTAssertThrowsError(try ContentScanner.scan(root, displayPath: "content")) { error in
            XCTAssertEqual((error as? BuildFailure)?.description, "error: cannot read the folder content/posts: Permission denied")
        }
    }
}

extension ContentScannerTests {
    /// Paths sort by their UTF-8 bytes: `-` (0x2D) before `/` (0x2F), a prefix first, `z` before `é`.
    func testPathsSortInByteOrder() {
        let paths = ["posts/é.md", "posts/z.md", "posts/a/b.md", "posts/a-b.md", "posts/a", "posts/", ""]
        XCTAssertEqual(paths.sorted(by: ContentScanner.bytesPrecede), ["", "posts/", "posts/a", "posts/a-b.md", "posts/a/b.md", "posts/z.md", "posts/é.md"])
        XCTAssertEqual(paths.sorted(by: ContentScanner.bytesPrecede), paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    /// The states of many files from one folder: as `stat` gives them one by one, nil for a
    /// missing file, and a symbolic link itself or its target as asked.
    func testFileStatesFromAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try Data("one".utf8).write(to: folder.appendingPathComponent("a/b/one.md"))
        try Data("three".utf8).write(to: folder.appendingPathComponent("two.md"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.md").path, withDestinationPath: "two.md")
        let paths = ["a/b/one.md", "two.md", "missing.md", "link.md"]
        let followed = FileStat.of(paths, in: folder.path)
        XCTAssertEqual(followed, paths.map { FileStat.of(folder.path + "/" + $0) })
        XCTAssertEqual(followed.map { $0?.size }, [3, 5, nil, 5])
        let links = FileStat.of(paths, in: folder.path, followingLinks: false)
        XCTAssertEqual(links[3], FileStat.of(folder.path + "/link.md", followingLinks: false))
        XCTAssertNotEqual(links[3], followed[3])
        XCTAssertEqual(FileStat.of(paths, in: folder.path + "/nowhere"), [nil, nil, nil, nil])
        // A file read with its state: the bytes, and the state taken after reading them.
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY)
        defer { close(directory) }
        let read = FileStat.read("a/b/one.md", in: directory)
        XCTAssertEqual(read.map { String(decoding: $0.0, as: UTF8.self) }, "one")
        XCTAssertEqual(read?.1, followed[0])
        try Data(String(repeating: "x", count: 10_000).utf8).write(to: folder.appendingPathComponent("two.md"))
        XCTAssertEqual(FileStat.read("link.md", in: directory)?.0.count, 10_000)
        XCTAssertNil(FileStat.read("missing.md", in: directory))
        // Empty; and more bytes than its size says (a file of /proc, of size 0): read to its end all the same.
        try Data().write(to: folder.appendingPathComponent("empty.md"))
        XCTAssertEqual(FileStat.read("empty.md", in: directory)?.0, Data())
        let status = try XCTUnwrap(FileStat.read("/proc/self/status", in: directory))
        XCTAssertEqual(status.1.size, 0)
        XCTAssertTrue(String(decoding: status.0, as: UTF8.self).hasPrefix("Name:"))
        XCTAssertTrue(String(decoding: status.0, as: UTF8.self).contains("\nPid:"))
    }
}

/// Linked folders, unusable names and URLs that differ only by case, in whole builds.
final class ContentFileSystemEndToEndTests: XCTestCase {
    func testALinkedImageFolderIsPublishedAndALinkOutIsAWarningThatStrictRefuses() throws {
        let site = try TempSite()
        defer { site.remove() }
        _ = try site.write("blog.yml", "base_url: https://example.org/\n")
        _ = try site.write("content/posts/a.md", "Title: A\nDate: 2024-01-01\n\n![logo](/images/logo.png)\n")
        _ = try site.write("shared/images/logo.png", "png")
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("content/images").path, withDestinationPath: "../shared/images")
        let built = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertEqual(site.read("public/images/logo.png"), "png")
        XCTAssertEqual(try BlogCLI.run(["check"], in: site.root).status, 0)

        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("content/passwd").path, withDestinationPath: "/etc/passwd")
        let warned = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("content/passwd:1:1: warning: skipped: this symbolic link leads out of the blog folder, to /etc/passwd"), warned.stderr)
        XCTAssertFalse(site.exists("public/passwd"))
        XCTAssertEqual(try BlogCLI.run(["build", "--strict"], in: site.root).status, 1)
    }

    func testOutputsThatDifferOnlyByCaseAreAWarningNamingBoth() throws {
        let site = try TempSite()
        defer { site.remove() }
        _ = try site.write("blog.yml", "base_url: https://example.org/\n")
        _ = try site.write("content/posts/one.md", "Title: One\nDate: 2024-01-01\nSlug: Swift\n\nOne.\n")
        _ = try site.write("content/posts/two.md", "Title: Two\nDate: 2024-01-02\nSlug: swift\n\nTwo.\n")
        let built = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(built.stderr.contains("content/posts/one.md:1:1: warning: its output /posts/Swift/index.html differs only by case from /posts/swift/index.html of content/posts/two.md"), built.stderr)
        XCTAssertEqual(try BlogCLI.run(["build", "--strict"], in: site.root).status, 1)
    }
}
