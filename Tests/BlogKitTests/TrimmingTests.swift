@testable import BlogCore
import Foundation
import XCTest

final class TrimmingTests: XCTestCase {
    /// Trimming reads the ends' bytes; it must trim what Foundation trims: every ASCII byte at
    /// either end, white space of other scripts, a combining mark after a space, Substrings.
    func testTrimmingIsFoundationsTrimming() {
        for byte in UInt8(0)..<0x80 {
            let c = String(UnicodeScalar(byte))
            for text in [c, "\(c)a b\(c)", " \(c)x\(c)\n", "\(c)\(c)"] {
                XCTAssertEqual(text.trimmingWhitespacesAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
                XCTAssertEqual(text.trimmingWhitespaces(), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            }
        }
        let samples = ["", "   ", "\u{A0}a\u{3000}", " \u{301}x ", "x \u{301}", "x\u{301} \n", "\u{2028}a\u{2029}", "\u{85}a\u{85}",
                       "\t日本 ", " 🇫🇷 ", "\r\n\u{1680}\r\n", " e\u{301} ", "\u{200B}a\u{200B}", "\u{FEFF}a"]
        for text in samples {
            XCTAssertEqual(text.trimmingWhitespacesAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
            XCTAssertEqual(text.trimmingWhitespaces(), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            let inner = ("<" + text + ">").dropFirst().dropLast()
            XCTAssertEqual(inner.trimmingWhitespacesAndNewlines(), inner.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
        }
        XCTAssertEqual("\u{A0} a\u{301} \u{3000}".trimmingWhitespacesAndNewlines(), "a\u{301}")
        XCTAssertEqual(" \n x \t".trimmingWhitespaces(), "\n x")
    }
}

/// Text kept per post at its own size (`String.atExactSize`).
final class ExactSizeTests: XCTestCase {
    /// The copy is the same text, byte for byte: empty, small (kept inside the string), non-ASCII, and
    /// grown by appending (as a template renders it), which is what it is for.
    func testExactSizeIsTheSameText() {
        var grown = ""
        for part in 0..<11 { grown += String(repeating: Character(UnicodeScalar(UInt8(97 + part))), count: 100) + "é" }
        for text in ["", "a", "short ascii", "é日本🇫🇷 " + String(repeating: "ü", count: 40), String(repeating: "<p>x</p>", count: 300), grown] {
            XCTAssertEqual(text.atExactSize, text)
            XCTAssertEqual(Array(text.atExactSize.utf8), Array(text.utf8))
        }
    }
}
