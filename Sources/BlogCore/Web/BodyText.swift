/// What the features of a post's page read of the text of its rendered body, read in one pass over
/// its UTF-8 bytes when the body is made (``RenderedMarkdown/text``): its number of words, for
/// `post.words` and `post.reading_minutes`, and its search words, for the search index (the markdown
/// stage leaves them out, and the index reads them as it is written: kept for every post until then,
/// they would hold 65 MiB at 50,000 posts); and the text of its summary, for `post.description` and the
/// search index.
package struct BodyText: Sendable, Equatable {
    /// The words of the text: runs of characters between white space, outside tags; each Chinese or
    /// Japanese character (Han, kana) counts as a word, as Hugo counts text in those languages,
    /// since they write no spaces between words. A tag does not end a word (`<em>un</em>done` is
    /// one), an entity is a character of one. The words of a table of contents filled in the body
    /// (``TableOfContents/fill(_:marks:)``), which repeat its headings, are not counted.
    package var words: Int
    /// The words of the text each once, separated by spaces, in order of first use, cut at
    /// ``searchBytes`` bytes (nil when not asked for). A word is a run of letters and digits:
    /// ASCII ones, and any character beyond ASCII except spaces and punctuation of Unicode's General
    /// Punctuation block and Latin-1 (curly quotes, dashes, `…`, `«»`), so accented words and runs of
    /// CJK text stay whole. Tags and character references part words. ASCII letters are compared
    /// without case (and kept lower-case); words of one ASCII letter or digit are left out. The result
    /// holds letters, digits and spaces only: it is a JSON string's content as it is.
    package var searchWords: String?

    /// Whether the body holds a table of contents (``TableOfContents/filledStart``): a theme shows no second one.
    package var holdsTableOfContents: Bool
    /// The text of the summary (``WebText/plainText(fromHTML:limit:)``), cut at ``summaryCharacters``;
    /// nil when not read.
    package var summary: String?

    /// The most bytes of search words kept of one post.
    package static let searchBytes = 4000
    /// The most characters of a summary's text.
    package static let summaryCharacters = 160

    /// The text of the body `html` and of the summary `summaryHTML`; the body's search words only
    /// when `searchWords` (a site with `search: false` has no use for them).
    package init(html: String, summaryHTML: String, searchWords: Bool = true) {
        self.init(html: html, searchWords: searchWords)
        summary = WebText.plainText(fromHTML: summaryHTML, limit: Self.summaryCharacters)
    }

    /// The same without a summary (its ``summary`` nil).
    package init(html: String, searchWords: Bool = true) {
        var html = html
        let read = html.withUTF8 { Self.read($0, searching: searchWords) }
        words = read.words
        self.searchWords = searchWords ? read.searchWords : nil
        summary = nil
        holdsTableOfContents = ByteSearch.contains(html, TableOfContents.filledStart)
        guard holdsTableOfContents else { return }
        var rest = html[...]
        while let start = rest.range(of: TableOfContents.filledStart), let end = rest[start.upperBound...].range(of: "</nav>") {
            var table = String(rest[start.upperBound..<end.lowerBound])
            words -= table.withUTF8 { Self.read($0, searching: false).words }
            rest = rest[end.upperBound...]
        }
    }

    /// Minutes to read `words` at `perMinute` (1 or more) words a minute, rounded up: 1 for any text, 0 for none.
    package static func readingMinutes(words: Int, perMinute: Int) -> Int {
        words == 0 ? 0 : (words + perMinute - 1) / perMinute
    }

    /// What each byte is to ``read(_:searching:)``.
    private enum Kind {
        /// Parts search words; a character of a counted word.
        static let mark: UInt8 = 0
        /// An ASCII letter or digit.
        static let letter: UInt8 = 1
        /// Starts a character beyond ASCII.
        static let beyond: UInt8 = 2
        static let tag: UInt8 = 3
        static let reference: UInt8 = 4
        /// ASCII white space: ends every word.
        static let space: UInt8 = 5
    }

    private static let kinds: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return Kind.letter
        case 0x80...: return Kind.beyond
        case 0x3C: return Kind.tag
        case 0x26: return Kind.reference
        case 0x20, 0x09...0x0D: return Kind.space
        default: return Kind.mark
        }
    }

    /// One pass over the bytes of valid UTF-8 HTML: the words counted, and the search words when `searching`.
    private static func read(_ text: UnsafeBufferPointer<UInt8>, searching: Bool) -> (words: Int, searchWords: String) {
        var count = 0
        // In a counted word; writing search words (until the buffer is full).
        var inWord = false, searching = searching
        // Only the bytes written are read: the buffer needs no zeroing.
        var bytes = [UInt8](unsafeUninitializedCapacity: searching ? searchBytes : 0) { $1 = $0.count }
        // 4,000 bytes hold at most 1,334 words, so 2,048 slots are never full (a word is found or
        // kept by its whole hash, whatever the table's size).
        var slots = [UInt64](repeating: 0, count: searching ? 2048 : 0)
        let used = bytes.withUnsafeMutableBufferPointer { out in
            slots.withUnsafeMutableBufferPointer { slots in
                kinds.withUnsafeBufferPointer { kinds in
                    var words = WordList(out: out, slots: slots)
                    var position = 0
                    let total = text.count
                    scan: while position < total {
                        let byte = text[position]
                        switch kinds[Int(byte)] {
                        case Kind.letter:
                            if !inWord { inWord = true; count += 1 }
                            // A run of ASCII letters and digits.
                            if searching, words.begin() {
                                repeat {
                                    guard words.append(text[position]) else { searching = false; break }
                                    position += 1
                                } while position < total && kinds[Int(text[position])] == Kind.letter
                            } else {
                                searching = false
                                repeat { position += 1 } while position < total && kinds[Int(text[position])] == Kind.letter
                            }
                        case Kind.space:
                            inWord = false
                            if searching { words.end() }
                            position += 1
                        case Kind.beyond:
                            let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                            let value = scalarValue(startingAt: position, length: length, in: text)
                            if isIdeograph(value) {
                                count += 1
                                inWord = false
                            } else if value >= 0x3000 && value <= 0x303F || value >= 0xFF00 && value <= 0xFF0F
                                        || (Unicode.Scalar(value)?.properties.isWhitespace ?? false) {
                                // Spaces, and the CJK punctuation between ideographs.
                                inWord = false
                            } else if !inWord {
                                inWord = true
                                count += 1
                            }
                            if searching {
                                // Latin-1's no-break space, punctuation and symbols (U+00A0–U+00BF), and
                                // General Punctuation (U+2000–U+206F: spaces, dashes, quotes, `…`) part words.
                                if value < 0xC0 || value >= 0x2000 && value <= 0x207F {
                                    words.end()
                                } else if words.begin() {
                                    for offset in 0..<length where !words.append(text[position + offset]) {
                                        searching = false
                                        break
                                    }
                                } else {
                                    searching = false
                                }
                            }
                            position += length
                        case Kind.tag:
                            // A tag, a comment or a declaration: skipped to its `>`. It ends a search
                            // word, not a counted one.
                            if searching { words.end() }
                            guard let close = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: text, from: position) else { break scan }
                            position = close + 1
                        case Kind.reference:
                            // A character reference (`&amp;`, `&#39;`): a character of a counted word; it
                            // parts search words, and is skipped to its `;` (all of it not white space).
                            if !inWord { inWord = true; count += 1 }
                            if searching { words.end() }
                            var next = position + 1
                            while next < min(total, position + 12), kinds[Int(text[next])] == Kind.letter || text[next] == UInt8(ascii: "#") {
                                next += 1
                            }
                            position = next < total && text[next] == UInt8(ascii: ";") ? next + 1 : position + 1
                        default:
                            if !inWord { inWord = true; count += 1 }
                            if searching { words.end() }
                            position += 1
                        }
                    }
                    if searching { words.end() }
                    return words.used
                }
            }
        }
        return (count, String(decoding: bytes[..<used], as: UTF8.self))
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
}

/// The search words kept so far, in a buffer of ``BodyText/searchBytes`` bytes: each word is written
/// lower-cased where it would go, hashed as it is written (FNV-1a, 64 bits), then kept, or taken
/// back when a word of the same hash was kept before. Two different words of one post with the same
/// 64-bit hash (about one chance in 10^13 for a post's thousand words) would lose the second.
private struct WordList {
    static let basis: UInt64 = 0xcbf29ce484222325, prime: UInt64 = 0x100000001b3
    let out: UnsafeMutableBufferPointer<UInt8>
    /// The hashes of the kept words (with their lowest bit set: 0 is an empty slot).
    let slots: UnsafeMutableBufferPointer<UInt64>
    /// Bytes written; the start of the word being written (-1: none) and its hash so far.
    var used = 0, start = -1, hash = basis

    init(out: UnsafeMutableBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<UInt64>) {
        self.out = out
        self.slots = slots
    }

    /// Starts a word (after a space) unless one is being written; false when the buffer is full.
    @inline(__always)
    mutating func begin() -> Bool {
        guard start < 0 else { return true }
        if used > 0 {
            guard used < out.count else { return false }
            out[used] = UInt8(ascii: " ")
            used += 1
        }
        start = used
        hash = Self.basis
        return true
    }

    /// Adds a byte to the word, lower-cased; false when it does not fit, which takes the word back.
    @inline(__always)
    mutating func append(_ byte: UInt8) -> Bool {
        guard used < out.count else {
            used = max(0, start - 1)
            start = -1
            return false
        }
        let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
        out[used] = lower
        used += 1
        hash = (hash ^ UInt64(lower)) &* Self.prime
        return true
    }

    /// Ends the word being written, if any: kept, or taken back with the space before it.
    @inline(__always)
    mutating func end() {
        guard start >= 0 else { return }
        defer { start = -1 }
        // One ASCII letter or digit is no word.
        if used - start == 1, out[start] < 0x80 { used = max(0, start - 1); return }
        let key = hash | 1
        var slot = Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
        while slots[slot] != 0 {
            if slots[slot] == key {
                used = max(0, start - 1)
                return
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = key
    }
}
