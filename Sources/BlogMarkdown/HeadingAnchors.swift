import BlogCore
import CCmarkGFM

/// Whose rule makes heading ids, so that `#anchors` written against a blog's old site keep
/// working (set by the `permalinks` preset).
public enum HeadingIDStyle: String, Sendable, Equatable {
    /// blog's own: ``Slug/make(_:)`` of the text, `section` when empty, then `-1`, `-2`.
    case blog
    /// Jekyll's kramdown with its GFM parser (`generate_gfm_header_id`): the text lower-cased,
    /// every character but letters, digits, `_`, `-`, space and tab dropped, each space or tab a
    /// `-`; a repeat gets `-1`, `-2` (even when that id is taken); an empty id is no id.
    case kramdown
    /// Python-Markdown's `toc` extension (Pelican's): the text in ASCII (accents dropped, other
    /// letters too), everything but `\w`, spaces and `-` dropped, lower-cased, runs of spaces and
    /// `-` one `-`; a repeat or an empty id gets `_1`, `_2`.
    case pythonMarkdown
    /// Hugo's goldmark (`autoHeadingIDType: github`): trimmed, each space or `-` a `-`, letters,
    /// digits and `_` lower-cased, everything else dropped, from the heading's markdown (a link's
    /// URL included); empty: `heading`; a repeat gets the first free `-1`, `-2`.
    case goldmark
}

/// Hands out heading ids unique in one page, by the rule of ``HeadingIDStyle``. In blog's own
/// style: the slug of the text (`section` when it has no letter or digit), then `-1`, `-2`, ...
/// for repeats, as Hugo and GitHub do; an id already taken by an earlier heading (a heading
/// titled "Intro 1") is skipped.
struct HeadingIDs {
    var style: HeadingIDStyle = .blog
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]

    init(style: HeadingIDStyle = .blog) {
        self.style = style
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
            while id.isEmpty || used.contains(id) {
                // Python-Markdown's `unique`: `x_1` becomes `x_2`, anything else gets `_1`.
                if let underscore = id.lastIndex(of: "_"), let number = Int(id[id.index(after: underscore)...]),
                   id[id.index(after: underscore)...].allSatisfy(\.isASCII) {
                    id = "\(id[..<underscore])_\(number + 1)"
                } else {
                    id += "_1"
                }
            }
            used.insert(id)
            return id
        }
    }

    /// `base`, or the first of `base-1`, `base-2`... not taken.
    private mutating func claimWithDash(_ base: String) -> String {
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

    /// kramdown-parser-gfm's id of `text`, before repeats are counted.
    static func kramdownID(_ text: String) -> String {
        var id = ""
        for scalar in text.lowercased().unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case _ where scalar == " " || scalar == "\t": id += "-"
            case _ where scalar == "-": id += "-"
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
                id.unicodeScalars.append(scalar)
            default:
                if properties.isAlphabetic { id.unicodeScalars.append(scalar) }
            }
        }
        return id
    }

    /// Python-Markdown `toc`'s `slugify(text, "-")`, before repeats are made unique.
    static func pythonMarkdownID(_ text: String) -> String {
        var kept = ""
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars where scalar.isASCII {
            switch scalar {
            case "a"..."z", "0"..."9", "_", "-": kept.unicodeScalars.append(scalar)
            case "A"..."Z": kept.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}": kept += " "
            default: break
            }
        }
        var id = ""
        var pendingDash = false
        for character in kept.trimmingCharacters(in: .whitespaces) {
            if character == " " || character == "-" { pendingDash = true; continue }
            if pendingDash { id += "-"; pendingDash = false }
            id.append(character)
        }
        return pendingDash ? id + "-" : id
    }

    /// Hugo's `github` id of `text` (goldmark), before repeats are made unique.
    static func goldmarkID(_ text: String) -> String {
        var id = ""
        for scalar in text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars {
            if scalar == " " || scalar == "-" {
                id += "-"
            } else if scalar == "_" || scalar.properties.isAlphabetic && scalar.properties.generalCategory.isLetter
                        || scalar.properties.generalCategory == .decimalNumber {
                id += String(scalar).lowercased()
            }
        }
        return id
    }
}

extension Unicode.GeneralCategory {
    /// Lu, Ll, Lt, Lm, Lo: Go's `unicode.IsLetter`.
    var isLetter: Bool {
        switch self {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }
}

/// Gives every heading of a document its `id` by editing the cmark tree.
enum HeadingAnchors {
    /// Replaces each of `headings` (`CMARK_NODE_HEADING`s of one document, in order) by an HTML
    /// block `<hN id="…">…</hN>` whose content cmark renders from the heading's children (so it is
    /// escaped as usual, and `tagfilter` applies to raw HTML inside), and frees the heading nodes.
    static func apply(to headings: [CmarkNode], tagfilter: Bool, style: HeadingIDStyle = .blog) -> [Heading] {
        var ids = HeadingIDs(style: style)
        return headings.map { heading in
            let level = Int(cmark_node_get_heading_level(heading.pointer))
            let text = plainText(of: heading)
            let id = ids.claim(forText: style == .blog ? text : idText(of: heading, style: style))
            let content = heading.children.map { GFM.html($0.pointer, tagfilter: tagfilter) }.joined()
            let attribute = id.isEmpty ? "" : " id=\"\(Escaping.html(id))\""
            heading.replace(withHTMLBlock: "<h\(level)\(attribute)>\(content)</h\(level)>")
            // The id sees a mark's kind and number (`shortcode0`), always the same; the text has none.
            return Heading(level: level, id: id, text: PlaceholderMarks.build.removingMarks(from: text))
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
