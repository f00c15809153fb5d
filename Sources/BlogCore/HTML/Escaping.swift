/// Text made safe for HTML and XML: every escaper of the build, sharing one pass over the bytes.
///
/// - ``html(_:)``: HTML that blog writes itself (code blocks, heading ids, redirect pages), as
///   cmark-gfm escapes text and attribute values: `&`, `<`, `>`, `"`.
/// - ``template(_:)``: a template's `{{name}}`, as swift-mustache escapes it: `'` too.
/// - ``liquid(_:)``: Liquid's `escape` filter, as Ruby's `CGI.escapeHTML`: `'` too, byte by byte.
/// - ``xml(_:)``: feeds and sitemaps: as ``html(_:)``, and the characters XML can't carry left out.
///
/// Each escapes `"`, so each serves text and double-quoted attribute values alike.
package enum Escaping {
    /// `text` with `&`, `<`, `>` and `"` as entities, byte by byte, as cmark-gfm writes HTML, so
    /// code blocks and headings built here look like the ones cmark renders.
    package static func html(_ text: String) -> String {
        escape(text, Rules(apostrophe: false, xml: false, wholeCharacters: false))
    }

    /// `text` with `<`, `>`, `&`, `"` and `'` as entities, as swift-mustache's `htmlEscape()`, for
    /// ``TemplateEscaping``: it replaces a `Character` equal to one of them, so such a byte
    /// followed by a combining mark (one `Character` with it) stays as it is.
    ///
    /// A special byte between two ASCII bytes (or at an end) is a `Character` of its own: no ASCII
    /// scalar extends a `Character`, and none but CR before LF joins the next. Only when a special
    /// byte touches a byte above ASCII is the text escaped `Character` by `Character`. Escaping a
    /// `Character` at a time, as swift-mustache does, costs a sixth of a build's instructions.
    package static func template(_ text: String) -> String {
        escape(text, Rules(apostrophe: true, xml: false, wholeCharacters: true))
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, byte by byte (a special byte before a combining mark
    /// too), as Ruby's `CGI.escapeHTML` writes them: Liquid's `escape`, `xml_escape` and `h` filters.
    package static func liquid(_ text: String) -> String {
        escape(text, Rules(apostrophe: true, xml: false, wholeCharacters: false))
    }

    /// `text` fit for XML content or a quoted attribute: `&`, `<`, `>`, `"` as entities (as
    /// ``html(_:)`` writes them), and the characters XML 1.0 forbids (all below U+0020 but tab,
    /// line feed and carriage return; U+FFFE, U+FFFF) left out, since no escape can carry them.
    package static func xml(_ text: String) -> String {
        escape(text, Rules(apostrophe: false, xml: true, wholeCharacters: false))
    }

    /// The entity ``html(_:)`` writes for `byte` (`&amp;` for `&`, and `<`, `>`, `"`), or nil when
    /// it writes the byte as it is: for code that builds HTML a byte at a time (the highlighter).
    @inline(__always)
    package static func htmlEntity(for byte: UInt8) -> StaticString? {
        isPlain(byte) ? nil : entity(for: byte, Rules(apostrophe: false, xml: false, wholeCharacters: false))
    }

    /// What an escaper replaces and leaves out.
    private struct Rules {
        /// Whether `'` becomes `&#39;`.
        var apostrophe: Bool
        /// Whether the characters XML 1.0 forbids are left out.
        var xml: Bool
        /// Whether a special byte is replaced only when it is a `Character` of its own.
        var wholeCharacters: Bool
    }

    /// What becomes of the bytes at an index: kept, left out, or replaced by an entity.
    private enum Step {
        case keep
        case drop(Int)
        case entity(StaticString)
    }

    /// The step for the bytes at `index`. Bytes above `>` but 0xEF (which may start U+FFFE or
    /// U+FFFF) are kept: callers test that first, so text is mostly copied without a call.
    @inline(__always)
    private static func step(at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ rules: Rules) -> Step {
        let byte = bytes[index]
        if let entity = entity(for: byte, rules) { return .entity(entity) }
        switch byte {
        case 0x09, 0x0A, 0x0D: return .keep
        case ..<0x20: return rules.xml ? .drop(1) : .keep
        case 0xEF:
            if rules.xml, index + 2 < bytes.count, bytes[index + 1] == 0xBF,
               bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF { return .drop(3) }  // U+FFFE, U+FFFF
            return .keep
        default: return .keep
        }
    }

    /// The entity that replaces `byte` under `rules`, or nil.
    @inline(__always)
    private static func entity(for byte: UInt8, _ rules: Rules) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        case UInt8(ascii: "'"): return rules.apostrophe ? "&#39;" : nil
        default: return nil
        }
    }

    /// Whether the byte at `index` may be kept without asking ``step(at:in:_:)``.
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte > UInt8(ascii: ">") && byte != 0xEF
    }

    /// `text` escaped by `rules`. Two passes over the bytes: the size of the result (and whether
    /// anything changes at all: mostly nothing does, and `text` is returned as it is), then the
    /// result written in place.
    private static func escape(_ text: String, _ rules: Rules) -> String {
        var contiguous = text
        let escaped = contiguous.withUTF8 { bytes -> String?? in
            var size = 0
            var changed = false
            var index = 0
            while index < bytes.count {
                if isPlain(bytes[index]) { size += 1; index += 1; continue }
                switch step(at: index, in: bytes, rules) {
                case .keep:
                    size += 1
                    index += 1
                case .drop(let count):
                    changed = true
                    index += count
                case .entity(let entity):
                    if rules.wholeCharacters,
                       (index > 0 && bytes[index - 1] >= 0x80) || (index + 1 < bytes.count && bytes[index + 1] >= 0x80) {
                        return .some(nil)  // may be part of a longer Character
                    }
                    changed = true
                    size += entity.utf8CodeUnitCount
                    index += 1
                }
            }
            guard changed else { return nil }
            return String(unsafeUninitializedCapacity: size) { out in
                var written = 0
                var index = 0
                while index < bytes.count {
                    if isPlain(bytes[index]) { out[written] = bytes[index]; written += 1; index += 1; continue }
                    switch step(at: index, in: bytes, rules) {
                    case .keep:
                        out[written] = bytes[index]
                        written += 1
                        index += 1
                    case .drop(let count):
                        index += count
                    case .entity(let entity):
                        entity.withUTF8Buffer { for byte in $0 { out[written] = byte; written += 1 } }
                        index += 1
                    }
                }
                return written
            }
        }
        switch escaped {
        case nil: return text
        case .some(nil): return escapeCharacters(text, rules)
        case .some(.some(let result)): return result
        }
    }

    /// `text` escaped by `rules` one `Character` at a time: only a `Character` that is one
    /// special byte is replaced (the rules of ``template(_:)``, which leave nothing out).
    private static func escapeCharacters(_ text: String, _ rules: Rules) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            let utf8 = character.utf8
            if utf8.count == 1, let entity = entity(for: utf8.first!, rules) {
                out += entity.description
            } else {
                out.append(character)
            }
        }
        return out
    }
}
