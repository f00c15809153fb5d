/// What the features of a post's page read of the text of its rendered body, read once when the body is
/// made (``RenderedMarkdown/text``): its number of words, for `post.words` and `post.reading_minutes`,
/// and the text of its summary, for `post.description` and the search index. The search words are
/// read apart, as the index is written (``searchWords(html:)``): kept for every post from the markdown
/// stage on, they held 65 MiB more at the peak of a 50,000-post build.
package struct BodyText: Sendable, Equatable {
    /// The words of the text: runs of characters between white space, outside tags; each Chinese or
    /// Japanese character (Han, kana) counts as a word, as Hugo counts text in those languages,
    /// since they write no spaces between words. A tag does not end a word (`<em>un</em>done` is
    /// one), an entity is a character of one. The words of a table of contents filled in the body
    /// (``TableOfContents/fill(_:marks:)``), which repeat its headings, are not counted.
    package var words: Int
    /// Whether the body holds a table of contents (``TableOfContents/filledStart``): a theme shows no second one.
    package var holdsTableOfContents: Bool
    /// The text of the summary (``WebText/plainText(fromHTML:limit:)``), cut at ``summaryCharacters``;
    /// nil when not read.
    package var summary: String?

    /// The most bytes of search words kept of one post.
    package static let searchBytes = 4000
    /// The most characters of a summary's text.
    package static let summaryCharacters = 160

    /// The text of the body `html` and of the summary `summaryHTML`.
    package init(html: String, summaryHTML: String) {
        self.init(html: html)
        summary = WebText.plainText(fromHTML: summaryHTML, limit: Self.summaryCharacters)
    }

    /// The same without a summary (its ``summary`` nil).
    package init(html: String) {
        var html = html
        words = html.withUTF8 { Self.countWords($0) }
        summary = nil
        holdsTableOfContents = ByteSearch.contains(html, TableOfContents.filledStart)
        guard holdsTableOfContents else { return }
        var rest = html[...]
        while let start = rest.range(of: TableOfContents.filledStart), let end = rest[start.upperBound...].range(of: "</nav>") {
            var table = String(rest[start.upperBound..<end.lowerBound])
            words -= table.withUTF8 { Self.countWords($0) }
            rest = rest[end.upperBound...]
        }
    }

    /// The words of the text of the body `html` each once, separated by spaces, in order of first
    /// use, cut at ``searchBytes`` bytes: what the search index keeps of a post. A word is a run of
    /// letters and digits: ASCII ones, and any character beyond ASCII except spaces and punctuation
    /// of Unicode's General Punctuation block and Latin-1 (curly quotes, dashes, `…`, `«»`), so
    /// accented words and runs of CJK text stay whole. Tags and character references part words.
    /// ASCII letters are compared without case (and kept lower-case); words of one ASCII letter or
    /// digit are left out. The first word that does not fit ends the words. The result holds
    /// letters, digits and spaces only: it is a JSON string's content as it is.
    package static func searchWords(html: String) -> String {
        var html = html
        return html.withUTF8 { searchWords(in: $0) }
    }

    /// Minutes to read `words` at `perMinute` (1 or more) words a minute, rounded up: 1 for any text, 0 for none.
    package static func readingMinutes(words: Int, perMinute: Int) -> Int {
        words == 0 ? 0 : (words + perMinute - 1) / perMinute
    }

    // The two readers below take the bytes eight at a time as a `UInt64` (byte 0 lowest) and
    // classify all eight at once: each test sets the high bit of each byte it holds for (SWAR, ``WordBytes``), so a
    // plain run of ASCII text costs a few instructions a byte; a tag is skipped with `memchr`, and
    // a character beyond ASCII is read on its own. A test is exact for the bytes below the first
    // byte beyond ASCII of the eight (an addition carries out of such a byte into the ones above),
    // and each reader uses no more than those.

    /// The eight bytes at `position`, the ones past `total` read as spaces.
    @inline(__always)
    private static func chunk(_ base: UnsafePointer<UInt8>, _ position: Int, _ total: Int) -> UInt64 {
        if total - position >= 8 { return WordBytes.load(base, position) }
        var value = WordBytes.each(0x20)
        withUnsafeMutableBytes(of: &value) { $0.baseAddress!.copyMemory(from: base + position, byteCount: total - position) }
        return UInt64(littleEndian: value)
    }

    /// The high bit of each ASCII white space byte (space, tab, line feed, vertical tab, form feed, return).
    @inline(__always)
    private static func spaces(_ value: UInt64) -> UInt64 {
        WordBytes.zeros(value ^ WordBytes.each(0x20)) | WordBytes.atLeast(value, 0x09) & ~WordBytes.atLeast(value, 0x0E)
    }

    /// The number of words (``words``) of valid UTF-8 HTML.
    static func countWords(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = text.baseAddress else { return 0 }
        let total = text.count
        var count = 0, inWord = false, position = 0
        while position < total {
            if base[position] == UInt8(ascii: "<") {
                // A tag, a comment or a declaration: skipped to its `>`; it does not end a word. (Tested
                // first: in highlighted code a tag follows a tag, and reading its eight bytes as text is wasted.)
                guard let after = tagEnd(text, from: position) else { break }
                position = after
                continue
            }
            let value = chunk(base, position, total)
            let space = spaces(value)
            // A word starts at each byte not a space after a space (before the first: after the last byte read).
            let starts = ~space & WordBytes.highs & (space << 8 | (inWord ? 0 : 0x80))
            let special = value & WordBytes.highs | WordBytes.zeros(value ^ WordBytes.each(UInt8(ascii: "<")))
            if special == 0 {
                count += WordBytes.highBits(starts)
                inWord = space >> 63 == 0
                position += 8
                continue
            }
            // The bytes before the first tag or character beyond ASCII, then that one.
            let plain = special.trailingZeroBitCount / 8
            if plain > 0 {
                count += WordBytes.highBits(starts & (UInt64.max >> (64 - 8 * plain)))
                inWord = space >> (8 * plain - 1) & 1 == 0
                position += plain
            }
            let byte = base[position]
            if byte == UInt8(ascii: "<") {
                // A tag, a comment or a declaration: skipped to its `>`; it does not end a word.
                guard let after = tagEnd(text, from: position) else { break }
                position = after
                continue
            }
            let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            guard position + length <= total else { break }
            let scalar = scalarValue(startingAt: position, length: length, in: text)
            if isIdeograph(scalar) {
                count += 1
                inWord = false
            } else if scalar >= 0x3000 && scalar <= 0x303F || scalar >= 0xFF00 && scalar <= 0xFF0F || isWhitespace(scalar) {
                // Spaces, and the CJK punctuation between ideographs.
                inWord = false
            } else if !inWord {
                inWord = true
                count += 1
            }
            position += length
        }
        return count
    }

    /// ``searchWords(html:)`` of valid UTF-8 HTML. Each word is written lower-cased where it would go,
    /// hashed as it is written, eight bytes at a time, then kept, or taken back when a word of the
    /// same 64-bit hash was kept before: two different words of one post with the same hash (about
    /// one chance in 10^13 for a post's thousand words) would lose the second.
    static func searchWords(in text: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = text.baseAddress, !text.isEmpty else { return "" }
        let total = text.count, limit = searchBytes
        // 4,000 bytes hold at most 1,334 words, so 2,048 slots are never full (a word is found or
        // kept by its whole hash, whatever the table's size).
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2048) { slots in
            slots.initialize(repeating: 0)
            // Eight bytes more than kept: a run of letters is written eight bytes at once.
            return String(unsafeUninitializedCapacity: limit + 8) { out in
                // Bytes kept; where the word being written starts (-1: none), its end, its hash so far.
                var used = 0, start = -1, end = 0, hash: UInt64 = 0
                /// Ends the word being written, if any: kept, or taken back with the space before it.
                @inline(__always)
                func endWord() {
                    guard start >= 0 else { return }
                    defer { start = -1 }
                    // One ASCII letter or digit is no word.
                    if end - start == 1, out[start] < 0x80 { return }
                    let key = hash | 1
                    var slot = Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
                    while slots[slot] != 0 {
                        if slots[slot] == key { return }
                        slot = (slot + 1) & (slots.count - 1)
                    }
                    slots[slot] = key
                    used = end
                }
                /// Starts a word (after a space) unless one is being written; false when the words are full.
                @inline(__always)
                func beginWord() -> Bool {
                    guard start < 0 else { return true }
                    if used > 0 {
                        guard used < limit else { return false }
                        out[used] = UInt8(ascii: " ")
                        start = used + 1
                    } else {
                        start = 0
                    }
                    end = start
                    hash = 0
                    return true
                }
                @inline(__always)
                func mix(_ part: UInt64) {
                    hash = (hash ^ part) &* 0x9E37_79B9_7F4A_7C15
                    hash ^= hash >> 29
                }
                var position = 0, full = false
                scan: while position < total {
                    let byte = base[position]
                    if byte == UInt8(ascii: "<") {
                        // A tag, a comment or a declaration: skipped to its `>` (tested first, as in ``countWords(_:)``).
                        endWord()
                        guard let after = tagEnd(text, from: position) else { break scan }
                        position = after
                        continue
                    }
                    if byte < 0x80 {
                        let value = chunk(base, position, total)
                        let folded = value | WordBytes.each(0x20)
                        let alphabetic = WordBytes.atLeast(folded, 0x61) & ~WordBytes.atLeast(folded, 0x7B)
                        let letters = (alphabetic | WordBytes.atLeast(value, 0x30) & ~WordBytes.atLeast(value, 0x3A)) & ~value & WordBytes.highs
                        // The run of ASCII letters and digits at `position` (all eight, or up to the first other byte).
                        let run = (~letters & WordBytes.highs).trailingZeroBitCount / 8
                        if run > 0 {
                            guard beginWord(), end + run <= limit else { full = true; break scan }
                            let lowered = value | alphabetic >> 2
                            UnsafeMutableRawPointer(out.baseAddress! + end).storeBytes(of: lowered.littleEndian, as: UInt64.self)
                            mix(run == 8 ? lowered : lowered & (UInt64.max >> (64 - 8 * run)))
                            end += run
                            position += run
                            // The byte after a run in the eight (a space after a word, mostly) ends the word
                            // here, unless it starts a tag, a reference or a character beyond ASCII.
                            if run < 8 {
                                let stop = UInt8(truncatingIfNeeded: value >> (8 * run))
                                if stop < 0x80, stop != UInt8(ascii: "<"), stop != UInt8(ascii: "&") {
                                    endWord()
                                    position += 1
                                }
                            }
                            continue
                        }
                        endWord()
                        if byte == UInt8(ascii: "&") {
                            // A character reference (`&amp;`, `&#39;`): skipped to its `;`.
                            var next = position + 1
                            while next < min(total, position + 12), isLetterOrDigit(base[next]) || base[next] == UInt8(ascii: "#") {
                                next += 1
                            }
                            position = next < total && base[next] == UInt8(ascii: ";") ? next + 1 : position + 1
                        } else {
                            position += 1
                        }
                        continue
                    }
                    let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                    guard position + length <= total else { break }
                    let value = scalarValue(startingAt: position, length: length, in: text)
                    // Latin-1's no-break space, punctuation and symbols (U+0080–U+00BF), and General
                    // Punctuation (U+2000–U+207F: spaces, dashes, quotes, `…`) part words.
                    if value < 0xC0 || value >= 0x2000 && value <= 0x207F {
                        endWord()
                    } else {
                        guard beginWord(), end + length <= limit else { full = true; break scan }
                        var part: UInt64 = 0
                        for offset in 0..<length {
                            out[end + offset] = base[position + offset]
                            part |= UInt64(base[position + offset]) << (8 * offset)
                        }
                        mix(part)
                        end += length
                    }
                    position += length
                }
                // Ended by a word that does not fit: the words before it; else the last one ends too.
                if !full { endWord() }
                return used
            }
        }
    }

    /// Where the text goes on after the tag whose `<` is at `position`: after its `>`, found eight
    /// bytes at a time in the 24 bytes after the `<` (most tags are short: a highlighted token's
    /// `<span class="kt">` is 17 bytes), else by `memchr`; nil when it has none.
    @inline(__always)
    private static func tagEnd(_ text: UnsafeBufferPointer<UInt8>, from position: Int) -> Int? {
        let base = text.baseAddress!, total = text.count
        var at = position + 1
        for _ in 0..<3 {
            guard at < total else { return nil }
            let closers = WordBytes.zeros(chunk(base, at, total) ^ WordBytes.each(UInt8(ascii: ">")))
            if closers != 0 { return at + 1 + closers.trailingZeroBitCount / 8 }
            at += 8
        }
        return ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: text, from: at).map { $0 + 1 }
    }

    @inline(__always)
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 26
    }

    /// The value of the scalar whose UTF-8 form of `length` bytes starts at `bytes[index]`.
    @inline(__always)
    private static func scalarValue(startingAt index: Int, length: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var value = UInt32(bytes[index] & (0x7F >> length))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return value
    }

    /// Han (CJK ideographs and their extensions), hiragana and katakana: scripts written without
    /// spaces between words. Hangul is written with them, and counts by its words.
    private static func isIdeograph(_ value: UInt32) -> Bool {
        (0x3040...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x20000...0x3134F).contains(value) || (0x31F0...0x31FF).contains(value)
    }

    /// Unicode's White_Space beyond ASCII (`Unicode.Scalar.Properties.isWhitespace`, without its
    /// table lookup): next line, no-break space, Ogham space mark, the spaces of General
    /// Punctuation, the line and paragraph separators, and the ideographic space.
    package static func isWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
