@testable import BlogCore
@testable import BlogMarkdown
import XCTest

/// One definition of a column (``TextPosition``: characters as an editor counts them, not bytes or
/// scalars), whichever stage reports the message: a header, Liquid, a kramdown attribute list.
final class ColumnTests: BuiltSiteTestCase {
    func testMessagesCountColumnsInCharactersAfterMultiByteText() throws {
        // `é 日本 😀 ` is 7 characters, 15 bytes: what follows it is at column 8 (16 in bytes).
        try site.write("blog.yml", "title: T\nbase_url: https://example.org/\n")
        try site.write("content/posts/2020-01-01-cols.md", """
            ---
            title: é 日本 😀 # comment
            date: 2020-01-01
            ---
            é 日本 😀 {: .lost}

            é 日本 😀 {{ page.nothing }}

            """)
        let stderr = try build().stderr
        let path = "content/posts/2020-01-01-cols.md"
        XCTAssertTrue(stderr.contains("\(path):2:15: warning: `title` is"), "the header (`title: ` is 7 more): \(stderr)")
        XCTAssertTrue(stderr.contains("\(path):5:8: warning: kramdown attribute list"), stderr)
        XCTAssertTrue(stderr.contains("\(path):7:8: warning: 1 template value missing"), stderr)
    }

    func testAMarkdownLineCountsGraphemesAsTextPositionDoes() {
        // `👍🏽` and `é` written as `e` + U+0301 are two scalars each, one character.
        let line = "👍🏽 e\u{301} <x"
        let lines = SourceLines("first\n" + line + "\n")
        let offset = "first\n".utf8.count + line.utf8.count - 2
        XCTAssertEqual(lines.column(ofByte: offset, inLine: 2), 5)
        let position = TextPosition.lineAndColumn(ofByte: offset, in: "first\n" + line)
        XCTAssertEqual([position.line, position.column], [2, 5])
    }
}
