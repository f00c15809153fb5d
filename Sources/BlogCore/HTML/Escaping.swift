import CSystem

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

    /// Whether ``template(_:)`` may change `text`: false when no byte of it is one it replaces (`&`, `<`, `>`, `"`,
    /// `'`), so that a caller writes the text as it is, without the copy and the references of a returned `String`.
    package static func templateMayChange(_ text: String) -> Bool {
        let rules = Rules(apostrophe: true, xml: false, wholeCharacters: true)
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let source = bytes.baseAddress else { return false }
            return nextSpecial(in: source, from: 0, count: bytes.count, rules) < bytes.count
        } ?? true
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
        byte > UInt8(ascii: ">") ? nil : entity(for: byte, Rules(apostrophe: false, xml: false, wholeCharacters: false))
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

    /// Each byte's entity under rules that keep `'` (`plain`) and that replace it, as the
    /// little-endian bytes of a `UInt64` whose top byte is the entity's length; 0 for a byte kept.
    /// Made once, never written after, never freed.
    private nonisolated(unsafe) static let entityWords: (plain: UnsafePointer<UInt64>, apostrophe: UnsafePointer<UInt64>) = {
        func words(apostrophe: Bool) -> UnsafePointer<UInt64> {
            let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
            for byte in 0..<256 {
                var word: UInt64 = 0
                if let entity = entity(for: UInt8(byte), Rules(apostrophe: apostrophe, xml: false, wholeCharacters: false)) {
                    for offset in 0..<entity.utf8CodeUnitCount { word |= UInt64(entity.utf8Start[offset]) << (8 * offset) }
                    word |= UInt64(entity.utf8CodeUnitCount) << 56
                }
                words[byte] = word
            }
            return UnsafePointer(words)
        }
        return (words(apostrophe: false), words(apostrophe: true))
    }()

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

    /// Where the first 64 bytes at `source` (fewer when `count` is less) hold a byte not copied as it is
    /// under `rules`: `&`, `<`, `>`, `"`, `'` when it is replaced, and under ``Rules/xml`` a control
    /// character XML forbids or 0xEF (which may start U+FFFE or U+FFFF); one bit per byte, byte 0 lowest.
    /// CSystem's `blog_escape_bytes`: sixteen bytes at a time (SSE2), exact for every byte.
    @inline(__always)
    private static func specialBytes(_ source: UnsafePointer<UInt8>, _ count: Int, _ rules: Rules) -> UInt64 {
        UInt64(blog_escape_bytes(source, count, rules.apostrophe ? 1 : 0, rules.xml ? 1 : 0))
    }

    /// The first byte at or after `start` that is not copied as it is (``specialBytes(_:_:_:)``), or `count`: for
    /// ``templateMayChange(_:)``, which writes nothing.
    @inline(__always)
    private static func nextSpecial(in source: UnsafePointer<UInt8>, from start: Int, count: Int, _ rules: Rules) -> Int {
        var index = start
        while index < count {
            let found = specialBytes(source + index, count - index, rules)
            if found != 0 { return index + found.trailingZeroBitCount }
            index += 64
        }
        return count
    }

    /// `text` escaped by `rules`, in one pass over its bytes: sixty-four at a time up to the first byte that
    /// is not copied as it is (mostly there is none, and `text` is returned as it is), then written from there
    /// into memory that grows as it fills (``escapedBytes(_:_:_:)``); the result is the written bytes copied once
    /// into a `String` of their size. Adding up the result's size first, then writing it, read every byte twice
    /// (a body in the feeds: half of escaping's instructions).
    private static func escape(_ text: String, _ rules: Rules) -> String {
        var escaped: String?
        let whole = escapedBytes(text, rules) { bytes, changed in
            guard changed else { return }
            escaped = String(unsafeUninitializedCapacity: bytes.count) { out in
                out.baseAddress!.update(from: bytes.baseAddress!, count: bytes.count)
                return bytes.count
            }
        }
        guard whole else { return escapeCharacters(text, rules) }
        return escaped ?? text
    }

    /// ``xml(_:)`` of `text` handed to `body` as UTF-8 (the text's own bytes when nothing is escaped), without the
    /// `String` made of them: its copy and its check of the bytes as UTF-8 (~12,000 instructions a feed entry's body),
    /// for a writer of bytes (``XMLWriter``).
    package static func xml(_ text: String, utf8 body: (UnsafeBufferPointer<UInt8>) -> Void) {
        _ = escapedBytes(text, Rules(apostrophe: false, xml: true, wholeCharacters: false)) { bytes, _ in body(bytes) }
    }

    /// `text`'s UTF-8 escaped by `rules` (see ``escape(_:_:)``), handed to `body` with whether any byte changed (the
    /// text's own bytes when none did; the buffer lives during the call); false, without calling `body`, when under
    /// ``Rules/wholeCharacters`` a byte to replace touches a byte above ASCII (then escape `Character` by `Character`).
    /// CSystem's `blog_escape_write` is the loop: each block's flags (``specialBytes(_:_:_:)``) read once, the room
    /// for a block's runs and entities made once, the runs copied sixteen bytes a move, an entity in one store.
    private static func escapedBytes(_ text: String, _ rules: Rules, _ body: (UnsafeBufferPointer<UInt8>, _ changed: Bool) -> Void) -> Bool {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> Bool in
            guard let source = bytes.baseAddress else {
                body(bytes, false)
                return true
            }
            var escaped: UnsafeMutablePointer<UInt8>?
            let written = blog_escape_write(source, bytes.count, rules.apostrophe ? entityWords.apostrophe : entityWords.plain,
                                            rules.apostrophe ? 1 : 0, rules.xml ? 1 : 0, rules.wholeCharacters ? 1 : 0, &escaped)
            guard written >= 0 else { return false }  // may be part of a longer Character
            guard let escaped else {
                body(bytes, false)
                return true
            }
            defer { blog_escape_free(escaped) }
            body(UnsafeBufferPointer(start: escaped, count: written), true)
            return true
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
