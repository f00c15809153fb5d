/// A cursor over a code block's UTF-8 bytes that lexers move and mark tokens with. Bytes no token
/// covers are plain text.
package struct Scanner {
    /// The code.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var pos = 0
    /// The tokens so far, in order, none overlapping.
    var tokens: [Token] = []

    /// A scanner at the start of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // Room for a token each eight bytes, so that most blocks' arrays never grow.
        tokens.reserveCapacity(bytes.count / 8)
    }

    /// The end of the code.
    var end: Int { bytes.count }

    /// Whether every byte was read.
    var atEnd: Bool { pos >= bytes.count }

    /// The byte `offset` after the cursor, or 0 past the end.
    @inline(__always)
    func peek(_ offset: Int = 0) -> UInt8 {
        let index = pos + offset
        return index < bytes.count ? bytes[index] : 0
    }

    /// The byte at `index`, or 0 outside the code.
    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        index >= 0 && index < bytes.count ? bytes[index] : 0
    }

    /// Whether the bytes at the cursor are `text`.
    @inline(__always)
    func at(_ text: [UInt8]) -> Bool {
        at(text, pos)
    }

    /// Whether the bytes at `index` are `text`.
    func at(_ text: [UInt8], _ index: Int) -> Bool {
        guard index + text.count <= bytes.count else { return false }
        for offset in 0..<text.count where bytes[index + offset] != text[offset] { return false }
        return true
    }

    /// Whether the cursor is at the start of a line, only spaces and tabs before it on the line.
    var atLineStartIgnoringIndent: Bool {
        var index = pos - 1
        while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 { index -= 1 }
        return index < 0 || bytes[index] == 0x0A
    }

    /// Marks the bytes from `start` to the cursor as `kind`; joins the previous token when it
    /// has the same class and ends there.
    mutating func mark(_ kind: TokenClass, from start: Int) {
        mark(kind, start, pos)
    }

    /// Marks `start..<end` as `kind`.
    mutating func mark(_ kind: TokenClass, _ start: Int, _ end: Int) {
        guard end > start else { return }
        if let last = tokens.last, last.kind == kind, last.end == start {
            tokens[tokens.count - 1].end = end
        } else {
            tokens.append(Token(start: start, end: end, kind: kind))
        }
    }

    /// Moves past `count` bytes and marks them as `kind`.
    mutating func take(_ count: Int, as kind: TokenClass) {
        let start = pos
        pos = min(pos + count, end)
        mark(kind, from: start)
    }

    /// Moves to the end of the line (before its line feed).
    mutating func skipToLineEnd() {
        while pos < end, bytes[pos] != 0x0A { pos += 1 }
    }

    /// Moves past the bytes for which `test` holds.
    @inline(__always)
    mutating func skip(while test: (UInt8) -> Bool) {
        while pos < end, test(bytes[pos]) { pos += 1 }
    }

    /// Moves past an identifier (see ``Bytes/isIdentifier(_:)``).
    mutating func skipIdentifier() {
        skip(while: Bytes.isIdentifier)
    }

    /// Moves past spaces and tabs.
    mutating func skipBlanks() {
        skip { $0 == 0x20 || $0 == 0x09 }
    }

    /// The index of the first byte at or after `index` that is no space or tab.
    func indexAfterBlanks(_ index: Int) -> Int {
        var index = index
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index
    }

    /// The bytes `range` as a string (for tests and rare lookups).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

/// Byte classes lexers share.
enum Bytes {
    /// A letter, `_`, or a byte of a non-ASCII character (taken as a letter).
    @inline(__always)
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F || byte >= 0x80
    }

    /// An identifier byte: as ``isIdentifierStart(_:)``, or a digit.
    @inline(__always)
    static func isIdentifier(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    /// An ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// A space, tab, carriage return or line feed.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// An ASCII upper-case letter.
    @inline(__always)
    static func isUpper(_ byte: UInt8) -> Bool {
        byte >= 0x41 && byte <= 0x5A
    }
}

/// A set of bytes, a bit each: asked without an array's bounds check or reference count.
struct ByteSet: Sendable {
    private var low: UInt128 = 0
    private var high: UInt128 = 0

    /// The set of `bytes`.
    init(_ bytes: [UInt8]) {
        for byte in bytes {
            if byte < 128 { low |= 1 << byte } else { high |= 1 << (byte & 127) }
        }
    }

    /// Whether `byte` is in the set.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        ((byte < 128 ? low : high) >> (byte & 127)) & 1 != 0
    }
}

/// Words and the class each has, found by their bytes without making a string: an open-addressing
/// table keyed by the words' FNV-1a hashes (cheaper than a `Dictionary`, which hashes its keys again).
/// The words' bytes are in one array, and a slot holds plain numbers only.
struct WordTable: Sendable {
    /// A slot: the word's hash, where its bytes are in ``wordBytes`` and its class; empty when `count` is 0.
    private struct Slot: Sendable {
        var hash: UInt64 = 0
        var start: Int32 = 0
        var count: Int32 = 0
        var kind = TokenClass.keyword
    }
    private var slots: [Slot]
    /// Every word's bytes, one after another.
    private var wordBytes: [UInt8] = []
    private let mask: Int
    /// Whether words match in any case (SQL).
    private let ignoresCase: Bool
    /// The longest word's length: longer names are no words.
    private var longest = 0

    /// A table of `words`, each with its class; a word given twice keeps its first class. With
    /// `ignoringCase`, ASCII letters match in either case.
    init(_ groups: [(TokenClass, String)], ignoringCase: Bool = false) {
        ignoresCase = ignoringCase
        let words = groups.flatMap { kind, list in
            list.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { (kind, Array((ignoringCase ? $0.lowercased() : String($0)).utf8)) }
        }
        // At most a quarter full, so that a name that is no word (most names) ends at an empty slot soon.
        var size = 8
        while size < words.count * 4 { size *= 2 }
        slots = [Slot](repeating: Slot(), count: size)
        mask = size - 1
        for (kind, word) in words {
            let hash = word.withUnsafeBufferPointer { Self.hash($0, 0..<$0.count, lowering: false) }
            var index = Int(truncatingIfNeeded: hash) & mask
            while slots[index].count > 0, !wordBytes[Int(slots[index].start)...].starts(with: word)
                    || Int(slots[index].count) != word.count {
                index = (index + 1) & mask
            }
            if slots[index].count == 0 {
                slots[index] = Slot(hash: hash, start: Int32(wordBytes.count), count: Int32(word.count), kind: kind)
                wordBytes += word
            }
            longest = max(longest, word.count)
        }
    }

    /// FNV-1a of `bytes[range]`, upper-case ASCII letters lower-cased when `lowering`.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lowering: Bool) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        if lowering {
            for index in range { value = (value ^ UInt64(lower(bytes[index]))) &* 0x100_0000_01b3 }
        } else {
            for index in range { value = (value ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
        }
        return value
    }

    /// `byte`, lower-cased when an ASCII upper-case letter.
    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        Bytes.isUpper(byte) ? byte | 0x20 : byte
    }

    /// The class of the word `bytes[range]`, or nil when it is not in the table.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> TokenClass? {
        guard range.count <= longest else { return nil }
        let hash = Self.hash(bytes, range, lowering: ignoresCase)
        return slots.withUnsafeBufferPointer { slots in
            wordBytes.withUnsafeBufferPointer { words in
                var index = Int(truncatingIfNeeded: hash) & mask
                while slots[index].count > 0 {
                    let slot = slots[index]
                    if slot.hash == hash, Int(slot.count) == range.count {
                        var same = true
                        var at = Int(slot.start)
                        for offset in range {
                            if (ignoresCase ? Self.lower(bytes[offset]) : bytes[offset]) != words[at] {
                                same = false
                                break
                            }
                            at += 1
                        }
                        if same { return slot.kind }
                    }
                    index = (index + 1) & mask
                }
                return nil
            }
        }
    }
}
