import BlogCore
import CCmarkGFM
import Foundation

/// Picks the part of a body that makes its summary.
enum SummarySelection {
    /// The top-level blocks of `document` before the first `<!-- more -->` marker; without a marker,
    /// the first top-level paragraph; without one, nothing.
    static func blocks(of document: CmarkNode) -> [CmarkNode] {
        let blocks = document.children
        if let marker = blocks.firstIndex(where: isMoreMarker) {
            return Array(blocks[..<marker])
        }
        return blocks.first { $0.type == CMARK_NODE_PARAGRAPH }.map { [$0] } ?? []
    }

    /// Whether `node` is an HTML block holding only a `<!-- more -->` comment (any spacing or case:
    /// `<!--more-->`, `<!--  More -->`), or the paragraph standing for Hugo's divider (``HugoSummaryDivider``).
    static func isMoreMarker(_ node: CmarkNode) -> Bool {
        if node.type == CMARK_NODE_PARAGRAPH { return HugoSummaryDivider.isPlaceholder(node) }
        guard node.type == CMARK_NODE_HTML_BLOCK, let raw = cmark_node_get_literal(node.pointer) else { return false }
        // Most HTML blocks (every heading's, once anchored) are told apart by their first bytes, before a
        // string is made and trimmed: after ASCII white space, `<!--`, or a byte beyond ASCII (white space
        // Foundation trims) goes on to the whole test.
        var first = UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self)
        while first.pointee != 0, first.pointee < 0x80, WebText.isASCIIWhitespace(first.pointee) { first += 1 }
        if first.pointee < 0x80, !(first[0] == UInt8(ascii: "<") && first[1] == UInt8(ascii: "!") && first[2] == UInt8(ascii: "-")
                                    && first[3] == UInt8(ascii: "-")) { return false }
        let comment = String(cString: raw).trimmingWhitespacesAndNewlines()
        guard comment.hasPrefix("<!--"), comment.hasSuffix("-->"), comment.count >= 7 else { return false }
        return comment.dropFirst(4).dropLast(3).trimmingWhitespacesAndNewlines().lowercased() == "more"
    }
}
