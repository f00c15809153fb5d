import Mustache

/// HTML escaping for `{{name}}` tags, byte for byte the same as swift-mustache's own, at a tenth
/// of its cost. swift-mustache escapes one `Character` at a time through a dictionary; that was
/// a sixth of a whole build's instructions (callgrind, 1,000 posts). Templates get this escaping
/// through swift-mustache's public extension point, a content type named by a pragma that
/// ``Theme`` puts on a line of its own before every template's text.
struct TemplateEscaping: MustacheContentType {
    /// The pragma line; reading it registers the content type once.
    static let pragma: String = {
        MustacheContentTypes.register(TemplateEscaping(), named: "BLOG_HTML")
        return "{{% CONTENT_TYPE: BLOG_HTML }}\n"
    }()

    /// `text` with `<`, `>`, `&`, `"` and `'` as entities, as swift-mustache's `htmlEscape()`:
    /// it replaces a `Character` equal to one of them, so such a byte followed by a combining
    /// mark (one `Character` with it) stays as it is.
    func escapeText(_ text: String) -> String {
        var special = false
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 {
                ascii = false
            } else if Self.entity(for: byte) != nil {
                special = true
            }
        }
        guard special else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        if ascii {
            // Every ASCII byte is a Character of its own (but "\r\n", which is not escaped).
            var start = text.utf8.startIndex
            var index = start
            let utf8 = text.utf8
            while index != utf8.endIndex {
                if let entity = Self.entity(for: utf8[index]) {
                    out += text[start..<index]
                    out += entity
                    start = utf8.index(after: index)
                }
                index = utf8.index(after: index)
            }
            out += text[start...]
        } else {
            for character in text {
                let utf8 = character.utf8
                if utf8.count == 1, let entity = Self.entity(for: utf8.first!) {
                    out += entity
                } else {
                    out.append(character)
                }
            }
        }
        return out
    }

    private static func entity(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "\""): return "&quot;"
        case UInt8(ascii: "'"): return "&#39;"
        default: return nil
        }
    }
}

/// Template values are mostly strings. swift-mustache prints a value it knows nothing about with
/// `String(describing:)` after trying it as a lambda and as an optional, each a dynamic cast;
/// a `MustacheCustomRenderable` value is printed directly. For a string both give the string
/// itself, so pages are the same bytes; sections and transforms treat strings as before
/// (`isNull` is false, as it is for any value that is present).
extension String: @retroactive MustacheCustomRenderable {
    public var renderText: String { self }
    public var isNull: Bool { false }
}
