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

    /// `slug` in ASCII, as Pelican's slugs are (its `SLUGIFY_USE_UNICODE = False` runs `unidecode`):
    /// accents dropped (`café` -> `cafe`), `ß`, `æ`, `œ`, `ø`, `ł`, `đ`, `þ` spelt out, then ``make(_:)``.
    /// Letters without a Latin spelling here (`日本`; unidecode gives `ri-ben`) are dropped; when
    /// nothing is left, `slug` is returned as it is.
    package static func ascii(_ slug: String) -> String {
        guard slug.utf8.contains(where: { $0 >= 0x80 }) else { return slug }
        let spelt: [Character: String] = ["ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "þ": "th", "ð": "d", "ı": "i"]
        var out = ""
        for scalar in slug.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else if let spelling = spelt[Character(scalar)] {
                out += spelling
            } else if !scalar.properties.isDiacritic && scalar.properties.generalCategory != .nonspacingMark {
                out += " "
            }
        }
        let folded = make(out)
        return folded.isEmpty ? slug : folded
    }

    /// Hugo's `urlize` of a taxonomy term (its `UnicodeSanitize`, lower-cased): letters, digits and
    /// marks of any script and `.` `_` `+` `~` `-` `@` kept (`C++` -> `c++`, `Node.js` -> `node.js`),
    /// a run of spaces after something kept one `-`, everything else dropped. Hugo also keeps `/`, `\`,
    /// `#` and `%`, which would leave or break the path here: they are dropped. Nil when nothing
    /// usable is left (then the term's own slug serves).
    package static func hugoTerm(_ name: String) -> String? {
        var out = ""
        var pendingDash = false
        for scalar in name.unicodeScalars {
            let category = scalar.properties.generalCategory
            let kept = ".+_~-@".unicodeScalars.contains(scalar) || category == .decimalNumber
                || [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .nonspacingMark, .spacingMark, .enclosingMark].contains(category)
            if kept {
                if pendingDash { out += "-"; pendingDash = false }
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, scalar.properties.isWhitespace {
                pendingDash = true
            }
        }
        out = out.lowercased()
        return PathSafety.isSafeSegment(out) && !out.hasPrefix(".") ? out : nil
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
