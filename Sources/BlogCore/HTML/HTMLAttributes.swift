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

/// The attributes of HTML's start tags, as ``HTMLTokenizer`` reads them (as a browser does): text is
/// never read as markup, nor are comments, `<!…>`/`<?…>` declarations, or the content of raw text
/// elements (`<script>`, `<style>`, `<textarea>`, `<title>`, `<iframe>`…).
package enum HTMLAttributes {
    /// Calls `visit` for every attribute that has a value, in document order. A tag that the text
    /// ends inside (an unclosed quote) is no tag: it and what follows are not visited.
    package static func scan(_ bytes: [UInt8], _ visit: (HTMLAttribute) -> Void) {
        walk(bytes) { element, attribute, value, inCode in
            visit(HTMLAttribute(element: element, name: attribute.name, value: value, inCode: inCode))
        }
    }

    /// `html` with the value of every `href`, `src`, `poster` and `srcset` attribute outside
    /// `<pre>`/`<code>` replaced by `transform(value)`; a nil result leaves the value as it is.
    package static func rewriteURLs(in html: String, _ transform: (URLAttributeValue) -> String?) -> String {
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        var copied = 0
        walk(bytes) { _, attribute, value, inCode in
            guard !inCode else { return }
            let isSrcset = attribute.name == "srcset"
            guard isSrcset || urlAttributes.contains(attribute.name) else { return }
            let text = String(decoding: bytes[value], as: UTF8.self)
            guard let replaced = transform(URLAttributeValue(text: text, isSrcset: isSrcset)) else { return }
            if out.isEmpty { out.reserveCapacity(bytes.count + bytes.count / 8) }
            out += bytes[copied..<value.lowerBound]
            out += replaced.utf8
            copied = value.upperBound
        }
        if copied == 0 { return html }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Attributes that hold one URL (`srcset` holds a list of them).
    static let urlAttributes: Set<String> = ["href", "src", "poster"]

    /// Each attribute with a value, with its element's name and whether it is inside a `<pre>` or
    /// `<code>` element.
    private static func walk(_ bytes: [UInt8], _ visit: (String, HTMLTokenAttribute, Range<Int>, Bool) -> Void) {
        var codeDepth = 0
        HTMLTokenizer.tokenize(bytes) { token in
            switch token.kind {
            case .startTag:
                for attribute in token.attributes {
                    if let value = attribute.value { visit(token.name, attribute, value, codeDepth > 0) }
                }
                if token.name == "pre" || token.name == "code", !token.selfClosing { codeDepth += 1 }
            case .endTag where token.name == "pre" || token.name == "code":
                codeDepth = max(0, codeDepth - 1)
            default:
                break
            }
        }
    }
}
