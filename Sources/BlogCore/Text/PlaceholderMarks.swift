/// Placeholder marks: a stage puts a mark in a text where something goes that the next step must not
/// see (a shortcode's HTML that markdown would escape, a kramdown attribute list, a post's body in a
/// rendered page), and finds the marks again afterwards to put it there.
///
/// A mark is `U+E000`, the nonce, a kind (`shortcode`, empty, `&`…), a decimal number, `U+E001`.
/// The nonce is eight private-use characters drawn at random once per process: a post cannot
/// contain a mark (not even as `&#xE000;` entities), so its own text is never taken for one.
/// Private-use characters are neither letters, digits, punctuation nor spaces: markdown leaves a mark
/// alone and treats it as one word, and heading ids drop them, so an id made from a heading that
/// holds a mark sees only its kind and number (`shortcode0`), the same in every build.
package struct PlaceholderMarks: Sendable, Equatable {
    /// What every mark starts and ends with.
    package static let open = "\u{E000}", close = "\u{E001}"
    /// The marks of this process (a random nonce).
    package static let build = PlaceholderMarks()

    /// The private-use characters after ``open``.
    package let nonce: String
    private let lead: [UInt8]
    /// ``lead`` as a string, made once: ``mayBeIn(_:)`` asks for it for every heading and page.
    private let leadText: String

    /// Marks with a random nonce.
    package init() {
        var generator = SystemRandomNumberGenerator()
        let random = generator.next() as UInt64
        self.init(nonce: String(String.UnicodeScalarView((0..<8).map { shift in
            Unicode.Scalar(0xE100 + UInt32((random >> (UInt64(shift) * 8)) & 0xFF))!
        })))
    }

    /// Marks with `nonce` (tests).
    package init(nonce: String) {
        self.nonce = nonce
        leadText = Self.open + nonce
        lead = Array(leadText.utf8)
    }

    /// The mark of the `number`th thing of `kind`.
    package func mark(_ kind: String, _ number: Int) -> String {
        Self.open + nonce + kind + String(number) + Self.close
    }

    /// Whether `text` may hold a mark of these (a quick check).
    package func mayBeIn(_ text: String) -> Bool {
        ByteSearch.contains(text, leadText)
    }

    /// `text` without its marks, whatever their kind: a heading's plain text, which templates see.
    package func removingMarks(from text: String) -> String {
        guard mayBeIn(text) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        while let found = ByteSearch.firstIndex(of: lead, in: bytes, from: copied),
              let close = ByteSearch.firstIndex(of: Self.closeBytes, in: bytes, from: found + lead.count) {
            out += bytes[copied..<found]
            copied = close + Self.closeBytes.count
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The first mark of one of `kinds` in `bytes` at or after `start`: where it is, the index of its
    /// kind in `kinds` (the first that fits), and its number.
    package func next(in bytes: [UInt8], from start: Int, kinds: [[UInt8]]) -> (range: Range<Int>, kind: Int, number: Int)? {
        var position = start
        while let found = ByteSearch.firstIndex(of: lead, in: bytes, from: position) {
            position = found + 1
            let afterLead = found + lead.count
            for (index, kind) in kinds.enumerated() where Self.matches(kind, in: bytes, at: afterLead) {
                var cursor = afterLead + kind.count
                var number = 0
                var digits = 0
                while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9"), digits < 18 {
                    number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                    digits += 1
                }
                guard digits > 0, Self.matches(Self.closeBytes, in: bytes, at: cursor) else { continue }
                return (found..<(cursor + Self.closeBytes.count), index, number)
            }
        }
        return nil
    }

    /// The first mark of `kind` in `bytes` at or after `start`, and its number.
    package func next(in bytes: [UInt8], from start: Int, kind: String) -> (range: Range<Int>, number: Int)? {
        next(in: bytes, from: start, kinds: [Array(kind.utf8)]).map { ($0.range, $0.number) }
    }

    private static let closeBytes = Array(close.utf8)

    private static func matches(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in pattern.indices where bytes[index + offset] != pattern[offset] { return false }
        return true
    }
}
