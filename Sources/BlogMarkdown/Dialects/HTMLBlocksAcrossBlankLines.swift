import CCmarkGFM

/// Where Python-Markdown keeps a block of raw HTML that holds blank lines.
///
/// CommonMark ends an HTML block such as `<div>` at the first blank line: what follows inside
/// the element is markdown again (an indented line becomes code, `*a*` emphasis, a `<p>` line a
/// block of its own). Python-Markdown's `HtmlBlockPreprocessor` takes a block-level element that
/// starts a line at the top of the text as raw HTML up to its matching closing tag, blank lines
/// and all (`<pre>`, `<script>` and the other elements CommonMark already ends at their closing
/// tag are left to cmark); an element never closed is raw to the end of the text. So, for such an
/// element whose closing tag comes after its HTML block ends:
/// - a blank line is inserted after the closing tag's line when text follows it there (the text
///   after the element is markdown again);
/// - once the text is parsed, the blocks from the element's first line to its closing line are
///   made one HTML block holding those lines as written (``merge(in:lines:given:original:)``).
enum HTMLBlocksAcrossBlankLines {
    /// A top-level HTML block that opens a block element whose closing tag is on a later line
    /// than the block's last: the block, and the line of the closing tag.
    struct Region {
        var block: CmarkNode
        var end: Int
    }

    /// The regions of `document` (its top-level HTML blocks only, as Python-Markdown's preprocessor
    /// sees the text's lines), in order. An element never closed goes on to the end of the text,
    /// as in Python-Markdown.
    static func regions(in document: CmarkNode, lines: SourceLines) -> [Region] {
        var found: [Region] = []
        var node = document.firstChild
        var after = 0
        while let block = node {
            node = block.next
            guard block.type == CMARK_NODE_HTML_BLOCK, block.startLine > after else { continue }
            let line = lines[block.startLine]
            var start = line.startIndex + block.startColumn - 1
            while start < line.endIndex, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") { start += 1 }
            guard let tag = HTMLBlockEnds.Tag(line, at: start), !tag.closing, !tag.selfClosing,
                  HTMLBlockEnds.isBlockElement(tag.name, dialect: .pythonMarkdown),
                  !HTMLBlockEnds.rawTextElements.contains(tag.name), !HTMLBlockEnds.voidElements.contains(tag.name),
                  case let end = HTMLBlockEnds.closingLine(of: tag.name, from: block.startLine, after: tag.end,
                                                           through: lines.count, lines: lines) ?? lines.count,
                  end > block.endLine else { continue }
            found.append(Region(block: block, end: end))
            after = end
        }
        return found
    }

    /// Adds to `edits` a blank line after each region's closing line that text follows, and
    /// returns the lines the regions cover (no other pass looks at them).
    static func collect(in document: CmarkNode, lines: SourceLines, edits: inout LineEdits) -> [ClosedRange<Int>] {
        regions(in: document, lines: lines).map { region in
            let next = lines[region.end + 1]
            if region.end < lines.count, !next.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                edits.insert([], afterLine: region.end)
            }
            return region.block.startLine...region.end
        }
    }

    /// Makes each region of `document` (parsed from `lines`) one HTML block holding the lines of
    /// the given text (`original` maps a line of `lines` to it) from its first line to its
    /// closing tag's. Returns the nodes taken out (the caller frees them) and the lines of the
    /// given text the regions cover.
    static func merge(in document: CmarkNode, lines: SourceLines, given: SourceLines,
                      original: (Int) -> Int) -> (detached: [CmarkNode], covered: [ClosedRange<Int>]) {
        var detached: [CmarkNode] = []
        var covered: [ClosedRange<Int>] = []
        for region in regions(in: document, lines: lines) {
            // The blocks that start before the closing line; the last must end on it or before.
            var blocks: [CmarkNode] = []
            var node = region.block.next
            while let current = node, current.startLine <= region.end {
                blocks.append(current)
                node = current.next
            }
            guard blocks.last.map({ $0.endLine <= region.end }) ?? true else { continue }
            let first = original(region.block.startLine)
            let last = original(region.end)
            guard first <= last else { continue }
            var literal: [UInt8] = []
            for number in first...last {
                literal += given[number]
                literal.append(UInt8(ascii: "\n"))
            }
            cmark_node_set_literal(region.block.pointer, String(decoding: literal, as: UTF8.self))
            for block in blocks {
                cmark_node_unlink(block.pointer)
                detached.append(block)
            }
            covered.append(first...last)
        }
        return (detached, covered)
    }
}
