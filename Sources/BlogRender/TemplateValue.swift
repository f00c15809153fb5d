import BlogCore
import Foundation

/// Post header values as the plain Swift values templates read.
enum TemplateValue {
    /// Every non-null value of `meta`.
    static func map(_ meta: [String: MetaValue], timeZone: TimeZone) -> [String: Any] {
        // At its final size at once (`compactMapValues` grows it key by key).
        var values = [String: Any](minimumCapacity: meta.count)
        for (key, meta) in meta {
            values.setIfPresent(key, value(of: meta, timeZone: timeZone))
        }
        return values
    }

    /// Strings, numbers and booleans as they are, dates in ISO 8601 in the site's zone, lists and
    /// maps converted inside; nil for null.
    static func value(of meta: MetaValue, timeZone: TimeZone) -> Any? {
        switch meta {
        case .string(let s): return s
        case .int(let i): return i
        case .double(let d): return d
        case .bool(let b): return b
        case .date(let d): return DateText.iso8601(d, timeZone: timeZone)
        case .list(let items): return items.compactMap { value(of: $0, timeZone: timeZone) }
        case .map(let entries): return map(entries, timeZone: timeZone)
        case .null: return nil
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// Sets `key` only when there is a value: a missing key is false in a Mustache section,
    /// where an empty string or an optional would be true.
    mutating func setIfPresent(_ key: String, _ value: Any?) {
        if let value { self[key] = value }
    }
}
