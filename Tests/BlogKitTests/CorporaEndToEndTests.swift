import Foundation
import XCTest

/// Builds each real blog of `../shared/corpora` (beside the repository) with the `blog` binary, as
/// a user moving from Jekyll, Hugo or Pelican would: their content folder as it is, and a
/// `blog.yml`. Then checks, for every source file, that `blog list --format json` has it with the
/// title, date (to the minute, in the site's time zone), tags and categories its header says, as
/// read by an independent reader (Fixtures/corpus_reader.py: Python's yaml and tomllib, and a few
/// lines for Pelican headers), and that its page was written. Skipped when the corpora are absent.
final class CorporaEndToEndTests: XCTestCase {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let corpora = tests.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpora")
    /// Not UTC, so that a date read in the wrong zone shows.
    static let timeZone = "America/New_York"

    func testSwiftOrgJekyll() throws { try check("swift-org-blog", content: "_posts", posts: 172) }
    func testJekyllDocsJekyll() throws { try check("jekyll-docs-posts", content: "docs/_posts", posts: 102) }
    func testFullStackPythonPelican() throws { try check("fullstackpython-pelican", content: "content", posts: 66, pages: 703) }
    func testHugoNewsBundlesYAML() throws { try check("hugodocs-news", content: "content", posts: 172, pages: 1) }
    func testJessfrazHugoTOML() throws { try check("jessfraz-hugo", content: "content", posts: 75) }

    /// One corpus: builds it, lists it and compares every file with the independent reader.
    func check(_ name: String, content: String, posts: Int, pages: Int = 0) throws {
        let corpus = Self.corpora.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            throw XCTSkip("\(corpus.path) is absent: the real-blog test needs the shared corpora beside the repository")
        }
        let site = try TempSite()
        defer { site.remove() }
        try site.write("blog.yml", "title: \(name)\nbase_url: https://example.org/blog/\ntimezone: \(Self.timeZone)\n")
        let contentFolder = corpus.appendingPathComponent(content)
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("content"), withDestinationURL: contentFolder)

        let build = try BlogCLI.run(["build", "--drafts", "--future", "--output", "public"], in: site.root)
        XCTAssertEqual(build.status, 0, "blog build failed on \(name):\n\(build.stderr)")
        XCTAssertFalse(build.stderr.contains(": error:"), build.stderr)

        let list = try BlogCLI.run(["list", "--format", "json", "--drafts", "--future"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        var bySource: [String: [String: Any]] = [:]
        for entry in listed {
            let source = try XCTUnwrap(entry["source"] as? String)
            bySource[String(source.dropFirst("content/".count))] = entry
        }

        let reader = try BlogCLI.run([Self.tests.appendingPathComponent("Fixtures/corpus_reader.py").path,
                                      contentFolder.path, Self.timeZone],
                                     in: site.root, program: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(reader.status, 0, "the independent reader failed (needs python3 with yaml):\n\(reader.stderr)")
        let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reader.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(expected.filter { $0["kind"] as? String == "post" }.count, posts)
        XCTAssertEqual(expected.filter { $0["kind"] as? String == "page" }.count, pages)

        var problems: [String] = []
        for file in expected {
            let source = file["source"] as! String
            guard let entry = bySource.removeValue(forKey: source) else {
                problems.append("\(source): not in blog list")
                continue
            }
            func compare(_ what: String, _ ours: Any?, _ theirs: Any?) {
                let a = "\(ours.map { $0 is NSNull ? "nil" : "\($0)" } ?? "nil")"
                let b = "\(theirs.map { $0 is NSNull ? "nil" : "\($0)" } ?? "nil")"
                if a != b { problems.append("\(source): \(what) is \(a), the header says \(b)") }
            }
            compare("kind", entry["kind"], file["kind"])
            compare("title", entry["title"], file["title"])
            compare("date", (entry["date"] as? String).map(Self.minute), file["date"])
            compare("tags", entry["tags"], file["tags"])
            compare("categories", entry["categories"], file["categories"])
            compare("draft", entry["draft"], file["draft"])
            // The page itself was written where the listing says.
            if let url = entry["url"] as? String {
                var path = String(url.dropFirst("/blog/".count))
                if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
                if !site.exists("public/" + (path.removingPercentEncoding ?? path)) {
                    problems.append("\(source): no page at public/\(path)")
                }
            }
        }
        problems += bySource.keys.sorted().map { "\($0): listed, but the reader found no such file" }
        XCTAssertEqual(problems, [], "\(problems.count) of \(expected.count) files of \(name) are missing or wrong")
    }

    /// `2016-11-25T10:20:00-05:00` -> `2016-11-25T10:20-05:00`, as the reader writes dates.
    static func minute(_ iso: String) -> String {
        let offset = iso.hasSuffix("Z") ? "+00:00" : String(iso.suffix(6))
        return String(iso.prefix(16)) + offset
    }
}
