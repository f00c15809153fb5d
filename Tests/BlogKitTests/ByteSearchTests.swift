import XCTest
@testable import BlogKit

final class ByteSearchTests: XCTestCase {
    func testFindsNeedlesAnywhereAndOnlyWhole() {
        XCTAssertTrue(ByteSearch.contains("see {attach}a.csv", "{attach}"))
        XCTAssertTrue(ByteSearch.contains("{attach}", "{attach}"), "the whole text")
        XCTAssertTrue(ByteSearch.contains("x {att {attach}", "{attach}"), "after a partial match")
        XCTAssertFalse(ByteSearch.contains("{attac", "{attach}"), "a text shorter than the needle")
        XCTAssertFalse(ByteSearch.contains("{attach]", "{attach}"))
        XCTAssertTrue(ByteSearch.contains("anything", ""))
        XCTAssertFalse(ByteSearch.contains("", "a"))
        XCTAssertTrue(ByteSearch.contains("Zoë écrit {filename}été.md", "{filename}été"), "UTF-8 bytes")
        XCTAssertTrue(ByteSearch.containsAny("a static file", ["filename", "static"]))
        XCTAssertFalse(ByteSearch.containsAny("plain", ["filename", "static"]))
        // A bridged (non-native) string works too.
        XCTAssertTrue(ByteSearch.contains(String(NSString(string: "abc {static}x")), "{static}"))
    }
}
