import XCTest

/// Two builds of the same input give byte-identical output, whatever the machine's time zone,
/// locale, file-system order or number of cores; unchanged files are not rewritten.
final class ReproducibleTests: XCTestCase {
    /// The repository's sample blog (blog.yml and content/ at the repository root).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Copies the sample blog into `site`, creating the files in the given order.
    func copySample(to site: TempSite, reversed: Bool) throws {
        let walker = FileManager.default.enumerator(atPath: Self.repository.appendingPathComponent("content").path)!
        var files = (walker.allObjects as! [String]).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent("content/\(path)").path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
        if reversed { files.reverse() }
        for path in files {
            try site.write("content/\(path)", data: Data(contentsOf: Self.repository.appendingPathComponent("content/\(path)")))
        }
        try site.write("blog.yml", data: Data(contentsOf: Self.repository.appendingPathComponent("blog.yml")))
    }

    func testSameBytesWhateverTheZoneLocaleFileOrderAndCores() throws {
        let first = try TempSite(), second = try TempSite()
        defer { first.remove(); second.remove() }
        try copySample(to: first, reversed: false)
        try copySample(to: second, reversed: true)
        let a = try BlogCLI.run(["build"], in: first.root, environment: ["TZ": "America/New_York", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        XCTAssertEqual(a.status, 0, a.stderr)
        // One core for the second build, where taskset exists.
        let taskset = "/usr/bin/taskset"
        let b: BlogCLI.Result
        if FileManager.default.isExecutableFile(atPath: taskset) {
            b = try BlogCLI.run(["-c", "0", BlogCLI.executable.path, "build"], in: second.root,
                                environment: ["TZ": "Asia/Tokyo", "LANG": "C"], program: URL(fileURLWithPath: taskset))
        } else {
            b = try BlogCLI.run(["build"], in: second.root, environment: ["TZ": "Asia/Tokyo", "LANG": "C"])
        }
        XCTAssertEqual(b.status, 0, b.stderr)
        let one = first.snapshot("public"), two = second.snapshot("public")
        XCTAssertGreaterThan(one.count, 40)
        assertSameFiles(one, two, differ: "between the two builds")
    }

    func testUnchangedFilesAreNotRewritten() throws {
        let site = try TempSite()
        defer { site.remove() }
        try copySample(to: site, reversed: false)
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        let page = site.root.appendingPathComponent("public/posts/hello-world/index.html")
        let past = Date(timeIntervalSince1970: 1_500_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: page.path)
        let again = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("(0 files written, "), again.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date, past)

        // One post edited: its page is written; the untouched post page keeps its time.
        let edited = site.root.appendingPathComponent("content/posts/why-blog.md")
        try (String(contentsOf: edited, encoding: .utf8) + "\nOne more line.\n").write(to: edited, atomically: true, encoding: .utf8)
        let third = try BlogCLI.run(["build"], in: site.root)
        XCTAssertFalse(third.stdout.contains("(0 files written, "), third.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date, past)
    }

    func testSourceDateEpochIsTheBuildsNow() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("content/now.md", "title: Now\ndate: 2020-01-01\n\nHi.\n")
        try site.write("content/later.md", "title: Later\ndate: 2035-06-01\n\nSoon.\n")
        let before = try BlogCLI.run(["list", "--format", "json"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertFalse(before.stdout.contains("Later"), before.stdout)
        let after = try BlogCLI.run(["list", "--format", "json"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "2100000000"])
        XCTAssertTrue(after.stdout.contains("Later"), after.stdout)
    }
}
