import CCmarkGFM

/// A borrowed pointer to a node of a cmark-gfm tree, with the few accessors the Markdown stage needs.
/// It does not own the node: the document's owner frees the tree.
struct CmarkNode {
    /// The C node.
    let pointer: OpaquePointer

    /// The node's type (`CMARK_NODE_HEADING`, ...).
    var type: cmark_node_type { cmark_node_get_type(pointer) }

    /// The string content of text, code, code block and HTML nodes; nil for the others.
    var literal: String? { cmark_node_get_literal(pointer).map { String(cString: $0) } }

    /// The parent; nil for the document.
    var parent: CmarkNode? { cmark_node_parent(pointer).map(CmarkNode.init) }

    /// The sibling before `self`.
    var previous: CmarkNode? { cmark_node_previous(pointer).map(CmarkNode.init) }

    /// The sibling after `self`.
    var next: CmarkNode? { cmark_node_next(pointer).map(CmarkNode.init) }

    /// The first child.
    var firstChild: CmarkNode? { cmark_node_first_child(pointer).map(CmarkNode.init) }

    /// The 1-based line of the parsed text where the node starts.
    var startLine: Int { Int(cmark_node_get_start_line(pointer)) }

    /// The 1-based line of the parsed text where the node ends.
    var endLine: Int { Int(cmark_node_get_end_line(pointer)) }

    /// The 1-based byte column where the node starts (after container markers and indentation).
    var startColumn: Int { Int(cmark_node_get_start_column(pointer)) }

    /// How many block quotes hold the node.
    var blockQuoteDepth: Int {
        var depth = 0
        var node = parent
        while let current = node {
            if current.type == CMARK_NODE_BLOCK_QUOTE { depth += 1 }
            node = current.parent
        }
        return depth
    }

    /// The children, first to last.
    var children: [CmarkNode] {
        var result: [CmarkNode] = []
        var child = cmark_node_first_child(pointer)
        while let current = child {
            result.append(CmarkNode(pointer: current))
            child = cmark_node_next(current)
        }
        return result
    }

    /// Every node below `self` (`self` included) of type `type`, in document order.
    func descendants(ofType type: cmark_node_type) -> [CmarkNode] {
        var found: [CmarkNode] = []
        forEachDescendant { node, nodeType in
            if nodeType == type { found.append(CmarkNode(pointer: node)) }
        }
        return found
    }

    /// The blocks below `self` (`self` included) of each of two types, each in document order, found in one
    /// walk of the blocks (``forEachBlock(_:)``).
    func blocks(ofTypes first: cmark_node_type, _ second: cmark_node_type) -> ([CmarkNode], [CmarkNode]) {
        var found: ([CmarkNode], [CmarkNode]) = ([], [])
        forEachBlock { node, nodeType in
            if nodeType == first { found.0.append(CmarkNode(pointer: node)) } else if nodeType == second { found.1.append(CmarkNode(pointer: node)) }
        }
        return found
    }

    /// The blocks below `self` (`self` included) whose type `keep` accepts, in document order (``forEachBlock(_:)``).
    func blocks(where keep: (cmark_node_type) -> Bool) -> [CmarkNode] {
        var found: [CmarkNode] = []
        forEachBlock { node, nodeType in
            if keep(nodeType) { found.append(CmarkNode(pointer: node)) }
        }
        return found
    }

    /// Calls `body` with every node below `self` (`self` included) and its type, in document order, but the
    /// children of paragraphs and headings: inlines, never a block, and most of a post's nodes (a walk of
    /// every node cost three times as much, issue 32). So it finds every block, and inlines only where
    /// they are not in a paragraph or heading (a table's cells).
    private func forEachBlock(_ body: (OpaquePointer, cmark_node_type) -> Void) {
        var pending = [pointer]  // the nodes still to look at, the next one last
        pending.reserveCapacity(64)
        while let node = pending.popLast() {
            let type = cmark_node_get_type(node)
            body(node, type)
            guard type != CMARK_NODE_PARAGRAPH, type != CMARK_NODE_HEADING else { continue }
            var child = cmark_node_last_child(node)
            while let current = child {
                pending.append(current)
                child = cmark_node_previous(current)
            }
        }
    }

    /// Calls `body` with every node below `self` (`self` included) and its type, in document order.
    /// Walked by the links between nodes (first child, next sibling, parent) rather than with a `cmark_iter`,
    /// which stops at each node twice (entering and leaving) and costs a call more per stop.
    private func forEachDescendant(_ body: (OpaquePointer, cmark_node_type) -> Void) {
        var node = pointer
        while true {
            body(node, cmark_node_get_type(node))
            if let child = cmark_node_first_child(node) {
                node = child
                continue
            }
            // Up to the first node with a next sibling, never above `self`.
            while node != pointer, cmark_node_next(node) == nil {
                guard let parent = cmark_node_parent(node) else { return }
                node = parent
            }
            guard node != pointer, let next = cmark_node_next(node) else { return }
            node = next
        }
    }

    /// A new node of `type`, not yet in a tree: insert it into one, or free it.
    static func make(_ type: cmark_node_type) -> CmarkNode {
        // cmark's allocator aborts when memory runs out, so a node always comes back.
        guard let node = cmark_node_new_with_mem(type, GFM.memory) else { preconditionFailure("cmark_node_new failed") }
        return CmarkNode(pointer: node)
    }

    /// A custom block (`CMARK_NODE_CUSTOM_BLOCK`) or inline rendered as `enter`, its children, `exit`.
    static func custom(_ type: cmark_node_type, enter: String, exit: String) -> CmarkNode {
        let node = make(type)
        cmark_node_set_on_enter(node.pointer, enter)
        cmark_node_set_on_exit(node.pointer, exit)
        return node
    }

    /// Moves every child of `self` to the end of `target`'s children.
    func moveChildren(to target: CmarkNode) {
        while let child = cmark_node_first_child(pointer) {
            cmark_node_append_child(target.pointer, child)
        }
    }

    /// Unlinks `self` from its tree and frees it with its children.
    func free() {
        cmark_node_unlink(pointer)
        cmark_node_free(pointer)
    }

    /// Puts an HTML block holding `html` where `self` was, and frees `self` and its children.
    func replace(withHTMLBlock html: String) {
        guard let block = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, GFM.memory) else { return }
        cmark_node_set_literal(block, html)
        cmark_node_replace(pointer, block)
        cmark_node_free(pointer)
    }
}
