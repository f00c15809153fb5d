/// Eight bytes tested at once as one `UInt64` (SWAR), byte 0 lowest: the constants and tests the
/// readers that go eight bytes at a time share (``BodyText``, ``ValidUTF8``). A test sets
/// the high bit of each byte it holds for.
enum WordBytes {
    /// 0x01 in each byte.
    static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in each byte: the high bits.
    static var highs: UInt64 { 0x8080_8080_8080_8080 }
    /// 0x7F in each byte.
    static var lows: UInt64 { 0x7F7F_7F7F_7F7F_7F7F }

    /// `byte` in each of the eight bytes.
    @inline(__always)
    static func each(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

    /// The eight bytes at `base + offset`, byte 0 lowest, wherever they are aligned.
    @inline(__always)
    static func load(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Whether all eight bytes are ASCII.
    @inline(__always)
    static func isASCII(_ word: UInt64) -> Bool { word & highs == 0 }

    /// The high bit of each zero byte: exact for every byte.
    @inline(__always)
    static func zeros(_ word: UInt64) -> UInt64 { ~(((word & lows) &+ lows) | word | lows) }

    /// The high bit of each byte at least `bound` (at most 0x80), exact for the bytes below the
    /// first byte beyond ASCII (an addition carries out of such a byte into the ones above).
    @inline(__always)
    static func atLeast(_ word: UInt64, _ bound: UInt8) -> UInt64 { (word &+ each(0x80 &- bound)) & highs }

    /// The number of high bits set in `word`, which has no others: added up by one multiplication
    /// (`nonzeroBitCount` is a dozen instructions on an x86-64 without `popcnt`).
    @inline(__always)
    static func highBits(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: ((word >> 7) &* ones) >> 56)
    }
}
