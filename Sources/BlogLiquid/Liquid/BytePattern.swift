/// A separator or search text of Liquid's `split`, `replace` and `remove` filters, found in UTF-8 bytes as Ruby finds
/// it (byte for byte, no Unicode normalisation, a match may end before a combining mark), in time linear in the text
/// whatever the text and the pattern (Knuth–Morris–Pratt). Foundation's `String` search compares `Character`s and
/// took most of a second on the long text a template can make.
///
/// In valid UTF-8 a whole, valid pattern can only match at scalar boundaries, so the pieces between matches are
/// valid UTF-8 too.
struct BytePattern {
    /// The pattern's bytes, at least one.
    let bytes: [UInt8]
    /// For each prefix `bytes[0...i]`, the length of its longest proper prefix that is also its suffix: how much of
    /// the pattern is still matched when the next byte differs.
    private let border: [Int]

    /// The pattern `text`, or nil for empty text (which every filter treats in its own way).
    init?(_ text: String) {
        bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var border = [Int](repeating: 0, count: bytes.count)
        var matched = 0
        for i in bytes.indices.dropFirst() {
            while matched > 0 && bytes[i] != bytes[matched] { matched = border[matched - 1] }
            if bytes[i] == bytes[matched] { matched += 1 }
            border[i] = matched
        }
        self.border = border
    }

    /// Where the pattern starts in `text`, left to right, matches not overlapping (after a match the search goes on
    /// after it), at most `limit` of them; and the byte comparisons that took, at most twice the text's length.
    func matches(in text: UnsafeBufferPointer<UInt8>, limit: Int = .max) -> (starts: [Int], comparisons: Int) {
        var starts: [Int] = []
        var comparisons = 0
        var matched = 0
        for (i, byte) in text.enumerated() {
            if starts.count == limit { break }
            // Each fall back shortens `matched`, which grows by at most one a byte: at most one fall back a byte.
            while true {
                comparisons += 1
                if byte == bytes[matched] {
                    matched += 1
                    break
                }
                if matched == 0 { break }
                matched = border[matched - 1]
            }
            if matched == bytes.count {
                starts.append(i + 1 - matched)
                matched = 0
            }
        }
        return (starts, comparisons)
    }

    /// `text` cut at the first `limit` matches: the pieces before, between and after them (one more than the
    /// matches).
    func pieces(of text: String, limit: Int = .max) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var pieces: [String] = []
            var start = 0
            for match in matches(in: bytes, limit: limit).starts {
                pieces.append(Self.text(bytes, start..<match))
                start = match + self.bytes.count
            }
            pieces.append(Self.text(bytes, start..<bytes.count))
            return pieces
        }
    }

    /// `text` with the first `limit` matches replaced by `replacement` (Ruby's `gsub` and `sub` with a string); nil
    /// when that would be more than `maxBytes` bytes: a long replacement of a short pattern can make a text many
    /// times longer, and the length is known before it is made.
    func replacing(in text: String, with replacement: String, limit: Int = .max, maxBytes: Int = .max) -> String? {
        let pieces = pieces(of: text, limit: limit)
        let growth = (pieces.count - 1).multipliedReportingOverflow(by: max(0, replacement.utf8.count - bytes.count))
        guard !growth.overflow, growth.partialValue <= maxBytes - text.utf8.count else { return nil }
        return pieces.joined(separator: replacement)
    }

    /// The words of `text`: the runs of bytes between runs of ASCII whitespace (space, tab, line feed, vertical tab,
    /// form feed, carriage return), as Ruby's `split(" ")`; other Unicode spaces are part of a word.
    static func words(of text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var words: [String] = []
            var start: Int?
            for (i, byte) in bytes.enumerated() {
                let isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
                if isSpace, let first = start {
                    words.append(Self.text(bytes, first..<i))
                    start = nil
                } else if !isSpace, start == nil {
                    start = i
                }
            }
            if let first = start { words.append(Self.text(bytes, first..<bytes.count)) }
            return words
        }
    }

    /// The text of `bytes[range]`, valid UTF-8.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
