import Foundation

/// URL slugs: lower-case letters and digits of any script kept, every other run of characters
/// becomes one `-`, no `-` at either end. A slug can never hold `/`, `.` or `..`, so it can't
/// leave the output folder (a slug a header gives is checked by ``PathSafety/isSafeSegment(_:)``).
package enum Slug {
    /// The slug of `text` (`"Hello, World!"` -> `hello-world`, `"Ünïcödé 日本"` -> `ünïcödé-日本`).
    /// Empty when `text` has no letter or digit.
    package static func make(_ text: String) -> String {
        asciiSlug(text, droppingApostrophes: true) ?? slugByCharacters(text, droppingApostrophes: true)
    }

    /// Jekyll's `slugify` (its default mode): as ``make(_:)``, but an apostrophe is a separator like
    /// any other character (`"Don't"` -> `don-t`).
    package static func jekyll(_ text: String) -> String {
        asciiSlug(text, droppingApostrophes: false) ?? slugByCharacters(text, droppingApostrophes: false)
    }

    /// ``make(_:)`` one `Character` at a time: the rules themselves, for any text.
    static func slugByCharacters(_ text: String, droppingApostrophes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(ch)
            } else if droppingApostrophes && (ch == "'" || ch == "’") {
                continue  // "Don't" -> "dont", as Pelican and Hugo do
            } else {
                pendingDash = true
            }
        }
        return out
    }

    /// ``make(_:)`` of an ASCII `text` byte by byte, or nil when `text` has a byte above ASCII.
    /// In ASCII the letters are `A`-`Z` and `a`-`z`, the digits `0`-`9`, and every byte is a
    /// `Character` of its own but CR LF, which becomes a `-` either way. Asking each `Character`
    /// whether it is a letter was a hundredth of a clean build (tags, categories, headings).
    private static func asciiSlug(_ text: String, droppingApostrophes: Bool) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var pendingDash = false
            for byte in bytes {
                var kept = byte
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 0x20  // lower-cased
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
                case UInt8(ascii: "'") where droppingApostrophes: continue
                case 0x80...: return nil
                default: pendingDash = true; continue
                }
                if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(kept)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Whether a file name can be a slug as it is (as Jekyll and Hugo use it): ASCII letters,
    /// digits, `-`, `_`, `.` and `~` only, not starting with `.`.
    package static func isPlainFileName(_ name: String) -> Bool {
        guard PathSafety.isSafeSegment(name), !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || "-_.~".unicodeScalars.contains(c)
        }
    }
}
