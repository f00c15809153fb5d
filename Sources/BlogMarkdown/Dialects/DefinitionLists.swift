import CCmarkGFM

/// Definition lists, as Python-Markdown's `def_list`, kramdown and goldmark write them:
///
/// ```
/// Term
/// Another term
/// :   Its definition, *markdown* inside.
/// :   A second definition.
/// ```
///
/// A line of a paragraph that starts with `:` and a space or tab (up to 3 spaces before it) is a
/// definition; the paragraph's lines before it are its terms, one `<dt>` each; with a blank line
/// between, the paragraph before is the terms and the definition is loose (`<dd><p>…</p></dd>`).
/// A definition holds blocks (lists, code) indented under it, as a list item does.
///
/// cmark has no such list, so each `:` is rewritten as a bullet (`+`, or `*` when a `+` list
/// follows) before the text is parsed again, and ``build(from:markers:dialect:original:)`` turns
/// the list cmark made, with the paragraph of terms before it, into `<dl>`. Consecutive
/// definition lists make one `<dl>`.
enum DefinitionLists {
    /// Adds to `edits` the `:` lines of `paragraph` that are definitions; records their lines
    /// (of the parsed text) in `markers`. A `:` line that can't be made one gets a note.
    static func collect(in paragraph: CmarkNode, lines: SourceLines, dialect: MarkdownDialect,
                        edits: inout LineEdits, markers: inout Set<Int>, notes: inout [LineNote]) {
        let depth = paragraph.blockQuoteDepth
        let item = paragraph.parent?.type == CMARK_NODE_ITEM ? paragraph.parent : nil
        // The column where the paragraph's container puts its text: a line that starts left of it
        // is a lazy continuation line, which cmark would move out of the container.
        let contentColumn = item.map { item in
            item.firstChild.map { $0.startLine == item.startLine ? $0.startColumn : paragraph.startColumn } ?? paragraph.startColumn
        }
        var bullet: UInt8?
        for number in paragraph.startLine...paragraph.endLine where !edits.touches(number) {
            let line = lines[number]
            let base = lines.afterBlockQuoteMarkers(line: number, depth: depth)
            var colon = base
            while colon < line.endIndex, line[colon] == UInt8(ascii: " ") || line[colon] == UInt8(ascii: "\t") { colon += 1 }
            guard colon + 1 < line.endIndex, line[colon] == UInt8(ascii: ":"),
                  line[colon + 1] == UInt8(ascii: " ") || line[colon + 1] == UInt8(ascii: "\t"),
                  line[(colon + 1)...].contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { continue }
            let column = colon - line.startIndex + 1
            let indent = column - (contentColumn ?? (base - line.startIndex + 1))
            guard indent >= 0 else {
                notes.append(LineNote(line: number, offset: colon, message: "this definition (`: …`) continues a list item or block quote without its indentation: it is left as text, where \(dialect.generatorName) makes a definition list; indent it like the item's text"))
                continue
            }
            guard indent <= 3 else { continue }
            if number == paragraph.startLine {
                // The terms are the paragraph before.
                guard paragraph.previous?.type == CMARK_NODE_PARAGRAPH else {
                    if dialect == .pythonMarkdown, paragraph.previous != nil {
                        notes.append(LineNote(line: number, offset: colon, message: "this definition (`: …`) has no term before it: it is left as text, where Python-Markdown makes a definition list of it alone; write its term on the line above"))
                    }
                    continue
                }
            }
            if bullet == nil { bullet = bulletAvoiding(paragraph.next, lines: lines) }
            var rewritten = Array(line)
            rewritten[colon - line.startIndex] = bullet ?? UInt8(ascii: "+")
            edits.replace(line: number, with: rewritten)
            markers.insert(number)
        }
    }

    /// `+`, or `*` when `next` is a list written with `+` (which the definitions would join).
    private static func bulletAvoiding(_ next: CmarkNode?, lines: SourceLines) -> UInt8 {
        guard let next, next.type == CMARK_NODE_LIST else { return UInt8(ascii: "+") }
        let line = lines[next.startLine]
        let start = line.startIndex + next.startColumn - 1
        return start < line.endIndex && line[start] == UInt8(ascii: "+") ? UInt8(ascii: "*") : UInt8(ascii: "+")
    }

    /// Turns each list of `lists` whose first item starts on a line of `markers` (a line of the
    /// original text, through `original`) into a definition list, with the paragraph before it
    /// as its terms. Returns the nodes taken out of the tree, which must be freed with it, not
    /// before: the text of a paragraph's inlines lives in the paragraph.
    static func build(from lists: [CmarkNode], markers: Set<Int>, dialect: MarkdownDialect, original: (Int) -> Int) -> [CmarkNode] {
        var made: Set<OpaquePointer> = []
        var detached: [CmarkNode] = []
        for list in lists {
            guard let firstItem = list.firstChild, markers.contains(original(firstItem.startLine)),
                  let terms = list.previous, terms.type == CMARK_NODE_PARAGRAPH else { continue }
            let dl = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "<dl>", exit: "</dl>")
            cmark_node_insert_before(terms.pointer, dl.pointer)
            for line in lineGroups(of: terms) {
                let dt = CmarkNode.custom(CMARK_NODE_CUSTOM_INLINE, enter: "<dt>", exit: "</dt>")
                line.forEach { cmark_node_append_child(dt.pointer, $0.pointer) }
                cmark_node_append_child(dl.pointer, wrapped(dt).pointer)
            }
            var previousEnd = terms.endLine
            var previousLoose = false
            for (index, item) in list.children.enumerated() {
                let blocks = item.children
                let blankBefore = item.startLine > previousEnd + 1
                let blankInside = zip(blocks, blocks.dropFirst()).contains { $1.startLine > $0.endLine + 1 }
                // A blank line before a definition makes it loose; before a later one Python-Markdown
                // only when the one before it held blocks.
                let loose = blankInside || (blankBefore && (index == 0 || dialect != .pythonMarkdown || previousLoose))
                cmark_node_append_child(dl.pointer, definition(of: item, blocks: blocks, loose: loose).pointer)
                previousEnd = blocks.last?.endLine ?? item.startLine
                previousLoose = loose
            }
            cmark_node_unlink(terms.pointer)
            cmark_node_unlink(list.pointer)
            detached += [terms, list]
            // Python-Markdown and kramdown add a definition after another definition list to it.
            if let before = dl.previous, made.contains(before.pointer) {
                dl.moveChildren(to: before)
                dl.free()
            } else {
                made.insert(dl.pointer)
            }
        }
        return detached
    }

    /// The `<dd>` for `item`: its one paragraph's text when tight, else its blocks (paragraphs
    /// without `<p>` when tight).
    private static func definition(of item: CmarkNode, blocks: [CmarkNode], loose: Bool) -> CmarkNode {
        if !loose, blocks.count == 1, let paragraph = blocks.first, paragraph.type == CMARK_NODE_PARAGRAPH {
            let dd = CmarkNode.custom(CMARK_NODE_CUSTOM_INLINE, enter: "<dd>", exit: "</dd>")
            paragraph.moveChildren(to: dd)
            return wrapped(dd)
        }
        let dd = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "<dd>", exit: "</dd>")
        for block in blocks {
            if !loose, block.type == CMARK_NODE_PARAGRAPH {
                let text = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "", exit: "")
                block.moveChildren(to: text)
                cmark_node_append_child(dd.pointer, text.pointer)
            } else {
                cmark_node_append_child(dd.pointer, block.pointer)
            }
        }
        return dd
    }

    /// `inline` in a block of its own, which renders as its line.
    private static func wrapped(_ inline: CmarkNode) -> CmarkNode {
        let block = CmarkNode.custom(CMARK_NODE_CUSTOM_BLOCK, enter: "", exit: "")
        cmark_node_append_child(block.pointer, inline.pointer)
        return block
    }

    /// The inline children of `paragraph`, a group per line (the line breaks left out).
    private static func lineGroups(of paragraph: CmarkNode) -> [[CmarkNode]] {
        var groups: [[CmarkNode]] = [[]]
        for child in paragraph.children {
            if child.type == CMARK_NODE_SOFTBREAK || child.type == CMARK_NODE_LINEBREAK {
                groups.append([])
            } else {
                groups[groups.count - 1].append(child)
            }
        }
        return groups.filter { !$0.isEmpty }
    }
}
