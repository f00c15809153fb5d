import BlogCore
import CCmarkGFM

/// Hands out heading ids unique in one page, by the rule of ``HeadingIDStyle``. In blog's own
/// style: the slug of the text (`section` when it has no letter or digit), then `-1`, `-2`, ...
/// for repeats, as Hugo and GitHub do; an id already taken by an earlier heading (a heading
/// titled "Intro 1") is skipped.
struct HeadingIDs {
    var style: HeadingIDStyle = .blog
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]

    init(style: HeadingIDStyle = .blog, count: Int = 0) {
        self.style = style
        // Room for every heading's id at once: the set grew (and hashed its ids again) at 1, 2, 4, 8...
        if style != .kramdown { used.reserveCapacity(count) }
    }

    /// The id for a heading whose plain text is `text`; it is taken from then on. Empty: the
    /// heading gets no id (kramdown's rule only).
    mutating func claim(forText text: String) -> String {
        switch style {
        case .blog:
            let slug = Slug.make(text)
            return claimWithDash(slug.isEmpty ? "section" : slug)
        case .goldmark:
            let id = Self.goldmarkID(text)
            return claimWithDash(id.isEmpty ? "heading" : id)
        case .kramdown:
            let base = Self.kramdownID(text)
            // kramdown counts repeats of each id it made, and never looks at the others.
            let count = nextSuffix[base, default: 0]
            nextSuffix[base] = count + 1
            return count == 0 ? base : "\(base)-\(count)"
        case .pythonMarkdown:
            var id = Self.pythonMarkdownID(text)
            while id.isEmpty || !used.insert(id).inserted {
                // Python-Markdown's `unique`: `x_1` becomes `x_2`, anything else gets `_1`.
                if let underscore = id.lastIndex(of: "_"), let number = Int(id[id.index(after: underscore)...]),
                   id[id.index(after: underscore)...].allSatisfy(\.isASCII) {
                    id = "\(id[..<underscore])_\(number + 1)"
                } else {
                    id += "_1"
                }
            }
            return id
        }
    }

    /// `base`, or the first of `base-1`, `base-2`... not taken.
    private mutating func claimWithDash(_ base: String) -> String {
        // Most ids are new: one insert hashes the id once, where asking first and inserting then hashed it twice.
        if used.insert(base).inserted { return base }
        var suffix = nextSuffix[base, default: 1]
        var id = "\(base)-\(suffix)"
        while !used.insert(id).inserted {
            suffix += 1
            id = "\(base)-\(suffix)"
        }
        nextSuffix[base] = suffix + 1
        return id
    }
}

/// Gives every heading of a document its `id` by editing the cmark tree.
enum HeadingAnchors {
    /// Replaces each of `headings` (`CMARK_NODE_HEADING`s of one document, in order) by an HTML
    /// block `<hN id="…">…</hN>` whose content cmark renders from the heading's children (so it is
    /// escaped as usual, and `tagfilter` applies to raw HTML inside), and frees the heading nodes.
    static func apply(to headings: [CmarkNode], tagfilter: Bool, style: HeadingIDStyle = .blog) -> [Heading] {
        var ids = HeadingIDs(style: style, count: headings.count)
        return headings.map { heading in
            let level = Int(cmark_node_get_heading_level(heading.pointer))
            let (text, simple) = textAndSimpleHTML(of: heading)
            let id = ids.claim(forText: style == .blog ? text : idText(of: heading, style: style))
            let content = simple ?? heading.children.map { GFM.html($0.pointer, tagfilter: tagfilter) }.joined()
            let block = headingBlock(level: level, escapedID: id.isEmpty ? nil : Escaping.html(id), content: content)
            heading.replace(withHTMLBlock: block)
            // The id sees a mark's kind and number (`shortcode0`), always the same; the text has none.
            return Heading(level: level, id: id, text: PlaceholderMarks.build.removingMarks(from: text))
        }
    }

    /// `<hN id="…">content</hN>` (no `id` without one), written in one allocation: `String.append` costs
    /// some 330 instructions a call, and the block took ten (13M of the pass's 49M at 1,000 posts).
    static func headingBlock(level: Int, escapedID: String?, content: String) -> String {
        var id = escapedID ?? "", content = content
        let digit = UInt8(ascii: "0") &+ UInt8(clamping: level)
        return id.withUTF8 { idBytes in
            content.withUTF8 { contentBytes in
                String(unsafeUninitializedCapacity: idBytes.count + contentBytes.count + 16) { out in
                    var at = 0
                    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
                        (out.baseAddress! + at).update(from: source, count: bytes.count)
                        at += bytes.count
                    }
                    func put(_ text: StaticString) { put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
                    put("<h")
                    out[at] = digit
                    at += 1
                    if escapedID != nil {
                        put(" id=\"")
                        put(idBytes)
                        put("\"")
                    }
                    put(">")
                    put(contentBytes)
                    put("</h")
                    out[at] = digit
                    at += 1
                    put(">")
                    return at
                }
            }
        }
    }

    /// The HTML cmark-gfm renders for the children of `heading`, made here without a render of its
    /// own when they are only text, code spans, soft breaks, emphasis and strong emphasis (most headings
    /// are): cmark writes text escaped (`&`, `<`, `>`, `"`: ``Escaping/html(_:)``), a code span as
    /// `<code>` and its escaped text, a soft break as a line feed (no `hardbreaks` or `nobreaks`
    /// option), and `<em>`, `<strong>` around their children (strong inside strong, which cmark-gfm
    /// writes once, is left to cmark). Nil for anything else (links, images, raw HTML, footnote
    /// references, the extensions' nodes): cmark renders those. A render per heading cost 60M of the
    /// markdown stage's 1,000M instructions at 1,000 posts.
    static func simpleHTML(of heading: CmarkNode) -> String? { textAndSimpleHTML(of: heading).html }

    /// ``plainText(of:)`` and ``simpleHTML(of:)`` of `heading` in one walk of its children, each text's
    /// literal made a `String` once: two walks, with an array of the children each, and two copies of
    /// every literal cost ~2,000 instructions a heading (issue 32).
    static func textAndSimpleHTML(of heading: CmarkNode) -> (text: String, html: String?) {
        var text = "", html: String? = ""
        appendTextAndSimpleHTML(of: heading.pointer, text: &text, html: &html)
        return (text, html)
    }

    /// Adds the text of `node`'s children to `text` as ``appendPlainText(of:to:style:)`` does in blog's style,
    /// and their simple HTML to `html`, which becomes nil at the first child cmark must render.
    private static func appendTextAndSimpleHTML(of node: OpaquePointer, text: inout String, html: inout String?) {
        var child = cmark_node_first_child(node)
        while let current = child {
            let type = cmark_node_get_type(current)
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                guard let pointer = cmark_node_get_literal(current) else {
                    html = nil
                    break
                }
                let literal = String(cString: pointer)
                text += literal
                if html != nil { html! += type == CMARK_NODE_CODE ? "<code>" + Escaping.html(literal) + "</code>" : Escaping.html(literal) }
            case CMARK_NODE_SOFTBREAK:
                text += " "
                html? += "\n"
            case CMARK_NODE_LINEBREAK:
                text += " "
                html = nil
            case CMARK_NODE_HTML_INLINE, CMARK_NODE_FOOTNOTE_REFERENCE:
                html = nil
            case CMARK_NODE_EMPH:
                html? += "<em>"
                appendTextAndSimpleHTML(of: current, text: &text, html: &html)
                html? += "</em>"
            case CMARK_NODE_STRONG where cmark_node_get_type(node) != CMARK_NODE_STRONG:
                html? += "<strong>"
                appendTextAndSimpleHTML(of: current, text: &text, html: &html)
                html? += "</strong>"
            default:
                html = nil
                appendTextAndSimpleHTML(of: current, text: &text, html: &html)
            }
            child = cmark_node_next(current)
        }
    }

    /// The text a reader sees in `node`: text and code spans, line breaks as spaces, raw HTML tags
    /// and footnote references left out.
    static func plainText(of node: CmarkNode) -> String {
        var text = ""
        appendPlainText(of: node, to: &text, style: .blog)
        return text
    }

    /// The text another generator makes a heading's id from: kramdown and Python-Markdown leave
    /// out an image's alt text; Hugo reads the heading's markdown, so a link's and an image's URL
    /// and raw HTML tags are in, and smart dashes are the `--` that was written.
    static func idText(of node: CmarkNode, style: HeadingIDStyle) -> String {
        var text = ""
        appendPlainText(of: node, to: &text, style: style)
        guard style == .goldmark else { return text }
        return text.replacingOccurrences(of: "\u{2014}", with: "---").replacingOccurrences(of: "\u{2013}", with: "--")
    }

    private static func appendPlainText(of node: CmarkNode, to text: inout String, style: HeadingIDStyle) {
        for child in node.children {
            switch child.type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += child.literal ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            case CMARK_NODE_HTML_INLINE where style == .goldmark: text += child.literal ?? ""
            case CMARK_NODE_HTML_INLINE, CMARK_NODE_FOOTNOTE_REFERENCE: break
            case CMARK_NODE_IMAGE where style == .kramdown || style == .pythonMarkdown: break
            case CMARK_NODE_LINK where style == .goldmark, CMARK_NODE_IMAGE where style == .goldmark:
                appendPlainText(of: child, to: &text, style: style)
                if let url = cmark_node_get_url(child.pointer) { text += String(cString: url) }
            default: appendPlainText(of: child, to: &text, style: style)
            }
        }
    }
}
