import BlogContent
import BlogCore
import Foundation

/// A filter the interpreter does not know: the output or tag using it is left as written.
struct LiquidUnknownFilter: Error {
    var name: String
}

/// A value would be more than a body may still spend (``LiquidEvaluator/budget(forBody:)``): the body stops.
struct LiquidTooLong: Error {}

/// Liquid's standard filters and Jekyll's common ones, over plain values.
///
/// Standard: `append`, `prepend`, `capitalize`, `downcase`, `upcase`, `default`, `escape`,
/// `escape_once`, `first`, `last`, `join`, `split`, `size`, `strip`, `lstrip`, `rstrip`, `strip_html`,
/// `strip_newlines`, `newline_to_br`, `replace`, `replace_first`, `remove`, `remove_first`, `slice`,
/// `truncate`, `truncatewords`, `reverse`, `sort`, `uniq`, `compact`, `map`, `plus`, `minus`, `times`,
/// `divided_by`, `modulo`, `abs`, `ceil`, `floor`, `round`, `url_encode`, `date`.
/// Jekyll: `relative_url`, `absolute_url`, `slugify`, `xml_escape`, `cgi_escape`, `uri_escape`,
/// `number_of_words`, `array_to_sentence_string`, `jsonify`, `date_to_xmlschema`, `date_to_string`,
/// `date_to_long_string`.
enum LiquidFilters {
    /// What filters need to know of the site.
    struct Site {
        /// `site.baseurl`: the base path without a trailing slash.
        var baseURL: String
        /// `site.url`: scheme and host.
        var siteURL: String
        /// The zone dates are shown in.
        var timeZone: TimeZone
    }

    /// `input | name: arguments`; throws ``LiquidUnknownFilter`` for a filter not listed above. Most filters make
    /// a few bytes for each byte they read (which the caller has paid for); the ones that can make more (`replace`
    /// and the filters made of it, `join`) throw ``LiquidTooLong`` rather than make a text longer than `limit`.
    static func apply(_ name: String, _ input: MetaValue, _ args: [MetaValue], site: Site, limit: Int = .max) throws -> MetaValue {
        let text = { input.text(timeZone: site.timeZone) }
        func arg(_ i: Int) -> String { i < args.count ? args[i].text(timeZone: site.timeZone) : "" }
        func isInteger(_ value: MetaValue) -> Bool {
            switch value {
            case .int: return true
            case .string(let s): return Int(s.trimmingCharacters(in: .whitespaces)) != nil
            default: return false
            }
        }
        // Only the arithmetic filters ask: trimming a long text (which `split` is often given) costs more than
        // the filter.
        func integers() -> Bool { isInteger(input) && (args.first.map(isInteger) ?? true) }
        func number(_ f: (Double, Double) -> Double) -> MetaValue {
            let result = f(input.number ?? 0, args.first?.number ?? 0)
            return integers() && abs(result) < 9e15 ? .int(Int(result)) : .double(result)
        }
        switch name {
        case "append": return .string(text() + arg(0))
        case "prepend": return .string(arg(0) + text())
        case "capitalize": return .string(text().prefix(1).uppercased() + text().dropFirst())
        case "downcase": return .string(text().lowercased())
        case "upcase": return .string(text().uppercased())
        case "default":
            return input.isTruthy && !input.isEmpty ? input : (args.first ?? .null)
        case "escape", "xml_escape", "h": return .string(Escaping.liquid(text()))
        case "escape_once": return .string(Escaping.liquid(try unescapeHTML(text())))
        case "first": return input.items.first ?? (input.text(timeZone: site.timeZone).first.map { .string(String($0)) } ?? .null)
        case "last": return input.items.last ?? .null
        case "join":
            let separator = args.isEmpty ? " " : arg(0)
            let items = input.items
            // The separator is written between every two items: a long one can make far more than was read.
            let separators = max(0, items.count - 1).multipliedReportingOverflow(by: separator.utf8.count)
            guard !separators.overflow, separators.partialValue <= limit else { throw LiquidTooLong() }
            return .string(items.map { $0.text(timeZone: site.timeZone) }.joined(separator: separator))
        case "split": return .list(split(text(), by: arg(0)).map(MetaValue.string))
        case "size":
            switch input {
            case .string(let s): return .int(s.count)
            case .list(let a): return .int(a.count)
            case .map(let m): return .int(m.count)
            default: return .int(0)
            }
        case "strip": return .string(text().trimmingCharacters(in: .whitespacesAndNewlines))
        case "lstrip": return .string(String(text().drop(while: \.isWhitespace)))
        case "rstrip":
            // From the end, character by character: reversing the whole text took most of a second on 200 kB.
            let text = text()
            var end = text.endIndex
            while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
            return .string(String(text[..<end]))
        case "strip_html": return .string(stripHTML(text()))
        case "strip_newlines": return .string(try replace(try replace(text(), "\r", with: ""), "\n", with: ""))
        case "newline_to_br": return .string(try replace(text(), "\n", with: "<br />\n", maxBytes: limit))
        case "replace": return .string(try replace(text(), arg(0), with: arg(1), maxBytes: limit))
        case "replace_first": return .string(try replace(text(), arg(0), with: arg(1), limit: 1, maxBytes: limit))
        case "remove": return .string(try replace(text(), arg(0), with: ""))
        case "remove_first": return .string(try replace(text(), arg(0), with: "", limit: 1))
        case "slice":
            let start = MetaValue.whole(args.first?.number ?? 0)
            let length = args.count > 1 ? MetaValue.whole(args[1].number ?? 1) : 1
            if case .list(let a) = input {
                let from = start < 0 ? a.count + start : start
                guard from >= 0, from < a.count else { return .list([]) }
                return .list(Array(a[from..<min(a.count, from + max(0, length))]))
            }
            let chars = Array(text())
            let from = start < 0 ? chars.count + start : start
            guard from >= 0, from < chars.count else { return .string("") }
            return .string(String(chars[from..<min(chars.count, from + max(0, length))]))
        case "truncate":
            let length = args.isEmpty ? 50 : MetaValue.whole(args[0].number ?? 50)
            let ellipsis = args.count > 1 ? arg(1) : "..."
            let chars = Array(text())
            guard chars.count > length else { return .string(text()) }
            let keep = max(0, length - ellipsis.count)
            return .string(String(chars[0..<keep]) + ellipsis)
        case "truncatewords":
            let count = max(1, args.isEmpty ? 15 : MetaValue.whole(args[0].number ?? 15))
            let ellipsis = args.count > 1 ? arg(1) : "..."
            let words = text().split(whereSeparator: { $0.isWhitespace })
            guard words.count > count else { return .string(text()) }
            return .string(words.prefix(count).joined(separator: " ") + ellipsis)
        case "reverse": return .list(input.items.reversed())
        case "sort":
            let items = input.items
            if let key = args.first?.text(timeZone: site.timeZone) {
                return .list(items.sorted { (MetaValue.less($0.member(.string(key)) ?? .null, $1.member(.string(key)) ?? .null)) ?? false })
            }
            return .list(items.sorted { MetaValue.less($0, $1) ?? false })
        case "uniq":
            var seen: [MetaValue] = []
            for item in input.items where !seen.contains(item) { seen.append(item) }
            return .list(seen)
        case "compact": return .list(input.items.filter { $0 != .null })
        case "map":
            let key = arg(0)
            return .list(input.items.map { $0.member(.string(key)) ?? .null })
        case "plus": return number(+)
        case "minus": return number(-)
        case "times": return number(*)
        case "divided_by":
            guard let d = args.first?.number, d != 0 else { return .null }
            let whole = integers()
            return number { a, _ in whole ? (a / d).rounded(.down) : a / d }
        case "modulo":
            guard let d = args.first?.number, d != 0 else { return .null }
            return number { a, _ in a - d * (a / d).rounded(.down) }
        case "abs": return input.number.map { $0 == $0.rounded() && abs($0) < 9e15 ? .int(Int(abs($0))) : .double(abs($0)) } ?? .int(0)
        case "ceil": return .int(MetaValue.whole((input.number ?? 0).rounded(.up)))
        case "floor": return .int(MetaValue.whole((input.number ?? 0).rounded(.down)))
        case "round":
            let places = min(15, MetaValue.whole(args.first?.number ?? 0))
            let value = input.number ?? 0
            if places <= 0 { return .int(MetaValue.whole(value.rounded(.toNearestOrAwayFromZero))) }
            let scale = pow(10, Double(places))
            return .double((value * scale).rounded(.toNearestOrAwayFromZero) / scale)
        case "url_encode", "cgi_escape": return .string(formEncode(text()))
        case "uri_escape": return .string(text().addingPercentEncoding(withAllowedCharacters: uriAllowed) ?? text())
        case "slugify": return .string(Slug.jekyll(text()))
        case "number_of_words": return .int(text().split(whereSeparator: { $0.isWhitespace }).count)
        case "array_to_sentence_string":
            let items = input.items.map { $0.text(timeZone: site.timeZone) }
            let connector = args.isEmpty ? "and" : arg(0)
            switch items.count {
            case 0: return .string("")
            case 1: return .string(items[0])
            case 2: return .string("\(items[0]) \(connector) \(items[1])")
            default: return .string(items.dropLast().joined(separator: ", ") + ", \(connector) " + items.last!)
            }
        case "jsonify": return .string(json(input, timeZone: site.timeZone))
        case "relative_url": return .string(relativeURL(text(), site: site))
        case "absolute_url":
            let url = text()
            if hasScheme(url) { return .string(url) }
            return .string(site.siteURL + relativeURL(url, site: site))
        case "date":
            guard let date = date(input, site: site) else { return input }
            let format = arg(0)
            return format.isEmpty ? input : .string(DateFormat.format(date, pattern: format, timeZone: site.timeZone))
        case "date_to_xmlschema":
            return date(input, site: site).map { .string(DateFormat.format($0, pattern: "%Y-%m-%dT%H:%M:%S", timeZone: site.timeZone) + xmlOffset($0, site)) } ?? input
        case "date_to_string":
            return date(input, site: site).map { .string(DateFormat.format($0, pattern: "%d %b %Y", timeZone: site.timeZone)) } ?? input
        case "date_to_long_string":
            return date(input, site: site).map { .string(DateFormat.format($0, pattern: "%d %B %Y", timeZone: site.timeZone)) } ?? input
        default:
            throw LiquidUnknownFilter(name: name)
        }
    }

    // MARK: - Helpers

    /// `text` with each scalar `replacement` gives text for replaced by that text.
    private static func replacingScalars(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let text = replacement(scalar) { out += text } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// The five entities ``Escaping/liquid(_:)`` writes, read back (`&amp;` last).
    private static func unescapeHTML(_ text: String) throws -> String {
        try [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")].reduce(text) { text, entity in
            try replace(text, entity.0, with: entity.1)
        }
    }

    /// Ruby's `String#split` as Liquid calls it, on UTF-8 bytes (see ``BytePattern``): on a single space, runs of
    /// ASCII whitespace; trailing empty items dropped; an empty separator splits into characters.
    static func split(_ text: String, by separator: String) -> [String] {
        guard let pattern = BytePattern(separator) else { return text.map(String.init) }
        var parts = separator == " " ? BytePattern.words(of: text) : pattern.pieces(of: text)
        while parts.last == "" { parts.removeLast() }
        return parts
    }

    /// Ruby's `gsub` (or `sub`, with a `limit` of 1) with a string, on UTF-8 bytes; an empty `target` leaves the
    /// text as it is. Throws ``LiquidTooLong`` rather than make more than `maxBytes` bytes.
    private static func replace(_ text: String, _ target: String, with replacement: String, limit: Int = .max,
                                maxBytes: Int = .max) throws -> String {
        guard let pattern = BytePattern(target) else { return text }
        guard let replaced = pattern.replacing(in: text, with: replacement, limit: limit, maxBytes: maxBytes) else { throw LiquidTooLong() }
        return replaced
    }

    /// Text without tags, comments, and `script`/`style` elements.
    static func stripHTML(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let tail = rest[open...]
            let lower = tail.prefix(8).lowercased()
            var end: String.Index?
            for (opener, closer) in [("<!--", "-->"), ("<script", "</script>"), ("<style", "</style>")] where lower.hasPrefix(opener) {
                end = tail.range(of: closer, options: .caseInsensitive)?.upperBound ?? tail.endIndex
            }
            if end == nil { end = tail.firstIndex(of: ">").map { tail.index(after: $0) } }
            guard let stop = end else {
                out += tail
                return out
            }
            rest = tail[stop...]
        }
        return out + rest
    }

    private static let uriAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.insert(charactersIn: "#[]")
        return set
    }()

    private static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    private static func hasScheme(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return false }
        let scheme = url[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
            && scheme.first!.isLetter
    }

    /// Jekyll's `relative_url`: the base path, then the input with a leading `/`.
    static func relativeURL(_ url: String, site: Site) -> String {
        if hasScheme(url) || url.hasPrefix("//") { return url }
        return site.baseURL + (url.hasPrefix("/") ? url : "/" + url)
    }

    /// The date in a value: a date, seconds since 1970, or text that reads as a date (not `now`:
    /// nothing in the output reads the clock).
    private static func date(_ value: MetaValue, site: Site) -> Date? {
        switch value {
        case .date(let d): return d
        case .int(let seconds): return plausible(seconds)
        case .string(let s):
            if let seconds = Int(s) { return plausible(seconds) }
            return DateParser.instant(s, timeZone: site.timeZone)
        default: return nil
        }
    }

    /// The instant `seconds` after 1970, within about 3,000 years of it (else nil: no calendar sum overflows).
    private static func plausible(_ seconds: Int) -> Date? {
        seconds > -100_000_000_000 && seconds < 100_000_000_000 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil
    }

    private static func xmlOffset(_ date: Date, _ site: Site) -> String {
        DateText.offsetText(CivilTime(date, timeZone: site.timeZone).offset)
    }

    private static func json(_ value: MetaValue, timeZone: TimeZone) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int, .double: return value.text(timeZone: timeZone)
        case .string, .date:
            return "\"" + replacingScalars(value.text(timeZone: timeZone)) { scalar in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return "\\n"
                case "\r": return "\\r"
                case "\t": return "\\t"
                default: return scalar.value < 0x20 ? "\\u" + String(scalar.value, radix: 16).leftPadded(4) : nil
                }
            } + "\""
        case .list(let a): return "[" + a.map { json($0, timeZone: timeZone) }.joined(separator: ",") + "]"
        case .map(let m):
            return "{" + m.sorted { $0.key < $1.key }.map { json(.string($0.key), timeZone: timeZone) + ":" + json($0.value, timeZone: timeZone) }
                .joined(separator: ",") + "}"
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
