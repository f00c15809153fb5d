import CSystem

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
    /// Whether the body or the summary links to other files: holds an image (`<img`: its size comes from its file)
    /// or may hold a Pelican reference left as written. What the markdown stage found as it rewrote their links
    /// (the build's state reads it instead of searching both again); nil when not known.
    package var linksElsewhere: Bool?
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
        holdsTableOfContents = ByteSearch.contains(html, TableOfContents.filledStart, by: TableOfContents.filledStartAnchor)
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
        let table = SearchWordTable()
        return html.withUTF8 { text in String(unsafeUninitializedCapacity: searchRoom) { searchWords(in: text, into: $0.baseAddress!, table: table) } }
    }

    /// The bytes ``searchWords(html:into:)`` may write: ``searchBytes`` kept, and sixteen more, as a run of
    /// letters is written eight or sixteen bytes at once.
    package static let searchRoom = searchBytes + 16

    /// ``searchWords(html:)`` written from `out` on (``searchRoom`` bytes writable), without a `String`:
    /// the number of bytes kept, which are valid UTF-8 (whole characters of `html`, and spaces). `table` is
    /// left as it was given, so that the posts of a shard, read one after another, share one.
    package static func searchWords(html: String, into out: UnsafeMutablePointer<UInt8>, table: SearchWordTable) -> Int {
        var html = html
        return html.withUTF8 { searchWords(in: $0, into: out, table: table) }
    }

    /// The table of words seen that ``searchWords(html:into:table:)`` keeps while it reads a post: 2,048 keys, all
    /// zero between posts (4,000 bytes hold at most 1,333 words of two bytes or more, so it is never full; a word is
    /// found or kept by its whole key), the slots filled, cleared when the post is read, and 144 bytes the reader
    /// writes in. Zeroing its 16 KiB for each post was 1% of a build's instructions.
    package final class SearchWordTable {
        /// The slots, the numbers of the slots filled (``SearchWordTable/filledCapacity`` `UInt16`s), the
        /// reader's bytes.
        fileprivate let memory: UnsafeMutablePointer<UInt64>
        fileprivate static let slotCount = 2048
        /// The most words kept of a post: ``BodyText/searchBytes`` over three, a word of two bytes and a space.
        fileprivate static let filledCapacity = 2048
        fileprivate static let size = slotCount + filledCapacity / 4 + 18

        /// An empty table.
        package init() {
            memory = .allocate(capacity: Self.size)
            memory.initialize(repeating: 0, count: Self.size)
        }

        deinit { memory.deallocate() }
    }

    /// Minutes to read `words` at `perMinute` (1 or more) words a minute, rounded up: 1 for any text, 0 for none.
    package static func readingMinutes(words: Int, perMinute: Int) -> Int {
        words == 0 ? 0 : (words + perMinute - 1) / perMinute
    }

    // The two readers below take the bytes sixty-four at a time, classified at once by CSystem's
    // `blog_count_bytes` and `blog_search_bytes` (SSE2: one bit a byte in each mask), and read the
    // tags whose `>` is among them from the masks too; a tag that goes on past them is skipped from
    // its `<` eight bytes at a time, then by `memchr`, and a character beyond ASCII is read on its
    // own. Where they stop (a character beyond ASCII, a tag not closed, a search word that may go on),
    // the next sixty-four start. All arithmetic on positions wraps: they are within the text.

    /// The sixty-four bytes at `position` of `base` (`total` long), or, for the last fewer than
    /// sixty-four, the same copied into `spare` (sixty-four bytes) with spaces after them.
    @inline(__always)
    private static func sixtyFour(_ base: UnsafePointer<UInt8>, _ position: Int, _ total: Int, spare: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        if total &- position >= 64 { return base + position }
        spare.update(repeating: UInt8(ascii: " "), count: 64)
        spare.update(from: base + position, count: total &- position)
        return UnsafePointer(spare)
    }

    /// The eight bytes at `position` as a `UInt64` (byte 0 lowest, ``WordBytes``), the ones past
    /// `total` read as spaces: for a word's run read on its own, and a tag's `>`.
    @inline(__always)
    private static func chunk(_ base: UnsafePointer<UInt8>, _ position: Int, _ total: Int) -> UInt64 {
        if total - position >= 8 { return WordBytes.load(base, position) }
        var value = WordBytes.each(0x20)
        withUnsafeMutableBytes(of: &value) { $0.baseAddress!.copyMemory(from: base + position, byteCount: total - position) }
        return UInt64(littleEndian: value)
    }

    /// The low `count` bits (0 through 64).
    @inline(__always)
    private static func below(_ count: Int) -> UInt64 {
        count >= 64 ? UInt64.max : (1 &<< UInt64(truncatingIfNeeded: count)) &- 1
    }

    /// The bytes of the tags among sixty-four whose `<` are `opens` and `>` are `closes` (the first byte in
    /// none), each from its `<` to the first `>` after it, and where the reading of them stops: at the `<` of
    /// a tag not closed among them, else 64. When each `<` is closed before the next and no `>` stands
    /// outside a tag (most often), the bytes within tags are the ones after an odd number of the two, found
    /// for all at once by a prefix XOR; else the tags are taken one by one.
    @inline(__always)
    static func tagBytes(opens: UInt64, closes: UInt64) -> (bytes: UInt64, read: Int) {
        var odd = opens | closes
        odd ^= odd &<< 1
        odd ^= odd &<< 2
        odd ^= odd &<< 4
        odd ^= odd &<< 8
        odd ^= odd &<< 16
        odd ^= odd &<< 32
        let within = odd &<< 1
        if opens & within == 0, closes & ~within == 0 {
            guard odd &>> 63 != 0 else { return (odd | closes, 64) }
            let open = 63 &- opens.leadingZeroBitCount
            return ((odd | closes) & below(open), open)
        }
        var rest = opens, bytes: UInt64 = 0
        while rest != 0 {
            let open = UInt64(truncatingIfNeeded: rest.trailingZeroBitCount)
            let closing = closes & (UInt64.max - 1) &<< open
            guard closing != 0 else { return (bytes, Int(truncatingIfNeeded: open)) }
            let after = 2 &<< UInt64(truncatingIfNeeded: closing.trailingZeroBitCount) &- 1
            bytes |= after & ~(1 &<< open &- 1)
            rest &= ~after
        }
        return (bytes, 64)
    }

    /// The number of bits set in `bits` (`nonzeroBitCount` without `popcnt`, which an x86-64 may
    /// lack: the bits added in pairs, fours, bytes, then the bytes by one multiplication).
    @inline(__always)
    private static func bitCount(_ bits: UInt64) -> Int {
        var value = bits &- (bits &>> 1 & 0x5555_5555_5555_5555)
        value = (value & 0x3333_3333_3333_3333) &+ (value &>> 2 & 0x3333_3333_3333_3333)
        value = (value &+ value &>> 4) & 0x0F0F_0F0F_0F0F_0F0F
        return Int(truncatingIfNeeded: (value &* WordBytes.ones) &>> 56)
    }

    /// The number of words (``words``) of valid UTF-8 HTML.
    static func countWords(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = text.baseAddress else { return 0 }
        let total = text.count
        var count = 0, inWord = false, position = 0
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { spare in
            while position < total {
                let byte = base[position]
                if byte == UInt8(ascii: "<") {
                    // A tag, a comment or a declaration: skipped to its `>`; it does not end a word.
                    guard let after = tagEnd(text, from: position) else { break }
                    position = after
                    continue
                }
                if byte < 0x80 {
                    let found = blog_count_bytes(sixtyFour(base, position, total, spare: spare.baseAddress!))
                    // The bytes of words: not spaces, and each tag read as the byte before it (it neither
                    // ends a word nor starts one), up to a tag that does not close among the sixty-four.
                    let (tags, tagsEnd) = tagBytes(opens: found.opens, closes: found.closes)
                    var read = tagsEnd
                    let carry: UInt64 = inWord ? 1 : 0
                    // Each run of tags (the first byte is in none) takes the class of the byte before it: added
                    // to the run's first byte, a one carries through the run, which leaves the bits it cleared.
                    let runs = tags & ~(tags &<< 1) & (~found.words &<< 1 | carry)
                    var marks = ~found.words & ~tags | tags & ~(tags &+ runs)
                    // Then up to the first character beyond ASCII (outside a tag); at least the first byte,
                    // which is neither.
                    let beyond = found.stops & ~tags
                    if beyond != 0 { read = min(read, beyond.trailingZeroBitCount) }
                    marks &= below(read)
                    // A word starts at each byte of one after a space or at the start.
                    count &+= bitCount(marks & ~(marks &<< 1 | carry))
                    inWord = marks &>> UInt64(read &- 1) & 1 != 0
                    position &+= read
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
    }

    /// The key a kept search word is known by: a word of up to eight bytes, its bytes (exact); a longer
    /// one, a 64-bit hash of its bytes, eight at a time. The same for the same bytes however they were
    /// read, since it is made from where the word is written (`bytes`, with at least eight bytes
    /// readable after the word's end).
    @inline(__always)
    private static func key(_ bytes: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        if length <= 8 { return WordBytes.load(bytes, 0) & (UInt64.max >> (64 - 8 * length)) }
        var hash: UInt64 = 0, offset = 0
        while offset < length {
            let part = WordBytes.load(bytes, offset) & (length - offset >= 8 ? UInt64.max : UInt64.max >> (64 - 8 * (length - offset)))
            hash = (hash ^ part) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
            offset += 8
        }
        return hash | 1
    }

    /// ``searchWords(html:into:)`` of valid UTF-8 HTML. Each word is written lower-cased where it would go,
    /// then kept, or taken back when a word of the same key (``key(_:_:)``) was kept before: two
    /// different words of more than eight bytes with the same 64-bit hash (about one chance in 10^13
    /// for a post's thousand words) would lose the second.
    static func searchWords(in text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, table: SearchWordTable) -> Int {
        guard let base = text.baseAddress, !text.isEmpty else { return 0 }
        let total = text.count, limit = searchBytes
        // The table's slots (``SearchWordTable``), the numbers of those filled; then 80 bytes: sixty-four
        // lower-cased, and eight read after any of them; and 64 for the last bytes of the text.
        let slots = table.memory
        let filled = UnsafeMutableRawPointer(slots + SearchWordTable.slotCount).assumingMemoryBound(to: UInt16.self)
        let lowered = UnsafeMutableRawPointer(slots + SearchWordTable.slotCount + SearchWordTable.filledCapacity / 4)
            .assumingMemoryBound(to: UInt8.self)
        let spare = lowered + 80
        var filledCount = 0
        // The slots filled emptied again, whichever way the reading ends.
        defer {
            for index in 0..<filledCount { slots[Int(truncatingIfNeeded: filled[index])] = 0 }
        }
        do {
            // Bytes kept; where the word being written starts (-1: none), its end.
            var used = 0, start = -1, end = 0
            /// Whether a word of key `key` was kept before; else it is now.
            @inline(__always)
            func isKept(_ key: UInt64) -> Bool {
                var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 53)
                while slots[slot] != 0 {
                    if slots[slot] == key { return true }
                    slot = (slot &+ 1) & 2047
                }
                slots[slot] = key
                filled[filledCount] = UInt16(truncatingIfNeeded: slot)
                filledCount &+= 1
                return false
            }
            /// Ends the word being written, if any: kept, or taken back with the space before it.
            @inline(__always)
            func endWord() {
                guard start >= 0 else { return }
                defer { start = -1 }
                // One ASCII letter or digit is no word.
                if end - start == 1, out[start] < 0x80 { return }
                if !isKept(key(out + start, end - start)) { used = end }
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
                return true
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
                if start < 0, byte < 0x80, byte != UInt8(ascii: "&") {
                    // Sixty-four bytes at once: the words among them up to the first reference, character
                    // beyond ASCII or tag not closed among them; the last one when it may go on (it
                    // reaches the sixty-fourth byte, or a character beyond ASCII) read from its start next,
                    // or below when it starts here.
                    let bytes = sixtyFour(base, position, total, spare: spare)
                    let found = blog_search_bytes(bytes, lowered)
                    let (tags, tagsEnd) = tagBytes(opens: found.opens, closes: found.closes)
                    var read = tagsEnd
                    let stops = found.stops & ~tags
                    if stops != 0 { read = min(read, stops.trailingZeroBitCount) }
                    var letters = found.words & ~tags & below(read)
                    if letters &>> UInt64(read &- 1) & 1 != 0, read == 64 || bytes[read] >= 0x80 {
                        let others = ~letters & below(read)
                        read = others == 0 ? 0 : 64 &- others.leadingZeroBitCount
                        letters &= below(read)
                    }
                    // Each word's first and last byte, one bit each, taken lowest first. One ASCII letter
                    // or digit is no word, and is left out here: it is never kept, and when it would not
                    // fit, no longer word fits after it either, so the bytes kept are the same.
                    let after = letters & ~(letters &>> 1), single = letters & ~(letters &<< 1) & after
                    var starts = letters & ~(letters &<< 1) & ~single, ends = after & ~single
                    // Where the next word kept would start: after a space, unless it is the first.
                    var at = used > 0 ? used &+ 1 : 0
                    while starts != 0 {
                        let first = starts.trailingZeroBitCount
                        let length = ends.trailingZeroBitCount &- first &+ 1
                        starts &= starts &- 1
                        ends &= ends &- 1
                        guard at &+ length <= limit else { full = true; break scan }
                        guard !isKept(key(lowered + first, length)) else { continue }
                        if at > 0 { out[at &- 1] = UInt8(ascii: " ") }
                        if length <= 16 {
                            let word = UnsafeMutableRawPointer(out + at), from = UnsafeRawPointer(lowered + first)
                            word.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                            word.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                        } else {
                            (out + at).update(from: lowered + first, count: length)
                        }
                        used = at &+ length
                        at = used &+ 1
                    }
                    if read > 0 {
                        position &+= read
                        continue
                    }
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
                        UnsafeMutableRawPointer(out + end).storeBytes(of: lowered.littleEndian, as: UInt64.self)
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
                    for offset in 0..<length {
                        out[end + offset] = base[position + offset]
                    }
                    end += length
                }
                position += length
            }
            // Ended by a word that does not fit: the words before it; else the last one ends too.
            if !full { endWord() }
            return used
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
