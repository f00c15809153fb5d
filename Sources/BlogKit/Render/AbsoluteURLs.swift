import Foundation

/// Absolute addresses for what is read away from the site (feeds, the sitemap): a page's URL
/// from `base_url`, and HTML whose links are made absolute against a post's permalink.
///
/// A feed reader or a crawler has no page to resolve a relative link against, so every link it
/// gets must be absolute. That needs `base_url` to be a full address (`https://example.org/blog/`);
/// when it is only a path (`/blog/`), the path is used as it is and ``Feeds/warnings(config:path:)``
/// says so.
public enum AbsoluteURLs {
    /// Whether `base_url` is a full `http(s)` address rather than only a path.
    public static func isAbsolute(_ config: SiteConfig) -> Bool {
        SiteLinks(config: config).absoluteBase != nil
    }

    /// The address of a site-relative URL (`posts/x/`): `https://example.org/blog/posts/x/`, or
    /// `/blog/posts/x/` when `base_url` is a path. Characters not allowed in a URL are percent-encoded.
    public static func url(_ siteRelative: String, config: SiteConfig) -> String {
        let links = SiteLinks(config: config)
        return links.absolute(siteRelative) ?? links.href(siteRelative)
    }

    /// `reference` resolved against `base` as a browser would (RFC 3986, section 5.2):
    /// `images/a.png`, `../a`, `/a` and `#a` become addresses under `base`'s origin; a reference
    /// with a scheme (`https:`, `mailto:`, `data:`) or a host (`//cdn.example.org/a`) is returned
    /// unchanged. `base` is an absolute URL, or a path starting with `/` (then results are paths).
    public static func resolve(_ reference: String, against base: String) -> String {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        if hasScheme(trimmed) || trimmed.hasPrefix("//") { return reference }
        let (origin, basePath, baseQuery) = split(base)
        if trimmed.isEmpty { return origin + basePath + baseQuery }
        switch trimmed.first {
        case "#": return origin + basePath + baseQuery + trimmed
        case "?": return origin + basePath + trimmed
        default: break
        }
        let suffixStart = trimmed.firstIndex { $0 == "?" || $0 == "#" } ?? trimmed.endIndex
        let path = trimmed[..<suffixStart]
        let suffix = trimmed[suffixStart...]
        let merged: String
        if path.hasPrefix("/") {
            merged = String(path)
        } else {
            let directory = basePath.lastIndex(of: "/").map { basePath[...$0] } ?? "/"
            merged = String(directory) + path
        }
        return origin + removeDotSegments(merged) + suffix
    }

    /// `html` with the URL in every `href`, `src`, `srcset` and `poster` attribute resolved against
    /// `base` (see ``resolve(_:against:)``).
    ///
    /// The HTML is scanned tag by tag, not searched with a pattern: text is never changed, nor are
    /// comments, the content of `<script>`, `<style>`, `<textarea>` and `<title>`, or anything inside
    /// `<pre>` and `<code>` (where code samples show HTML as it is written).
    public static func rewrite(html: String, base: String) -> String {
        var scanner = TagScanner(html: html, base: base)
        return scanner.run()
    }

    /// The `srcset` value with the URL of each candidate resolved; descriptors (`2x`, `480w`) and
    /// separators are kept as written.
    static func resolveSrcset(_ value: String, against base: String) -> String {
        var out = ""
        var rest = Substring(value)
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }
        while !rest.isEmpty {
            let separators = rest.prefix { isSpace($0) || $0 == "," }
            out += separators
            rest = rest.dropFirst(separators.count)
            guard !rest.isEmpty else { break }
            var url = rest.prefix { !isSpace($0) }
            rest = rest.dropFirst(url.count)
            var commas = ""
            while url.hasSuffix(",") { url = url.dropLast(); commas += "," }
            out += resolve(String(url), against: base) + commas
            if !commas.isEmpty { continue }  // a trailing comma ends a candidate without descriptors
            var depth = 0
            let descriptors = rest.prefix { c in
                if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
                return !(c == "," && depth <= 0)
            }
            out += descriptors
            rest = rest.dropFirst(descriptors.count)
        }
        return out
    }

    /// `scheme:` at the start: a letter, then letters, digits, `+`, `-`, `.`, then `:`.
    static func hasScheme(_ reference: String) -> Bool {
        guard let first = reference.unicodeScalars.first, first.isASCIILetter else { return false }
        for scalar in reference.unicodeScalars.dropFirst() {
            if scalar == ":" { return true }
            if !(scalar.isASCIILetter || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == ".") {
                return false
            }
        }
        return false
    }

    /// `https://example.org/a/b?q#f` -> (`https://example.org`, `/a/b`, `?q`); a path base has no origin.
    private static func split(_ base: String) -> (origin: String, path: String, query: String) {
        var rest = Substring(base)
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        var origin: Substring = ""
        if hasScheme(base), let separator = rest.range(of: "://") {
            let authorityEnd = rest[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            origin = rest[..<authorityEnd]
            rest = rest[authorityEnd...]
        }
        let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
        let path = rest[..<queryStart]
        return (String(origin), path.isEmpty ? "/" : String(path), String(rest[queryStart...]))
    }

    /// `.` and `..` segments of an absolute path applied (RFC 3986, section 5.2.4); `..` never
    /// climbs above the root.
    static func removeDotSegments(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment == "." || segment == ".." {
                if segment == "..", output.count > 1 { output.removeLast() }
                if isLast { output.append("") }  // `a/..` is the folder `/`, not the file
            } else {
                output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// One pass over HTML, copying it to the output and rewriting URL attributes of start tags.
private struct TagScanner {
    /// Attributes that hold one URL, and the one that holds a list of them.
    static let urlAttributes: Set<String> = ["href", "src", "poster"]
    static let listAttribute = "srcset"
    /// Elements whose content is code, left exactly as written.
    static let codeElements: Set<String> = ["pre", "code"]
    /// Elements whose content is raw text, not markup.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    let bytes: [UInt8]
    let base: String
    var out: [UInt8] = []
    var position = 0
    /// How many `<pre>`/`<code>` elements are open around the current position.
    var codeDepth = 0

    init(html: String, base: String) {
        bytes = Array(html.utf8)
        self.base = base
        out.reserveCapacity(bytes.count + bytes.count / 8)
    }

    mutating func run() -> String {
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                copy(upTo: bytes[position...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count)
            } else if starts(with: "<!--") {
                copy(upTo: end(of: "-->", from: position + 4))
            } else if starts(with: "<!") || starts(with: "<?") {
                copy(upTo: end(of: ">", from: position + 2))
            } else if starts(with: "</"), position + 2 < bytes.count, bytes[position + 2].isLetter {
                let name = tagName(from: position + 2)
                if Self.codeElements.contains(name) { codeDepth = max(0, codeDepth - 1) }
                copy(upTo: end(of: ">", from: position + 2))
            } else if position + 1 < bytes.count, bytes[position + 1].isLetter {
                startTag()
            } else {
                copy(upTo: position + 1)  // a lone `<` in text
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Copies a start tag, rewriting its URL attributes, then skips raw text after it.
    private mutating func startTag() {
        let name = tagName(from: position + 1)
        copy(upTo: position + 1 + name.utf8.count)
        var selfClosing = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte.isSpace || byte == UInt8(ascii: "/") {
                selfClosing = byte == UInt8(ascii: "/")
                copy(upTo: position + 1)
                continue
            }
            if byte == UInt8(ascii: ">") {
                copy(upTo: position + 1)
                break
            }
            selfClosing = false
            attribute()
        }
        if Self.codeElements.contains(name), !selfClosing { codeDepth += 1 }
        if Self.rawTextElements.contains(name) {
            copy(upTo: closingTag(of: name) ?? bytes.count)
        }
    }

    /// Copies one attribute (`name`, `name=value`, `name="value"`), rewriting the value when it holds URLs.
    private mutating func attribute() {
        let nameStart = position
        var nameEnd = position + 1  // a first `=` belongs to the name, as in browsers
        while nameEnd < bytes.count, !bytes[nameEnd].isSpace, !"/>=".utf8.contains(bytes[nameEnd]) { nameEnd += 1 }
        let name = String(decoding: bytes[nameStart..<nameEnd].map(\.lowercased), as: UTF8.self)
        copy(upTo: nameEnd)
        var equals = position
        while equals < bytes.count, bytes[equals].isSpace { equals += 1 }
        guard equals < bytes.count, bytes[equals] == UInt8(ascii: "=") else { return }
        copy(upTo: equals + 1)
        while position < bytes.count, bytes[position].isSpace { copy(upTo: position + 1) }
        guard position < bytes.count else { return }

        let quote = bytes[position]
        let quoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
        let valueStart: Int, valueEnd: Int
        if quoted {
            valueStart = position + 1
            guard let close = bytes[valueStart...].firstIndex(of: quote) else {
                copy(upTo: bytes.count)  // unterminated: leave the rest as it is
                return
            }
            valueEnd = close
        } else {
            valueStart = position
            var end = position
            while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: ">") { end += 1 }
            valueEnd = end
        }
        copy(upTo: valueStart)
        let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
        if codeDepth == 0, Self.urlAttributes.contains(name) {
            out += AbsoluteURLs.resolve(value, against: base).utf8
        } else if codeDepth == 0, name == Self.listAttribute {
            out += AbsoluteURLs.resolveSrcset(value, against: base).utf8
        } else {
            out += bytes[valueStart..<valueEnd]
        }
        position = valueEnd
        if quoted { copy(upTo: position + 1) }  // the closing quote
    }

    /// The lower-cased tag name starting at `start`.
    private func tagName(from start: Int) -> String {
        var end = start
        while end < bytes.count, !bytes[end].isSpace, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: ">") { end += 1 }
        return String(decoding: bytes[start..<end].map(\.lowercased), as: UTF8.self)
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

    private mutating func copy(upTo end: Int) {
        out += bytes[position..<end]
        position = end
    }
}

private extension UInt8 {
    var isLetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
    var isSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    var lowercased: UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self }
}
