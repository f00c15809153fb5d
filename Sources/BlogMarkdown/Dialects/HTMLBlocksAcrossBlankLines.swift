import BlogCore
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
///   made one HTML block holding those lines as written (``merge(in:lines:given:original:opened:)``).
///
/// With `markdown="1"` (or `"block"`), which `extra`'s `md_in_html` reads, the element's content is
/// markdown instead: when the opening tag is alone on its line, at the top of the text, and the
/// closing tag alone on a later one, the attribute is taken out and the content set apart by blank
/// lines, so that cmark reads the tags as HTML and the content between as markdown
/// (``openForMarkdown(_:tag:lines:edits:)``). Other forms stay raw, with a warning.
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
    static func regions(in document: CmarkNode, lines: SourceLines, dialect: MarkdownDialect, opened: Set<Int> = []) -> [Region] {
        var found: [Region] = []
        var node = document.firstChild
        var after = 0
        while let block = node {
            node = block.next
            guard block.type == CMARK_NODE_HTML_BLOCK, block.startLine > after, !opened.contains(block.startLine) else { continue }
            let line = lines[block.startLine]
            var start = line.startIndex + block.startColumn - 1
            while start < line.endIndex, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") { start += 1 }
            guard let tag = HTMLBlockEnds.Tag(line, at: start), !tag.closing, !tag.selfClosing,
                  HTMLBlockEnds.isBlockElement(tag.name, dialect: dialect),
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
    static func collect(in document: CmarkNode, lines: SourceLines, dialect: MarkdownDialect, opened: Set<Int>,
                        edits: inout LineEdits) -> [ClosedRange<Int>] {
        regions(in: document, lines: lines, dialect: dialect, opened: opened).map { region in
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
    static func merge(in document: CmarkNode, lines: SourceLines, given: SourceLines, original: (Int) -> Int,
                      dialect: MarkdownDialect, opened: Set<Int>) -> (detached: [CmarkNode], covered: [ClosedRange<Int>]) {
        var detached: [CmarkNode] = []
        var covered: [ClosedRange<Int>] = []
        for region in regions(in: document, lines: lines, dialect: dialect, opened: opened) {
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

    /// The elements whose `markdown="1"` content md_in_html reads as blocks (its `block_level_tags`
    /// less those that hold text, lists and tables, whose content it reads otherwise).
    static let markdownBlockElements: Set<String> = [
        "article", "aside", "blockquote", "details", "div", "fieldset", "figure", "footer", "form", "header",
        "main", "nav", "section",
    ]

    /// Adds to `edits` what makes cmark read the content of `block`'s first element (`tag`, with a
    /// `markdown` attribute) as markdown: the attribute out, a blank line after the opening tag's
    /// line and before the closing tag's (and after it when text follows). False, with no edit, when
    /// it is not that simple form: a top-level element of ``markdownBlockElements`` with `markdown`
    /// `1` or `block`, its opening tag alone on its line, its closing tag alone on a later one.
    static func openForMarkdown(_ block: CmarkNode, tag: HTMLBlockEnds.Tag, lines: SourceLines, edits: inout LineEdits) -> Bool {
        let number = block.startLine
        let line = lines[number]
        func blank(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } }
        guard block.parent?.type == CMARK_NODE_DOCUMENT, markdownBlockElements.contains(tag.name), !tag.selfClosing,
              blank(line[tag.end...]), let attribute = markdownAttribute(in: line, tag.attributes),
              let end = HTMLBlockEnds.closingLine(of: tag.name, from: number, after: tag.end, through: lines.count, lines: lines),
              end > number + 1, !(number + 1..<end).contains(where: edits.touches), !edits.touches(end) else { return false }
        let closing = lines[end]
        let trimmed = closing.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let close = HTMLBlockEnds.Tag(closing, at: trimmed.startIndex), close.closing, blank(closing[close.end...]) else { return false }
        edits.replace(line: number, with: Array(line[..<attribute.lowerBound]) + Array(line[attribute.upperBound...]))
        edits.insert([], afterLine: number)
        if !blank(lines[end - 1]) { edits.insert([], afterLine: end - 1) }
        if end < lines.count, !blank(lines[end + 1]) { edits.insert([], afterLine: end) }
        return true
    }

    /// Where ` markdown="1"` (or `'1'`, `1`, `"block"`) is in `line`'s `attributes`, the space before
    /// it included; nil when the attribute has another value.
    private static func markdownAttribute(in line: ArraySlice<UInt8>, _ attributes: Range<Int>) -> Range<Int>? {
        let text = Array(line[attributes]).map { $0 | (($0 >= 65 && $0 <= 90) ? 0x20 : 0) }
        guard let found = ByteSearch.firstIndex(of: Array(" markdown=".utf8), in: text, from: 0) else { return nil }
        var position = found + 10
        var quote: UInt8?
        if position < text.count, text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'") {
            quote = text[position]
            position += 1
        }
        let valueStart = position
        while position < text.count, text[position] != (quote ?? UInt8(ascii: " ")), quote != nil || text[position] != UInt8(ascii: "/") {
            position += 1
        }
        let value = String(decoding: text[valueStart..<position], as: UTF8.self)
        guard value == "1" || value == "block" else { return nil }
        if quote != nil {
            guard position < text.count else { return nil }
            position += 1
        }
        return (attributes.lowerBound + found)..<(attributes.lowerBound + position)
    }
}
