/// UTF-8 checked once. The standard library checks the bytes of every `String` it makes from bytes, and
/// reads a text with one character beyond ASCII (a post with an `é`; HTML with a `’`) a byte at a time,
/// about four instructions a byte: a post was checked as it was read, and its HTML again as cmark-gfm
/// handed it over. Here the ASCII runs between such characters go eight bytes at a time, and the string
/// is then made without a second check.
package enum ValidUTF8 {
    /// Where the first byte of `bytes` that starts an ill-formed sequence is (Unicode's table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or nil when all is well; and whether
    /// the bytes before it are all ASCII.
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> (firstInvalid: Int?, ascii: Bool) {
        guard let base = bytes.baseAddress else { return (nil, true) }
        let count = bytes.count
        var index = 0, ascii = true
        while index < count {
            // Four words at once while they are ASCII (nearly all of a post): one test for 32 bytes.
            if count - index >= 32,
               (WordBytes.load(base, index) | WordBytes.load(base, index + 8) | WordBytes.load(base, index + 16)
                | WordBytes.load(base, index + 24)) & WordBytes.highs == 0 {
                index += 32
                continue
            }
            if count - index >= 8 {
                let high = WordBytes.load(base, index) & WordBytes.highs
                if high == 0 {
                    index += 8
                    continue
                }
                // To the first byte beyond ASCII of the eight.
                index += high.trailingZeroBitCount / 8
            } else if base[index] < 0x80 {
                index += 1
                continue
            }
            ascii = false
            var need = 0
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch base[index] {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return (index, false)
            }
            guard index + need < count, base[index + 1] >= low, base[index + 1] <= high else { return (index, false) }
            for offset in stride(from: 2, through: need, by: 1) where base[index + offset] & 0xC0 != 0x80 {
                return (index, false)
            }
            index += need + 1
        }
        return (nil, ascii)
    }

    /// `bytes` as a string when they are valid UTF-8 (``check(_:)``), else nil.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let (invalid, ascii) = check(bytes)
        guard invalid == nil else { return nil }
        return string(unchecked: bytes, ascii: ascii)
    }

    /// `bytes`, which the caller knows to be valid UTF-8 (``check(_:)`` said so, or they are whole
    /// characters copied out of strings), as a string, not checked again. `ascii`: they are all ASCII.
    package static func string(unchecked bytes: UnsafeBufferPointer<UInt8>, ascii: Bool = false) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: ascii))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
