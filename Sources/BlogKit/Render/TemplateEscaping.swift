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
    ///
    /// One pass over the bytes, copying the runs between special bytes. A special byte between
    /// two ASCII bytes (or at an end) is a `Character` of its own: no ASCII scalar extends a
    /// `Character`, and none but CR before LF joins the next. Only when a special byte touches a
    /// byte above ASCII is the text escaped `Character` by `Character`, as swift-mustache does.
    func escapeText(_ text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            var copied = 0
            for (index, byte) in bytes.enumerated() {
                guard let entity = Self.entity(for: byte) else { continue }
                if (index > 0 && bytes[index - 1] >= 0x80) || (index + 1 < bytes.count && bytes[index + 1] >= 0x80) {
                    return nil  // may be part of a longer Character
                }
                if out.isEmpty { out.reserveCapacity(bytes.count + 16) }
                out.append(contentsOf: bytes[copied..<index])
                out.append(contentsOf: entity.utf8)
                copied = index + 1
            }
            if out.isEmpty { return text }
            out.append(contentsOf: bytes[copied...])
            return String(decoding: out, as: UTF8.self)
        } ?? escapeCharacters(text)
    }

    /// ``escapeText(_:)`` one `Character` at a time.
    private func escapeCharacters(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            let utf8 = character.utf8
            if utf8.count == 1, let entity = Self.entity(for: utf8.first!) {
                out += entity
            } else {
                out.append(character)
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
