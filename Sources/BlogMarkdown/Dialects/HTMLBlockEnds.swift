import BlogCore
import CCmarkGFM

/// Where Python-Markdown and kramdown end a block of raw HTML, which is not where CommonMark does.
///
/// CommonMark ends most HTML blocks at the next blank line, so the lines after a line holding only
/// a tag (`<img …>`, `<br>`, `<div class="x"></div>`) are raw HTML too: a link, an emphasis, a
/// fenced code block there appear as literal text. Python-Markdown and kramdown render them:
/// - an *inline* element's tag (`<img>`, `<br>`, `<span>`, `</a>`…) starts a paragraph, as text
///   would, also alone on its line between blank lines (`<img …>` is `<p><img …></p>`, as in both):
///   its line is rewritten with the tag escaped (`\<`), so that cmark reads a paragraph,
///   and the tag is put back as raw HTML once the text is parsed (see ``restore(in:tags:original:)``);
/// - a *block* element's tag (`<div>`, `<p>`, `<hr>`…) makes raw HTML up to the line where the
///   element ends (its matching closing tag, or the tag itself for an empty element): a blank
///   line is inserted after that line when the block went on.
///
/// Which elements are blocks is each generator's list: Python-Markdown's `block_level_elements`
/// (any other element, a custom one too, is inline); for kramdown every element but its span
/// elements (`HTML_SPAN_ELEMENTS`: its `parse_block_html` leaves a line starting with one to the
/// paragraph parser). `<script>`, `<style>`, `<pre>`, `<textarea>`, comments and the other HTML
/// blocks that CommonMark ends at their closing marker are left as they are.
enum HTMLBlockEnds {
    /// Adds to `edits` the changes that end `block` (an HTML block) as `dialect` does; the tags
    /// escaped go to `tags`, by line of the parsed text.
    static func collect(in block: CmarkNode, lines: SourceLines, dialect: MarkdownDialect,
                        edits: inout LineEdits, tags: inout [Int: [UInt8]], notes: inout [LineNote], opened: inout Set<Int>) {
        let depth = block.blockQuoteDepth
        var number = block.startLine
        let last = block.endLine
        while number <= last, !edits.touches(number) {
            let line = lines[number]
            var start = number == block.startLine ? line.startIndex + block.startColumn - 1
                : lines.afterBlockQuoteMarkers(line: number, depth: depth)
            while start < line.endIndex, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") { start += 1 }
            guard let tag = Tag(line, at: start), !rawTextElements.contains(tag.name) else { return }
            let isBlock = isBlockElement(tag.name, dialect: dialect)
            if isBlock, !tag.closing, ByteSearch.contains(String(decoding: line[tag.attributes], as: UTF8.self).lowercased(), "markdown=") {
                if dialect.markdownInHTMLAsPythonMarkdown, number == block.startLine,
                   HTMLBlocksAcrossBlankLines.openForMarkdown(block, tag: tag, lines: lines, edits: &edits) {
                    opened.insert(number)
                    return
                }
                notes.append(LineNote(line: number, offset: start, message: "the markdown inside <\(tag.name) markdown=…> is left as raw HTML, where \(dialect.generatorName) renders it: blog reads no markdown inside HTML elements"))
            }
            if isBlock {
                guard !tag.closing else { return }
                let end = tag.selfClosing || voidElements.contains(tag.name) ? number
                    : closingLine(of: tag.name, from: number, after: tag.end, through: last, lines: lines)
                guard let end, end < last else { return }
                edits.insert(Array(lines[end][..<lines.afterBlockQuoteMarkers(line: end, depth: depth)]), afterLine: end)
                number = end + 1
            } else {
                let rest = line[tag.end...]
                edits.replace(line: number, with: Array(line[..<start]) + Array("\\<".utf8) + Array(rest))
                tags[number] = Array(line[start..<tag.end])
                return
            }
        }
    }

    /// Puts back the tags escaped by ``collect(in:lines:dialect:edits:tags:notes:opened:)``: each text
    /// node `<` that starts a line of `tags` (a line of the original text, through `original`)
    /// becomes the tag, as raw HTML. The line may have become the first line of a paragraph or a
    /// lazy continuation line of one (Python-Markdown and kramdown read it so too).
    /// Returns the lines whose tag was put back.
    static func restore(in texts: [CmarkNode], tags: [Int: [UInt8]], original: (Int) -> Int) -> Set<Int> {
        var restored: Set<Int> = []
        for text in texts {
            let line = original(text.startLine)
            guard let tag = tags[line], text.literal == "<",
                  text.previous.map({ $0.type == CMARK_NODE_SOFTBREAK || $0.type == CMARK_NODE_LINEBREAK }) ?? true
            else { continue }
            let html = CmarkNode.make(CMARK_NODE_HTML_INLINE)
            cmark_node_set_literal(html.pointer, String(decoding: tag, as: UTF8.self))
            cmark_node_replace(text.pointer, html.pointer)
            cmark_node_free(text.pointer)
            restored.insert(line)
        }
        return restored
    }

    /// The line where the element `name` opened on line `number` (its tag ending before `offset`)
    /// is closed, counting the same elements opened and closed inside it; nil when it is not
    /// closed by line `last`.
    static func closingLine(of name: String, from number: Int, after offset: Int, through last: Int, lines: SourceLines) -> Int? {
        let name = Array(name.utf8)
        var open = 1
        for current in number...last {
            let line = lines[current]
            var position = current == number ? offset : line.startIndex
            while position < line.endIndex {
                guard line[position] == UInt8(ascii: "<") else { position += 1; continue }
                if let tag = Tag(line, at: position), Array(tag.name.utf8) == name {
                    if tag.closing { open -= 1 } else if !tag.selfClosing { open += 1 }
                    if open == 0 { return current }
                    position = tag.end
                } else {
                    position += 1
                }
            }
        }
        return nil
    }

    /// Whether `dialect` reads an element named `name` (lower-cased) as a block.
    static func isBlockElement(_ name: String, dialect: MarkdownDialect) -> Bool {
        dialect == .kramdown ? !kramdownSpanElements.contains(name) : pythonMarkdownBlockElements.contains(name)
    }

    /// Python-Markdown's `Markdown.block_level_elements` (3.x).
    static let pythonMarkdownBlockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "canvas", "center", "colgroup", "dd", "details",
        "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "group", "h1", "h2", "h3",
        "h4", "h5", "h6", "header", "hgroup", "hr", "html", "iframe", "legend", "li", "main", "map", "math",
        "menu", "nav", "noscript", "object", "ol", "option", "output", "p", "pre", "progress", "script",
        "section", "style", "summary", "table", "tbody", "td", "textarea", "tfoot", "th", "thead", "tr",
        "ul", "video",
    ]

    /// kramdown's `HTML_SPAN_ELEMENTS`: every other element starts a block.
    static let kramdownSpanElements: Set<String> = [
        "a", "abbr", "acronym", "b", "big", "bdo", "br", "button", "cite", "code", "del", "dfn", "em", "i",
        "img", "input", "ins", "kbd", "label", "mark", "option", "q", "rb", "rbc", "rp", "rt", "rtc", "ruby",
        "samp", "select", "small", "span", "strong", "sub", "sup", "tt", "u", "var",
    ]

    /// Elements without content: their tag is the whole element.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "command", "embed", "hr", "img", "input", "keygen", "link", "meta",
        "param", "source", "track", "wbr",
    ]

    /// The elements whose HTML block CommonMark ends at their closing tag already.
    static let rawTextElements: Set<String> = ["script", "style", "pre", "textarea"]

    /// An opening or closing tag that starts at a given offset of a line and ends on it.
    struct Tag {
        /// The element's name, lower-cased.
        var name: String
        /// `</name>`.
        var closing: Bool
        /// `<name … />`.
        var selfClosing: Bool
        /// The offset just past the tag's `>`.
        var end: Int
        /// Where its attributes are (a `markdown` attribute asks Python-Markdown's `md_in_html`
        /// and kramdown to read markdown inside).
        var attributes: Range<Int>

        /// Reads the tag at `start` of `line`; nil when there is none, or it does not end on the line.
        init?(_ line: ArraySlice<UInt8>, at start: Int) {
            guard start < line.endIndex, line[start] == UInt8(ascii: "<") else { return nil }
            var position = start + 1
            closing = position < line.endIndex && line[position] == UInt8(ascii: "/")
            if closing { position += 1 }
            let nameStart = position
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            guard position < line.endIndex, isLetter(line[position]) else { return nil }
            while position < line.endIndex, isLetter(line[position]) || (line[position] >= UInt8(ascii: "0") && line[position] <= UInt8(ascii: "9")) || line[position] == UInt8(ascii: "-") {
                position += 1
            }
            name = String(decoding: line[nameStart..<position], as: UTF8.self).lowercased()
            // After the name: white space, `/` or `>`.
            guard position < line.endIndex, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "/"), UInt8(ascii: ">")].contains(line[position]) else { return nil }
            let attributesStart = position
            var quote: UInt8?
            while position < line.endIndex {
                let byte = line[position]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                position += 1
            }
            guard position < line.endIndex else { return nil }
            selfClosing = line[position - 1] == UInt8(ascii: "/")
            end = position + 1
            attributes = attributesStart..<position
        }
    }
}
