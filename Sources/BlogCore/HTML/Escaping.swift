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
            return nextSpecial(in: source, from: 0, count: bytes.count, rules.special, rules) < bytes.count
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

        /// The bytes below 64 that are not copied as they are, one bit each: `&`, `<`, `>`, `"`, `'` when
        /// it is replaced, and the control characters XML forbids when they are left out. Every other
        /// byte is copied, but 0xEF under ``xml`` (which may start U+FFFE or U+FFFF).
        var special: UInt64 {
            var bits: UInt64 = 1 << UInt8(ascii: "&") | 1 << UInt8(ascii: "<") | 1 << UInt8(ascii: ">") | 1 << UInt8(ascii: "\"")
            if apostrophe { bits |= 1 << UInt8(ascii: "'") }
            if xml { bits |= 0xFFFF_FFFF & ~(1 << 0x09 | 1 << 0x0A | 1 << 0x0D) }
            return bits
        }
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

    /// What becomes of the bytes at an index that no entity replaces (``entityWords``): kept or left out.
    private enum Step {
        case keep
        case drop(Int)
    }

    /// The step for the bytes at `index`, a byte ``isPlain(_:_:_:)`` does not copy and no entity replaces.
    @inline(__always)
    private static func step(at index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ rules: Rules) -> Step {
        switch bytes[index] {
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

    /// Whether `byte` is copied as it is without asking ``step(at:in:_:)``: one shift and test for a
    /// byte below 64 (`special`: ``Rules/special``), one comparison above.
    @inline(__always)
    private static func isPlain(_ byte: UInt8, _ special: UInt64, _ xml: Bool) -> Bool {
        byte < 64 ? special & (1 << byte) == 0 : !(xml && byte == 0xEF)
    }

    /// The first byte at or after `start` that ``isPlain(_:_:_:)`` does not copy, or `count`.
    ///
    /// Eight bytes at a time: a word is skipped at once when none of its bytes may be special
    /// (`"` or `&`, `<` or `>`, `'` when it is replaced, and under ``Rules/xml`` a control character
    /// or 0xEF), each test a few operations on the whole word (bit tricks for a zero byte: the lowest
    /// flag is always a real one). Only a word with a candidate is looked at byte by byte, from it.
    @inline(__always)
    private static func nextSpecial(in source: UnsafePointer<UInt8>, from start: Int, count: Int,
                                    _ special: UInt64, _ rules: Rules) -> Int {
        let raw = UnsafeRawPointer(source)
        var index = start
        while index + 8 <= count {
            let word = WordBytes.load(raw, index)
            let found = candidates(in: word, rules)
            if found == 0 { index += 8; continue }
            index += found.trailingZeroBitCount >> 3
            if !isPlain(source[index], special, rules.xml) { return index }
            index += 1  // a tab or line break, or `'` kept
        }
        while index < count, isPlain(source[index], special, rules.xml) { index += 1 }
        return index
    }

    /// The high bits of the bytes of `word` (little-endian) that may not be copied as they are: those
    /// ``replaced(in:_:)`` flags, and under ``Rules/xml`` a control character or 0xEF; 0 when none is. The
    /// lowest one is a real candidate (``WordBytes/firstZeros(_:)``).
    @inline(__always)
    private static func candidates(in word: UInt64, _ rules: Rules) -> UInt64 {
        let found = replaced(in: word, rules)
        guard rules.xml else { return found }
        return found | (word &- WordBytes.each(0x20)) & ~word & WordBytes.highs | WordBytes.firstZeros(word ^ WordBytes.each(0xEF))
    }

    /// The high bits of the bytes of `word` (little-endian) that may be `"`, `&`, `<`, `>`, or `'`
    /// when `rules` replace it: 0 when none is.
    @inline(__always)
    private static func replaced(in word: UInt64, _ rules: Rules) -> UInt64 {
        // 0x22 `"` and 0x26 `&` differ in one bit, as do 0x3C `<` and 0x3E `>`.
        let found = WordBytes.firstZeros((word & WordBytes.each(0xFB)) ^ WordBytes.each(0x22)) | WordBytes.firstZeros((word & WordBytes.each(0xFD)) ^ WordBytes.each(0x3C))
        return rules.apostrophe ? found | WordBytes.firstZeros(word ^ WordBytes.each(0x27)) : found
    }

    /// `text` escaped by `rules`, in one pass over its bytes: eight at a time up to the first byte that
    /// is not copied as it is (``nextSpecial(in:from:count:_:_:)``: mostly there is none, and `text` is
    /// returned as it is), then written from there into memory that grows as it fills, each word stored
    /// whole and the stop moved to its first byte that may need a step (``step(at:in:_:)``), an entity
    /// stored byte by byte; the result is the written bytes copied once into a `String` of their size.
    /// Adding up the result's size first, then writing it, read every byte twice (a body in the feeds:
    /// half of escaping's instructions).
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
    private static func escapedBytes(_ text: String, _ rules: Rules, _ body: (UnsafeBufferPointer<UInt8>, _ changed: Bool) -> Void) -> Bool {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> Bool in
            guard let source = bytes.baseAddress else {
                body(bytes, false)
                return true
            }
            let count = bytes.count, special = rules.special
            let first = nextSpecial(in: source, from: 0, count: count, special, rules)
            guard first < count else {
                body(bytes, false)
                return true
            }
            // Most texts grow by less than half of what follows their first special byte; more memory when not.
            var capacity = count + (count - first) / 2 + 16
            var target = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            defer { target.deallocate() }
            target.update(from: source, count: first)
            let input = UnsafeRawPointer(source)
            let entities = rules.apostrophe ? entityWords.apostrophe : entityWords.plain
            var index = first, written = first, changed = false
            while index < count {
                // A word, then an entity stored as 8 bytes after up to 7 of its bytes, fit.
                if written + 16 > capacity {
                    capacity *= 2
                    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                    larger.update(from: target, count: written)
                    target.deallocate()
                    target = larger
                }
                if index + 8 <= count {
                    let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
                    let found = candidates(in: UInt64(littleEndian: word), rules)
                    if found == 0 {
                        index += 8
                        written += 8
                        continue
                    }
                    let plain = found.trailingZeroBitCount >> 3  // stored already
                    index += plain
                    written += plain
                }
                let byte = source[index]
                let replacement = entities[Int(byte)]
                if replacement != 0 {
                    if rules.wholeCharacters,
                       (index > 0 && bytes[index - 1] >= 0x80) || (index + 1 < count && bytes[index + 1] >= 0x80) {
                        return false  // may be part of a longer Character
                    }
                    // All of the entity in one store (its length in the top byte, written over after).
                    UnsafeMutableRawPointer(target + written).storeBytes(of: (replacement & 0x00FF_FFFF_FFFF_FFFF).littleEndian, as: UInt64.self)
                    written += Int(truncatingIfNeeded: replacement >> 56)
                    index += 1
                    changed = true
                    continue
                }
                if isPlain(byte, special, rules.xml) {
                    target[written] = byte
                    written += 1
                    index += 1
                    continue
                }
                switch step(at: index, in: bytes, rules) {
                case .keep:
                    target[written] = byte
                    written += 1
                    index += 1
                case .drop(let dropped):
                    changed = true
                    index += dropped
                }
            }
            if changed {
                body(UnsafeBufferPointer(start: target, count: written), true)
            } else {
                body(bytes, false)
            }
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
