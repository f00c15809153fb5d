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
        XCTAssertEqual(try ContentScanner.scan(root, displayPath: "content"), ContentInventory(posts: [], assets: []))
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
            XCTAssertEqual((error as? BuildFailure)?.description, "content:1:1: error: content folder not found")
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
            XCTAssertEqual((error as? BuildFailure)?.diagnostics.first?.path, "content/posts")
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
    }
}
