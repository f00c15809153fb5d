@testable import BlogBuild
import Foundation
import XCTest

/// The build in place with category and author pages: their feeds carry bodies, as tag feeds do,
/// so a body edit of a post in a category is patched into that category's feed too.
extension IncrementalBuildTests {
    func testQuickBodyEditUpdatesCategoryAndAuthorFeeds() throws {
        for number in [2, 4] {
            try edit("content/posts/post-\(number).md") { "category: Notes\nauthor: Bea Costa\n" + $0 }
        }
        try buildTwice()
        XCTAssertTrue(site.exists("public/categories/notes/feed.xml") && site.exists("public/authors/bea-costa/feed.xml"))
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "Changed *words* & more.") }
        assertQuick(try quickBuild(), changed: 1)
        for feed in ["categories/notes/feed.xml", "authors/bea-costa/feed.xml"] {
            XCTAssertTrue(try XCTUnwrap(site.read("public/" + feed)).contains("Changed &lt;em&gt;words&lt;/em&gt; &amp;amp; more."), feed)
        }
        try assertSameAsCleanBuild()
    }
}
