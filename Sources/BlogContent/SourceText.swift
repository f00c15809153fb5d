import BlogCore
import Foundation

/// Turns a file's bytes into the text the parsers read: UTF-8 checked (with the place of the
/// first bad byte), byte order mark dropped, CRLF and lone CR line ends made LF.
enum SourceText {
    /// Decodes `data` as UTF-8 text and normalises it (see ``normalize(_:)``).
    /// Throws ``BuildFailure`` naming `path`, the line and column, and the byte offset (0-based,
    /// counted from the start of the file) of the first byte that is not valid UTF-8.
    static func decode(_ data: Data, path: String) throws -> String {
        // Checked once, the ASCII runs eight bytes at a time (``ValidUTF8``): String(validating:) read
        // every byte of a post with one `é` on its own, 21M instructions for the 1,000-post benchmark blog.
        let (text, bad) = data.withUnsafeBytes { raw -> (String?, Int?) in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            let (invalid, ascii) = ValidUTF8.check(bytes)
            return invalid == nil ? (ValidUTF8.string(unchecked: bytes, ascii: ascii), nil) : (nil, invalid)
        }
        if let text { return normalize(text) }
        let bytes = [UInt8](data)
        let (line, column) = TextPosition.lineAndColumn(ofByte: bad ?? 0, in: bytes)
        throw BuildFailure([.error(path, line: line, column: column,
                                   "invalid UTF-8 at byte \(bad ?? 0): the file must be UTF-8 text")])
    }

    /// Drops a leading byte order mark and turns CRLF and lone CR into LF.
    /// Works on the UTF-8 bytes: text without a BOM or CR (nearly all) is returned as it is.
    static func normalize(_ text: String) -> String {
        let utf8 = text.utf8
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let hasBOM = utf8.starts(with: bom)
        // memchr over the contiguous bytes: String.UTF8View.contains goes a byte at a time
        // through the view's indices.
        var contiguous = text
        let hasCR = contiguous.withUTF8 { $0.count > 0 && memchr($0.baseAddress!, 0x0D, $0.count) != nil }
        guard hasBOM || hasCR else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var previousCR = false
        for byte in utf8.dropFirst(hasBOM ? 3 : 0) {
            if byte == 0x0D {
                out.append(0x0A)
                previousCR = true
                continue
            }
            if byte == 0x0A && previousCR {
                previousCR = false
                continue  // the LF of a CRLF: the CR already gave the line end
            }
            previousCR = false
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The offset of the first byte that starts an ill-formed UTF-8 sequence (Unicode table 3-7:
    /// no overlong forms, no surrogates, nothing above U+10FFFF), or nil when all is well.
    static func firstInvalidUTF8Byte(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { ValidUTF8.check($0).firstInvalid }
    }

    /// Splits normalised text into lines (without their `\n`). Text ending with `\n` gives a last
    /// empty element, so joining with `\n` gives the text back.
    static func lines(_ text: String) -> [Substring] {
        // Split on the UTF-8 bytes: "\n" is ASCII, so every cut falls between characters, and
        // no grapheme breaking is needed (that made reading 10,000 posts several times slower).
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { text[$0.startIndex..<$0.endIndex] }
    }

    /// `text` split at each `separator` (an ASCII byte), empty parts kept: as `text.utf8.split(separator:
    /// omittingEmptySubsequences: false)`, on the bytes in memory (through the view, 2.5 k instructions for a post's tags).
    static func split(_ text: String, at separator: UInt8) -> [String] {
        text.utf8.withContiguousStorageIfAvailable { bytes -> [String] in
            var parts: [String] = []
            var start = 0
            for index in 0..<bytes.count where bytes[index] == separator {
                parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                start = index + 1
            }
            parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return parts
        } ?? text.utf8.split(separator: separator, omittingEmptySubsequences: false).map { String(text[$0.startIndex..<$0.endIndex]) }
    }

    /// The lines of a text, found only as far as they are asked for: a post's header is read
    /// line by line while its body (nearly all of the file) is never split.
    final class LazyLines {
        /// The whole text.
        let text: String
        /// Start index of each line found so far.
        private var starts: [String.Index]
        /// Whether the last line's start is known (no `\n` after the last start).
        private var finished = false

        init(_ text: String) {
            self.text = text
            self.starts = [text.startIndex]
        }

        /// Line `i` (0-based) without its `\n`, or nil past the last line. As with ``lines(_:)``,
        /// a text of n `\n` has n + 1 lines (text ending with `\n` has a last, empty line).
        subscript(i: Int) -> Substring? {
            while starts.count <= i + 1 && !finished { findNext() }
            guard i < starts.count else { return nil }
            if i + 1 < starts.count {
                return text[starts[i]..<text.utf8.index(before: starts[i + 1])]
            }
            return text[starts[i]...]
        }

        /// The text from the start of line `i` to the end; empty past the last line.
        func rest(from i: Int) -> String {
            // Only line i's start is needed: not where the line after it starts, which cost a walk
            // over the body's first line, byte by byte.
            while starts.count <= i && !finished { findNext() }
            guard i < starts.count else { return "" }
            return String(text[starts[i]...])
        }

        private func findNext() {
            // memchr over the text's bytes: firstIndex(of:) on the UTF-8 view went a byte at a time through its
            // indices (5M instructions for the headers of 1,000 posts).
            let start = starts[starts.count - 1]
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
            let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                guard offset < bytes.count, let base = bytes.baseAddress,
                      let newline = memchr(base + offset, 0x0A, bytes.count - offset) else { return nil }
                return base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            }
            let newline = found ?? text.utf8[start...].firstIndex(of: 0x0A).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
            if let newline {
                starts.append(text.utf8.index(text.utf8.startIndex, offsetBy: newline + 1))
            } else {
                finished = true
            }
        }
    }

    /// Whether `line` is empty or only spaces and tabs.
    static func isBlank<S: StringProtocol>(_ line: S) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// `line` without trailing spaces and tabs.
    static func trimmingTrailing<S: StringProtocol>(_ line: S) -> Substring {
        var s = Substring(line)
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }

    /// `line` without leading and trailing spaces and tabs.
    static func trimming<S: StringProtocol>(_ line: S) -> String {
        var s = trimmingTrailing(line)
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        return String(s)
    }
}

extension String {
    /// Whether each byte of the text is a character of its own: ASCII without a CR (a CR and the LF
    /// after it are one `Character`). Such a text is read on its bytes, where reading `Character`s
    /// (grapheme breaking) costs tens of thousands of instructions a post; any other text is read as
    /// characters, as before (a `-` followed by a combining mark is no `-`).
    var charactersAreBytes: Bool {
        // On the bytes in memory where they are (a call a byte through the view's iterator cost 1.4 k instructions
        // for a post's path).
        utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 || $0 == 0x0D } }
            ?? utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
}
