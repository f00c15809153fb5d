@testable import BlogBuild
import BlogCore
@testable import BlogMarkdown
import CSystem
import Foundation
import XCTest

/// Rendering on several threads at once gives the same bytes as rendering one post at a time
/// (cmark-gfm's extensions share global state while parsing: see `GFM.parseLock`).
final class MarkdownConcurrencyTests: XCTestCase {
    /// A post using every extension whose parsing touches cmark's global table of special characters.
    private static func document(_ number: Int) -> String {
        """
        # Post \(number)

        Some ~~old~~ new text with www.example.com/\(number) and https://swift.org/\(number) \
        and a note.[^n\(number)] "Quotes" -- too.

        | Column | Value \(number) |
        |--------|------:|
        | ~~a~~ | www.example.org |
        | `b` | \(number * 7) |

        - [x] done \(number)
        - [ ] ~~todo~~ at mail\(number)@example.com

            :::swift
            let n = \(number)

        ```Python
        print(\(number))
        ```

        <!-- more -->

        ## Post \(number)

        [^n\(number)]: Footnote \(number) with www.example.net.

        """
    }

    func testParallelRenderingMatchesSerialRendering() {
        let documents = (0..<200).map(Self.document)
        let serial = documents.map { MarkdownRenderer.render(body: $0, summary: nil) }
        // The corpus does exercise the extensions the race used to break.
        XCTAssertEqual(serial[0].html.components(separatedBy: "<del>").count - 1, 3)
        XCTAssertTrue(serial[0].html.contains("<a href=\"http://www.example.com/0\">"))
        XCTAssertTrue(serial[0].html.contains("<td align=\"right\">0</td>"))
        XCTAssertTrue(serial[0].html.contains("<a href=\"mailto:mail0@example.com\">"))
        XCTAssertTrue(serial[0].html.contains("<section class=\"footnotes\" data-footnotes>"))
        XCTAssertEqual(serial[0].headings.map(\.id), ["post-0", "post-0-1"])
        #if os(Linux)
        // blog's own cmark_manage_extensions_special_characters is in use, so the rounds below
        // parse without the lock (GFM.parseLock): they check that doing so is safe.
        XCTAssertEqual(blog_cmark_removals_dropped(), 1)
        #endif

        for round in 1...5 {
            let parallel = Self.renderConcurrently(documents)
            let differing = (0..<documents.count).filter { parallel[$0] != serial[$0] }
            XCTAssertEqual(differing, [], "round \(round): these documents rendered differently on several threads")
        }
    }

    private static func renderConcurrently(_ documents: [String]) -> [RenderedMarkdown?] {
        var results = [RenderedMarkdown?](repeating: nil, count: documents.count)
        results.withUnsafeMutableBufferPointer { slots in
            let slots = SendableSlots(base: slots.baseAddress!)
            // Each iteration writes only its own slot.
            DispatchQueue.concurrentPerform(iterations: documents.count) { index in
                slots.base[index] = MarkdownRenderer.render(body: documents[index], summary: nil)
            }
        }
        return results
    }
}

/// Result slots shared by `concurrentPerform` iterations, each writing a different index.
private struct SendableSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<RenderedMarkdown?>
}
