import CCmarkGFM

/// Where Python-Markdown reads a list right after a paragraph line: as more lines of the paragraph.
///
/// In CommonMark a list item may start on the line after a paragraph's (`Text` then `* a`: a
/// paragraph, then a list). Python-Markdown starts no block inside a paragraph: `* a`, `- b` and
/// `1. c` on the lines that follow it, up to a blank line, are text of the paragraph. The marker of
/// each such item is escaped (`\*`, `1\.`), so that cmark reads its line as the paragraph's; a blank
/// line ends the paragraph, and an item after it starts a list again. A paragraph that is a list
/// item's first line (`* a` then an indented `* b`) is followed by a nested list, as in
/// Python-Markdown.
enum ListsAfterParagraphs {
    /// Adds to `edits` the escapes that make `list` (a list node) text of the paragraph before it,
    /// when that paragraph ends on the line before the list. A list made of definitions (lines in
    /// `definitions`, see ``DefinitionLists``) is left alone, and so is one after a paragraph that
    /// this round rewrites (a `#Title` line becomes a heading: the next round looks again).
    static func collect(in list: CmarkNode, lines: SourceLines, definitions: Set<Int>, edits: inout LineEdits) {
        guard let paragraph = list.previous, paragraph.type == CMARK_NODE_PARAGRAPH,
              paragraph.endLine + 1 == list.startLine, !definitions.contains(list.startLine),
              !(paragraph.startLine...paragraph.endLine).contains(where: edits.touches),
              !(paragraph.previous == nil && paragraph.parent?.type == CMARK_NODE_ITEM) else { return }
        var item = list.firstChild
        while let current = item {
            let number = current.startLine
            // A blank line before the item (inside a quote: nothing but its markers) ends the paragraph.
            let before = lines[number - 1]
            let blank = before[lines.afterBlockQuoteMarkers(line: number - 1, depth: list.blockQuoteDepth)...]
                .allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard current.startLine == list.startLine || !blank, !edits.touches(number) else { return }
            let line = lines[number]
            var marker = line.startIndex + current.startColumn - 1
            guard marker < line.endIndex else { return }
            // An ordered item's delimiter (`1.`, `1)`) is escaped, a bullet itself.
            while marker < line.endIndex, line[marker] >= UInt8(ascii: "0"), line[marker] <= UInt8(ascii: "9") { marker += 1 }
            guard marker < line.endIndex else { return }
            edits.replace(line: number, with: Array(line[..<marker]) + [UInt8(ascii: "\\")] + Array(line[marker...]))
            item = current.next
        }
    }
}
