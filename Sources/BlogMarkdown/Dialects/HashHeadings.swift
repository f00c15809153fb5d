import CCmarkGFM

/// Python-Markdown's headings: a line of a paragraph that starts with `#` is a heading, with or
/// without a space (or a no-break space) after the hashes: `##Let's celebrate` is an `<h2>`, where
/// CommonMark reads a paragraph. The line is rewritten as CommonMark's form (`## Let's celebrate`)
/// before the text is parsed again, so what cmark made code or HTML is never touched.
///
/// The rule is Python-Markdown's `HashHeaderProcessor`: the `#` starts the line (after block quote
/// markers; a line indented in its block is text); 1 to 6 hashes give the level and more hashes
/// are text (`#######x` is an `<h6>` of `#x`); hashes that end the line close the heading
/// (`##Title##`), unless escaped. The first line of a paragraph in a list item starts where the
/// paragraph does (`- ##Step`). A setext heading's text lines count as paragraph lines, since the
/// hashes are read before the underline.
enum HashHeadings {
    /// Adds to `edits` the lines of `block` (a paragraph or a setext heading) that are headings.
    static func collect(in block: CmarkNode, lines: SourceLines, edits: inout LineEdits) {
        var last = block.endLine
        if block.type == CMARK_NODE_HEADING {
            // An ATX heading is one line; a setext heading ends with its underline.
            guard last > block.startLine else { return }
            last -= 1
        }
        let depth = block.blockQuoteDepth
        let inItem = block.parent?.type == CMARK_NODE_ITEM
        for number in block.startLine...max(block.startLine, last) where !edits.touches(number) {
            let line = lines[number]
            var start = lines.afterBlockQuoteMarkers(line: number, depth: depth)
            if inItem, number == block.startLine, line.startIndex + block.startColumn - 1 < line.endIndex {
                start = line.startIndex + block.startColumn - 1
            }
            guard start < line.endIndex, line[start] == UInt8(ascii: "#") else { continue }
            edits.replace(line: number, with: atxLine(line, hashesAt: start))
        }
    }

    /// `line` as a CommonMark ATX heading: its hashes (from `start`, at most 6), one space, the
    /// text without the white space around it and without closing hashes, then ` #` when the text
    /// ends with a `#` of its own (so that cmark does not take it for closing hashes).
    static func atxLine(_ line: ArraySlice<UInt8>, hashesAt start: Int) -> [UInt8] {
        let hash = UInt8(ascii: "#")
        var level = 0
        while start + level < line.endIndex, level < 6, line[start + level] == hash { level += 1 }
        var text = line[(start + level)...]
        // Closing hashes: a run of `#` at the very end, less one escaped by a backslash.
        var closing = text.endIndex
        while closing > text.startIndex, text[closing - 1] == hash { closing -= 1 }
        if closing < text.endIndex {
            var backslashes = 0
            while closing - backslashes - 1 >= text.startIndex, text[closing - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 1 { closing += 1 }
            text = text[..<closing]
        }
        let trimmed = trimmingWhiteSpace(text)
        var out = Array(line[..<start])
        out += Array(repeating: hash, count: level)
        out.append(UInt8(ascii: " "))
        out += trimmed
        if trimmed.last == hash { out += [UInt8(ascii: " "), hash] }
        return out
    }

    /// `text` without spaces, tabs and no-break spaces (U+00A0, which Python's `strip()` removes
    /// too) at either end.
    private static func trimmingWhiteSpace(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var text = text
        while true {
            if let first = text.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                text = text.dropFirst()
            } else if text.count >= 2, text[text.startIndex] == 0xC2, text[text.startIndex + 1] == 0xA0 {
                text = text.dropFirst(2)
            } else {
                break
            }
        }
        while true {
            if let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                text = text.dropLast()
            } else if text.count >= 2, text[text.endIndex - 2] == 0xC2, text[text.endIndex - 1] == 0xA0 {
                text = text.dropLast(2)
            } else {
                break
            }
        }
        return text
    }
}
