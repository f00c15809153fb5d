import CCmarkGFM

/// kramdown decides per list item whether its first paragraph is a `<p>` (issue 29), where CommonMark
/// makes a whole list loose or tight: in a list with a blank line somewhere (loose to cmark-gfm), an
/// item's first paragraph stays bare (`<li>text`) when
/// - no blank line follows it in the item (the next item, or a nested list, comes right after), or it
///   is the last item and nothing but blank lines follows it;
/// - and the item is not the last one, or the list has one item, or some earlier item does not start
///   with a `<p>` (kramdown-2.4's `parse_list`, which Jekyll's GFM input keeps).
///
/// The other paragraphs keep their `<p>`. A bare paragraph becomes a custom block that writes
/// nothing around its text; what cmark-gfm reads as a tight list is bare in kramdown too, and is left.
enum KramdownListItems {
    /// Makes the first paragraphs kramdown leaves bare in `document`'s loose lists so, reading the
    /// blank lines from `text`, the markdown `document` was parsed from.
    /// Returns the paragraphs taken out, whose text the blocks now hold still uses: free them with the document.
    static func apply(in document: CmarkNode, text: @autoclosure () -> String) -> [CmarkNode] {
        let loose = document.lists.filter { cmark_node_get_list_tight($0.pointer) == 0 }
        guard !loose.isEmpty else { return [] }
        let lines = SourceLines(text())
        var bare: [CmarkNode] = []
        for list in loose {
            let items = list.children
            var earlierBare = false
            for (index, item) in items.enumerated() {
                let blocks = item.children
                guard let first = blocks.first, first.type == CMARK_NODE_PARAGRAPH else {
                    earlierBare = true
                    continue
                }
                let isLast = index == items.count - 1
                let blankAfter = isBlank(first.endLine + 1, depth: first.blockQuoteDepth, in: lines)
                if (!blankAfter || (isLast && blocks.count == 1)) && (!isLast || items.count == 1 || earlierBare) {
                    bare.append(first)
                    earlierBare = true
                }
            }
        }
        return bare.filter(unwrap)
    }

    /// Whether line `number` exists and holds nothing but the markers of `depth` block quotes and white space.
    private static func isBlank(_ number: Int, depth: Int, in lines: SourceLines) -> Bool {
        guard number >= 1, number <= lines.count else { return false }
        let line = lines[number]
        let start = depth > 0 ? lines.afterBlockQuoteMarkers(line: number, depth: depth) : line.startIndex
        return line[max(start, line.startIndex)...].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// Puts `paragraph`'s inlines in a custom block that writes no tag, in its place, and unlinks it
    /// (not freed: its inlines' text lives in it); false when cmark refused, and nothing changed.
    private static func unwrap(_ paragraph: CmarkNode) -> Bool {
        let block = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "", exit: "")
        guard cmark_node_insert_before(paragraph.pointer, block.pointer) == 1 else {
            cmark_node_free(block.pointer)
            return false
        }
        while let child = cmark_node_first_child(paragraph.pointer) {
            guard cmark_node_append_child(block.pointer, child) == 1 else { break }
        }
        cmark_node_unlink(paragraph.pointer)
        return true
    }
}
