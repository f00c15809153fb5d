@testable import BlogCore
import CSystem
import Foundation
import XCTest

/// ``Escaping`` finds the bytes it does not copy sixty-four at a time (CSystem's `blog_escape_bytes`, SSE2) and copies the
/// runs between them whole: checked against a plain reading of each escaper's rule, a scalar (or, for templates, a
/// `Character`) at a time, wherever a byte falls in the sixty-four and in each sixteen.
final class EscapingScanTests: XCTestCase {
    /// Each escaper's rule, one scalar at a time (`template`: one `Character` at a time, as swift-mustache).
    enum Rule: CaseIterable { case html, liquid, xml, template }

    static func reference(_ text: String, _ rule: Rule) -> String {
        func entity(_ scalar: Unicode.Scalar) -> String? {
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'" where rule == .liquid || rule == .template: return "&#39;"
            default: return nil
            }
        }
        var out = ""
        if rule == .template {
            for character in text {
                if character.unicodeScalars.count == 1, let entity = entity(character.unicodeScalars.first!) { out += entity } else { out.append(character) }
            }
            return out
        }
        for scalar in text.unicodeScalars {
            if let entity = entity(scalar) {
                out += entity
            } else if rule == .xml, (scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar)) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                continue
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The escapers' bytes against the reference's, and the bytes handed to a writer (`xml(_:utf8:)`) and whether the
    /// template escaper may change the text (never false when it does).
    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let escaped: [Rule: String] = [.html: Escaping.html(text), .liquid: Escaping.liquid(text), .xml: Escaping.xml(text), .template: Escaping.template(text)]
        for rule in Rule.allCases where Array(escaped[rule]!.utf8) != Array(Self.reference(text, rule).utf8) {
            XCTFail("\(rule) \(Array(text.utf8))", file: file, line: line)
        }
        var bytes: [UInt8] = []
        Escaping.xml(text) { bytes += $0 }
        XCTAssertEqual(bytes, Array(escaped[.xml]!.utf8), "\(Array(text.utf8))", file: file, line: line)
        let special = text.utf8.contains { Array("&<>\"'".utf8).contains($0) }
        XCTAssertEqual(Escaping.templateMayChange(text), special, "\(Array(text.utf8))", file: file, line: line)
    }

    /// What a byte at an offset may be: every ASCII byte, letters beyond ASCII of two, three and four bytes, U+FFFE and
    /// U+FFFF (left out by XML) and the other scalars that start with 0xEF, a combining mark, a special byte before a
    /// combining mark, and invalid UTF-8 (a `String` holds it repaired, as U+FFFD).
    static let pieces: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        + ["é", "日", "😀", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{FEFF}", "\u{FF1C}", "\u{301}", "&\u{301}", "<\u{301}", "\r\n",
           String(decoding: [0xEF, 0xBF], as: UTF8.self), String(decoding: [0xFF, 0xFE, 0xC3], as: UTF8.self), String(decoding: [0x80], as: UTF8.self)]

    /// Every piece at every offset of plain texts of up to 40 bytes and of the lengths around a block of sixty-four (a
    /// multi-byte piece across a boundary of eight, sixteen or sixty-four bytes), in plain text and among special bytes.
    func testEveryByteAtEveryOffset() {
        for length in Array(0...40) + [64, 65, 129] {
            for offset in 0...length {
                for piece in Self.pieces {
                    check(String(repeating: "a", count: offset) + piece + String(repeating: "b", count: length - offset))
                }
            }
        }
        for length in [15, 16, 17, 64, 65, 130] {
            for offset in 0...length {
                for piece in ["a", "é", "\u{FFFE}", "\u{1}", "'", "\u{301}"] {
                    check(String(repeating: "&", count: offset) + piece + String(repeating: "<", count: length - offset))
                }
            }
        }
    }

    /// The SSE2 masks against the byte-at-a-time ones for every byte value at every offset, every count up to past
    /// sixty-four, each rule set; the bytes past `count` special ones, which no mask may flag (a last part of fewer than
    /// sixteen bytes is read with the bytes before it, or from a padded copy of a short text).
    func testTheMasksAreTheBytewiseOnes() {
        var text = [UInt8](repeating: UInt8(ascii: "a"), count: 80)
        for count in 0...70 {
            for index in text.indices { text[index] = index < count ? UInt8(ascii: "a") : UInt8(ascii: "&") }
            for offset in 0..<max(count, 1) {
                for value in 0...255 {
                    text[offset] = UInt8(value)
                    for (apostrophe, xml): (Int32, Int32) in [(0, 0), (1, 0), (0, 1)] {
                        let sse = blog_escape_bytes(text, count, apostrophe, xml), bytewise = blog_escape_bytes_bytewise(text, count, apostrophe, xml)
                        if sse != bytewise { XCTFail("count \(count) offset \(offset) byte \(value) rules \(apostrophe) \(xml): \(sse) \(bytewise)") }
                    }
                }
                text[offset] = UInt8(ascii: "a")
            }
        }
    }
    /// Long texts of runs and special bytes (seeded, the same every run): runs of up to three blocks, special bytes alone
    /// and in long strings (each grows by up to five bytes, so the room the escaped text starts with grows again and
    /// again), letters beyond ASCII and pieces XML leaves out, across every boundary of sixty-four.
    func testLongTextsGrowTheirRoom() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let specials = ["&", "<", ">", "\"", "'", "\u{1}", "\u{FFFE}", "\u{FFFF}", "\u{FEFF}", "é", "\r\n", "\t"]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<(1 + next(60)) {
                switch next(3) {
                case 0: text += String(repeating: "x", count: next(200))
                case 1: text += String(repeating: specials[next(5)], count: next(300))
                default: text += specials[next(specials.count)]
                }
            }
            check(text)
        }
    }


    /// The real blogs' posts of `../shared/corpora` (when present): the first 60 files of each blog, whole and with their
    /// first byte cut (every byte in another place of the sixty-four).
    func testCorporaPosts() throws {
        let posts = try HTMLAttributesTests.corporaPosts(extensions: ["md", "markdown", "html"])
        for (_, data) in posts {
            check(String(decoding: data, as: UTF8.self))
            check(String(decoding: data.dropFirst(), as: UTF8.self))
        }
        XCTAssertGreaterThan(posts.count, 200)
    }
}
