@testable import BlogCore
import XCTest

/// ``ValidUTF8`` checks bytes as the standard library does, and says where the first bad one is.
final class ValidUTF8Tests: XCTestCase {
    /// Random texts of ASCII runs, characters of every width and stray bytes: the verdict and the place of the
    /// first bad byte are the standard library's (`UTF8Span(validating:)` reports the offsets of what it refused).
    func testCheckAgreesWithTheStandardLibrary() throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { throw XCTSkip("needs UTF8Span") }
        var generator = SplitMix64(seed: 39)
        let pieces: [[UInt8]] = ["a", "plain text ", "é", "€", "𝄞", "中文"].map { Array($0.utf8) }
            + [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9D], [0xFF], [0xC3]]
        var invalid = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<generator.below(12) {
                bytes += pieces[generator.below(generator.chance(25) ? pieces.count : 6)]
            }
            let (firstInvalid, ascii) = bytes.withUnsafeBufferPointer { ValidUTF8.check($0) }
            let expected = bytes.withUnsafeBufferPointer { buffer -> Int? in
                do {
                    _ = try UTF8Span(validating: buffer.span)
                    return nil
                } catch {
                    return (error as? UTF8.ValidationError)?.byteOffsets.lowerBound ?? -1
                }
            }
            XCTAssertEqual(firstInvalid, expected, "\(bytes)")
            if firstInvalid == nil {
                XCTAssertEqual(ascii, bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
                let string = bytes.withUnsafeBufferPointer { ValidUTF8.string($0) }
                XCTAssertEqual(string.map { Array($0.utf8) }, bytes)
                XCTAssertEqual(string, String(validating: bytes, as: UTF8.self))
            } else {
                invalid += 1
                XCTAssertNil(bytes.withUnsafeBufferPointer { ValidUTF8.string($0) })
            }
        }
        // Both kinds were met, often.
        XCTAssertGreaterThan(invalid, 500)
        XCTAssertLessThan(invalid, 4_500)
    }

    /// A long text checked eight bytes at a time finds a bad byte at every place in the eight, and in the tail.
    func testFindsABadByteAtEveryOffset() {
        for length in [7, 8, 9, 31, 64, 100] {
            for place in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                bytes[place] = 0xFF
                XCTAssertEqual(bytes.withUnsafeBufferPointer { ValidUTF8.check($0).firstInvalid }, place)
                // A valid character there instead (cut at the end when it does not fit).
                bytes = Array((bytes[..<place] + Array("é".utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: length)).prefix(length))
                let expected: Int? = place == length - 1 ? place : nil
                XCTAssertEqual(bytes.withUnsafeBufferPointer { ValidUTF8.check($0).firstInvalid }, expected, "\(length) \(place)")
            }
        }
    }
}
