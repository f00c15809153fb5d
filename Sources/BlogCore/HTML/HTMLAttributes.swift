#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One attribute with a value in a start tag, as ``HTMLAttributes/scan(_:_:)`` finds it.
package struct HTMLAttribute {
    /// The element's tag name, lower-cased (`a`, `img`).
    package var element: String
    /// The attribute's name, lower-cased (`href`).
    package var name: String
    /// Where the value is in the scanned bytes, without its quotes; entities are not decoded.
    package var value: Range<Int>
    /// Whether the tag is inside a `<pre>` or `<code>` element (where code samples show HTML as written).
    package var inCode: Bool
}

/// A URL-holding attribute's value, as ``HTMLAttributes/rewriteURLs(in:_:)`` hands it over.
package struct URLAttributeValue {
    /// The value as written (entities not decoded).
    package var text: String
    /// Whether it is a `srcset` (a list of URLs with descriptors) rather than one URL.
    package var isSrcset: Bool
}

/// A fast walk over the start tags of HTML that reads what ``HTMLTokenizer`` (a browser's tokenizer) reads,
/// without making its tokens: text is never read as markup, nor are comments (`<!-->` and `<!--->` whole
/// ones, `--!>` an end), `<!…>`/`<?…>` declarations, end tags, or the content of raw text elements
/// (`<script>`, `<style>`, `<textarea>`, `<title>`, `<iframe>`, `<xmp>`, `<noembed>`, `<noframes>`,
/// `<noscript>`, and all after `<plaintext>`); of a repeated attribute the first wins, and a tag cut off by
/// the end of the text is none. HTMLAttributesTests checks it against the tokenizer on real and hostile HTML.
package enum HTMLAttributes {
    /// Calls `visit` for every attribute that has a value, in document order. A tag that the text ends
    /// inside (a quoted value never closed, say) is not visited, nor is anything after it.
    package static func scan(_ bytes: [UInt8], _ visit: (HTMLAttribute) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            var walker = Walker(bytes: buffer)
            walker.run { found in
                visit(HTMLAttribute(element: lowercased(buffer, found.element), name: lowercased(buffer, found.name),
                                    value: found.value, inCode: found.inCode))
            }
        }
    }

    /// `html` with the value of every `href`, `src`, `poster` and `srcset` attribute outside
    /// `<pre>`/`<code>` replaced by `transform(value)`; a nil result leaves the value as it is.
    package static func rewriteURLs(in html: String, _ transform: (URLAttributeValue) -> String?) -> String {
        var out: [UInt8] = []
        var copied = 0
        // Read in place: a native string's bytes are not copied.
        var text = html
        text.withUTF8 { buffer in
            var walker = Walker(bytes: buffer)
            walker.run { attribute in
                guard !attribute.inCode else { return }
                // Names compared as bytes: no string is made for the attributes that are left alone.
                let isSrcset = buffer.equalsLowercased(attribute.name, "srcset")
                guard isSrcset || urlAttributes.contains(where: { buffer.equalsLowercased(attribute.name, $0) }) else { return }
                let value = String(decoding: buffer[attribute.value], as: UTF8.self)
                // A value given back as it was (an absolute URL) is left in place: HTML whose URLs
                // are all absolute comes back as it came, not as a copy.
                guard let replaced = transform(URLAttributeValue(text: value, isSrcset: isSrcset)), replaced != value else { return }
                if out.isEmpty { out.reserveCapacity(buffer.count + buffer.count / 8) }
                out += buffer[copied..<attribute.value.lowerBound]
                out += replaced.utf8
                copied = attribute.value.upperBound
            }
            if copied > 0 { out += buffer[copied...] }
        }
        if copied == 0 { return html }
        return String(decoding: out, as: UTF8.self)
    }

    /// Attributes that hold one URL (`srcset` holds a list of them).
    static let urlAttributes: [StaticString] = ["href", "src", "poster"]

    /// The bytes in `range` as lower-cased text (names are usually lower-case already).
    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = bytes[range]
        if !slice.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            return String(decoding: slice, as: UTF8.self)
        }
        return String(decoding: slice.map(\.lowercased), as: UTF8.self)
    }
}

/// An attribute as the walker finds it: every part a range of the scanned bytes, so that nothing
/// is copied for the many attributes a caller skips.
private struct FoundAttribute {
    /// The element's tag name, as written.
    var element: Range<Int>
    /// The attribute's name, as written.
    var name: Range<Int>
    /// The value, without its quotes; empty with `hasValue` false for an attribute without one.
    var value: Range<Int>
    var hasValue: Bool
    var inCode: Bool
}

private struct Walker {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// How many `<pre>`/`<code>` elements are open around the current position.
    var codeDepth = 0
    /// The attributes of the start tag being read, each name once: visited when the tag closes, since a tag
    /// cut off by the end of the text is none. Kept between tags so that its storage is reused.
    var pending: [FoundAttribute] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// What an element's name says about its content.
    private enum Content { case markup, code, rawText, plaintext }

    /// Code (`<pre>`, `<code>`), raw text (``HTMLTokenizer/rawTextElements``), all the rest (`<plaintext>`) or
    /// markup: by length first, so that the common short names (`a`, `p`, `img`) take one comparison.
    private func content(of name: Range<Int>) -> Content {
        switch name.count {
        case 3:
            if bytes.equalsLowercased(name, "pre") { return .code }
            if bytes.equalsLowercased(name, "xmp") { return .rawText }
        case 4:
            if bytes.equalsLowercased(name, "code") { return .code }
        case 5:
            if bytes.equalsLowercased(name, "style") || bytes.equalsLowercased(name, "title") { return .rawText }
        case 6:
            if bytes.equalsLowercased(name, "script") || bytes.equalsLowercased(name, "iframe") { return .rawText }
        case 7:
            if bytes.equalsLowercased(name, "noembed") { return .rawText }
        case 8:
            if bytes.equalsLowercased(name, "textarea") || bytes.equalsLowercased(name, "noscript")
                || bytes.equalsLowercased(name, "noframes") { return .rawText }
        case 9:
            if bytes.equalsLowercased(name, "plaintext") { return .plaintext }
        default:
            break
        }
        return .markup
    }

    mutating func run(_ visit: (FoundAttribute) -> Void) {
        let count = bytes.count
        while position < count {
            if bytes[position] != UInt8(ascii: "<") {
                position = next(UInt8(ascii: "<"), from: position) ?? count
            } else if position + 1 < count, bytes[position + 1].isLetter {
                startTag(visit)  // the common case first
            } else if starts(with: "<!--") {
                position = commentEnd(from: position)
            } else if starts(with: "<!") || starts(with: "<?") {
                position = end(of: ">", from: position + 2)
            } else if starts(with: "</") {
                if position + 2 >= count {
                    position = count  // `</` at the end is text
                } else if bytes[position + 2].isLetter {
                    endTag()
                } else if bytes[position + 2] == UInt8(ascii: ">") {
                    position += 3  // `</>` is nothing
                } else {
                    position = end(of: ">", from: position + 2)  // a bogus comment
                }
            } else {
                position += 1  // a lone `<` in text
            }
        }
    }

    /// Reads a start tag and its attributes, visits those with a value once it closes, then skips raw text after it.
    private mutating func startTag(_ visit: (FoundAttribute) -> Void) {
        let name = tagName(from: position + 1)
        position = name.upperBound
        pending.removeAll(keepingCapacity: true)
        guard let selfClosing = attributes(of: name, keep: true) else { return }
        let content = content(of: name)
        for found in pending where found.hasValue {
            visit(FoundAttribute(element: name, name: found.name, value: found.value, hasValue: true, inCode: codeDepth > 0))
        }
        switch content {
        case .markup: break
        case .code: if !selfClosing { codeDepth += 1 }
        case .rawText: position = bytes.rawTextEnd(of: bytes[name], from: position) ?? bytes.count
        case .plaintext: position = bytes.count
        }
    }

    /// Reads an end tag (its attributes too: a quoted `>` does not end it).
    private mutating func endTag() {
        let name = tagName(from: position + 2)
        position = name.upperBound
        guard attributes(of: name, keep: false) != nil else { return }
        if content(of: name) == .code { codeDepth = max(0, codeDepth - 1) }
    }

    /// Reads a tag's attributes up to and past its `>`, into `pending` when `keep`; whether it ends with `/>`, or
    /// nil (and the end of the text) when the text ends first.
    private mutating func attributes(of name: Range<Int>, keep: Bool) -> Bool? {
        var selfClosing = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte.isSpace || byte == UInt8(ascii: "/") {
                selfClosing = byte == UInt8(ascii: "/")
                position += 1
                continue
            }
            if byte == UInt8(ascii: ">") {
                position += 1
                return selfClosing
            }
            selfClosing = false
            guard attribute(of: name, keep: keep) else { break }
        }
        position = bytes.count
        return nil
    }

    /// Reads one attribute (`name`, `name=value`, `name="value"`), kept in `pending` when `keep` and its name is
    /// not there yet; false when the text ends inside it.
    private mutating func attribute(of element: Range<Int>, keep: Bool) -> Bool {
        let nameStart = position
        var nameEnd = position + 1  // a first `=` belongs to the name, as in browsers
        while nameEnd < bytes.count, !bytes[nameEnd].isSpace, bytes[nameEnd] != UInt8(ascii: "/"),
              bytes[nameEnd] != UInt8(ascii: ">"), bytes[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
        position = nameEnd
        var equals = position
        while equals < bytes.count, bytes[equals].isSpace { equals += 1 }
        guard equals < bytes.count else { return false }
        var value = nameEnd..<nameEnd
        let hasValue = bytes[equals] == UInt8(ascii: "=")
        if hasValue {
            position = equals + 1
            while position < bytes.count, bytes[position].isSpace { position += 1 }
            guard position < bytes.count else { return false }
            let quote = bytes[position]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard let close = next(quote, from: position + 1) else { return false }
                value = (position + 1)..<close
                position = close + 1
            } else {
                var end = position
                while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: ">") { end += 1 }
                guard end < bytes.count else { return false }
                value = position..<end
                position = end
            }
        }
        guard keep else { return true }
        let name = nameStart..<nameEnd
        // The first of a repeated name wins, with a value or not (as in browsers).
        for kept in pending where bytes.sameLowercased(kept.name, name) { return true }
        pending.append(FoundAttribute(element: element, name: name, value: value, hasValue: hasValue, inCode: false))
        return true
    }

    /// The tag name starting at `start`.
    private func tagName(from start: Int) -> Range<Int> {
        var end = start
        while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: ">") { end += 1 }
        return start..<end
    }

    /// The index of the first `byte` at or after `start`.
    private func next(_ byte: UInt8, from start: Int) -> Int? {
        ByteSearch.firstIndex(of: byte, in: bytes, from: start)
    }

    /// Just past the `<!--` comment at `start`: at `-->` or `--!>`, or at once for `<!-->` and `<!--->`; the end
    /// of the text when it is never closed.
    private func commentEnd(from start: Int) -> Int {
        var index = start + 4
        if index < bytes.count, bytes[index] == UInt8(ascii: ">") { return index + 1 }
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: ">") { return index + 2 }
        while let dash = next(UInt8(ascii: "-"), from: index) {
            if dash + 2 < bytes.count, bytes[dash + 1] == UInt8(ascii: "-") {
                if bytes[dash + 2] == UInt8(ascii: ">") { return dash + 3 }
                if bytes[dash + 2] == UInt8(ascii: "!"), dash + 3 < bytes.count, bytes[dash + 3] == UInt8(ascii: ">") { return dash + 4 }
            }
            index = dash + 1
        }
        return bytes.count
    }

    /// The index just past the first `terminator` at or after `start`, or the end of the text.
    private func end(of terminator: StaticString, from start: Int) -> Int {
        let needle = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        return ByteSearch.firstIndex(of: needle, in: bytes, from: start).map { $0 + needle.count } ?? bytes.count
    }

    private func starts(with prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + position, prefix.utf8Start, length) == 0
    }
}

private extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether the bytes in `range`, lower-cased, are `name` (lower-case ASCII).
    func equalsLowercased(_ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for offset in 0..<range.count where self[range.lowerBound + offset].lowercased != expected[offset] { return false }
        return true
    }

    /// Whether the bytes in two ranges are the same, ASCII letters in any case.
    func sameLowercased(_ one: Range<Int>, _ other: Range<Int>) -> Bool {
        guard one.count == other.count else { return false }
        for offset in 0..<one.count where self[one.lowerBound + offset].lowercased != self[other.lowerBound + offset].lowercased {
            return false
        }
        return true
    }
}

private extension UInt8 {
    var isLetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    var isSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    var lowercased: UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self }
}
