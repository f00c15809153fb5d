import Foundation

/// URL slugs: lower-case letters and digits of any script kept, every other run of characters
/// becomes one `-`, no `-` at either end. A slug can never hold `/`, `.` or `..`, so it can't
/// leave the output folder (a slug a header gives is checked by ``PathSafety/isSafeSegment(_:)``).
package enum Slug {
    /// The slug of `text` (`"Hello, World!"` -> `hello-world`, `"Ünïcödé 日本"` -> `ünïcödé-日本`).
    /// Empty when `text` has no letter or digit.
    package static func make(_ text: String) -> String {
        // Most tags and categories are their own slug already (`linux`, `swift-5`): kept as they are, where making
        // the slug again cost an array and a string, 900 instructions a tag.
        isOwnSlug(text) ? text : made(text)
    }

    /// ``make(_:)`` without its first check: each byte or character looked at and the slug built anew.
    static func made(_ text: String) -> String {
        asciiSlug(text, droppingApostrophes: true) ?? slugByCharacters(text, droppingApostrophes: true)
    }

    /// Whether `text` is ASCII lower-case letters and digits, single `-`s between them: what ``made(_:)`` gives back.
    static func isOwnSlug(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var previous = UInt8(ascii: "-")
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
                case UInt8(ascii: "-") where previous != UInt8(ascii: "-"): break
                default: return false
                }
                previous = byte
            }
            return previous != UInt8(ascii: "-")
        }
    }

    /// Jekyll's `slugify` (its default mode): as ``make(_:)``, but an apostrophe is a separator like
    /// any other character (`"Don't"` -> `don-t`).
    package static func jekyll(_ text: String) -> String {
        asciiSlug(text, droppingApostrophes: false) ?? slugByCharacters(text, droppingApostrophes: false)
    }

    /// `slug` in ASCII, as Pelican's slugs are (its `SLUGIFY_USE_UNICODE = False` runs Unidecode):
    /// ``latin(_:)``, then ``make(_:)`` (`café` -> `cafe`, `日本` -> `ri-ben`, `スマホsms` -> `sumahosms`).
    /// When nothing is left, `slug` is returned as it is.
    package static func ascii(_ slug: String) -> String {
        guard slug.utf8.contains(where: { $0 >= 0x80 }) else { return slug }
        let folded = make(latin(slug))
        return folded.isEmpty ? slug : folded
    }

    /// Pelican's `slugify` of a title, tag, category or author name with its default settings
    /// (`SLUG_REGEX_SUBSTITUTIONS`, `SLUGIFY_USE_UNICODE = False`): NFKC, ``latin(_:)``, every
    /// character but ASCII letters, digits, `_`, `-` and white space dropped (`Node.js` -> `nodejs`,
    /// `C++` -> `c`), white space at either end dropped, each run of `-` and white space one `-`,
    /// lower-cased. Empty when nothing is left.
    package static func pelican(_ text: String) -> String {
        var kept: [UInt8] = []
        let text = text.utf8.contains(where: { $0 >= 0x80 }) ? text.precomposedStringWithCompatibilityMapping : text
        for byte in latin(text).utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept.append(byte + 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): kept.append(byte)
            case UInt8(ascii: "-"), UInt8(ascii: " "), 0x09...0x0D, 0x1C...0x1F: kept.append(byte == UInt8(ascii: "-") ? byte : UInt8(ascii: " "))
            default: continue
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(kept.count)
        var run = false
        for byte in kept.drop(while: { $0 == UInt8(ascii: " ") }) {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") {
                run = true
            } else {
                if run { out.append(UInt8(ascii: "-")) }
                run = false
                out.append(byte)
            }
        }
        // A run at the end is kept as `-` only if it holds a `-` (white space at the end is stripped first).
        if run, let last = kept.lastIndex(where: { $0 != UInt8(ascii: " ") }), kept[last] == UInt8(ascii: "-") {
            out.append(UInt8(ascii: "-"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` spelt in ASCII one character at a time, as Unidecode spells it: ICU's `Any-Latin;
    /// Latin-ASCII` for each character, a Chinese character followed by a space (`日本` -> `ri ben `),
    /// and Unidecode's spelling where ICU's differs by rule rather than by reading (SlugSpellings.swift):
    /// Cyrillic letters as digraphs (`ж` -> `zh`, `щ` -> `shch`, ICU's `z`, `s`), kana in Nihon-shiki
    /// (`ふ` -> `hu`, `じ` -> `zi`), the long-vowel mark `ー` as `-`, Greek `υ` `χ` `Ξ` as `u` `kh` `ks`,
    /// Hangul by its jamo (`한국어` -> `hangugeo`), Hebrew, Arabic, Thai and Devanagari letter by letter
    /// (`שלום` -> `shlvm`, `مرحبا` -> `mrhb`, `नमस्ते` -> `nmste`). Characters with no Latin spelling are
    /// dropped. Readings still differ for some Chinese characters (one in eight: Unidecode reads `了`
    /// `liao`, ICU `le`). bench/slugs.py measures each script against Pelican.
    package static func latin(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        spellings.learn(text.unicodeScalars.filter { !$0.isASCII })
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
                continue
            }
            out += spellings.spelling(of: scalar)
        }
        return out
    }

    /// The spelling of each character asked for, kept. ICU builds its transform anew at each call (on
    /// Linux, about half a millisecond), so the characters a text has that are not known yet are
    /// spelt in one call, a line each. At most one entry per character of Unicode.
    private final class Spellings: @unchecked Sendable {
        private let lock = NSLock()
        private var known: [Unicode.Scalar: String] = [:]
        private let anyToASCII = StringTransform("Any-Latin; Latin-ASCII")

        /// Spells every character of `scalars` not known yet, in one call of ICU's transform.
        func learn(_ scalars: String.UnicodeScalarView) {
            lock.lock()
            var unknown: [Unicode.Scalar] = []
            var seen: Set<Unicode.Scalar> = []
            // A mark would be read with the line break before it: marks are spelt one call each.
            for scalar in scalars where known[scalar] == nil && seen.insert(scalar).inserted && !scalar.properties.isWhitespace
                && scalar.properties.generalCategory != .nonspacingMark && !isRule(scalar) {
                unknown.append(scalar)
            }
            lock.unlock()
            guard unknown.count > 1 else { return }
            var joined = String.UnicodeScalarView()
            for scalar in unknown { joined.append(scalar); joined.append("\n") }
            let lines = (String(joined).applyingTransform(anyToASCII, reverse: false) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count == unknown.count + 1 else { return }  // left to one call each
            lock.lock()
            for (scalar, line) in zip(unknown, lines) { known[scalar] = ascii(line, of: scalar) }
            lock.unlock()
        }

        /// Whether Unidecode's spelling of `scalar` is a rule of ours (``ruled(_:)``) rather than ICU's.
        private func isRule(_ scalar: Unicode.Scalar) -> Bool {
            ruled(scalar) != nil
        }

        /// Unidecode's spelling of `scalar` where this file knows it by rule: a Hangul syllable or
        /// jamo by its jamo, else ``unidecodeSpellings`` (as written, else lower-cased).
        private func ruled(_ scalar: Unicode.Scalar) -> String? {
            hangul(scalar) ?? unidecodeSpellings[String(scalar)] ?? unidecodeSpellings[Character(scalar).lowercased()]
        }

        /// A Hangul syllable spelt by Unicode's decomposition into jamo (leading consonant, vowel,
        /// trailing consonant), or a modern conjoining jamo alone; nil for anything else.
        private func hangul(_ scalar: Unicode.Scalar) -> String? {
            let value = Int(scalar.value)
            switch value {
            case 0xAC00...0xD7A3:
                let index = value - 0xAC00
                return hangulLeading[index / (21 * 28)] + hangulVowels[index % (21 * 28) / 28] + hangulTrailing[index % 28]
            case 0x1100...0x1112: return hangulLeading[value - 0x1100]
            case 0x1161...0x1175: return hangulVowels[value - 0x1161]
            case 0x11A8...0x11C2: return hangulTrailing[value - 0x11A7]
            default: return nil
            }
        }

        /// The ASCII of ICU's spelling `spelt` of `scalar`, a Chinese character followed by a space.
        private func ascii(_ spelt: Substring, of scalar: Unicode.Scalar) -> String {
            var out = ""
            for latin in spelt.unicodeScalars where latin.isASCII { out.unicodeScalars.append(latin) }
            if scalar.properties.isIdeographic { out += " " }
            return out
        }

        /// Unidecode's spelling of `scalar` where it differs by rule, else `Any-Latin; Latin-ASCII` of
        /// it, ASCII only, a Chinese character followed by a space.
        func spelling(of scalar: Unicode.Scalar) -> String {
            lock.lock()
            let found = known[scalar]
            lock.unlock()
            if let found { return found }
            let spelt = ruled(scalar) ?? icu(scalar)
            lock.lock()
            known[scalar] = spelt
            lock.unlock()
            return spelt
        }

        private func icu(_ scalar: Unicode.Scalar) -> String {
            ascii(Substring(String(scalar).applyingTransform(anyToASCII, reverse: false) ?? ""), of: scalar)
        }
    }

    private static let spellings = Spellings()

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
            // Written straight into the string (an array of the bytes first, then the string, cost an allocation
            // more: 1 k instructions a heading's anchor).
            var ascii = true
            let slug = String(unsafeUninitializedCapacity: bytes.count) { out -> Int in
                var count = 0
                var pendingDash = false
                for byte in bytes {
                    var kept = byte
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 0x20  // lower-cased
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
                    case UInt8(ascii: "'") where droppingApostrophes: continue
                    case 0x80...: ascii = false; return 0
                    default: pendingDash = true; continue
                    }
                    if pendingDash && count > 0 { out[count] = UInt8(ascii: "-"); count += 1 }
                    pendingDash = false
                    out[count] = kept
                    count += 1
                }
                return count
            }
            return ascii ? slug : nil
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
