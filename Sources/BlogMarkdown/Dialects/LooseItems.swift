import CCmarkGFM

/// Where Python-Markdown puts a list item's text in `<p>`: item by item, not for the whole list.
///
/// In CommonMark a list with a blank line anywhere between its items is loose, and every item's
/// text is a `<p>`. Python-Markdown reads the text in blocks between blank lines: a list block
/// that goes on after a blank line wraps the text of the item before the blank line in `<p>`, and
/// the first item after it is read as loose (`<li><p>`); the other items stay `<li>text</li>`. An
/// item holding a blank line of its own is loose too. So, in a loose list, when some item is
/// none of these, the list is made tight and the loose items' paragraphs are each put in a custom
/// block that writes nothing (cmark writes a paragraph without `<p>` only when its parent's parent
/// is a tight list).
///
/// Before that, a list right after a list (only blank lines between, or none) goes on in it, as
/// Python-Markdown's list processors continue the list before them whatever its kind: CommonMark
/// starts a new list where the marker changes (`*` to `-`, `1.` to `*`). Its items are moved into
/// the first list, which is loose when a blank line parts them.
enum LooseItems {
    /// Applies the rule to `lists` (every list of a document, in document order, as ``CmarkNode/lists``
    /// finds them), parsed from `lines`: first each list that follows a list is moved into it, then every
    /// loose list is made item by item. The lists are found once, by the caller (each walk of the blocks
    /// cost about 4,800 instructions a post at 1,000 posts, issue 32).
    static func apply(to lists: [CmarkNode], lines: SourceLines) {
        for list in joined(lists, lines: lines) where cmark_node_get_list_tight(list.pointer) == 0 {
            let depth = list.blockQuoteDepth
            func blank(_ number: Int) -> Bool {
                guard number >= 1 else { return false }
                let line = lines[number]
                return line[lines.afterBlockQuoteMarkers(line: number, depth: depth)...]
                    .allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            }
            let items = list.children
            let loose = items.indices.map { index -> Bool in
                let item = items[index]
                let children = item.children
                let inside = zip(children, children.dropFirst()).contains { before, after in
                    before.endLine + 1 < after.startLine && (before.endLine + 1..<after.startLine).contains(where: blank)
                }
                return inside || (index > 0 && blank(item.startLine - 1))
                    || (index + 1 < items.count && blank(items[index + 1].startLine - 1))
            }
            guard loose.contains(false) else { continue }
            cmark_node_set_list_tight(list.pointer, 1)
            for (item, isLoose) in zip(items, loose) where isLoose {
                for paragraph in item.children where paragraph.type == CMARK_NODE_PARAGRAPH {
                    let wrapper = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "", exit: "")
                    cmark_node_insert_before(paragraph.pointer, wrapper.pointer)
                    cmark_node_append_child(wrapper.pointer, paragraph.pointer)
                }
            }
        }
    }

    /// Moves the items of each of `lists` that follows a list into that list, and frees it; returns the
    /// lists left, in document order.
    private static func joined(_ lists: [CmarkNode], lines: SourceLines) -> [CmarkNode] {
        var left: [CmarkNode] = []
        left.reserveCapacity(lists.count)
        for list in lists {
            guard let previous = list.previous, previous.type == CMARK_NODE_LIST else {
                left.append(list)
                continue
            }
            // Only blank lines can come between two lists that are siblings: one before the list parts them.
            let number = list.startLine - 1
            let line = lines[number]
            let parted = number > previous.startLine && line[lines.afterBlockQuoteMarkers(line: number, depth: list.blockQuoteDepth)...]
                .allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if parted || cmark_node_get_list_tight(list.pointer) == 0 { cmark_node_set_list_tight(previous.pointer, 0) }
            list.moveChildren(to: previous)
            cmark_node_unlink(list.pointer)
            cmark_node_free(list.pointer)
        }
        return left
    }
}

extension CmarkNode {
    /// The lists at or under this node in document order (a walk of the blocks: ``blocks(where:)``).
    var lists: [CmarkNode] { blocks { $0 == CMARK_NODE_LIST } }
}
