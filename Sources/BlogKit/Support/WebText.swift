import Foundation

/// Text for web pages: link targets and plain-text excerpts.
enum WebText {
    /// `path` with every byte that may not appear in a URL path percent-encoded
    /// (`tags/café/` -> `tags/caf%C3%A9/`); `/` separates segments and stays.
    static func encodePath(_ path: String) -> String {
        let utf8 = path.utf8
        guard utf8.contains(where: { !isPathByte($0) }) else { return path }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isPathByte(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `path` with its percent-escapes decoded (`caf%C3%A9` -> `café`), as a server maps a URL
    /// path to a file; left as it is when an escape is not valid UTF-8.
    static func decodePath(_ path: String) -> String {
        path.removingPercentEncoding ?? path
    }

    /// The value of an HTML attribute as written, with its character references decoded: the ones
    /// cmark and templates write (`&amp;` `&lt;` `&gt;` `&quot;` `&#39;`) and any numeric one (`&#x2F;`).
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "&", let (decoded, length) = entity(at: scalars) ?? numericEntity(at: scalars) {
                out.append(decoded)
                scalars = scalars.dropFirst(length)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A numeric character reference (`#233;`, `#xE9;`) right after an `&`, and how many scalars it spans.
    private static func numericEntity(at rest: Substring.UnicodeScalarView) -> (Character, Int)? {
        guard rest.first == "#", let semicolon = rest.prefix(10).firstIndex(of: ";") else { return nil }
        var digits = String(rest[rest.index(after: rest.startIndex)..<semicolon])
        var radix = 10
        if digits.first == "x" || digits.first == "X" { digits.removeFirst(); radix = 16 }
        guard !digits.isEmpty, let code = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(code) else { return nil }
        return (Character(scalar), rest.distance(from: rest.startIndex, to: semicolon) + 1)
    }

    /// Unreserved characters, sub-delimiters, `:`, `@` and `/` (RFC 3986 `pchar`s and the separator).
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// The text of an HTML fragment for `<meta name="description">`: tags dropped, the entities
    /// cmark writes (`&amp;` `&lt;` `&gt;` `&quot;` `&#39;`) decoded, runs of white space made one
    /// space, and cut at a word boundary with `…` when longer than `limit` characters.
    static func plainText(fromHTML html: String, limit: Int) -> String {
        var text = ""
        var inTag = false
        var pendingSpace = false
        var scalars = html.unicodeScalars[...]
        // Stop reading once the text has `limit + 2` Characters: the first `limit + 1` can't change
        // (a Character only ever grows at the end), and nothing after them is shown. `appended`
        // counts appends, never fewer than the Characters, so `text.count` is only counted when
        // it may be large enough.
        let enough = limit > Int.max - 2 ? Int.max : limit + 2
        var appended = 0
        var nextCount = enough
        while let scalar = scalars.popFirst() {
            if inTag {
                if scalar == ">" { inTag = false; pendingSpace = true }
                continue
            }
            var character = Character(scalar)
            if scalar == "<" { inTag = true; continue }
            if scalar == "&", let (decoded, length) = entity(at: scalars) {
                character = decoded
                scalars = scalars.dropFirst(length)
            }
            if character.isWhitespace { pendingSpace = true; continue }
            if pendingSpace && !text.isEmpty { text.append(" "); appended += 1 }
            pendingSpace = false
            text.append(character)
            appended += 1
            if appended >= nextCount {
                if text.count >= enough { break }
                nextCount = appended + 32
            }
        }
        guard text.count > limit else { return text }
        var cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " ") { cut = cut[..<space] }
        while let last = cut.last, last.isPunctuation || last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// The entity that starts right after an `&` at the start of `rest`, and how many scalars it spans.
    private static func entity(at rest: Substring.UnicodeScalarView) -> (Character, Int)? {
        for (name, character) in [("amp;", "&"), ("lt;", "<"), ("gt;", ">"), ("quot;", "\""), ("#39;", "'")]
            as [(String, Character)] where rest.starts(with: name.unicodeScalars) {
            return (character, name.unicodeScalars.count)
        }
        return nil
    }
}
