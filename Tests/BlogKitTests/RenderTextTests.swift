import XCTest
@testable import BlogKit

final class RenderTextTests: XCTestCase {
    func testPathsArePercentEncodedOutsideURLCharacters() {
        XCTAssertEqual(WebText.encodePath("tags/swift/"), "tags/swift/")
        XCTAssertEqual(WebText.encodePath("tags/café/"), "tags/caf%C3%A9/")
        XCTAssertEqual(WebText.encodePath("posts/日本/"), "posts/%E6%97%A5%E6%9C%AC/")
        XCTAssertEqual(WebText.encodePath("a b/100%/\"q\""), "a%20b/100%25/%22q%22")
        XCTAssertEqual(WebText.encodePath("x-y_z.~!$&'()*+,;=:@"), "x-y_z.~!$&'()*+,;=:@")
    }

    func testPlainTextOfHTML() {
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>Tom &amp; <em>Jerry</em>\n  &lt;3 &quot;x&quot; &#39;y&#39;</p>\n<p>Next</p>", limit: 100),
                       "Tom & Jerry <3 \"x\" 'y' Next")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>one two, three four</p>", limit: 14), "one two…")
        XCTAssertEqual(WebText.plainText(fromHTML: "<p>exactly</p>", limit: 7), "exactly")
        XCTAssertEqual(WebText.plainText(fromHTML: "", limit: 10), "")
    }
}
