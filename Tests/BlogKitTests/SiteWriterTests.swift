@testable import BlogCore
@testable import BlogOutput
import Foundation
import XCTest

final class SiteWriterTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sitewriter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func file(_ path: String, _ text: String) -> OutputFile {
        OutputFile(path: path, contents: .bytes(Data(text.utf8)))
    }

    func read(_ path: String) -> String? {
        (try? Data(contentsOf: root.appendingPathComponent("public/\(path)"))).map { String(decoding: $0, as: UTF8.self) }
    }

    func mtime(_ path: String) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("public/\(path)").path)[.modificationDate] as! Date
    }

    /// Every path under `public/` but the mark each write leaves there (``OutputFolder/markerName``).
    func listing() throws -> [String] {
        let base = root.appendingPathComponent("public")
        let walker = FileManager.default.enumerator(atPath: base.path)!
        return (walker.allObjects as! [String]).filter { $0 != OutputFolder.markerName }.sorted()
    }

    func testWritesFilesAndReplacesThePreviousSiteWhole() throws {
        let output = root.appendingPathComponent("public")
        var report = try SiteWriter.write([file("index.html", "home"), file("posts/a/index.html", "A")], to: output, displayPath: "public")
        XCTAssertEqual(report, WriteReport(written: 2, unchanged: 0))
        XCTAssertEqual(read("posts/a/index.html"), "A")

        report = try SiteWriter.write([file("index.html", "home 2"), file("posts/b/index.html", "B")], to: output, displayPath: "public")
        XCTAssertEqual(report, WriteReport(written: 2, unchanged: 0))
        XCTAssertEqual(try listing(), ["index.html", "posts", "posts/b", "posts/b/index.html"], "a file gone from the site is gone from the output")
        XCTAssertNotNil(read(OutputFolder.markerName), "each write leaves its mark")
        XCTAssertEqual(read("index.html"), "home 2")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        XCTAssertEqual(leftovers, [".public.blog-spare", "public"], "no staging folder is left behind; the old site is the spare")
    }

    /// Every file under `folder` with its bytes.
    func tree(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)!
        for case let path as String in walker where path != OutputFolder.markerName {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[path] = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            }
        }
        return out
    }

    func testTheSpareIsUpdatedIntoTheNextSiteAndNeverWrittenThrough() throws {
        let output = root.appendingPathComponent("public")
        let spare = root.appendingPathComponent(".public.blog-spare")
        let sites: [[String: String]] = [
            ["index.html": "v1", "posts/a/index.html": "A", "posts/b/index.html": "B", "style.css": "css"],
            ["index.html": "v2", "posts/a/index.html": "A", "posts/c/index.html": "C", "style.css": "css"],
            ["index.html": "v3", "posts/a/index.html": "A2", "posts/b/index.html": "B", "posts/c": "now a file", "style.css": "css"],
            ["index.html": "v3", "posts/a/index.html": "A2", "style.css": "css", "posts/c/d/index.html": "deep"],
        ]
        var previous: [String: String] = [:]
        for (round, site) in sites.enumerated() {
            let files = site.keys.sorted().map { file($0, site[$0]!) }
            _ = try SiteWriter.write(files, to: output, displayPath: "public")
            XCTAssertEqual(try tree(output), site, "round \(round + 1): the output is exactly the new site")
            if round > 0 {
                XCTAssertEqual(try tree(spare), previous, "round \(round + 1): the spare is exactly the site before")
            }
            previous = site
        }
        // A spare someone changed (a stray file, a file rewritten) never leaks into the site.
        try Data("stray".utf8).write(to: spare.appendingPathComponent("stray.html"))
        try FileManager.default.removeItem(at: spare.appendingPathComponent("index.html"))
        try Data("tampered".utf8).write(to: spare.appendingPathComponent("index.html"))
        let last = sites[3]
        _ = try SiteWriter.write(last.keys.sorted().map { file($0, last[$0]!) }, to: output, displayPath: "public")
        XCTAssertEqual(try tree(output), last)
    }

    /// A patched file of a staging folder is written over the file there when no other path links to it
    /// (its blocks are kept), cut to its new length; a file linked elsewhere (the published site's) or a
    /// symbolic link is replaced, never written through.
    func testOverwriteKeepsOnlyAFileOfItsOwnAndNeverWritesThroughALink() throws {
        let folder = root.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        func inode(_ name: String) throws -> UInt64 {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.systemFileNumber] as? UInt64)
        }
        func text(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }
        // Its own: the same file, longer then shorter.
        try Data("old".utf8).write(to: folder.appendingPathComponent("own.html"))
        let own = try inode("own.html")
        try SiteWriter.overwrite("own.html", in: fd, with: Data("a longer new text".utf8))
        XCTAssertEqual(text(folder.appendingPathComponent("own.html")), "a longer new text")
        try SiteWriter.overwrite("own.html", in: fd, with: Data("short".utf8))
        XCTAssertEqual(text(folder.appendingPathComponent("own.html")), "short")
        XCTAssertEqual(try inode("own.html"), own)
        // Shared with another path: replaced, the other left as it was.
        let published = root.appendingPathComponent("published.html")
        try Data("published".utf8).write(to: published)
        try FileManager.default.linkItem(at: published, to: folder.appendingPathComponent("shared.html"))
        try SiteWriter.overwrite("shared.html", in: fd, with: Data("new".utf8))
        XCTAssertEqual(text(folder.appendingPathComponent("shared.html")), "new")
        XCTAssertEqual(text(published), "published")
        // A symbolic link: replaced by a file, what it pointed to left as it was.
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.html"), withDestinationURL: published)
        try SiteWriter.overwrite("link.html", in: fd, with: Data("file".utf8))
        XCTAssertEqual(text(folder.appendingPathComponent("link.html")), "file")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.html").path))
        XCTAssertEqual(text(published), "published")
        // Nothing there: made.
        try SiteWriter.overwrite("new.html", in: fd, with: Data("made".utf8))
        XCTAssertEqual(text(folder.appendingPathComponent("new.html")), "made")
    }

    func testUnchangedFilesKeepTheirModificationTime() throws {
        let output = root.appendingPathComponent("public")
        let image = root.appendingPathComponent("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0x00, 0x01]).write(to: image)
        _ = try SiteWriter.write([file("a.html", "same"), file("b.html", "old"), OutputFile(path: "img/photo.jpg", contents: .copy(from: image))],
                                 to: output, displayPath: "public")
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        for path in ["a.html", "b.html", "img/photo.jpg"] {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output.appendingPathComponent(path).path)
        }
        let report = try SiteWriter.write([file("a.html", "same"), file("b.html", "new"), OutputFile(path: "img/photo.jpg", contents: .copy(from: image))],
                                          to: output, displayPath: "public")
        XCTAssertEqual(report, WriteReport(written: 1, unchanged: 2))
        XCTAssertEqual(try mtime("a.html"), past)
        XCTAssertEqual(try mtime("img/photo.jpg"), past)
        XCTAssertNotEqual(try mtime("b.html"), past)
        XCTAssertEqual(read("b.html"), "new")
    }

    /// A file of the previous site is linked only when it is a regular file that holds exactly the new
    /// bytes: not one of the same size that differs in its first or last byte, or past the first piece
    /// the comparison reads; not one longer or shorter; not a symbolic link to such bytes (the file
    /// it names is left as it is), nor a pipe (no wait for a writer). A copied file is compared the same way.
    func testAPreviousFileIsLinkedOnlyWhenItHoldsExactlyTheNewBytes() throws {
        let output = root.appendingPathComponent("public")
        let big = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        func changed(_ data: Data, at offset: Int) -> Data {
            var copy = data
            copy[offset] ^= 0xFF
            return copy
        }
        let image = root.appendingPathComponent("photo.jpg"), other = root.appendingPathComponent("other.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0x00, 0x01]).write(to: image)
        try Data([0xFF, 0xD8, 0xFF, 0x00, 0x02]).write(to: other)
        func site(_ pairs: [(String, Data)], copies: [(String, URL)]) -> [OutputFile] {
            pairs.map { OutputFile(path: $0.0, contents: .bytes($0.1)) } + copies.map { OutputFile(path: $0.0, contents: .copy(from: $0.1)) }
        }
        let before: [(String, Data)] = [
            ("same.html", Data("same".utf8)), ("last.html", Data("abcd".utf8)), ("first.html", Data("abcd".utf8)),
            ("longer.html", Data("abcdef".utf8)), ("shorter.html", Data("ab".utf8)), ("empty.html", Data()),
            ("big/same.bin", big), ("big/end.bin", big), ("big/middle.bin", big), ("link.html", Data("linked".utf8)),
            ("pipe.html", Data("pipe".utf8)),
        ]
        _ = try SiteWriter.write(site(before, copies: [("img/same.jpg", image), ("img/other.jpg", image)]), to: output, displayPath: "public")
        // What a reader of the published site could leave there: a link to a file with the same bytes, a pipe.
        let outside = root.appendingPathComponent("outside.html")
        try Data("linked".utf8).write(to: outside)
        try FileManager.default.removeItem(at: output.appendingPathComponent("link.html"))
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("link.html"), withDestinationURL: outside)
        try FileManager.default.removeItem(at: output.appendingPathComponent("pipe.html"))
        XCTAssertEqual(mkfifo(output.appendingPathComponent("pipe.html").path, 0o644), 0)
        func inode(_ path: String) throws -> UInt64 {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)[.systemFileNumber] as? UInt64)
        }
        let paths = ["same.html", "last.html", "first.html", "longer.html", "shorter.html", "empty.html", "big/same.bin", "big/end.bin",
                     "big/middle.bin", "img/same.jpg", "img/other.jpg"]
        let published = try Dictionary(uniqueKeysWithValues: paths.map { ($0, try inode($0)) })

        let after: [(String, Data)] = [
            ("same.html", Data("same".utf8)), ("last.html", Data("abce".utf8)), ("first.html", Data("xbcd".utf8)),
            ("longer.html", Data("abcd".utf8)), ("shorter.html", Data("abcd".utf8)), ("empty.html", Data()),
            ("big/same.bin", big), ("big/end.bin", changed(big, at: big.count - 1)), ("big/middle.bin", changed(big, at: 100_000)),
            ("link.html", Data("linked".utf8)), ("pipe.html", Data("pipe".utf8)),
        ]
        let report = try SiteWriter.write(site(after, copies: [("img/same.jpg", image), ("img/other.jpg", other)]), to: output, displayPath: "public")
        let linked = ["same.html", "empty.html", "big/same.bin", "img/same.jpg"]
        XCTAssertEqual(report, WriteReport(written: after.count + 2 - linked.count, unchanged: linked.count))
        for path in paths {
            XCTAssertEqual(try inode(path) == published[path], linked.contains(path), path)
        }
        for (path, data) in after {
            XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent(path)), data, path)
        }
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("img/other.jpg")), try Data(contentsOf: other))
        XCTAssertEqual(FileKind.of(output.appendingPathComponent("link.html").path), S_IFREG)
        XCTAssertEqual(FileKind.of(output.appendingPathComponent("pipe.html").path), S_IFREG)
        XCTAssertEqual(try Data(contentsOf: outside), Data("linked".utf8), "the file a link named is left as it is")

        // Again, into the spare (the first site, with its link and pipe): every file linked to the one published.
        let all = paths + ["link.html", "pipe.html"]
        let second = try Dictionary(uniqueKeysWithValues: all.map { ($0, try inode($0)) })
        let again = try SiteWriter.write(site(after, copies: [("img/same.jpg", image), ("img/other.jpg", other)]), to: output, displayPath: "public")
        XCTAssertEqual(again, WriteReport(written: 0, unchanged: all.count))
        for path in all {
            XCTAssertEqual(try inode(path), second[path], path)
        }
    }

    func testAFailedWriteLeavesThePreviousOutputExactlyAsItWas() throws {
        let output = root.appendingPathComponent("public")
        _ = try SiteWriter.write([file("index.html", "published"), file("posts/a/index.html", "A")], to: output, displayPath: "public")
        let before = try listing()
        let missing = root.appendingPathComponent("does-not-exist.png")
        XCTAssertThrowsError(try SiteWriter.write([file("index.html", "half"), OutputFile(path: "x.png", contents: .copy(from: missing))],
                                                  to: output, displayPath: "public")) { error in
            XCTAssertTrue("\(error)".hasPrefix("x.png:1:1: error: cannot write this output file"), "\(error)")
        }
        XCTAssertEqual(try listing(), before)
        XCTAssertEqual(read("index.html"), "published")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["public"])
    }

    func testRefusesPathsThatLeaveTheOutputFolderAndDuplicates() throws {
        let output = root.appendingPathComponent("public")
        for bad in ["../escape.html", "/etc/passwd", "a/../../b", "a//b", ""] {
            XCTAssertThrowsError(try SiteWriter.write([file(bad, "x")], to: output, displayPath: "public"), bad) { error in
                XCTAssertTrue("\(error)".contains("refusing to write"), "\(error)")
            }
        }
        XCTAssertThrowsError(try SiteWriter.write([file("a.html", "1"), file("a.html", "2")], to: output, displayPath: "public"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("escape.html").path))
    }

    func testTopLevelHiddenEntriesAreCarriedOver() throws {
        let output = root.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: output.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("ref: refs/heads/gh-pages\n".utf8).write(to: output.appendingPathComponent(".git/HEAD"))
        try Data("stale".utf8).write(to: output.appendingPathComponent("stale.html"))
        _ = try SiteWriter.write([file("index.html", "home")], to: output, displayPath: "public")
        XCTAssertEqual(read(".git/HEAD"), "ref: refs/heads/gh-pages\n")
        XCTAssertNil(read("stale.html"))
    }

    func testOutputThatIsAFileIsAnError() throws {
        let output = root.appendingPathComponent("public")
        try Data("not a folder".utf8).write(to: output)
        XCTAssertThrowsError(try SiteWriter.write([file("index.html", "x")], to: output, displayPath: "public")) { error in
            XCTAssertEqual("\(error)", "error: public: the output path is a file; expected a folder (or nothing) there")
        }
    }
}

extension SiteWriterTests {
    func testWritesDeepFoldersAndManyFiles() throws {
        let output = root.appendingPathComponent("public")
        var files = (0..<300).map { file("posts/p\($0)/index.html", "post \($0)") }
        files += (2...5).map { file("tags/swift/page/\($0)/index.html", "page \($0)") }
        files.append(file("a/b/c/d/e.txt", "deep"))
        let report = try SiteWriter.write(files, to: output, displayPath: "public")
        XCTAssertEqual(report, WriteReport(written: files.count, unchanged: 0))
        for file in files {
            guard case .bytes(let data) = file.contents else { continue }
            XCTAssertEqual(read(file.path), String(decoding: data, as: UTF8.self), file.path)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("a/b/c/d/e.txt").path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o666 & ~Int(currentUmask()), "files get the usual permissions")

        // A second build links all 305 unchanged files; the previous tree becomes the spare.
        let again = try SiteWriter.write(Array(files.dropFirst(100)), to: output, displayPath: "public")
        XCTAssertEqual(again, WriteReport(written: 0, unchanged: files.count - 100))
        XCTAssertNil(read("posts/p0/index.html"))
        XCTAssertEqual(read("posts/p100/index.html"), "post 100")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted(), [".public.blog-spare", "public"])
        // A third build updates the spare: the 100 files it has but the site no longer has go.
        _ = try SiteWriter.write(Array(files.dropFirst(100)), to: output, displayPath: "public")
        XCTAssertEqual(try tree(output).count, files.count - 100)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(".public.blog-spare/posts/p0").path))
    }

    /// A build into the spare makes only the folders the spare lacks (prune says which it has): a
    /// folder removed from the spare by hand between builds, shared or a post's own, is made again,
    /// by the full write and by a patch of the site.
    func testFoldersTheSpareLostAreMadeAgain() throws {
        let output = root.appendingPathComponent("public")
        let spare = root.appendingPathComponent(".public.blog-spare")
        var files = (0..<20).map { file("posts/p\($0)/index.html", "post \($0)") }
        files += (1...3).map { file("tags/swift/page/\($0)/index.html", "page \($0)") }
        files += [file("index.html", "home"), file("a/b/c/d.txt", "deep"), file("a/b/e.txt", "beside")]
        let site = Dictionary(uniqueKeysWithValues: files.map { ($0.path, { if case .bytes(let d) = $0.contents { return String(decoding: d, as: UTF8.self) }; return "" }($0)) })
        _ = try SiteWriter.write(files, to: output, displayPath: "public")
        _ = try SiteWriter.write(files, to: output, displayPath: "public")
        // The spare now holds the whole first site; prune finds every folder there but the removed ones.
        let lost = ["posts/p7", "tags/swift/page/2", "a/b/c"]
        for folder in lost { try FileManager.default.removeItem(at: spare.appendingPathComponent(folder)) }
        let plan = SiteWriter.FolderPlan(files.map(\.path))
        let copy = root.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: spare, to: copy)
        let there = SiteWriter.prune(root: copy.path, keeping: files.map(\.path), folders: plan.folders)
        XCTAssertEqual(Set(there.map(String.init)), Set(plan.folders.map(String.init)).subtracting(lost))

        // A write into that spare: the site whole, the lost folders made.
        let report = try SiteWriter.write(files, to: output, displayPath: "public")
        XCTAssertEqual(report.written + report.unchanged, files.count)
        XCTAssertEqual(try tree(output), site)
        // A patch through a spare that lost folders (not taken as it was: pruned, its folders made).
        for folder in lost { try FileManager.default.removeItem(at: spare.appendingPathComponent(folder)) }
        let patched = SiteWriter.patch(output: output, paths: files.map(\.path), changed: ["posts/p7/index.html": Data("post 7, edited".utf8)],
                                       spareSamePaths: false)
        XCTAssertNotNil(patched)
        var edited = site
        edited["posts/p7/index.html"] = "post 7, edited"
        XCTAssertEqual(try tree(output), edited)
    }

    func testALeftoverStagingFolderOfAKilledBuildIsReplaced() throws {
        let output = root.appendingPathComponent("public")
        let staging = root.appendingPathComponent(".public.blog-staging")
        try FileManager.default.createDirectory(at: staging.appendingPathComponent("posts/old"), withIntermediateDirectories: true)
        try Data("half".utf8).write(to: staging.appendingPathComponent("posts/old/index.html"))
        _ = try SiteWriter.write([file("index.html", "home")], to: output, displayPath: "public")
        XCTAssertEqual(try listing(), ["index.html"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["public"])
    }

    private func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }
}

extension SiteWriterTests {
    /// Pages are made while they are written: made bytes are linked when unchanged, and a page
    /// that fails to render fails the build with its own message, leaving the output as it was.
    func testFilesMadeWhileWriting() throws {
        let output = root.appendingPathComponent("public")
        let made = { (text: String) in OutputFile.Contents.made(by: OutputFile.Maker { Data(text.utf8) }) }
        _ = try SiteWriter.write([OutputFile(path: "a.html", contents: made("A")), OutputFile(path: "b.html", contents: made("B"))],
                                 to: output, displayPath: "public")
        XCTAssertEqual(read("a.html"), "A")
        let report = try SiteWriter.write([OutputFile(path: "a.html", contents: made("A")), OutputFile(path: "b.html", contents: made("B2"))],
                                          to: output, displayPath: "public")
        XCTAssertEqual(report, WriteReport(written: 1, unchanged: 1))
        XCTAssertEqual(read("b.html"), "B2")

        let failing = OutputFile(path: "c.html", contents: .made(by: OutputFile.Maker {
            throw BuildFailure([.error("themes/x/templates/post.mustache", "missing template")])
        }))
        XCTAssertThrowsError(try SiteWriter.write([OutputFile(path: "a.html", contents: made("changed")), failing],
                                                  to: output, displayPath: "public")) { error in
            XCTAssertEqual("\(error)", "themes/x/templates/post.mustache:1:1: error: missing template")
        }
        XCTAssertEqual(read("a.html"), "A")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["public"])
    }
}

extension SiteWriterTests {
    /// Folders several files share are made up front, parents first; a folder that holds one
    /// file and nothing else (a post's own folder) is left to that file's writer.
    func testFolderPlanLeavesAFolderThatHoldsOneFileToThatFile() {
        let paths = ["index.html", "posts/a/index.html", "posts/b/index.html", "tag/x/index.html", "tag/x/feed.xml",
                     "page/2/index.html", "a/b/c.html", "a/b/d/e.html"]
        let plan = SiteWriter.FolderPlan(paths)
        XCTAssertEqual(plan.shared.map(String.init), ["a", "a/b", "page", "posts", "tag", "tag/x"])
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(paths, plan.alone)), [
            "index.html": false, "posts/a/index.html": true, "posts/b/index.html": true, "tag/x/index.html": false,
            "tag/x/feed.xml": false, "page/2/index.html": true, "a/b/c.html": false, "a/b/d/e.html": true,
        ])
    }

    /// The plan's folders are every folder above a path (as ``SiteWriter/folders(holding:)`` finds them), and it says
    /// whether a path is also a folder: then, and only then, the check looks for one. Its shared folders are, once each
    /// and sorted, those that hold a folder and those that hold more than one file (a folder can be both: `a` below).
    func testFolderPlanFoldersAreEveryFolderAboveAPath() {
        let lists = [["index.html"], ["posts/a/index.html", "posts/b/index.html", "a/b/c/d.html", "a/x.html"],
                     ["archives", "archives/index.html"], ["a/b", "a/b/c/d"], ["é/ü/x.html", "é/ü", "é"], ["a", "b/a"], [],
                     ["a/x.html", "a/y.html", "a/b/c.html", "a/b/d.html", "a/e/f.html", "g/h.html", "g/i/j/k.html"],
                     ["p/a/index.html", "p/b/index.html", "t/x/index.html", "p/c/index.html", "p/c/page/2/index.html", "p/d/index.html"],
                     ["/x.html", "a/c.html", "p/q/r.html", "p/s/t.html", "p/q"]]
        for paths in lists {
            let plan = SiteWriter.FolderPlan(paths)
            // Each text before a `/` of a path, by its definition.
            let plain = Set(paths.flatMap { path in path.indices.filter { path[$0] == "/" }.map { path[..<$0] } })
            XCTAssertEqual(SiteWriter.folders(holding: paths), plain, "\(paths)")
            XCTAssertEqual(plan.folders, plain, "\(paths)")
            XCTAssertEqual(plan.fileAtFolder, paths.contains { path in paths.contains { $0.hasPrefix(path + "/") } }, "\(paths)")
            let holdingFiles = paths.compactMap { path in path.lastSlash.map { String(path[..<$0]) } }
            let holdingFolders = Set(SiteWriter.folders(holding: holdingFiles).map(String.init))
            let holdingSeveral = Set(holdingFiles.filter { folder in holdingFiles.filter { $0 == folder }.count > 1 })
            XCTAssertEqual(plan.shared.map(String.init), holdingFolders.union(holdingSeveral).sorted(), "\(paths)")
            // A folder that holds one file and no folder is the file's alone.
            XCTAssertEqual(plan.alone, paths.map { path in
                guard let slash = path.lastSlash else { return false }
                let folder = String(path[..<slash])
                return holdingFiles.filter { $0 == folder }.count == 1 && !holdingFolders.contains(folder)
            }, "\(paths)")
        }
    }

    /// A path that is also another's folder fails the write with the messages of the whole check (its folders made by
    /// the check itself), beside other problems; the folder's files are not written.
    func testAPathThatIsAlsoAFolderFailsTheWriteAsTheWholeCheckSaysIt() throws {
        let lists = [["archives", "archives/index.html"], ["index.html", "a/b", "a/b/c.html", "a/../x", "index.html"],
                     ["é/ü", "é/ü/x.html", "y/\(String(repeating: "z", count: 300))", "y/\(String(repeating: "z", count: 300))/q"]]
        for (number, paths) in lists.enumerated() {
            let files = paths.map { file($0, $0) }
            var expected: [String] = []
            XCTAssertThrowsError(try SiteWriter.checkPaths(files.map(\.path), displayPath: "public")) { expected = ["\($0)"] }
            XCTAssertTrue(expected.first?.contains("is also the folder of") == true, "\(expected)")
            let output = root.appendingPathComponent("out\(number)")
            XCTAssertThrowsError(try SiteWriter.write(files, to: output, displayPath: "public")) { error in
                XCTAssertEqual(["\(error)"], expected)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        }
    }

    /// The check and plan made before the output folder is known (``SiteWriter/PathPlan``) write what the plain order
    /// writes, and fail with its messages: a collision, a path that is also a folder, a name too long, a path too long
    /// only below the staging folder (fine at length 0), a bad path, and a plan of other files than those written (fewer,
    /// or as many at other paths).
    func testThePathPlanMadeEarlyWritesAndFailsAsThePlainOrder() throws {
        let deep = (0..<Int(PATH_MAX) / 100).map { _ in String(repeating: "d", count: 99) }.joined(separator: "/") + "/" + String(repeating: "e", count: 40)
        let lists = [["index.html", "posts/a/index.html", "posts/b/index.html", "tag/x/index.html", "tag/x/feed.xml", "a/b/c.html"],
                     ["index.html", "a/x.html", "a/x.html"], ["archives", "archives/index.html"], ["a/../x", "b.html"],
                     ["y/\(String(repeating: "z", count: 300))/q", "i.html"], [deep + "/index.html", "i.html"]]
        for (number, paths) in lists.enumerated() {
            let files = paths.map { file($0, $0) }
            let early = SiteWriter.PathPlan(paths)
            func written(_ name: String, _ plan: SiteWriter.PathPlan?) -> [String: String] {
                let output = root.appendingPathComponent("\(name)\(number)")
                do {
                    _ = try SiteWriter.write(files, to: output, displayPath: "public", paths: plan)
                } catch {
                    return ["error": "\(error)"]
                }
                return Dictionary(uniqueKeysWithValues: paths.map { ($0, (try? String(contentsOf: output.appendingPathComponent($0), encoding: .utf8)) ?? "-") })
            }
            let plain = written("plain", nil)
            XCTAssertEqual(written("early", early), plain, "\(paths)")
            XCTAssertEqual(written("other", SiteWriter.PathPlan(Array(paths.dropLast()))), plain, "\(paths)")
            // As many paths, but others (plain ones, in other folders): the files' own are checked and planned.
            let others = paths.map { "r/" + $0.replacingOccurrences(of: "..", with: "p") }
            XCTAssertEqual(written("renamed", SiteWriter.PathPlan(others)), plain, "\(paths)")
            // Where the check finds nothing, the plan made early is the plan of the files.
            if plain["error"] == nil, let plan = early.plan(for: files, rootLength: 100) {
                let whole = SiteWriter.FolderPlan(paths)
                XCTAssertEqual([plan.shared, Array(plan.folders).sorted()], [whole.shared, Array(whole.folders).sorted()], "\(paths)")
                XCTAssertEqual(plan.alone, whole.alone, "\(paths)")
            } else {
                XCTAssertNotNil(plain["error"], "\(paths)")
            }
        }
        // The deep path fits at length 0, not below a staging folder.
        XCTAssertNotNil(SiteWriter.PathPlan([deep + "/index.html"]).plan(for: [file(deep + "/index.html", "")], rootLength: 0))
        XCTAssertNil(SiteWriter.PathPlan([deep + "/index.html"]).plan(for: [file(deep + "/index.html", "")], rootLength: 100))
    }

    /// The folders that hold one file each are made by a thread of their own, last file first;
    /// each writer waits for its own and learns why it could not be made. Here `b` is a file
    /// already, so its folder fails and the others are made.
    func testOwnFoldersAreMadeForTheirFilesAndTheirFailuresAreTheirs() throws {
        let paths = ["a/index.html", "b/index.html", "index.html", "c/index.html"]
        let files = paths.map { file($0, "page \($0)") }
        let plan = SiteWriter.FolderPlan(paths)
        for folder in ["first", "second"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data("not a folder".utf8).write(to: root.appendingPathComponent("\(folder)/b"))
        }
        let fd = open(root.appendingPathComponent("first").path, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let own = SiteWriter.OwnFolders(files, alone: plan.alone, in: fd, existing: false)
        XCTAssertEqual(own.wait(for: 0), 0)
        XCTAssertEqual(own.wait(for: 1), EEXIST)
        XCTAssertEqual(own.wait(for: 3), 0)
        own.finish()
        for name in ["a", "c"] {
            XCTAssertEqual(FileKind.of(root.appendingPathComponent("first/\(name)").path), S_IFDIR, name)
        }

        // Through the writer, the same failure is an error at that folder; the other files are written.
        let second = root.appendingPathComponent("second")
        let errors = buildFailure { try SiteWriter.writeAll(files, into: second, previous: nil, plan: plan) }
        XCTAssertEqual(errors.map(\.message), ["cannot create the output folder b: File exists"])
        for path in ["a/index.html", "index.html", "c/index.html"] {
            XCTAssertEqual(try String(contentsOf: second.appendingPathComponent(path), encoding: .utf8), "page \(path)")
        }
    }

    /// A name too long for the file system fails the write before anything is written (with the
    /// file that asks for it, when the caller says: see SecurityOutputTests), and the published
    /// site stays as it was.
    func testANameTooLongFailsTheWriteAndKeepsThePreviousSite() throws {
        let output = root.appendingPathComponent("public")
        _ = try SiteWriter.write([file("index.html", "published")], to: output, displayPath: "public")
        let long = String(repeating: "x", count: 300)
        XCTAssertThrowsError(try SiteWriter.write([file("index.html", "half"), file("posts/\(long)/index.html", "too long")],
                                                  to: output, displayPath: "public")) { error in
            XCTAssertTrue("\(error)".hasPrefix("public:1:1: error: the output path \"posts/xxxxxxxxxxxxxxxxxxxxxxxx…/index.html\" has a name of 300 bytes"), "\(error)")
        }
        XCTAssertEqual(try listing(), ["index.html"])
        XCTAssertEqual(read("index.html"), "published")
    }

    /// A name's length is counted in bytes, in every segment, the first and the last too.
    func testLongNameIsTheFirstNameOverNameMaxInBytes() {
        let most = String(repeating: "x", count: Int(NAME_MAX)), over = String(repeating: "x", count: Int(NAME_MAX) + 1)
        XCTAssertNil(SiteWriter.longName("a/\(most)/b"))
        XCTAssertNil(SiteWriter.longName(""))
        XCTAssertEqual(SiteWriter.longName("\(over)/b"), Int(NAME_MAX) + 1)
        XCTAssertEqual(SiteWriter.longName("a/\(over)"), Int(NAME_MAX) + 1)
        XCTAssertEqual(SiteWriter.longName("a/\(String(repeating: "é", count: 128))/\(over)x"), 256)
    }

    /// The work given to `write` runs once every file is staged, before the site is published.
    func testWorkWhileFlushingSeesTheStagedSiteBeforeItIsPublished() throws {
        let output = root.appendingPathComponent("public")
        _ = try SiteWriter.write([file("index.html", "v1")], to: output, displayPath: "public")
        var seen: (staged: String?, published: String?)
        _ = try SiteWriter.write([file("index.html", "v2"), file("posts/a/index.html", "A")], to: output, displayPath: "public") { staged in
            XCTAssertNotEqual(staged.standardizedFileURL.path, output.standardizedFileURL.path)
            seen = ((try? String(contentsOf: staged.appendingPathComponent("posts/a/index.html"), encoding: .utf8)), read("index.html"))
        }
        XCTAssertEqual(seen.staged, "A")
        XCTAssertEqual(seen.published, "v1", "the old site is still published while the new one is flushed")
        XCTAssertEqual(read("index.html"), "v2")
    }
}

/// A disk that fills up mid-build, on a real small file system (a 1 MB tmpfs; mounting one needs root, as in CI).
final class DiskFullTests: XCTestCase {
    func testAFullDiskIsOneMessageAndThePublishedSiteStays() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("blog-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let mount = try BlogCLI.run(["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path], in: mountPoint,
                                    program: URL(fileURLWithPath: "/bin/mount"))
        guard mount.status == 0 else { throw XCTSkip("cannot mount a small tmpfs here (needs root): \(mount.stderr)") }
        defer { _ = try? BlogCLI.run([mountPoint.path], in: FileManager.default.temporaryDirectory, program: URL(fileURLWithPath: "/bin/umount")) }
        let output = mountPoint.appendingPathComponent("public")
        let small = (0..<5).map { OutputFile(path: "posts/\($0)/index.html", contents: .bytes(Data("page \($0)\n".utf8))) }
        _ = try SiteWriter.write(small, to: output, displayPath: "public")

        // 400 pages of 8 KB: 3.2 MB, on a 1 MB disk.
        let page = Data(repeating: UInt8(ascii: "x"), count: 8_000)
        let big = (0..<400).map { OutputFile(path: "posts/\($0)/index.html", contents: .bytes(page)) }
        let errors = buildFailure { try SiteWriter.write(big, to: output, displayPath: "public") }
        XCTAssertEqual(errors.count, 1, errors.map(\.description).joined(separator: "\n"))
        let message = try XCTUnwrap(errors.first?.description)
        XCTAssertTrue(message.contains(": error: the disk is full (no space left on device): "), message)
        XCTAssertTrue(message.contains(" of 400 files were written"), message)
        XCTAssertTrue(message.contains("and the site needs about 3.2 MB; the published site was not changed"), message)
        // The published site is the small one, whole; the staging folder is gone.
        for file in small {
            XCTAssertEqual(FileManager.default.contents(atPath: output.appendingPathComponent(file.path).path),
                           { if case .bytes(let data) = file.contents { return data }; return nil }())
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: mountPoint.appendingPathComponent(".public.blog-staging").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("posts/399/index.html").path))
    }
}
