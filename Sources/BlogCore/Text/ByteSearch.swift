#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// Substring tests on UTF-8 bytes. Foundation's `contains` on `String` goes through `NSString`
/// and UTF-16: over every post of a 10,000-post blog it cost more than rendering the markdown.
package enum ByteSearch {
    /// Whether `text` holds `needle`, byte for byte (no Unicode normalisation, which the ASCII
    /// markers searched for here never need).
    package static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in
                guard !pattern.isEmpty else { return true }
                guard haystack.count >= pattern.count, let h = haystack.baseAddress, let p = pattern.baseAddress else { return false }
                // memmem skips ahead by whole windows; a memchr for the first byte stopped at every
                // `s` of a post looking for "static".
                return blog_contains_bytes(h, haystack.count, p, pattern.count) == 1
            }
        }
    }

    /// Whether `text` holds `needle`, looked for by a memchr for the needle's byte at `anchor`, the needle compared
    /// around each one found: for a needle with a byte rare in the text, where memmem reads every byte (~1.2
    /// instructions a byte). Python-Markdown's `<p>[TOC]</p>` by its `[` (513 in the 11.9 MB of the 1,000-post
    /// benchmark's pages: cmark writes a link as `<a>`), a filled table of contents by the `C` of `Contents`,
    /// a Mermaid block by its `=` (issue 32).
    package static func contains(_ text: String, _ needle: String, by anchor: Int) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { bytes in
            needle.withUTF8 { pattern in
                guard anchor >= 0, anchor < pattern.count, let base = bytes.baseAddress, let start = pattern.baseAddress else { return false }
                let last = pattern[pattern.count - 1]
                var from = anchor
                while let found = firstIndex(of: pattern[anchor], in: bytes, from: from) {
                    let at = found - anchor
                    // The last byte first: most anchors found are not the needle's, and a memcmp is a call.
                    if at + pattern.count <= bytes.count, bytes[at + pattern.count - 1] == last,
                       memcmp(base + at, start, pattern.count) == 0 { return true }
                    from = found + 1
                }
                return false
            }
        }
    }

    /// Whether `text` holds one of `needles` right after one of `openers`. Fast when the openers'
    /// first bytes are rare (`{`, `|`, `%`), where a search for a word stops at every letter.
    package static func containsAny(_ text: String, after openers: [String], _ needles: [String]) -> Bool {
        var text = text
        return text.withUTF8 { containsAny($0, after: openers, needles) }
    }

    /// The same in bytes (a file's, not made a `String`).
    package static func containsAny(_ haystack: UnsafeBufferPointer<UInt8>, after openers: [String], _ needles: [String]) -> Bool {
        guard let h = haystack.baseAddress else { return false }
        let count = haystack.count
        func matches(_ pattern: String, at offset: Int) -> Bool {
            var pattern = pattern
            return pattern.withUTF8 { p in offset + p.count <= count && memcmp(h + offset, p.baseAddress!, p.count) == 0 }
        }
        for opener in openers {
            guard let first = opener.utf8.first else { continue }
            var start = 0
            while start < count, let found = memchr(h + start, Int32(first), count - start) {
                let offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - h
                if matches(opener, at: offset) {
                    let after = offset + opener.utf8.count
                    if needles.contains(where: { matches($0, at: after) }) { return true }
                }
                start = offset + 1
            }
        }
        return false
    }

    /// Where `byte` first is in `bytes` at or after `start`, or nil: a `memchr`, which skips the
    /// bytes between (tags to their `>`, lines to their `]`) far faster than a loop over them.
    package static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start >= 0, start < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Where `pattern` first starts in `bytes` at or after `start`, or nil. A `memchr` for the
    /// pattern's first byte, then a comparison of the rest.
    package static func firstIndex(of pattern: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first, let base = bytes.baseAddress, start >= 0 else { return nil }
        var position = start
        while position + pattern.count <= bytes.count {
            guard let at = firstIndex(of: first, in: bytes, from: position) else { return nil }
            guard at + pattern.count <= bytes.count else { return nil }
            if memcmp(base + at, pattern.baseAddress!, pattern.count) == 0 { return at }
            position = at + 1
        }
        return nil
    }

    /// `text` with every `pattern` replaced by `replacement`, left to right and without overlaps,
    /// byte for byte (as Foundation's `replacingOccurrences(of:with:)` replaces the ASCII
    /// placeholders it is used for, at a tenth of the cost); `text` itself when it has none.
    package static func replacing(_ pattern: String, with replacement: String, in text: String) -> String {
        var source = text, pattern = pattern
        return source.withUTF8 { bytes in
            pattern.withUTF8 { pattern in
                guard !pattern.isEmpty, var found = firstIndex(of: pattern, in: bytes, from: 0) else { return text }
                var result = ""
                var copied = 0
                while true {
                    result += String(decoding: UnsafeBufferPointer(rebasing: bytes[copied..<found]), as: UTF8.self)
                    result += replacement
                    copied = found + pattern.count
                    guard let next = firstIndex(of: pattern, in: bytes, from: copied) else { break }
                    found = next
                }
                return result + String(decoding: UnsafeBufferPointer(rebasing: bytes[copied...]), as: UTF8.self)
            }
        }
    }

    /// Where `pattern` first starts in `bytes` at or after `start`, or nil.
    package static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        pattern.withUnsafeBufferPointer { pattern in
            bytes.withUnsafeBufferPointer { firstIndex(of: pattern, in: $0, from: start) }
        }
    }
}

extension String {
    /// Where the last `/` is, found as a byte: a path's separator, whatever the characters
    /// around it, and many times faster than a search by `Character`.
    package var lastSlash: Index? { utf8.lastIndex(ofASCII: UInt8(ascii: "/")) }

    /// Where the last `.` is, found as a byte (see ``lastSlash``).
    package var lastDot: Index? { utf8.lastIndex(ofASCII: UInt8(ascii: ".")) }

    /// The folder of a relative `/`-separated path (under content/, or of the output): what comes
    /// before its last `/` (`images/a/x.png` -> `images/a`), `""` for a name alone (`x.png`).
    ///
    /// Foundation's `NSString.deletingLastPathComponent` gives the same for these paths, but the
    /// Foundation of Linux stops the process (SIGILL, in `String._startOfLastPathComponent`) on a
    /// one-character string: a file `content/x`, or the folder `a` of `content/a/x.png` as a
    /// walk up the folders reaches it. Every path of the site goes through this instead.
    package var folderPart: String {
        guard let slash = lastSlash else { return "" }
        return String(self[..<slash])
    }
}

extension Substring {
    /// Where the last `/` is, found as a byte (see ``Swift/String/lastSlash``).
    package var lastSlash: Index? { utf8.lastIndex(ofASCII: UInt8(ascii: "/")) }

    /// Where the last `.` is, found as a byte (see ``Swift/String/lastSlash``).
    package var lastDot: Index? { utf8.lastIndex(ofASCII: UInt8(ascii: ".")) }
}

extension BidirectionalCollection where Element == UInt8, Index == String.Index {
    /// Where the last `byte` (ASCII, so never inside a character's bytes) is in a text's UTF-8: in its
    /// bytes when they are in one piece, as a native string's are. The view's own `lastIndex(of:)`
    /// steps back an index at a time, ~1,300 instructions for a 40-byte path (13 M a build in place
    /// of 10,000 posts, which looks at every post's path).
    func lastIndex(ofASCII byte: UInt8) -> Index? {
        if let found = withContiguousStorageIfAvailable({ $0.lastIndex(of: byte) }) {
            return found.map { index(startIndex, offsetBy: $0) }
        }
        return lastIndex(of: byte)
    }
}
