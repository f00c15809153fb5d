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
    /// Moves the items of each list that follows a list into that list (``LooseItems``).
    /// Returns whether any list of `document` is loose.
    static func joinLists(in document: CmarkNode, lines: SourceLines) -> Bool {
        for list in document.lists {
            guard let previous = list.previous, previous.type == CMARK_NODE_LIST else { continue }
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
        return document.lists.contains { cmark_node_get_list_tight($0.pointer) == 0 }
    }

    /// Applies the rule to every loose list of `document`, parsed from `lines`.
    static func apply(in document: CmarkNode, lines: SourceLines) {
        for list in document.lists where cmark_node_get_list_tight(list.pointer) == 0 {
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
}

extension CmarkNode {
    /// The lists at or under this node in document order, as ``descendants(ofType:)`` finds them, without
    /// walking into paragraphs and headings, whose children are inlines and never a list: most of a
    /// post's nodes (issue 32).
    var lists: [CmarkNode] {
        var found: [CmarkNode] = []
        var pending = [pointer]  // the nodes still to look at, the next one last
        while let node = pending.popLast() {
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_LIST { found.append(CmarkNode(pointer: node)) }
            guard type != CMARK_NODE_PARAGRAPH, type != CMARK_NODE_HEADING else { continue }
            var child = cmark_node_last_child(node)
            while let current = child {
                pending.append(current)
                child = cmark_node_previous(current)
            }
        }
        return found
    }
}
