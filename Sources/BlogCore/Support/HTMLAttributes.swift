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
    /// Elements whose content is code.
    static let codeElements: Set<String> = ["pre", "code"]
    /// Elements whose content is raw text, not markup.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    /// Calls `visit` for every attribute that has a value, in document order. An attribute whose
    /// quoted value is never closed is not visited (nor is anything after it).
    package static func scan(_ bytes: [UInt8], _ visit: (HTMLAttribute) -> Void) {
        var walker = Walker(bytes: bytes)
        walker.run(visit)
    }

    /// `html` with the value of every `href`, `src`, `poster` and `srcset` attribute outside
    /// `<pre>`/`<code>` replaced by `transform(value)`; a nil result leaves the value as it is.
    package static func rewriteURLs(in html: String, _ transform: (URLAttributeValue) -> String?) -> String {
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        var copied = 0
        scan(bytes) { attribute in
            guard !attribute.inCode else { return }
            let isSrcset = attribute.name == "srcset"
            guard isSrcset || urlAttributes.contains(attribute.name) else { return }
            let value = String(decoding: bytes[attribute.value], as: UTF8.self)
            guard let replaced = transform(URLAttributeValue(text: value, isSrcset: isSrcset)) else { return }
            if out.isEmpty { out.reserveCapacity(bytes.count + bytes.count / 8) }
            out += bytes[copied..<attribute.value.lowerBound]
            out += replaced.utf8
            copied = attribute.value.upperBound
        }
        if copied == 0 { return html }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Attributes that hold one URL (`srcset` holds a list of them).
    static let urlAttributes: Set<String> = ["href", "src", "poster"]
}

private struct Walker {
    let bytes: [UInt8]
    var position = 0
    /// How many `<pre>`/`<code>` elements are open around the current position.
    var codeDepth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func run(_ visit: (HTMLAttribute) -> Void) {
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                position = bytes[position...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
            } else if position + 1 < bytes.count, bytes[position + 1].isLetter {
                startTag(visit)  // the common case first
            } else if starts(with: "<!--") {
                position = end(of: "-->", from: position + 4)
            } else if starts(with: "<!") || starts(with: "<?") {
                position = end(of: ">", from: position + 2)
            } else if starts(with: "</"), position + 2 < bytes.count, bytes[position + 2].isLetter {
                let name = tagName(from: position + 2)
                if HTMLAttributes.codeElements.contains(name) { codeDepth = max(0, codeDepth - 1) }
                position = end(of: ">", from: position + 2)
            } else {
                position += 1  // a lone `<` in text
            }
        }
    }

    /// Reads a start tag and its attributes, then skips raw text after it.
    private mutating func startTag(_ visit: (HTMLAttribute) -> Void) {
        let name = tagName(from: position + 1)
        position += 1 + name.utf8.count
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
        if HTMLAttributes.codeElements.contains(name), !selfClosing { codeDepth += 1 }
        if HTMLAttributes.rawTextElements.contains(name) {
            position = closingTag(of: name) ?? bytes.count
        }
    }

    /// Reads one attribute (`name`, `name=value`, `name="value"`) and visits it when it has a value.
    private mutating func attribute(of element: String, _ visit: (HTMLAttribute) -> Void) {
        let nameStart = position
        var nameEnd = position + 1  // a first `=` belongs to the name, as in browsers
        while nameEnd < bytes.count, !bytes[nameEnd].isSpace, bytes[nameEnd] != UInt8(ascii: "/"),
              bytes[nameEnd] != UInt8(ascii: ">"), bytes[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
        let name = lowercased(nameStart..<nameEnd)
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
            guard let close = bytes[valueStart...].firstIndex(of: quote) else {
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
        visit(HTMLAttribute(element: element, name: name, value: valueStart..<valueEnd, inCode: codeDepth > 0))
        position = quoted ? valueEnd + 1 : valueEnd
    }

    /// The lower-cased tag name starting at `start`.
    private func tagName(from start: Int) -> String {
        var end = start
        while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: ">") { end += 1 }
        return lowercased(start..<end)
    }

    /// The bytes in `range` as lower-cased text (names are usually lower-case already).
    private func lowercased(_ range: Range<Int>) -> String {
        let slice = bytes[range]
        if !slice.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            return String(decoding: slice, as: UTF8.self)
        }
        return String(decoding: slice.map(\.lowercased), as: UTF8.self)
    }

    /// Where `</name` starts (any case) at or after the current position.
    private func closingTag(of name: String) -> Int? {
        let needle = Array("</\(name)".utf8)
        var index = position
        while index + needle.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "<"),
               zip(bytes[index..<index + needle.count], needle).allSatisfy({ $0.lowercased == $1 }) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The index just past the first `terminator` at or after `start`, or the end of the text.
    private func end(of terminator: String, from start: Int) -> Int {
        let needle = Array(terminator.utf8)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index + needle.count }
            index += 1
        }
        return bytes.count
    }

    private func starts(with prefix: String) -> Bool {
        bytes[position...].starts(with: prefix.utf8)
    }
}

private extension UInt8 {
    var isLetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    var isSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    var lowercased: UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self }
}
