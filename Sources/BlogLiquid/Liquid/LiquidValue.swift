import BlogContent
import BlogCore
import Foundation

/// A value as Liquid sees it: what a post's header, blog.yml's `params:`, a Jekyll `_config.yml`
/// or `_data/` file holds (as it was read: YAML timestamps, kept as text by the header reader, stay
/// text, which the `date` filter reads), and what filters make of them.
extension MetaValue {
    /// Liquid's truth: only `nil` and `false` are false (`""`, `0` and `[]` are true).
    var isTruthy: Bool {
        switch self {
        case .null, .bool(false): return false
        default: return true
        }
    }

    /// Liquid's `empty`: an empty string, list or map.
    var isEmpty: Bool {
        switch self {
        case .string(let s): return s.isEmpty
        case .list(let a): return a.isEmpty
        case .map(let m): return m.isEmpty
        default: return false
        }
    }

    /// Liquid's `blank`: nil, false, empty, or only whitespace.
    var isBlank: Bool {
        switch self {
        case .null, .bool(false): return true
        case .string(let s): return s.allSatisfy(\.isWhitespace)
        default: return isEmpty
        }
    }

    /// The number in the value (a number, or text that reads as one).
    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// `number` as a whole number, clamped to ±10^15 (NaN is 0): `Int(_:)` of a larger number traps, and
    /// a post may write `limit: 99999999999999999999`.
    static func whole(_ number: Double) -> Int {
        number.isNaN ? 0 : Int(max(-1e15, min(1e15, number)))
    }

    /// The value as a list: a list as it is, a map as its `[key, value]` pairs, nil as no items,
    /// anything else as a list of itself (Liquid's `for` and array filters).
    var items: [MetaValue] {
        switch self {
        case .list(let a): return a
        case .null: return []
        case .map(let m): return m.sorted { $0.key < $1.key }.map { .list([.string($0.key), $0.value]) }
        default: return [self]
        }
    }

    /// What reading or making the value costs a body's budget (``LiquidEvaluator/budget(forBody:)``): the bytes
    /// of its texts, and one for each value, through its lists and maps (keys' bytes too). Counted only as far as
    /// just past `limit`, so that weighing a value costs no more than the weight allowed.
    func weight(upTo limit: Int) -> Int {
        switch self {
        case .string(let s):
            return 1 + s.utf8.count
        case .list(let a):
            var total = 1
            for item in a {
                if total > limit { break }
                total += item.weight(upTo: limit - total)
            }
            return total
        case .map(let m):
            var total = 1
            for (key, value) in m {
                if total > limit { break }
                total += key.utf8.count + value.weight(upTo: limit - total)
            }
            return total
        default:
            return 1
        }
    }

    /// The value as output writes it: nil as nothing, a list as its items run together, numbers and
    /// dates as Ruby prints them.
    func text(timeZone: TimeZone) -> String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) + ".0" }
            return String(d)
        case .string(let s): return s
        case .date(let d): return DateFormat.format(d, pattern: "%Y-%m-%d %H:%M:%S %z", timeZone: timeZone)
        case .list(let a): return a.map { $0.text(timeZone: timeZone) }.joined()
        case .map(let m):
            return "{" + m.sorted { $0.key < $1.key }.map { "\"\($0.key)\"=>\($0.value.text(timeZone: timeZone))" }
                .joined(separator: ", ") + "}"
        }
    }

    /// `self[key]`: a map's entry, a list's item (negative from the end), and `size`, `first`,
    /// `last` of lists and text as Liquid has them; nil when there is none.
    func member(_ key: MetaValue) -> MetaValue? {
        switch (self, key) {
        case (.map(let m), .string(let k)):
            if let value = m[k] { return value }
            return k == "size" ? .int(m.count) : nil
        case (.list(let a), .int(let i)):
            let index = i < 0 ? a.count + i : i
            return a.indices.contains(index) ? a[index] : nil
        case (.list(let a), .string(let k)):
            switch k {
            case "size": return .int(a.count)
            case "first": return a.first
            case "last": return a.last
            default: return nil
            }
        case (.string(let s), .string("size")):
            return .int(s.count)
        default:
            return nil
        }
    }

    /// Liquid's `==`: numbers by value, `empty` and `blank` as they say, else equal values.
    static func equal(_ a: MetaValue, _ b: MetaValue) -> Bool {
        if let x = a.number, let y = b.number, a.isNumeric, b.isNumeric { return x == y }
        return a == b
    }

    /// Whether the value is a number (not text that reads as one).
    var isNumeric: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }

    /// Liquid's `<`: numbers with numbers, text with text; nil for anything else (false either way).
    static func less(_ a: MetaValue, _ b: MetaValue) -> Bool? {
        if a.isNumeric, b.isNumeric, let x = a.number, let y = b.number { return x < y }
        if case .string(let x) = a, case .string(let y) = b { return x < y }
        if case .date(let x) = a, case .date(let y) = b { return x < y }
        return nil
    }
}
