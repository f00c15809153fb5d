import Foundation

/// Text for web pages: link targets and plain-text excerpts.
package enum WebText {
    /// `path` with every byte that may not appear in a URL path percent-encoded
    /// (`tags/café/` -> `tags/caf%C3%A9/`); `/` separates segments and stays.
    ///
    /// Most paths need nothing: their bytes are checked in place (`withUTF8`), where asking `utf8.contains(where:)`
    /// went through the view's index a byte at a time (~30 instructions a byte, 16 M at 1,000 posts: the sitemap,
    /// the search index, every `href` of a template).
    package static func encodePath(_ path: String) -> String {
        var contiguous = path
        guard contiguous.withUTF8({ bytes in bytes.contains { !isPathByte($0) } }) else { return path }
        let utf8 = path.utf8
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
    package static func decodePath(_ path: String) -> String {
        path.removingPercentEncoding ?? path
    }

    /// The value of an HTML attribute as written, with its character references decoded as a
    /// browser decodes them (``HTMLEntities/decodeAttribute(_:)``).
    package static func decodeEntities(_ text: String) -> String {
        HTMLEntities.decodeAttribute(text)
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
    ///
    /// Works on the UTF-8 bytes, one scalar at a time, and makes a `String` only at the end: the
    /// text is the scalars kept, in order, whatever `Character`s they form. Building a `Character`
    /// for each scalar to ask `isWhitespace` was a fortieth of a clean build. A `Character` is
    /// white space when its first scalar is (`Character.isWhitespace`), so asking the scalar is
    /// the same; ASCII bytes are answered without looking up Unicode properties.
    package static func plainText(fromHTML html: String, limit: Int) -> String {
        var html = html
        return html.withUTF8 { plainText(fromHTML: $0, limit: limit) }
    }

    private static func plainText(fromHTML html: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        var allASCII = true
        // The text is never longer than the HTML: a byte kept for each byte read, one for each entity, and a
        // space only for white space or a tag read and not kept. So it is written into room for the HTML's
        // bytes, a store each, where appending to an array checked its room and owner every byte (issue 32).
        let out = [UInt8](unsafeUninitializedCapacity: html.count) { buffer, written in
            var count = 0
            var inTag = false
            var pendingSpace = false
            // Stop reading once the text has `limit + 2` Characters: the first `limit + 1` can't change
            // (a Character only ever grows at the end), and nothing after them is shown. `appended`
            // counts appended scalars, never fewer than the Characters, and all of them while the text
            // is ASCII (no CR is ever kept, so no CR LF makes one Character of two); otherwise the
            // Characters are only counted when there may be enough.
            let enough = limit > Int.max - 2 ? Int.max : limit + 2
            var appended = 0
            var nextCount = enough
            var index = 0
            while index < html.count {
                let byte = html[index]
                if inTag {
                    if byte == UInt8(ascii: ">") { inTag = false; pendingSpace = true }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "<") { inTag = true; index += 1; continue }
                var kept = index..<index + 1
                var decoded: UInt8?
                let isWhitespace: Bool
                if byte < 0x80 {
                    if byte == UInt8(ascii: "&"), let (character, length) = entity(at: html[(index + 1)...]) {
                        decoded = character
                        kept = index..<index + 1 + length
                    }
                    isWhitespace = decoded == nil && isASCIIWhitespace(byte)
                } else {
                    let (scalar, length) = scalar(startingAt: index, in: html)
                    kept = index..<index + length
                    isWhitespace = scalar.properties.isWhitespace
                }
                index = kept.upperBound
                if isWhitespace { pendingSpace = true; continue }
                if pendingSpace && count > 0 { buffer[count] = UInt8(ascii: " "); count += 1; appended += 1 }
                pendingSpace = false
                if let decoded {
                    buffer[count] = decoded
                    count += 1
                } else if byte < 0x80 {
                    buffer[count] = byte
                    count += 1
                } else {
                    for at in kept { buffer[count] = html[at]; count += 1 }
                    allASCII = false
                }
                appended += 1
                if appended >= nextCount {
                    if allASCII || String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self).count >= enough { break }
                    nextCount = appended + 32
                }
            }
            written = count
        }
        guard allASCII else { return cut(String(decoding: out, as: UTF8.self), limit: limit) }
        // ASCII: every byte is a Character, the same cut as ``cut(_:limit:)`` on bytes.
        guard out.count > limit else { return String(decoding: out, as: UTF8.self) }
        var end = out[..<limit].lastIndex(of: UInt8(ascii: " ")) ?? limit
        while end > 0, out[end - 1] == UInt8(ascii: " ") || Character(Unicode.Scalar(out[end - 1])).isPunctuation {
            end -= 1
        }
        return String(decoding: out[..<end], as: UTF8.self) + "…"
    }

    /// `text` when it has at most `limit` characters; otherwise its first `limit`, cut back to
    /// the last space among them and then past trailing punctuation and spaces, with `…`.
    private static func cut(_ text: String, limit: Int) -> String {
        // No more bytes than the limit, so no more characters: counting them is a walk over the text.
        guard text.utf8.count > limit, text.count > limit else { return text }
        var cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " ") { cut = cut[..<space] }
        while let last = cut.last, last.isPunctuation || last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// Tab, line feed, vertical tab, form feed, carriage return and space: the ASCII characters
    /// that are `Character.isWhitespace` (and in Foundation's `.whitespacesAndNewlines`).
    package static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    /// The scalar whose UTF-8 form starts at `bytes[index]`, a lead byte of valid UTF-8 above
    /// ASCII, and the number of its bytes.
    static func scalar(startingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int) {
        let lead = bytes[index]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = UInt32(lead & (0x7F >> length))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The entities cmark writes, without their `&`, and the character each stands for.
    private static let entities: [(name: String, character: UInt8)] = [
        ("amp;", UInt8(ascii: "&")), ("lt;", UInt8(ascii: "<")), ("gt;", UInt8(ascii: ">")),
        ("quot;", UInt8(ascii: "\"")), ("#39;", UInt8(ascii: "'")),
    ]

    /// The entity that starts right after an `&` at the start of `rest`, and how many bytes it spans.
    private static func entity(at rest: Slice<UnsafeBufferPointer<UInt8>>) -> (UInt8, Int)? {
        for (name, character) in entities where rest.starts(with: name.utf8) {
            return (character, name.utf8.count)
        }
        return nil
    }
}
