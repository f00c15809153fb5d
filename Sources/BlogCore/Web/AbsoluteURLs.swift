import Foundation

/// Absolute addresses for what is read away from the site (feeds, the sitemap): a page's URL
/// from `base_url`, and HTML whose links are made absolute against a post's permalink.
///
/// A feed reader or a crawler has no page to resolve a relative link against, so every link it
/// gets must be absolute. That needs `base_url` to be a full address (`https://example.org/blog/`);
/// when it is only a path (`/blog/`), the path is used as it is and ``Feeds/warnings(config:path:)``
/// says so.
package enum AbsoluteURLs {
    /// `reference` resolved against `base` as a browser would (RFC 3986, section 5.2):
    /// `images/a.png`, `../a`, `/a` and `#a` become addresses under `base`'s origin; a reference
    /// with a scheme (`https:`, `mailto:`, `data:`) or a host (`//cdn.example.org/a`) is returned
    /// unchanged. `base` is an absolute URL, or a path starting with `/` (then results are paths).
    package static func resolve(_ reference: String, against base: String) -> String {
        let trimmed = reference.trimmingWhitespacesAndNewlines()
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

    /// The path under `basePath` (`/` or `/blog/`) that `reference` leads to when it is seen on the page at
    /// `page` (a path under `basePath`: `posts/x/`, `posts/x/index.html`), resolved as a browser resolves it
    /// (``resolve(_:against:)``), with its query and fragment apart: `../a/?q` on `posts/x/` is (`posts/a/`,
    /// `?q`). Nil for a URL with a scheme or a host, a fragment or query alone, and a path outside
    /// `basePath`. The path is as written (not percent-decoded).
    package static func sitePath(_ reference: String, page: String, basePath: String) -> (path: Substring, suffix: Substring)? {
        guard let first = reference.first, first != "#", first != "?" else { return nil }
        let resolved = resolve(reference, against: basePath + page)
        guard resolved.hasPrefix("/"), !resolved.hasPrefix("//") else { return nil }
        let suffixStart = resolved.firstIndex { $0 == "?" || $0 == "#" } ?? resolved.endIndex
        let path = resolved[..<suffixStart], suffix = resolved[suffixStart...]
        if path.hasPrefix(basePath) { return (path.dropFirst(basePath.count), suffix) }
        return path + "/" == basePath ? ("", suffix) : nil
    }

    /// `html` with the URL in every `href`, `src`, `srcset` and `poster` attribute resolved against
    /// `base` (see ``resolve(_:against:)``).
    ///
    /// The HTML is scanned tag by tag, not searched with a pattern: text is never changed, nor are
    /// comments, the content of `<script>`, `<style>`, `<textarea>` and `<title>`, or anything inside
    /// `<pre>` and `<code>` (where code samples show HTML as it is written).
    ///
    /// HTML whose URL attributes are all absolute already (every link of most posts) is returned as it is after a look
    /// at each `=` (``mayHaveRelativeURL(_:)``), without the walk over its tags (~400 instructions a tag).
    package static func rewrite(html: String, base: String) -> String {
        guard mayHaveRelativeURL(html) else { return html }
        return HTMLAttributes.rewriteURLs(in: html) { value in
            value.isSrcset ? resolveSrcset(value.text, against: base) : resolve(value.text, against: base)
        }
    }

    /// False when no value ``rewrite(html:base:)`` hands to ``resolve(_:against:)`` can change: every `=` of `html`
    /// (each attribute value follows one, after spaces) that comes after a name ending in `href`, `src` or `poster`
    /// (any case) is followed, after spaces and a quote, by a scheme (`https:`, `mailto:`) or `//`, which
    /// ``resolve(_:against:)`` returns as written; and no such name ends in `srcset`. It reads the bytes, not the tags, so
    /// it may say true of HTML the walk leaves alone (an `href=` in text or code), never false of HTML it changes.
    static func mayHaveRelativeURL(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { bytes in
            let count = bytes.count
            var from = 0
            while let equals = ByteSearch.firstIndex(of: UInt8(ascii: "="), in: bytes, from: from) {
                from = equals + 1
                var nameEnd = equals
                while nameEnd > 0, isHTMLSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
                if endsWithLowercased(bytes, nameEnd, "srcset") { return true }
                guard endsWithLowercased(bytes, nameEnd, "href") || endsWithLowercased(bytes, nameEnd, "src")
                        || endsWithLowercased(bytes, nameEnd, "poster") else { continue }
                var start = equals + 1
                while start < count, isHTMLSpace(bytes[start]) { start += 1 }
                if start < count, bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'") { start += 1 }
                if !startsWithSchemeOrHost(bytes, start) { return true }
            }
            return false
        }
    }

    /// The spaces HTML allows around an attribute's `=`: space, tab, line feed, form feed, carriage return.
    private static func isHTMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Whether the bytes just before `end` are `suffix` (lower-case letters), in any case.
    private static func endsWithLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int, _ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard end >= length else { return false }
        let expected = suffix.utf8Start, start = end - length
        for offset in 0..<length where bytes[start + offset] | 0x20 != expected[offset] { return false }
        return true
    }

    /// Whether the bytes at `start` begin with `//` or a scheme (a letter, then letters, digits, `+`, `-`, `.`, then
    /// `:`), as ``hasScheme(_:)`` reads it.
    private static func startsWithSchemeOrHost(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        let count = bytes.count
        guard start < count else { return false }
        if bytes[start] == UInt8(ascii: "/") { return start + 1 < count && bytes[start + 1] == UInt8(ascii: "/") }
        guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[start] | 0x20) else { return false }
        var index = start + 1
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return true }
            let lower = byte | 0x20
            guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return false }
            index += 1
        }
        return false
    }

    /// The `srcset` value with the URL of each candidate resolved; descriptors (`2x`, `480w`) and
    /// separators are kept as written.
    static func resolveSrcset(_ value: String, against base: String) -> String {
        mapSrcset(value) { resolve($0, against: base) }
    }

    /// The `srcset` value with the URL of each candidate replaced by `transform(url)`, in order.
    package static func mapSrcset(_ value: String, _ transform: (String) -> String) -> String {
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
            out += transform(String(url)) + commas
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
    package static func hasScheme(_ reference: String) -> Bool {
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

    /// `.` and `..` segments of an absolute path applied; `..` never climbs above the root.
    static func removeDotSegments(_ path: String) -> String {
        PathSafety.removingDotSegments(path.split(separator: "/", omittingEmptySubsequences: false), kept: 1).segments.joined(separator: "/")
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
