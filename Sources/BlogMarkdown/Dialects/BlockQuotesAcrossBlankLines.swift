import CCmarkGFM

/// Where Python-Markdown joins block quotes that CommonMark keeps apart.
///
/// In CommonMark a blank line ends a block quote: `> a`, a blank line, `> b` are two quotes.
/// Python-Markdown reads the text in blocks between blank lines, and a block starting with `>`
/// right after a block quote goes on in that quote (`BlockQuoteProcessor`: its sibling is a
/// `blockquote`): one quote of two paragraphs, however many blank lines part them. The blank lines
/// between two such quotes get a `>` (after the markers of the quotes that hold both), so that
/// cmark reads one quote too.
enum BlockQuotesAcrossBlankLines {
    /// Adds to `edits` the `>` lines that join `quote` (a block quote) to the block quote right
    /// before it, when only blank lines part them.
    static func collect(in quote: CmarkNode, lines: SourceLines, edits: inout LineEdits) {
        guard let previous = quote.previous, previous.type == CMARK_NODE_BLOCK_QUOTE else { return }
        let depth = quote.blockQuoteDepth
        var blanks: [Int] = []
        var number = quote.startLine - 1
        while number > previous.startLine, !edits.touches(number) {
            let line = lines[number]
            let rest = line[lines.afterBlockQuoteMarkers(line: number, depth: depth)...]
            guard rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { break }
            blanks.append(number)
            number -= 1
        }
        // Anything but blank lines between them (a link reference definition): left as it is.
        guard !blanks.isEmpty, number >= previous.startLine, number <= previous.endLine else { return }
        for blank in blanks {
            let line = lines[blank]
            let markers = line[..<lines.afterBlockQuoteMarkers(line: blank, depth: depth)]
            edits.replace(line: blank, with: Array(markers) + [UInt8(ascii: ">")])
        }
    }
}
