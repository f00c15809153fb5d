import BlogCore

/// `html: sanitize`: a post's HTML rewritten so that it keeps only an allow-list of elements and
/// attributes, and only `http`, `https`, `mailto` and relative URLs.
///
/// It reads the rendered HTML with ``HTMLTokenizer`` (as a browser reads it) and writes every piece
/// again itself, never copying markup through:
/// - text is written as it was, with `<` and `>` as `&lt;` and `&gt;`;
/// - an allowed element's start tag is written anew with only its allowed attributes, each value
///   decoded (``HTMLEntities``), checked, and written escaped between double quotes;
/// - an element that is not allowed loses its tags and keeps its content, itself sanitized,
///   except the raw text elements (`<script>`, `<style>`, `<iframe>`, `<textarea>`, `<title>`,
///   `<noscript>`, `<xmp>`, `<noembed>`, `<noframes>`, `<plaintext>`), which go whole;
/// - comments, doctypes and declarations go;
/// - end tags close only elements it opened, and every element it opened is closed at the end,
///   so a post can't break the page around it.
///
/// No raw text element (`<script>`, `<style>`, `<textarea>`, `<title>`…) and no foreign content
/// (`<svg>`, `<math>`) is ever written, so the browser reads the output in the same state
/// throughout: whatever the input's tricks, its DOM holds only the allowed elements and attributes.
///
/// What blog itself writes is allowed: highlighted code (`<span class>`, `<pre class>`), heading ids,
/// footnotes (`<section data-footnotes>`, `<sup>`, `data-footnote-ref`…), task list checkboxes
/// (`<input type="checkbox" disabled>`), table alignment, definition lists and figures.
package enum HTMLSanitizer {
    /// `html` sanitized, with what was removed.
    package static func sanitize(_ html: String) -> SanitizedHTML {
        let bytes = Array(html.utf8)
        var writer = Writer(bytes: bytes)
        HTMLTokenizer.tokenize(bytes) { writer.take($0) }
        writer.closeAll()
        return SanitizedHTML(html: String(decoding: writer.out, as: UTF8.self), firstRemoved: writer.firstRemoved,
                             removedCount: writer.removedCount)
    }

    /// What an attribute's value must be to be kept.
    enum Value: Equatable {
        /// Any text.
        case text
        /// A URL whose scheme is `http`, `https` or `mailto`, or none (relative).
        case url
        /// Any number of class names.
        case classes
        /// One id: no spaces or control characters.
        case id
        /// A whole number (`colspan="2"`, `start="3"`).
        case number
        /// A size: a whole number, or one with `%` or `px` (`width="640"`, `width="100%"`).
        case size
        /// `srcset`'s list of URLs, each with its width or density: every URL as ``url``.
        case urls
        /// One of these words, in any case.
        case oneOf(Set<String>)
    }

    /// The attributes every allowed element may have.
    static let globalAttributes: [String: Value] = [
        "class": .classes, "id": .id, "title": .text, "lang": .text, "dir": .oneOf(["ltr", "rtl", "auto"]),
        "aria-label": .text, "align": .oneOf(["left", "center", "right", "justify", "top", "middle", "bottom"]),
    ]

    /// The allowed elements and the attributes each may have besides ``globalAttributes``.
    static let elements: [String: [String: Value]] = {
        var elements: [String: [String: Value]] = [:]
        let plain = [
            "p", "div", "span", "br", "hr", "wbr", "em", "strong", "b", "i", "u", "s", "small", "mark", "sub", "sup",
            "kbd", "samp", "var", "code", "pre", "cite", "dfn", "abbr", "h1", "h2", "h3", "h4", "h5", "h6", "ul",
            "dl", "dt", "dd", "table", "caption", "thead", "tbody", "tfoot", "tr", "figure", "figcaption", "summary",
            "ruby", "rt", "rp", "bdi", "bdo",
        ]
        for name in plain { elements[name] = [:] }
        elements["a"] = ["href": .url, "rel": .text, "data-footnote-ref": .text, "data-footnote-backref": .text,
                         "data-footnote-backref-idx": .number]
        elements["img"] = ["src": .url, "srcset": .urls, "sizes": .text, "alt": .text, "width": .size, "height": .size,
                           "loading": .oneOf(["lazy", "eager"])]
        // Video and audio players (and the sources of a picture), their addresses checked as links are.
        let media: [String: Value] = ["src": .url, "poster": .url, "controls": .text, "width": .size, "height": .size,
                                      "loop": .text, "muted": .text, "playsinline": .text, "preload": .oneOf(["none", "metadata", "auto"])]
        elements["video"] = media
        elements["audio"] = media
        elements["source"] = ["src": .url, "srcset": .urls, "sizes": .text, "type": .text, "media": .text]
        elements["picture"] = [:]
        elements["ol"] = ["start": .number, "reversed": .text, "type": .oneOf(["1", "a", "i"])]
        elements["li"] = ["value": .number]
        elements["th"] = ["colspan": .number, "rowspan": .number, "scope": .oneOf(["row", "col", "rowgroup", "colgroup"])]
        elements["td"] = ["colspan": .number, "rowspan": .number]
        elements["col"] = ["span": .number]
        elements["colgroup"] = ["span": .number]
        elements["blockquote"] = ["cite": .url]
        elements["q"] = ["cite": .url]
        elements["del"] = ["cite": .url, "datetime": .text]
        elements["ins"] = ["cite": .url, "datetime": .text]
        elements["time"] = ["datetime": .text]
        elements["details"] = ["open": .text]
        elements["section"] = ["data-footnotes": .text]
        // Task lists' checkboxes, and nothing else of forms: an `<input>` of another type goes.
        elements["input"] = ["type": .oneOf(["checkbox"]), "checked": .text, "disabled": .text]
        return elements
    }()

    /// Elements without content or end tag: written as `<br />`, as cmark-gfm writes them.
    static let voidElements: Set<String> = ["br", "hr", "wbr", "img", "col", "input", "source"]

    /// An allowed element as the writer looks it up, once per tag.
    struct Element {
        /// Its place in ``names``.
        var number: Int
        /// Every attribute it may have, ``globalAttributes`` included.
        var attributes: [String: Value]
        var isVoid: Bool
    }

    /// The allowed elements' names, sorted.
    static let names = elements.keys.sorted()

    /// ``elements``, ``globalAttributes`` and ``voidElements`` in one table.
    static let allowed: [String: Element] = Dictionary(uniqueKeysWithValues: names.enumerated().map { number, name in
        (name, Element(number: number, attributes: globalAttributes.merging(elements[name] ?? [:]) { $1 },
                       isVoid: voidElements.contains(name)))
    })

    /// The URL schemes allowed in links and images; a URL without a scheme (relative) is too.
    static let schemes: Set<String> = ["http", "https", "mailto"]

    /// `url` (a decoded attribute value) as a browser reads it, when its scheme is allowed or it
    /// has none; nil otherwise. Browsers drop the C0 controls and spaces at its ends and every
    /// tab and line end inside (`java&#9;script:`) before they read the scheme, and so does this.
    static func allowedURL(_ url: String) -> String? {
        let all = Array(url.unicodeScalars)
        let start = all.firstIndex { $0.value > 0x20 } ?? all.count
        let end = (all.lastIndex { $0.value > 0x20 } ?? -1) + 1
        var scalars = start < end ? Array(all[start..<end]) : []
        scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let cleaned = String(String.UnicodeScalarView(scalars))
        // A scheme is an ASCII letter, then letters, digits, `+`, `-` or `.`, then `:`; a URL
        // that does not start so is relative.
        guard let first = scalars.first, first.isASCIILetter else { return cleaned }
        for (index, scalar) in scalars.enumerated().dropFirst() {
            if scalar == ":" {
                let scheme = String(String.UnicodeScalarView(scalars[..<index])).lowercased()
                return schemes.contains(scheme) ? cleaned : nil
            }
            guard scalar.isASCIILetter || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "." else {
                return cleaned
            }
        }
        return cleaned
    }

    /// The value to write for an attribute whose decoded value is `value`, or nil when it is not allowed.
    static func allowedValue(_ value: String, _ kind: Value) -> String? {
        switch kind {
        case .text:
            return value
        case .url:
            return allowedURL(value)
        case .classes:
            // One plain name (`k`, `language-swift`), the common case: as it is.
            if value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return value }
            let names = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
            return names.contains(where: { $0.unicodeScalars.contains(where: isControl) }) ? nil : names.joined(separator: " ")
        case .id:
            return value.isEmpty || value.unicodeScalars.contains(where: { $0 == " " || isControl($0) }) ? nil : value
        case .number, .size:
            let trimmed = value.trimmingWhitespaces()
            var digits = trimmed.hasPrefix("-") && kind == .number ? trimmed.dropFirst() : Substring(trimmed)
            if kind == .size { digits = digits.hasSuffix("%") ? digits.dropLast() : digits.hasSuffix("px") ? digits.dropLast(2) : digits }
            return !digits.isEmpty && digits.count < 10 && digits.allSatisfy({ ("0"..."9").contains($0) }) ? trimmed : nil
        case .urls:
            // `url 2x, url 640w`: a candidate's URL ends at a space; a comma ends a candidate.
            let candidates = value.split(separator: ",", omittingEmptySubsequences: false)
            for candidate in candidates {
                let url = candidate.trimmingWhitespaces().prefix { !$0.isWhitespace }
                guard allowedURL(String(url)) != nil else { return nil }
            }
            return value
        case .oneOf(let words):
            return words.contains(value.trimmingWhitespaces().lowercased()) ? value.trimmingWhitespaces() : nil
        }
    }

    /// C0 and C1 controls, and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Writes the tokens again, allowed pieces only.
    private struct Writer {
        let bytes: [UInt8]
        var out: [UInt8] = []
        /// The allowed elements open (their numbers), innermost last.
        var open: [Int] = []
        /// How many of each are in ``open``: a stray end tag is dropped without a look through it.
        var openCount = [Int](repeating: 0, count: HTMLSanitizer.names.count)
        var firstRemoved: String?
        var removedCount = 0

        static let lessThan = Array("&lt;".utf8), greaterThan = Array("&gt;".utf8), endOpen = Array("</".utf8)
        static let valueOpen = Array("=\"".utf8), voidClose = Array(" />".utf8)

        init(bytes: [UInt8]) {
            self.bytes = bytes
            out.reserveCapacity(bytes.count)
        }

        mutating func take(_ token: HTMLToken) {
            switch token.kind {
            case .text:
                // Runs without `<` or `>` copied at once.
                var start = token.range.lowerBound
                for index in token.range where bytes[index] == UInt8(ascii: "<") || bytes[index] == UInt8(ascii: ">") {
                    out += bytes[start..<index]
                    out += bytes[index] == UInt8(ascii: "<") ? Self.lessThan : Self.greaterThan
                    start = index + 1
                }
                out += bytes[start..<token.range.upperBound]
            case .rawText, .comment:
                break  // raw text is only ever inside an element that is not allowed; comments show nothing
            case .startTag:
                startTag(token)
            case .endTag:
                guard let element = HTMLSanitizer.allowed[token.name], openCount[element.number] > 0,
                      let index = open.lastIndex(of: element.number) else { return }
                for number in open[index...].reversed() {
                    endTag(number)
                    openCount[number] -= 1
                }
                open.removeSubrange(index...)
            }
        }

        /// Closes every element still open.
        mutating func closeAll() {
            for number in open.reversed() { endTag(number) }
            open.removeAll()
        }

        private mutating func endTag(_ number: Int) {
            out += Self.endOpen
            out += HTMLSanitizer.names[number].utf8
            out.append(UInt8(ascii: ">"))
        }

        private mutating func removed(_ range: Range<Int>) {
            removedCount += 1
            if firstRemoved == nil { firstRemoved = String(decoding: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + 80)], as: UTF8.self) }
        }

        private mutating func startTag(_ token: HTMLToken) {
            guard let element = HTMLSanitizer.allowed[token.name] else {
                removed(token.range)
                return
            }
            let start = out.count  // written straight into `out`, and taken back if the element goes
            out.append(UInt8(ascii: "<"))
            out += token.name.utf8
            for attribute in token.attributes {
                guard let kind = element.attributes[attribute.name] else {
                    removed(attribute.range)
                    continue
                }
                // No value is an empty one (`<input type>` is a text field).
                let decoded = attribute.value.map { HTMLEntities.decodeAttribute(String(decoding: bytes[$0], as: UTF8.self)) } ?? ""
                guard let value = HTMLSanitizer.allowedValue(decoded, kind) else {
                    removed(attribute.range)
                    if token.name == "input", attribute.name == "type" {  // not a checkbox: the whole input goes
                        out.removeSubrange(start...)
                        return
                    }
                    continue
                }
                // Written as it came: bare (as cmark-gfm writes `data-footnote-ref`), or with its value quoted.
                out.append(UInt8(ascii: " "))
                out += attribute.name.utf8
                if attribute.value != nil {
                    out += Self.valueOpen
                    out += Escaping.html(value).utf8
                    out.append(UInt8(ascii: "\""))
                }
            }
            if token.name == "input", !token.attributes.contains(where: { $0.name == "type" }) {
                removed(token.range)  // a text field
                out.removeSubrange(start...)
                return
            }
            if element.isVoid {
                out += Self.voidClose
            } else {
                out.append(UInt8(ascii: ">"))
                open.append(element.number)
                openCount[element.number] += 1
            }
        }
    }
}

/// What ``HTMLSanitizer/sanitize(_:)`` made of some HTML.
package struct SanitizedHTML {
    /// The HTML, with only what is allowed.
    package var html: String
    /// The first piece removed (a start tag or an attribute) as written, at most 80 bytes of it.
    package var firstRemoved: String?
    /// How many pieces were removed (start tags and attributes; comments are not counted).
    package var removedCount: Int

    /// A warning about what was removed, at the first piece's place in `source` (the markdown it
    /// was rendered from; raw HTML passes through cmark as written), else at its first line.
    func warning(in source: String) -> MarkdownWarning? {
        guard let first = firstRemoved else { return nil }
        var place = (line: 1, column: 1)
        if let found = source.range(of: first) {
            place = TextPosition.lineAndColumn(ofByte: source.utf8.distance(from: source.startIndex, to: found.lowerBound), in: source)
        }
        let shown = first.count > 60 ? first.prefix(60) + "…" : Substring(first)
        let more = removedCount > 1 ? " and \(removedCount - 1) more piece\(removedCount > 2 ? "s" : "") of HTML" : ""
        return MarkdownWarning(line: place.line, column: place.column,
                               message: "`html: sanitize` removed `\(shown)`\(more): only an allow-list of elements and attributes, and http, https, mailto and relative URLs, are kept")
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
