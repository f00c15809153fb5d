@testable import BlogBuild
@testable import BlogContent
@testable import BlogRender
import Foundation
import XCTest

/// The build cache: a build with the cache of an earlier build writes exactly the bytes a clean
/// build writes, whatever changed in between; a cache that can't be used or written is a warning
/// and a clean build, never a failed or wrong one.
final class BuildCacheTests: XCTestCase {
    var site: TempSite!
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("blog.yml", """
        title: Cache Notes
        author: Ana Lima
        base_url: https://example.org/blog/
        paginate: 2
        """)
        for n in 1...7 {
            try site.write("content/posts/post-\(n).md", """
            title: Post number \(n)
            date: 2020-0\(n)-1\(n) 10:00
            tags: \(n % 2 == 0 ? "Swift; iOS" : "shell")
            \(n == 3 ? "summary: A summary of *three*." : "")

            The body of post \(n), with a [link](../post-\(n + 1)/).

            ## A heading

            More text.\(n == 5 ? "\n\n<!-- more -->\n\nAfter the fold." : "")
            """)
        }
        try site.write("content/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }

    override func tearDown() {
        site.remove()
    }

    @discardableResult
    func build(cache: Bool = true, output: String = "public", version: String = blogVersion, strict: Bool = false,
               quick: Bool = false, now: Date? = nil) throws -> BuildReport {
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent(output).path, now: now ?? self.now)
        // These tests are about the full incremental build; QuickBuildTests are about the build in place.
        options.quick = quick
        options.cache = cache
        options.version = version
        options.strict = strict
        return try Pipeline.build(options)
    }

    /// The incremental output in `public/` is byte for byte a clean build's (no cache) of the same sources.
    func assertSameAsCleanBuild(version: String = blogVersion, file: StaticString = #filePath, line: UInt = #line) throws {
        try? FileManager.default.removeItem(at: site.root.appendingPathComponent("clean"))
        try build(cache: false, output: "clean", version: version)
        let incremental = site.snapshot("public"), clean = site.snapshot("clean")
        XCTAssertGreaterThan(clean.count, 20, file: file, line: line)
        XCTAssertEqual(incremental.keys.sorted(), clean.keys.sorted(), file: file, line: line)
        for (path, bytes) in clean where incremental[path] != bytes {
            XCTFail("\(path) differs from a clean build's", file: file, line: line)
        }
    }

    func edit(_ path: String, _ change: (String) -> String) throws {
        let text = try XCTUnwrap(site.read(path))
        try site.write(path, change(text))
    }

    func testSecondBuildReusesEverything() throws {
        let first = try build()
        XCTAssertEqual(first.cacheWarnings, [])
        XCTAssertTrue(try XCTUnwrap(first.cacheSummary).hasPrefix("posts 0 reused, 7 read"), first.cacheSummary ?? "")
        let second = try build()
        XCTAssertEqual(second.cacheWarnings, [])
        XCTAssertEqual(second.cacheSummary, "posts 7 reused, 0 read; markdown 7 reused, 0 rendered")
        try assertSameAsCleanBuild()
    }

    func testBodyEdit() throws {
        try build()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "Other *words*.") }
        let report = try build()
        XCTAssertTrue(try XCTUnwrap(report.cacheSummary).hasPrefix("posts 6 reused, 1 read; markdown 6 reused, 1 rendered"), report.cacheSummary ?? "")
        try assertSameAsCleanBuild()
    }

    func testTheSameBodyInAnotherDialectIsRenderedAgain() throws {
        // The body is the same; the header form, and so the dialect, is not: the markdown cache's
        // key holds the dialect.
        try site.write("content/posts/post-2.md", "title: Two\ndate: 2020-02-12\n\n##Heading\n")
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/two/index.html")).contains("<h2 id=\"heading\">Heading</h2>"))
        try site.write("content/posts/post-2.md", "---\ntitle: Two\ndate: 2020-02-12\nslug: two\n---\n##Heading\n")
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/two/index.html")).contains("<p>##Heading</p>"))
        try assertSameAsCleanBuild()
    }

    func testTitleEdit() throws {
        try build()
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "Post number 2", with: "A better title") }
        try build()
        try assertSameAsCleanBuild()
    }

    func testNewTag() throws {
        try build()
        try edit("content/posts/post-6.md") { $0.replacingOccurrences(of: "Swift; iOS", with: "Swift; iOS; Brand new") }
        try build()
        XCTAssertTrue(site.exists("public/tags/brand-new/index.html"))
        try assertSameAsCleanBuild()
    }

    func testDeletedPost() throws {
        try build()
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/post-3.md"))
        try build()
        XCTAssertFalse(site.exists("public/posts/post-number-3/index.html"))
        try assertSameAsCleanBuild()
    }

    func testNewPost() throws {
        try build()
        try site.write("content/posts/new.md", "title: Newest\ndate: 2021-01-01\ntags: shell, new\n\nFresh.\n")
        try build()
        try assertSameAsCleanBuild()
    }

    func testChangedTemplate() throws {
        try build()
        try site.write("themes/default/templates/post-summary.mustache", "<article class=\"changed\"><a href=\"{{url}}\">{{title}}</a>{{{summaryHTML}}}</article>\n")
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("class=\"changed\""))
        try assertSameAsCleanBuild()
    }

    func testChangedConfig() throws {
        try build()
        try edit("blog.yml") { $0.replacingOccurrences(of: "paginate: 2", with: "paginate: 3\ntimezone: Asia/Tokyo\ndate_format: \"%Y-%m-%d\"") }
        try build()
        try assertSameAsCleanBuild()
    }

    func testChangedVersionIgnoresTheCache() throws {
        try build(version: "0.0.1-old")
        let report = try build(version: "9.9.9-new")
        XCTAssertEqual(report.cacheWarnings.map(\.description),
                       [".blog-cache:1:1: warning: ignoring the build cache: it was made by blog 0.0.1-old; building everything"]
                           .map { site.root.path.hasPrefix("/") ? $0.replacingOccurrences(of: ".blog-cache", with: report.cacheWarnings.first?.path ?? "") : $0 })
        XCTAssertTrue(try XCTUnwrap(report.cacheSummary).hasPrefix("posts 0 reused, 7 read"))
        try assertSameAsCleanBuild(version: "9.9.9-new")
        // The cache now belongs to the new version.
        XCTAssertEqual(try build(version: "9.9.9-new").cacheWarnings, [])
    }

    func testFreshModificationTimesStillReuseByContent() throws {
        try build()
        // A cache restored on another machine: every file checked out anew.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("public"))
        for path in site.files(under: "content") {
            let url = site.root.appendingPathComponent("content/\(path)")
            let data = try Data(contentsOf: url)
            try FileManager.default.removeItem(at: url)
            try data.write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        }
        let report = try build()
        XCTAssertEqual(report.cacheWarnings, [])
        XCTAssertEqual(report.cacheSummary, "posts 7 reused, 0 read; markdown 7 reused, 0 rendered")
        try assertSameAsCleanBuild()
    }

    /// A body that is the file's tail is read from the file, not kept in the pack; a body the
    /// reader changed (CRLF line ends, a byte order mark) is kept. Both come back the same.
    func testBodiesAreReadFromTheFileUnlessTheReaderChangedThem() throws {
        let plain = "Plain body \(UUID().uuidString) with enough words to find."
        let crlf = "Windows body \(UUID().uuidString) with CRLF line ends."
        let bom = "Marked body \(UUID().uuidString) after a byte order mark."
        try site.write("content/posts/plain.md", "title: Plain\ndate: 2021-01-01\n\n\(plain)\n")
        try Data("title: Windows\r\ndate: 2021-01-02\r\n\r\n\(crlf)\r\n".utf8).write(to: site.root.appendingPathComponent("content/posts/crlf.md"))
        try Data([0xEF, 0xBB, 0xBF] + Array("title: Marked\ndate: 2021-01-03\n\n\(bom)\n".utf8))
            .write(to: site.root.appendingPathComponent("content/posts/bom.md"))
        try build()
        let pack = try Data(contentsOf: cacheFolder.appendingPathComponent(CacheStore.packName))
        func packHolds(_ text: String) -> Bool { pack.range(of: Data(text.utf8)) != nil }
        XCTAssertTrue(packHolds("<p>" + plain + "</p>"), "the rendered body is kept")
        XCTAssertFalse(packHolds(plain + "\n"), "the markdown body is left in its file")
        XCTAssertTrue(packHolds(crlf + "\n"), "a body with its line ends changed is kept")
        XCTAssertFalse(packHolds(bom + "\n"), "a byte order mark does not change the body's bytes")

        // Untouched files, then the same bytes checked out anew: every post reused, same site.
        XCTAssertEqual(try build().cacheSummary, "posts 10 reused, 0 read; markdown 10 reused, 0 rendered")
        try assertSameAsCleanBuild()
        for path in site.files(under: "content") where path.hasSuffix(".md") {
            let url = site.root.appendingPathComponent("content/\(path)")
            let data = try Data(contentsOf: url)
            try FileManager.default.removeItem(at: url)
            try data.write(to: url)
        }
        XCTAssertEqual(try build().cacheSummary, "posts 10 reused, 0 read; markdown 10 reused, 0 rendered")
        try assertSameAsCleanBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/plain/index.html")).contains(plain))

        // The body comes from the file as it is now.
        try edit("content/posts/plain.md") { $0.replacingOccurrences(of: "enough words", with: "other words") }
        XCTAssertEqual(try build().cacheSummary, "posts 9 reused, 1 read; markdown 9 reused, 1 rendered")
        try assertSameAsCleanBuild()
    }

    /// A build whose site can't be written still keeps what it read and rendered.
    func testABuildThatFailsToWriteStillSavesTheCache() throws {
        let long = String(repeating: "x", count: 300)
        try site.write("content/posts/long.md", "title: Long\ndate: 2021-01-01\nslug: \(long)\n\nA post whose folder name is too long.\n")
        XCTAssertThrowsError(try build()) { error in
            XCTAssertTrue("\(error)".contains("cannot create this output folder"), "\(error)")
        }
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/long.md"))
        XCTAssertEqual(try build().cacheSummary, "posts 7 reused, 0 read; markdown 7 reused, 0 rendered")
        try assertSameAsCleanBuild()
    }

    // MARK: - Bad caches

    var cacheFolder: URL { site.root.appendingPathComponent(".blog-cache") }

    func assertIgnored(_ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try build()
        XCTAssertEqual(report.cacheWarnings.count, 1, "\(report.cacheWarnings)", file: file, line: line)
        let message = report.cacheWarnings.first?.description ?? ""
        XCTAssertTrue(message.contains("warning: ") && message.contains(expected), message, file: file, line: line)
        XCTAssertTrue(report.warnings.isEmpty, file: file, line: line)
        try assertSameAsCleanBuild(file: file, line: line)
        // The build wrote a good cache again.
        XCTAssertEqual(try build().cacheWarnings, [], file: file, line: line)
    }

    func testTruncatedIndex() throws {
        try build()
        let index = cacheFolder.appendingPathComponent("index")
        let data = try Data(contentsOf: index)
        try data.prefix(data.count / 2).write(to: index)
        try edit("content/posts/post-1.md") { $0 + "\nMore.\n" }
        try assertIgnored("ignoring the build cache: it is damaged: the index is truncated; building everything")
    }

    func testGarbageIndex() throws {
        try build()
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: cacheFolder.appendingPathComponent("index"))
        try assertIgnored("ignoring the build cache: it is damaged: not a blog cache index")
    }

    func testTruncatedPack() throws {
        try build()
        let pack = cacheFolder.appendingPathComponent("data.pack")
        let data = try Data(contentsOf: pack)
        try data.prefix(data.count - 100).write(to: pack)
        try assertIgnored("data.pack is shorter than the index says")
    }

    func testDamagedBlobInPack() throws {
        try build()
        let pack = cacheFolder.appendingPathComponent("data.pack")
        var data = try Data(contentsOf: pack)
        for offset in stride(from: 100, to: data.count, by: 997) { data[offset] ^= 0x5a }
        try data.write(to: pack)
        try assertIgnored("the build cache is damaged: a blob's checksum does not match")
    }

    func testCacheFolderThatCantBeWritten() throws {
        // Tests run as root in CI, where permissions don't stop a write: a file where the folder should be does.
        try site.write(".blog-cache", "not a folder")
        let report = try build()
        XCTAssertEqual(report.cacheWarnings.count, 1, "\(report.cacheWarnings)")
        XCTAssertTrue(report.cacheWarnings.first?.description.contains("warning: cannot write the build cache: \(cacheFolder.path) is a file, where the cache folder should be;") ?? false, "\(report.cacheWarnings)")
        XCTAssertTrue(report.cacheWarnings.first?.description.hasSuffix("; the site was built, but the next build can't reuse this one") ?? false, "\(report.cacheWarnings)")
        XCTAssertEqual(try build().cacheWarnings.count, 1)
        try assertSameAsCleanBuild()
    }

    func testCacheWarningsDontFailStrictAndArePrinted() throws {
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: cacheFolder.appendingPathComponent("index"))
        let result = try BlogCLI.run(["build", "--strict"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, ".blog-cache:1:1: warning: ignoring the build cache: it is damaged: the index ends too early; building everything\n")
        let again = try BlogCLI.run(["build", "--strict", "--timings"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
        // Nothing changed: the second build is done in place (QuickBuild), from the first one's state.
        XCTAssertTrue(again.stdout.contains("cache: quick build: 0 posts changed"), again.stdout)
        try assertSameAsCleanBuild()
    }

    /// A README alone in its folder is the folder's post; once another post joins it, it is an
    /// ordinary post: the README, unchanged, is read again rather than taken from the cache.
    func testAReadmeThatGainsASiblingIsReadAgain() throws {
        try site.write("content/trip/README.md", "title: Trip notes\ndate: 2020-09-01\n\nA [map](map.svg).\n")
        try site.write("content/trip/map.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        try build()
        XCTAssertNotNil(site.read("public/posts/trip/index.html"), "named by its folder: \(site.files(under: "public"))")
        XCTAssertNotNil(site.read("public/posts/trip/map.svg"))
        try site.write("content/trip/day-2.md", "title: Day 2\ndate: 2020-09-02\n\nMore.\n")
        try build()
        XCTAssertNotNil(site.read("public/posts/trip-notes/index.html"), "named by its Pelican title, as a loose file: \(site.files(under: "public"))")
        XCTAssertNotNil(site.read("public/trip/map.svg"))
        try assertSameAsCleanBuild()
    }

    func testNoCacheFlagNeitherReadsNorWrites() throws {
        let result = try BlogCLI.run(["build", "--no-cache"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFolder.path))
    }

    func testCacheFolderInsideTheOutputIsRefused() throws {
        try edit("blog.yml") { $0 + "\ncache_dir: public/.cache\n" }
        let diagnostics = buildFailure { try build(output: "public") }
        XCTAssertEqual(diagnostics.map(\.message), ["refusing `cache_dir: public/.cache`: it is inside the output folder, which every build replaces; choose a folder of its own such as .blog-cache"])
    }

    // MARK: - The binary coder

    func testCoderRoundTripsPostsWithEveryKindOfValue() throws {
        let post = Post(source: "content/a.md", title: "Tïtle \u{1F600}", date: Date(timeIntervalSince1970: 1_234_567_890.123),
                        modified: nil, tags: [Tag(name: "Swift"), Tag(name: "iOS")], category: Tag(name: "Dev"), slug: "a",
                        author: nil, summary: "", status: .hidden,
                        meta: ["n": .int(-42), "d": .double(0.1), "b": .bool(true), "when": .date(Date(timeIntervalSince1970: -5)),
                               "list": .list([.string(""), .null, .map(["k": .string("v")])]), "empty": .map([:])],
                        body: String(repeating: "body ", count: 1000), bodyLine: 7)
        let cached = CachedPost(post: post, warnings: [.warning("content/a.md", line: 3, column: 2, "careful")], file: Data("another file".utf8))
        let bytes = try BinaryEncoder.encode(cached)
        let back = try BinaryDecoder.decode(CachedPost.self, from: bytes)
        XCTAssertEqual(try BinaryEncoder.encode(back).count, bytes.count)
        XCTAssertEqual(back.post.body, post.body)
        XCTAssertEqual(back.post.status, .hidden)
        XCTAssertEqual(back.post.bodyLine, 7)
        XCTAssertEqual(back.post.meta, post.meta)
        XCTAssertEqual(back.post.date, post.date)
        XCTAssertEqual(back.post.tags.map(\.name), ["Swift", "iOS"])
        XCTAssertNil(back.post.modified)
        XCTAssertEqual(back.post.summary, "")
        XCTAssertEqual(back.warnings, cached.warnings)
        // Every truncation throws; none traps.
        for length in stride(from: 0, to: bytes.count, by: 37) {
            XCTAssertThrowsError(try BinaryDecoder.decode(CachedPost.self, from: Array(bytes.prefix(length))))
        }
    }

    func testDigestKnownValues() {
        XCTAssertEqual(Digest.of([UInt8]()).description, "00000000000000000000000000000000")
        XCTAssertNotEqual(Digest.of("a"), Digest.of("b"))
        XCTAssertNotEqual(Digest.of(String(repeating: "x", count: 31)), Digest.of(String(repeating: "x", count: 32)))
    }

    func testTemplateNames() {
        let names = TemplateTags.names(in: "{{! x }}{{#post}}{{title}}{{{html}}}{{/post}}{{>post-meta}}{{^empty(tags)}}{{.}}{{/empty(tags)}}{{<base}}{{$content}}{{page.url}}{{/content}}{{/base}}")
        // A closing tag names what it closes (`base` here): a name too many is harmless.
        XCTAssertEqual(names, ["post", "title", "html", "empty", "tags", "content", "page", "url", "base"])
        XCTAssertNil(TemplateTags.names(in: "{{=<% %>=}}<% x %>"))
        XCTAssertNil(TemplateTags.names(in: "{{>*dynamic}}"))
    }
}
