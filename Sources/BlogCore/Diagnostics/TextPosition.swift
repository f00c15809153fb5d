/// Where a byte of a text is, as messages name it and an editor shows it: the 1-based line and
/// column. Lines end at LF, CRLF or a lone CR, as ``SourceText`` reads them; a byte order mark at
/// the start of the text takes no column.
///
/// A column counts characters as Swift's `Character` does (grapheme clusters): `é`, `日`, `👍🏽`
/// and a flag are one column each, however many bytes or scalars they take, as an editor's cursor
/// moves. This is the one definition of a column: every message that names one (headers, Liquid,
/// markdown dialects, templates, links) counts it here.
package enum TextPosition {
    /// The line and column of the byte at `offset` of `bytes` (the end when `offset` is past it).
    package static func lineAndColumn(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let offset = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < offset {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            } else if bytes[i] == 0x0D {
                line += 1
                if i + 1 < offset, bytes[i + 1] == 0x0A { i += 1 }
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart == 0, offset >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { lineStart = 3 }
        return (line, column(ofByte: offset, lineStart: lineStart, in: bytes))
    }

    /// The line and column of the byte at `offset` of `bytes`.
    package static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { lineAndColumn(ofByte: offset, in: $0) }
    }

    /// The line and column of the byte at `offset` of `text`'s UTF-8.
    package static func lineAndColumn(ofByte offset: Int, in text: String) -> (line: Int, column: Int) {
        var text = text
        return text.withUTF8 { lineAndColumn(ofByte: offset, in: $0) }
    }

    /// The column of the byte at `offset` on the line whose first byte is at `lineStart`, for a
    /// reader that keeps track of its lines itself: one more than the characters between them.
    package static func column(ofByte offset: Int, lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<max(lineStart, offset)]), as: UTF8.self).count + 1
    }

    /// The column of the byte at `offset` on the line that starts at `lineStart`.
    package static func column(ofByte offset: Int, lineStart: Int, in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { column(ofByte: offset, lineStart: lineStart, in: $0) }
    }
}
