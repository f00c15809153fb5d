@testable import BlogMarkdown
import CCmarkGFM
import CSystem
import XCTest

/// cmark-gfm allocating in the thread's arena (``GFM/withArena(sized:_:)``) renders what it renders with malloc.
final class CmarkArenaTests: XCTestCase {
    /// A document with every extension, footnotes, a table and code; `repeats` times over.
    private static func document(repeats: Int) -> String {
        (0..<repeats).map { number in
            """
            # Heading \(number) with *emphasis* and `code`

            Some ~~old~~ new text with www.example.com/\(number), "quotes" -- and a note.[^n\(number)] \
            A [link](https://example.org/\(number) "title") and ![an image](/a\(number).png).

            | Column | Value \(number) |
            |--------|------:|
            | ~~a~~ | www.example.org |

            - [x] done \(number)
            - [ ] todo, mail\(number)@example.com

            > quoted <span class="x">html</span> &amp; entities &copy;

            ```swift
            let n = \(number) // é €
            ```

            [^n\(number)]: Footnote \(number).

            """
        }.joined(separator: "\n")
    }

    private static func render(_ text: String) -> String {
        let document = GFM.parse(text)
        defer { if !GFM.inArena { cmark_node_free(document) } }
        return GFM.html(document, tagfilter: false)
    }

    func testRenderingInTheArenaMatchesRenderingWithMalloc() {
        // Small, and large enough (over 4 MiB of tree and HTML) to take several chunks and blocks of their own.
        for repeats in [1, 30, 3_000] {
            let text = Self.document(repeats: repeats)
            let withMalloc = Self.render(text)
            XCTAssertFalse(GFM.inArena)
            // Twice in the arena: the second time in the chunk the first one left.
            for _ in 1...2 {
                let inArena = GFM.withArena(sized: 0) { () -> String in
                    XCTAssertTrue(GFM.inArena)
                    return Self.render(text)
                }
                XCTAssertEqual(inArena, withMalloc)
            }
            XCTAssertTrue(withMalloc.contains("<del>old</del>"))
            XCTAssertTrue(withMalloc.contains("<td align=\"right\">"))
        }
    }

    /// A document longer than the arena's limit is made with malloc, which reuses what it frees;
    /// one at the limit is made in the arena. A post's render goes the same way, to the same HTML.
    func testLongDocumentsAreMadeWithMalloc() {
        XCTAssertTrue(GFM.withArena(sized: GFM.arenaLimit) { GFM.inArena })
        XCTAssertFalse(GFM.withArena(sized: GFM.arenaLimit + 1) { GFM.inArena })
        let long = Self.document(repeats: 1_000)
        XCTAssertGreaterThan(long.utf8.count, GFM.arenaLimit)
        let withMalloc = MarkdownRenderer.render(body: long, summary: nil)
        // Inside an outer arena the same post is made in it: the same HTML, headings and summary.
        let inArena = GFM.withArena(sized: 0) { MarkdownRenderer.render(body: long, summary: nil) }
        XCTAssertEqual(withMalloc, inArena)
        XCTAssertTrue(withMalloc.html.contains("<del>old</del>"))
    }

    /// Nodes made and edited in the arena (``CmarkNode/make(_:)``, literals set) render as with malloc.
    func testNodesMadeInTheArenaRender() {
        func edited() -> String {
            let document = CmarkNode(pointer: GFM.parse("para one\n\npara two\n"))
            let block = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "<div class=\"x\">", exit: "</div>")
            document.children[0].moveChildren(to: block)
            cmark_node_append_child(document.pointer, block.pointer)
            document.children[1].replace(withHTMLBlock: "<p>two, replaced</p>")
            defer { if !GFM.inArena { cmark_node_free(document.pointer) } }
            return GFM.html(document.pointer, tagfilter: false)
        }
        let withMalloc = edited()
        XCTAssertEqual(GFM.withArena(sized: 0, edited), withMalloc)
        XCTAssertTrue(withMalloc.contains("<div class=\"x\">"))
        XCTAssertTrue(withMalloc.contains("<p>two, replaced</p>"))
    }

    /// The allocator's own rules: zeroed memory, the last block grown and given back in place, a moved
    /// block keeps its bytes, a block larger than any chunk, nested scopes.
    func testTheArenaAllocates() {
        blog_arena_enter()
        defer { blog_arena_leave() }
        blog_arena_enter()
        let first = blog_arena_calloc(3, 10)!.assumingMemoryBound(to: UInt8.self)
        XCTAssertTrue((0..<30).allSatisfy { first[$0] == 0 })
        for index in 0..<30 { first[index] = UInt8(index) }
        // The last block grows where it is.
        let grown = blog_arena_realloc(first, 200)!.assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(grown, first)
        let second = blog_arena_calloc(1, 16)!
        // Not the last block: moved, with its bytes.
        let moved = blog_arena_realloc(grown, 5_000)!.assumingMemoryBound(to: UInt8.self)
        XCTAssertNotEqual(moved, grown)
        XCTAssertEqual((0..<30).map { moved[$0] }, (0..<30).map(UInt8.init))
        // The last block given back is the next one handed out.
        blog_arena_free(moved)
        XCTAssertEqual(blog_arena_calloc(1, 8)!.assumingMemoryBound(to: UInt8.self), moved)
        XCTAssertNotEqual(second, UnsafeMutableRawPointer(moved))
        // Larger than the largest chunk, zeroed and aligned as malloc's.
        let large = blog_arena_calloc(1, 9 << 20)!.assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(Int(bitPattern: large) % 16, 0)
        XCTAssertEqual(large[0], 0)
        XCTAssertEqual(large[(9 << 20) - 1], 0)
        blog_arena_leave()
        // Still inside the outer scope.
        XCTAssertEqual(blog_arena_active(), 1)
    }
}
