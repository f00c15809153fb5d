import XCTest
@testable import BlogKit

final class SlugTests: XCTestCase {
    func testSlugKeepsLettersOfAnyScript() {
        XCTAssertEqual(Slug.make("Hello, World!"), "hello-world")
        XCTAssertEqual(Slug.make("Ünïcödé 日本語"), "ünïcödé-日本語")
        XCTAssertEqual(Slug.make("  --Swift 6: what's new?-- "), "swift-6-whats-new")
        XCTAssertEqual(Slug.make("../../etc"), "etc")
        XCTAssertEqual(Slug.make("!!!"), "")
    }

    func testSafety() {
        XCTAssertTrue(Slug.isSafe("my-post"))
        XCTAssertFalse(Slug.isSafe("../etc"))
        XCTAssertFalse(Slug.isSafe("a/b"))
        XCTAssertFalse(Slug.isSafe(".."))
        XCTAssertFalse(Slug.isSafe(""))
    }
}
