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

/// A careful walk over the start tags of HTML, tag by tag rather than with a pattern: text is
/// never read as markup, nor are comments, `<!…>`/`<?…>` declarations, or the content of
/// `<script>`, `<style>`, `<textarea>`, `<title>` and `<xmp>`.
package enum HTMLAttributes {
    /// Calls `visit` for every attribute that has a value, in document order. An attribute whose
    /// quoted value is never closed is not visited (nor is anything after it).
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
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        var copied = 0
        bytes.withUnsafeBufferPointer { buffer in
            var walker = Walker(bytes: buffer)
            walker.run { attribute in
                guard !attribute.inCode else { return }
                // Names compared as bytes: no string is made for the attributes that are left alone.
                let isSrcset = buffer.equalsLowercased(attribute.name, "srcset")
                guard isSrcset || urlAttributes.contains(where: { buffer.equalsLowercased(attribute.name, $0) }) else { return }
                let value = String(decoding: buffer[attribute.value], as: UTF8.self)
                guard let replaced = transform(URLAttributeValue(text: value, isSrcset: isSrcset)) else { return }
                if out.isEmpty { out.reserveCapacity(bytes.count + bytes.count / 8) }
                out += buffer[copied..<attribute.value.lowerBound]
                out += replaced.utf8
                copied = attribute.value.upperBound
            }
        }
        if copied == 0 { return html }
        out += bytes[copied...]
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
    /// The value, without its quotes.
    var value: Range<Int>
    var inCode: Bool
}

private struct Walker {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// How many `<pre>`/`<code>` elements are open around the current position.
    var codeDepth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Elements whose content is code.
    private static let codeElements: [StaticString] = ["pre", "code"]
    /// Elements whose content is raw text, not markup.
    private static let rawTextElements: [StaticString] = ["script", "style", "textarea", "title", "xmp"]

    mutating func run(_ visit: (FoundAttribute) -> Void) {
        let count = bytes.count
        while position < count {
            if bytes[position] != UInt8(ascii: "<") {
                position = next(UInt8(ascii: "<"), from: position) ?? count
            } else if position + 1 < count, bytes[position + 1].isLetter {
                startTag(visit)  // the common case first
            } else if starts(with: "<!--") {
                position = end(of: "-->", from: position + 4)
            } else if starts(with: "<!") || starts(with: "<?") {
                position = end(of: ">", from: position + 2)
            } else if starts(with: "</"), position + 2 < count, bytes[position + 2].isLetter {
                let name = tagName(from: position + 2)
                if Self.codeElements.contains(where: { bytes.equalsLowercased(name, $0) }) { codeDepth = max(0, codeDepth - 1) }
                position = end(of: ">", from: position + 2)
            } else {
                position += 1  // a lone `<` in text
            }
        }
    }

    /// Reads a start tag and its attributes, then skips raw text after it.
    private mutating func startTag(_ visit: (FoundAttribute) -> Void) {
        let name = tagName(from: position + 1)
        position = name.upperBound
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
                break
            }
            selfClosing = false
            attribute(of: name, visit)
        }
        if Self.codeElements.contains(where: { bytes.equalsLowercased(name, $0) }), !selfClosing { codeDepth += 1 }
        if Self.rawTextElements.contains(where: { bytes.equalsLowercased(name, $0) }) {
            position = closingTag(of: name) ?? bytes.count
        }
    }

    /// Reads one attribute (`name`, `name=value`, `name="value"`) and visits it when it has a value.
    private mutating func attribute(of element: Range<Int>, _ visit: (FoundAttribute) -> Void) {
        let nameStart = position
        var nameEnd = position + 1  // a first `=` belongs to the name, as in browsers
        while nameEnd < bytes.count, !bytes[nameEnd].isSpace, bytes[nameEnd] != UInt8(ascii: "/"),
              bytes[nameEnd] != UInt8(ascii: ">"), bytes[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
        position = nameEnd
        var equals = position
        while equals < bytes.count, bytes[equals].isSpace { equals += 1 }
        guard equals < bytes.count, bytes[equals] == UInt8(ascii: "=") else { return }
        position = equals + 1
        while position < bytes.count, bytes[position].isSpace { position += 1 }
        guard position < bytes.count else { return }

        let quote = bytes[position]
        let quoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
        let valueStart: Int, valueEnd: Int
        if quoted {
            valueStart = position + 1
            guard let close = next(quote, from: valueStart) else {
                position = bytes.count  // unterminated: nothing more to read
                return
            }
            valueEnd = close
        } else {
            valueStart = position
            var end = position
            while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: ">") { end += 1 }
            valueEnd = end
        }
        visit(FoundAttribute(element: element, name: nameStart..<nameEnd, value: valueStart..<valueEnd, inCode: codeDepth > 0))
        position = quoted ? valueEnd + 1 : valueEnd
    }

    /// The tag name starting at `start`.
    private func tagName(from start: Int) -> Range<Int> {
        var end = start
        while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: ">") { end += 1 }
        return start..<end
    }

    /// The index of the first `byte` at or after `start`.
    private func next(_ byte: UInt8, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Where `</name` starts (any case) at or after the current position.
    private func closingTag(of name: Range<Int>) -> Int? {
        let length = 2 + name.count
        var index = position
        while index + length <= bytes.count {
            guard let open = next(UInt8(ascii: "<"), from: index), open + length <= bytes.count else { return nil }
            if bytes[open + 1] == UInt8(ascii: "/"),
               zip(bytes[open + 2..<open + length], bytes[name]).allSatisfy({ $0.lowercased == $1.lowercased }) {
                return open
            }
            index = open + 1
        }
        return nil
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
}

private extension UInt8 {
    var isLetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    var isSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    var lowercased: UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self }
}
