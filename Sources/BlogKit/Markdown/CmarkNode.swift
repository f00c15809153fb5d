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
        guard let iterator = cmark_iter_new(pointer) else { return [] }
        defer { cmark_iter_free(iterator) }
        var found: [CmarkNode] = []
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            if cmark_node_get_type(node) == type { found.append(CmarkNode(pointer: node)) }
        }
        return found
    }

    /// Puts an HTML block holding `html` where `self` was, and frees `self` and its children.
    func replace(withHTMLBlock html: String) {
        guard let block = cmark_node_new(CMARK_NODE_HTML_BLOCK) else { return }
        cmark_node_set_literal(block, html)
        cmark_node_replace(pointer, block)
        cmark_node_free(pointer)
    }
}
