@testable import BlogContent
@testable import BlogCore
import XCTest

/// Reads every post of the real blogs in `../shared/corpora` (beside the repository; skipped when
/// absent): the scanner finds them and the reader accepts them, except the few real problems below.
final class ContentCorpusTests: XCTestCase {
    static let corpora = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpora")

    struct Result {
        var posts: [String] = []
        var failed: [String: [Diagnostic]] = [:]
        var warnings: [Diagnostic] = []
        var formats: [FrontMatterFormat: Int] = [:]
    }

    func readAll(_ name: String) throws -> Result {
        let folder = Self.corpora.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: folder.path) else { throw XCTSkip("no corpus \(name)") }
        let inventory = try ContentScanner.scan(folder, displayPath: name)
        var result = Result(posts: inventory.posts)
        for path in inventory.posts {
            let url = folder.appendingPathComponent(path)
            let data = try Data(contentsOf: url)
            let (header, _) = try FrontMatterParser.parse(String(decoding: data, as: UTF8.self), path: path)
            result.formats[header.format, default: 0] += 1
            do {
                let (post, warnings) = try PostReader.read(data: data, source: path, timeZone: TimeZone(identifier: "UTC")!)
                XCTAssertFalse(post.title.isEmpty, path)
                XCTAssertTrue(PathSafety.isSafeSegment(post.slug), path)
                result.warnings += warnings
            } catch let failure as BuildFailure {
                result.failed[path] = failure.diagnostics
            }
        }
        return result
    }

    func testHugoTOML() throws {
        let result = try readAll("jessfraz-hugo")
        XCTAssertEqual(result.posts.count, 75)
        XCTAssertEqual(result.formats, [.toml: 75])
        XCTAssertEqual(result.failed.count, 0, "\(result.failed)")
        XCTAssertEqual(result.warnings, [])
    }

    func testSwiftOrgJekyll() throws {
        let result = try readAll("swift-org-blog")
        XCTAssertEqual(result.formats, [.yaml: 172])
        XCTAssertEqual(result.failed.count, 0, "\(result.failed)")
        // Two posts really repeat a key.
        XCTAssertEqual(result.warnings.map(\.description).sorted(), [
            "_posts/2022-03-14-swift-5.6-released.md:5:1: warning: repeated front matter key `published` (also on line 3): the last one is used",
            "_posts/2024-02-13-summer-of-code-2023-summary.md:8:1: warning: repeated front matter key `category` (also on line 4): the last one is used",
        ])
    }

    func testJekyllDocs() throws {
        let result = try readAll("jekyll-docs-posts")
        XCTAssertEqual(result.formats, [.yaml: 102])
        // One post has a real typo in its date ("2023-01-29 18:30:22 2023 -0800"): read, with a warning.
        XCTAssertEqual(result.failed.count, 0, "\(result.failed)")
        let odd = result.warnings.filter { $0.message.contains("has the year twice") }
        XCTAssertEqual(odd.map(\.path), ["docs/_posts/2023-01-29-jekyll-3-9-3-released.markdown"])
        XCTAssertEqual(odd.first?.line, 3)
    }

    func testHugoNewsBundles() throws {
        let result = try readAll("hugodocs-news")
        XCTAssertEqual(result.formats, [.yaml: 173])
        // The section's _index.md is a page (no date needed); one release note has no date anywhere.
        XCTAssertEqual(result.failed.count, 0, "\(result.failed)")
        XCTAssertEqual(result.warnings.filter { $0.message.hasPrefix("missing date") }.map(\.path),
                       ["content/en/news/0.25.1-relnotes/index.md"])
    }

    func testPelican() throws {
        let result = try readAll("fullstackpython-pelican")
        XCTAssertEqual(result.formats, [.pelican: 769])
        let posts = result.posts.filter { $0.hasPrefix("content/posts/") }
        XCTAssertEqual(posts.count, 66)
        // Every post and every page (no date needed) reads.
        XCTAssertEqual(result.failed.count, 0, "\(result.failed)")
        XCTAssertEqual(result.warnings, [])
    }
}
