@testable import BlogCore
@testable import BlogSite
import XCTest

/// `.` and `..` are resolved in one place (``PathSafety/removingDotSegments(_:kept:)``): for URLs against a
/// base (feeds, the sitemap) and for links between content files; the preview server refuses them.
final class DotSegmentsTests: XCTestCase {
    private func remove(_ path: String, kept: Int = 0) -> (String, Bool) {
        let result = PathSafety.removingDotSegments(path.split(separator: "/", omittingEmptySubsequences: false), kept: kept)
        return (result.segments.joined(separator: "/"), result.climbed)
    }

    func testDotSegmentsAreAppliedAsRFC3986Says() {
        XCTAssertEqual(remove("/a/b/c/./../../g", kept: 1).0, "/a/g")
        XCTAssertEqual(remove("/a/b/..", kept: 1).0, "/a/", "a path ending in `..` is a folder")
        XCTAssertEqual(remove("/a/./", kept: 1).0, "/a/")
        XCTAssertEqual(remove("a//b/../c").0, "a//c", "empty segments are kept")
        XCTAssertTrue(remove("/../a", kept: 1).1, "a `..` above the root climbs")
        XCTAssertEqual(remove("/../a", kept: 1).0, "/a", "and stays at the root")
        XCTAssertTrue(remove("a/../../b").1)
        XCTAssertFalse(remove("a/../b").1)
    }

    func testURLsAndContentLinksResolveAlike() {
        XCTAssertEqual(AbsoluteURLs.resolve("../../x/./y.png?q#f", against: "https://example.org/blog/a/b/"), "https://example.org/blog/x/y.png?q#f")
        XCTAssertEqual(AbsoluteURLs.resolve("../../../../y", against: "/blog/a/"), "/y", "never above the root")
        XCTAssertEqual(AbsoluteURLs.resolve("..", against: "/blog/a/b"), "/blog/")
        XCTAssertEqual(ContentLinks.contentPath("../images/./a.png#top", from: "posts/2020/p.md"), "posts/images/a.png")
        XCTAssertEqual(ContentLinks.contentPath("/images/../a.png", from: "posts/p.md"), "a.png")
        XCTAssertEqual(ContentLinks.contentPath("x/..", from: "posts/p.md"), "posts", "the folder itself")
        XCTAssertNil(ContentLinks.contentPath("../../a.png", from: "posts/p.md"), "out of the content folder")
        XCTAssertNil(ContentLinks.contentPath("a/../../..", from: "p.md"))
    }
}
