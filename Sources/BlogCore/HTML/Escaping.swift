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

    /// What becomes of the bytes at an index: kept, left out, or replaced by an entity.
    private enum Step {
        case keep
        case drop(Int)
        case entity(StaticString)
    }

    /// The step for the bytes at `index`, a byte ``isPlain(_:_:_:)`` does not copy.
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
            var found = replaced(in: word, rules)
            if rules.xml { found |= (word &- WordBytes.each(0x20)) & ~word & WordBytes.highs | WordBytes.firstZeros(word ^ WordBytes.each(0xEF)) }
            if found == 0 { index += 8; continue }
            index += found.trailingZeroBitCount >> 3
            if !isPlain(source[index], special, rules.xml) { return index }
            index += 1  // a tab or line break, or `'` kept
        }
        while index < count, isPlain(source[index], special, rules.xml) { index += 1 }
        return index
    }

    /// The high bits of the bytes of `word` (little-endian) that may be `"`, `&`, `<`, `>`, or `'`
    /// when `rules` replace it: 0 when none is.
    @inline(__always)
    private static func replaced(in word: UInt64, _ rules: Rules) -> UInt64 {
        // 0x22 `"` and 0x26 `&` differ in one bit, as do 0x3C `<` and 0x3E `>`.
        let found = WordBytes.firstZeros((word & WordBytes.each(0xFB)) ^ WordBytes.each(0x22)) | WordBytes.firstZeros((word & WordBytes.each(0xFD)) ^ WordBytes.each(0x3C))
        return rules.apostrophe ? found | WordBytes.firstZeros(word ^ WordBytes.each(0x27)) : found
    }

    /// `text` escaped by `rules`. Two passes over the bytes, each skipping from special byte to
    /// special byte (``nextSpecial(in:from:count:_:_:)``): the size of the result (and whether anything
    /// changes at all: mostly nothing does, and `text` is returned as it is), then the result written
    /// in place at its exact size, each run of bytes copied as they are in one `memcpy` and each
    /// entity stored byte by byte.
    private static func escape(_ text: String, _ rules: Rules) -> String {
        var contiguous = text
        switch contiguous.withUTF8({ quickEscape($0, rules) }) {
        case .unchanged: return text
        case .escaped(let result): return result
        case .careful: break
        }
        let special = rules.special
        let escaped = contiguous.withUTF8 { bytes -> String?? in
            guard let source = bytes.baseAddress else { return nil }
            let count = bytes.count
            var size = count
            var changed = false
            var index = nextSpecial(in: source, from: 0, count: count, special, rules)
            while index < count {
                switch step(at: index, in: bytes, rules) {
                case .keep:
                    index += 1
                case .drop(let dropped):
                    changed = true
                    size -= dropped
                    index += dropped
                case .entity(let entity):
                    if rules.wholeCharacters,
                       (index > 0 && bytes[index - 1] >= 0x80) || (index + 1 < count && bytes[index + 1] >= 0x80) {
                        return .some(nil)  // may be part of a longer Character
                    }
                    changed = true
                    size += entity.utf8CodeUnitCount - 1
                    index += 1
                }
                index = nextSpecial(in: source, from: index, count: count, special, rules)
            }
            guard changed else { return nil }
            return String(unsafeUninitializedCapacity: size) { out in
                guard let target = out.baseAddress else { return 0 }
                var written = 0
                var run = 0  // where the bytes not yet copied start
                var index = nextSpecial(in: source, from: 0, count: count, special, rules)
                while index < count {
                    let step = step(at: index, in: bytes, rules)
                    if case .keep = step {
                        index = nextSpecial(in: source, from: index + 1, count: count, special, rules)
                        continue
                    }
                    if index > run {
                        (target + written).update(from: source + run, count: index - run)
                        written += index - run
                    }
                    switch step {
                    case .keep:
                        break
                    case .drop(let dropped):
                        index += dropped
                    case .entity(let entity):
                        // A few bytes: stored one by one, cheaper than a call to copy them.
                        let start = entity.utf8Start
                        for offset in 0..<entity.utf8CodeUnitCount { target[written + offset] = start[offset] }
                        written += entity.utf8CodeUnitCount
                        index += 1
                    }
                    run = index
                    index = nextSpecial(in: source, from: index, count: count, special, rules)
                }
                (target + written).update(from: source + run, count: count - run)
                return written + count - run
            }
        }
        switch escaped {
        case nil: return text
        case .some(nil): return escapeCharacters(text, rules)
        case .some(.some(let result)): return result
        }
    }

    /// What ``quickEscape(_:_:)`` made of a text.
    private enum Quick {
        case unchanged
        case escaped(String)
        /// The text has a byte that needs ``escape(_:_:)``'s careful steps: one left out under
        /// ``Rules/xml``, 0xEF (which may start U+FFFE), or a byte above ASCII under ``Rules/wholeCharacters``.
        case careful
    }

    /// What a byte costs, by rules (``quickTableIndex(_:)``) then byte: the bytes its entity adds (`&`: 4),
    /// 0 for a byte copied as it is, ``carefulFlag`` for a byte ``Quick/careful`` is about.
    private static let quickTable: [UInt32] = (0..<8 * 256).map { index in
        let kind = index >> 8, byte = UInt8(truncatingIfNeeded: index)
        let rules = Rules(apostrophe: kind & 1 != 0, xml: kind & 2 != 0, wholeCharacters: kind & 4 != 0)
        if let entity = entity(for: byte, rules) { return UInt32(entity.utf8CodeUnitCount - 1) }
        if rules.wholeCharacters && byte >= 0x80 { return carefulFlag }
        if rules.xml && (byte == 0xEF || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D)) { return carefulFlag }
        return 0
    }
    private static let carefulFlag: UInt32 = 0x100

    private static func quickTableIndex(_ rules: Rules) -> Int {
        ((rules.apostrophe ? 1 : 0) | (rules.xml ? 2 : 0) | (rules.wholeCharacters ? 4 : 0)) << 8
    }

    /// `bytes` escaped by `rules` when they have no byte that needs care (mostly the case): one
    /// pass adds up what each byte's entity adds from a table, with no branch; a second writes the
    /// result at its exact size, eight bytes at a time where a word has no `"`, `&`, `<`, `>` (or `'`
    /// when it is replaced), else byte by byte from its first such byte. HTML with markup in it has
    /// one of them every few bytes, where skipping to each and copying the run before it costs more.
    private static func quickEscape(_ bytes: UnsafeBufferPointer<UInt8>, _ rules: Rules) -> Quick {
        guard let source = bytes.baseAddress else { return .unchanged }
        let count = bytes.count
        return quickTable.withUnsafeBufferPointer { all -> Quick in
            let table = all.baseAddress! + quickTableIndex(rules)
            var added = 0
            var seen: UInt32 = 0
            for index in 0..<count {
                let cost = table[Int(source[index])]
                added &+= Int(cost)
                seen |= cost
            }
            if seen & carefulFlag != 0 { return .careful }
            if added == 0 { return .unchanged }
            let result = String(unsafeUninitializedCapacity: count + added) { out in
                guard let target = out.baseAddress else { return 0 }
                let input = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(target)
                var index = 0, written = 0
                while index < count {
                    // The output left is never shorter than the input left: a whole word fits.
                    if index + 8 <= count {
                        let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        let found = replaced(in: UInt64(littleEndian: word), rules)
                        output.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
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
                    index += 1
                    if let entity = entity(for: byte, rules) {
                        let start = entity.utf8Start
                        for offset in 0..<entity.utf8CodeUnitCount { target[written + offset] = start[offset] }
                        written += entity.utf8CodeUnitCount
                    } else {
                        target[written] = byte
                        written += 1
                    }
                }
                return written
            }
            return .escaped(result)
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
