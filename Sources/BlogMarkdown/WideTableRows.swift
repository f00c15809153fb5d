import BlogCore
import CCmarkGFM
import Foundation

/// Lines with more `|` than a table row may have cells, read as text.
///
/// The cmark-gfm of Debian 12 (0.29.0.gfm.6) appends each cell of a table row to a linked list from its head, and
/// its HTML renderer finds each cell's column by walking the row, so a row's cost grows with the square of its
/// cells: a table of 10,000 columns took 26 s, and a row of 20,000 cells 8 s in a table of two (later releases
/// keep cells in arrays). Every line that cmark-gfm may read as a row (a line of a table, the line above a
/// delimiter row) with more than ``maxCells`` `|` that separate cells has each of them escaped (`\|`) before
/// cmark-gfm sees it, with a warning: it is then one cell, or text, and shows its `|` as written. Lines inside a
/// code block or an HTML block are left as they are: no table is read there, and a `\` would show.
enum WideTableRows {
    /// The most cell separators (`|` not escaped by `\`) a line may have before it is read as text. Real tables
    /// have tens of columns; a row of this many costs about as much as the same bytes of text.
    static let maxCells = 100

    /// `markdown` with the `|` of its too-wide lines escaped, and a warning for each such line.
    static func bound(_ markdown: String) -> (text: String, warnings: [MarkdownWarning]) {
        var text = markdown
        let wide = text.withUTF8 { bytes in
            // Most bodies hold fewer `|` in all than one wide row: `memchr` settles them at a fraction of the
            // line-by-line scan's cost (1.7% of a clean build's instructions on its own).
            count(UInt8(ascii: "|"), in: bytes, upTo: maxCells + 1) > maxCells ? wideLines(bytes) : []
        }
        guard !wide.isEmpty else { return (markdown, []) }
        let lines = SourceLines(markdown)
        // Where no table can be: code and HTML blocks, as cmark-gfm finds them without its table extension (the
        // lines a table would hold are then a paragraph, read at no such cost).
        let document = CmarkNode(pointer: GFM.parse(markdown, tables: false))
        defer { document.free() }
        var verbatim = Set<Int>()
        for block in document.descendants(ofType: CMARK_NODE_CODE_BLOCK) + document.descendants(ofType: CMARK_NODE_HTML_BLOCK) {
            verbatim.formUnion(block.startLine...max(block.startLine, block.endLine))
        }
        var edits = LineEdits()
        var warnings: [MarkdownWarning] = []
        for (number, separators) in wide where !verbatim.contains(number) {
            let line = lines[number]
            var escaped: [UInt8] = []
            var index = line.startIndex
            while index < line.endIndex {
                if line[index] == UInt8(ascii: "|") { escaped.append(UInt8(ascii: "\\")) }
                if line[index] == UInt8(ascii: "\\"), index + 1 < line.endIndex {
                    escaped.append(line[index])
                    index += 1
                }
                escaped.append(line[index])
                index += 1
            }
            edits.replace(line: number, with: escaped)
            warnings.append(MarkdownWarning(line: number, column: 1, message: "this line has \(separators) `|`, more than the \(maxCells) cells a table row may have: it is read as text, its `|` escaped (markdown's work on a row grows with the square of its cells)"))
        }
        return edits.isEmpty ? (markdown, []) : (edits.apply(to: lines).text, warnings)
    }

    /// How many of `bytes` are `byte`, counting no further than `limit`: `memchr`, which skips the bytes between.
    static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, upTo limit: Int) -> Int {
        guard var position = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let end = position + bytes.count
        var count = 0
        while count < limit, position < end, let hit = memchr(position, Int32(byte), end - position) {
            count += 1
            position = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }

    /// The lines (1-based) of `bytes` with more than ``maxCells`` `|` that separate cells (the ones no `\` escapes),
    /// each with that count, in one pass.
    static func wideLines(_ bytes: UnsafeBufferPointer<UInt8>) -> [(line: Int, separators: Int)] {
        var wide: [(line: Int, separators: Int)] = []
        var (line, separators, index) = (1, 0, 0)
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                if index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "|"):
                separators += 1
            case UInt8(ascii: "\n"):
                if separators > maxCells { wide.append((line, separators)) }
                (line, separators) = (line + 1, 0)
            default:
                break
            }
            index += 1
        }
        if separators > maxCells { wide.append((line, separators)) }
        return wide
    }
}
