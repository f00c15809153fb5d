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

/// Words and the class each has, found by their bytes without making a string: an open-addressing
/// table keyed by the words' FNV-1a hashes (cheaper than a `Dictionary`, which hashes its keys again).
struct WordTable: Sendable {
    /// A slot: the word's hash, its bytes and its class; empty when `word` is empty.
    private struct Slot: Sendable {
        var hash: UInt64 = 0
        var word: [UInt8] = []
        var kind = TokenClass.keyword
    }
    private var slots: [Slot]
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
        var size = 8
        while size < words.count * 2 { size *= 2 }
        slots = [Slot](repeating: Slot(), count: size)
        mask = size - 1
        for (kind, word) in words {
            let hash = Self.hash(word[...], lowering: false)
            var index = Int(truncatingIfNeeded: hash) & mask
            while !slots[index].word.isEmpty, slots[index].word != word { index = (index + 1) & mask }
            if slots[index].word.isEmpty { slots[index] = Slot(hash: hash, word: word, kind: kind) }
            longest = max(longest, word.count)
        }
    }

    /// FNV-1a of `bytes`, upper-case ASCII letters lower-cased when `lowering`.
    @inline(__always)
    private static func hash<C: Collection>(_ bytes: C, lowering: Bool) -> UInt64 where C.Element == UInt8 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(lowering ? lower(byte) : byte)) &* 0x100_0000_01b3 }
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
        let slice = bytes[range]
        let hash = Self.hash(slice, lowering: ignoresCase)
        var index = Int(truncatingIfNeeded: hash) & mask
        while !slots[index].word.isEmpty {
            if slots[index].hash == hash,
               ignoresCase ? slots[index].word.elementsEqual(slice.lazy.map(Self.lower)) : slots[index].word.elementsEqual(slice) {
                return slots[index].kind
            }
            index = (index + 1) & mask
        }
        return nil
    }
}
