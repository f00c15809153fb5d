import BlogCore
import CCmarkGFM

/// Hands out heading ids unique in one page: the slug of the text (`section` when it has no letter
/// or digit), then `-1`, `-2`, ... for repeats, as Hugo and GitHub do. An id already taken by an
/// earlier heading (a heading titled "Intro 1") is skipped.
struct HeadingIDs {
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]

    /// The id for a heading whose plain text is `text`; it is taken from then on.
    mutating func claim(forText text: String) -> String {
        let slug = Slug.make(text)
        let base = slug.isEmpty ? "section" : slug
        var id = base
        if used.contains(base) {
            var suffix = nextSuffix[base, default: 1]
            while used.contains("\(base)-\(suffix)") { suffix += 1 }
            nextSuffix[base] = suffix + 1
            id = "\(base)-\(suffix)"
        }
        used.insert(id)
        return id
    }
}

/// Gives every heading of a document its `id` by editing the cmark tree.
enum HeadingAnchors {
    /// Replaces each of `headings` (`CMARK_NODE_HEADING`s of one document, in order) by an HTML
    /// block `<hN id="…">…</hN>` whose content cmark renders from the heading's children (so it is
    /// escaped as usual, and `tagfilter` applies to raw HTML inside), and frees the heading nodes.
    static func apply(to headings: [CmarkNode], tagfilter: Bool) -> [Heading] {
        var ids = HeadingIDs()
        return headings.map { heading in
            let level = Int(cmark_node_get_heading_level(heading.pointer))
            let text = plainText(of: heading)
            let id = ids.claim(forText: text)
            let content = heading.children.map { GFM.html($0.pointer, tagfilter: tagfilter) }.joined()
            heading.replace(withHTMLBlock: "<h\(level) id=\"\(Escaping.html(id))\">\(content)</h\(level)>")
            return Heading(level: level, id: id, text: text)
        }
    }

    /// The text a reader sees in `node`: text and code spans, line breaks as spaces, raw HTML tags
    /// and footnote references left out.
    static func plainText(of node: CmarkNode) -> String {
        var text = ""
        appendPlainText(of: node, to: &text)
        return text
    }

    private static func appendPlainText(of node: CmarkNode, to text: inout String) {
        for child in node.children {
            switch child.type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += child.literal ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            case CMARK_NODE_HTML_INLINE, CMARK_NODE_FOOTNOTE_REFERENCE: break
            default: appendPlainText(of: child, to: &text)
            }
        }
    }
}
