import Foundation

/// Foundation's `trimmingCharacters(in:)` for the two white-space sets, without its detour through
/// `NSString` and UTF-16 when both ends of the text are ASCII (nearly always). Trimming every link
/// of every feed entry and every HTML block that way was a fiftieth of a clean build.
extension Substring {
    /// The same as `trimmingCharacters(in: .whitespacesAndNewlines)`.
    package func trimmingWhitespacesAndNewlines() -> String {
        trimming(.whitespacesAndNewlines, asciiMembers: WebText.isASCIIWhitespace)
    }

    /// The same as `trimmingCharacters(in: .whitespaces)`.
    package func trimmingWhitespaces() -> String {
        trimming(.whitespaces) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// `self` trimmed of `set`, whose ASCII members are the bytes `asciiMembers` accepts. The ends
    /// are found on the bytes; when a byte above ASCII is met first, Foundation trims instead, so
    /// non-ASCII white space (U+00A0, U+3000, ...) and combining marks are treated as it treats them.
    /// `set` is made only then: the getter of `CharacterSet.whitespacesAndNewlines` cost 900 instructions a call.
    private func trimming(_ set: @autoclosure () -> CharacterSet, asciiMembers isMember: (UInt8) -> Bool) -> String {
        // On the bytes in memory (a native string's, nearly always), as offsets into the whole string's: the
        // index of a substring's UTF-8 view, moved byte by byte, cost hundreds of instructions a step (2,300 a
        // trimmed tag, callgrind), and the substring's own view reaches the bytes only through generic code.
        // The ends found on `bytes`; nil when a byte above ASCII is met first.
        func trim(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            var start = 0, end = bytes.count
            while start < end, bytes[start] < 0x80, isMember(bytes[start]) { start += 1 }
            if start == end { return "" }
            while bytes[end - 1] < 0x80, isMember(bytes[end - 1]) { end -= 1 }
            guard bytes[start] < 0x80, bytes[end - 1] < 0x80 else { return nil }
            if start == 0, end == bytes.count { return String(self) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        let whole = base.utf8
        let lower = whole.distance(from: whole.startIndex, to: startIndex)
        let upper = lower + whole.distance(from: startIndex, to: endIndex)
        let trimmed = whole.withContiguousStorageIfAvailable { trim(UnsafeBufferPointer(rebasing: $0[lower..<upper])) }
            ?? {
                // Bytes not in memory as UTF-8 (a bridged string): trimmed on a native copy of this part.
                var copy = String(self)
                return copy.withUTF8 { trim($0) }
            }()
        return trimmed ?? trimmingCharacters(in: set())
    }
}

extension String {
    /// The same as `trimmingCharacters(in: .whitespacesAndNewlines)`.
    package func trimmingWhitespacesAndNewlines() -> String { self[...].trimmingWhitespacesAndNewlines() }

    /// The same as `trimmingCharacters(in: .whitespaces)`.
    package func trimmingWhitespaces() -> String { self[...].trimmingWhitespaces() }
}
