#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One piece of HTML as ``HTMLTokenizer`` reads it.
package struct HTMLToken {
    /// What the piece is.
    package enum Kind {
        /// Text between tags, as written (character references not decoded).
        case text
        /// The content of a raw text element (`<script>`, `<style>`, `<textarea>`, `<title>`,
        /// `<iframe>`, `<xmp>`, `<noembed>`, `<noframes>`, `<noscript>`, `<plaintext>`): never markup.
        case rawText
        case startTag
        case endTag
        /// A comment, a doctype, a `<?…>` or `<!…>` declaration, or a `</…>` that is no end tag.
        case comment
    }

    package var kind: Kind
    /// Where the whole piece is in the read bytes.
    package var range: Range<Int>
    /// A tag's name, lower-cased (empty for other kinds).
    package var name: String = ""
    /// A start tag's attributes, in order, each name once (the first one wins, as in browsers).
    package var attributes: [HTMLTokenAttribute] = []
    /// Whether a start tag ends with `/>`.
    package var selfClosing = false
}

/// An attribute of a start tag.
package struct HTMLTokenAttribute {
    /// The name, lower-cased.
    package var name: String
    /// The value as written, without its quotes (character references not decoded); nil when
    /// the attribute has no value (`<input checked>`).
    package var value: Range<Int>?
    /// Where the whole attribute is, name to closing quote.
    package var range: Range<Int>
}

/// Reads HTML into tags, text, comments and raw text the way a browser's tokenizer does (the
/// WHATWG HTML standard's tokenization, from the data state): `<` followed by a letter opens a tag,
/// attribute names and values end where browsers end them (a missing space after a quoted value,
/// a `/` among attributes, `=` first in a name, unquoted values), a tag cut off by the end of the
/// text is no tag, comments end at `-->`, `--!>`, `<!-->` or `<!--->`, and after a raw text
/// element's start tag everything up to its end tag is text.
///
/// What it does not do is build the tree (no implied end tags, no foreign content): a caller that
/// writes its own markup from the tokens, as ``HTMLSanitizer`` does, never depends on that.
package enum HTMLTokenizer {
    /// Calls `visit` for every token of `bytes`, in order.
    package static func tokenize(_ bytes: [UInt8], _ visit: (HTMLToken) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            reader.run(visit)
        }
    }

    /// Elements whose content is raw text up to their end tag.
    package static let rawTextElements: Set<String> = [
        "script", "style", "textarea", "title", "iframe", "xmp", "noembed", "noframes", "noscript",
    ]

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// Where the text not yet visited starts.
        var textStart = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func run(_ visit: (HTMLToken) -> Void) {
            let count = bytes.count
            while position < count {
                guard let open = next(UInt8(ascii: "<"), from: position) else { break }
                position = open
                let next = open + 1 < count ? bytes[open + 1] : nil
                if let next, next.isASCIILetter {
                    guard let tag = emitTag(at: open, end: false, visit) else { break }
                    if tag.name == "plaintext" {
                        visit(HTMLToken(kind: .rawText, range: position..<count))
                        textStart = count
                        position = count
                    } else if HTMLTokenizer.rawTextElements.contains(tag.name) {
                        let end = bytes.rawTextEnd(of: tag.name.utf8, from: position) ?? count
                        if end > position { visit(HTMLToken(kind: .rawText, range: position..<end)) }
                        position = end
                        textStart = end
                    }
                } else if next == UInt8(ascii: "/") {
                    let after = open + 2 < count ? bytes[open + 2] : nil
                    if let after, after.isASCIILetter {
                        guard emitTag(at: open, end: true, visit) != nil else { break }
                    } else if after == UInt8(ascii: ">") {
                        flushText(upTo: open, visit)  // `</>` is nothing
                        position = open + 3
                        textStart = position
                    } else if after == nil {
                        position = count  // `</` at the end is text
                    } else {
                        comment(from: open, bodyStart: open + 2, visit)
                    }
                } else if next == UInt8(ascii: "!") {
                    if starts(with: "<!--", at: open) {
                        commentBlock(from: open, visit)
                    } else {
                        comment(from: open, bodyStart: open + 2, visit)
                    }
                } else if next == UInt8(ascii: "?") {
                    comment(from: open, bodyStart: open + 1, visit)
                } else {
                    position = open + 1  // a `<` in text
                }
            }
            flushText(upTo: count, visit)
        }

        /// Visits the text before the tag at `start`, then the tag, and returns it; nil when the
        /// text ends inside the tag: browsers drop it, and nothing is left to read.
        private mutating func emitTag(at start: Int, end: Bool, _ visit: (HTMLToken) -> Void) -> HTMLToken? {
            let tag = tag(at: start, end: end)
            flushText(upTo: start, visit)
            guard let tag else {
                textStart = bytes.count
                position = bytes.count
                return nil
            }
            visit(tag)
            textStart = position
            return tag
        }

        /// Visits the text from `textStart` up to `end`, if any.
        private mutating func flushText(upTo end: Int, _ visit: (HTMLToken) -> Void) {
            if end > textStart { visit(HTMLToken(kind: .text, range: textStart..<end)) }
            textStart = end
        }

        /// A bogus comment (or a doctype): up to the next `>`, or the end.
        private mutating func comment(from start: Int, bodyStart: Int, _ visit: (HTMLToken) -> Void) {
            flushText(upTo: start, visit)
            let close = next(UInt8(ascii: ">"), from: bodyStart)
            position = close.map { $0 + 1 } ?? bytes.count
            visit(HTMLToken(kind: .comment, range: start..<position))
            textStart = position
        }

        /// A `<!--` comment: up to `-->` or `--!>`; `<!-->` and `<!--->` end at once.
        private mutating func commentBlock(from start: Int, _ visit: (HTMLToken) -> Void) {
            flushText(upTo: start, visit)
            var index = start + 4
            if starts(with: ">", at: index) {
                index += 1
            } else if starts(with: "->", at: index) {
                index += 2
            } else {
                var found: Int?
                var search = index
                while let dash = next(UInt8(ascii: "-"), from: search) {
                    if starts(with: "-->", at: dash) { found = dash + 3; break }
                    if starts(with: "--!>", at: dash) { found = dash + 4; break }
                    search = dash + 1
                }
                index = found ?? bytes.count
            }
            position = index
            visit(HTMLToken(kind: .comment, range: start..<index))
            textStart = index
        }

        /// The start or end tag at `start` (its `<`), with `position` moved past it; nil when
        /// the text ends inside it.
        private mutating func tag(at start: Int, end: Bool) -> HTMLToken? {
            var index = start + (end ? 2 : 1)
            let nameStart = index
            while index < bytes.count, !bytes[index].isTagSpace, bytes[index] != UInt8(ascii: "/"),
                  bytes[index] != UInt8(ascii: ">") { index += 1 }
            var token = HTMLToken(kind: end ? .endTag : .startTag, range: start..<start, name: lowercased(nameStart..<index))
            // Names seen, to keep the first of each: looked through while few, hashed past that.
            var names: Set<String>?
            while true {
                // Before an attribute's name.
                while index < bytes.count, bytes[index].isTagSpace { index += 1 }
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") { index += 1; break }
                if byte == UInt8(ascii: "/") {
                    index += 1
                    if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
                        token.selfClosing = true
                        index += 1
                        break
                    }
                    continue
                }
                // The name: a first `=` belongs to it.
                let attributeStart = index
                index += 1
                while index < bytes.count, !bytes[index].isTagSpace, bytes[index] != UInt8(ascii: "/"),
                      bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "=") { index += 1 }
                let name = lowercased(attributeStart..<index)
                var value: Range<Int>?
                var afterName = index
                while afterName < bytes.count, bytes[afterName].isTagSpace { afterName += 1 }
                guard afterName < bytes.count else { return nil }
                if bytes[afterName] == UInt8(ascii: "=") {
                    index = afterName + 1
                    while index < bytes.count, bytes[index].isTagSpace { index += 1 }
                    guard index < bytes.count else { return nil }
                    let quote = bytes[index]
                    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                        guard let close = next(quote, from: index + 1) else { return nil }
                        value = (index + 1)..<close
                        index = close + 1
                    } else if quote == UInt8(ascii: ">") {
                        value = index..<index  // `name=>`: an empty value, and the tag ends
                    } else {
                        let valueStart = index
                        while index < bytes.count, !bytes[index].isTagSpace, bytes[index] != UInt8(ascii: ">") { index += 1 }
                        guard index < bytes.count else { return nil }
                        value = valueStart..<index
                    }
                }
                if names == nil, token.attributes.count >= 8 { names = Set(token.attributes.map(\.name)) }
                let isNew = names?.insert(name).inserted ?? !token.attributes.contains { $0.name == name }
                if isNew {
                    token.attributes.append(HTMLTokenAttribute(name: name, value: value, range: attributeStart..<index))
                }
            }
            position = index
            token.range = start..<index
            if end {
                token.attributes = []
                token.selfClosing = false
            }
            return token
        }

        private func starts(with prefix: StaticString, at index: Int) -> Bool {
            let length = prefix.utf8CodeUnitCount
            guard index + length <= bytes.count else { return false }
            for offset in 0..<length where bytes[index + offset] != prefix.utf8Start[offset] { return false }
            return true
        }

        /// The bytes in `range` as text, ASCII letters lower-cased (names mostly are already).
        private func lowercased(_ range: Range<Int>) -> String {
            let slice = bytes[range]
            guard slice.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                return String(decoding: slice, as: UTF8.self)
            }
            return String(decoding: slice.map { $0.asciiLowercased }, as: UTF8.self)
        }

        /// The index of the first `byte` at or after `start`.
        private func next(_ byte: UInt8, from start: Int) -> Int? {
            ByteSearch.firstIndex(of: byte, in: bytes, from: start)
        }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Where the end tag of raw text element `name` starts at or after `start`, as browsers find it: `</name`
    /// in any case, then a space, `/` or `>`. Shared by ``HTMLTokenizer`` and ``HTMLAttributes``' walker.
    func rawTextEnd(of name: some Collection<UInt8>, from start: Int) -> Int? {
        guard let base = baseAddress else { return nil }
        var index = start
        while index < count, let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index) {
            let open = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let nameEnd = open + 2 + name.count
            if nameEnd < count, self[open + 1] == UInt8(ascii: "/"),
               zip(self[(open + 2)..<nameEnd], name).allSatisfy({ $0.asciiLowercased == $1.asciiLowercased }),
               self[nameEnd].isTagSpace || self[nameEnd] == UInt8(ascii: "/") || self[nameEnd] == UInt8(ascii: ">") {
                return open
            }
            index = open + 1
        }
        return nil
    }
}

private extension UInt8 {
    var isASCIILetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    /// Tab, line feed, form feed, carriage return (a line end before browsers normalise it) and space.
    var isTagSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    var asciiLowercased: UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self }
}
