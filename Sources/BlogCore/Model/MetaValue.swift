import Foundation

/// A value from a post's header or a YAML file (blog.yml's `params:`, a Jekyll `_config.yml` or `_data/` file),
/// kept as it was written so templates can use any key: the one model of such a value. Liquid reads it as it
/// is (BlogLiquid's `MetaValue` extension), templates through one conversion (BlogRender's `TemplateValue`).
package enum MetaValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case list([MetaValue])
    case map([String: MetaValue])
    case null

    /// The value as text, when it is a scalar; a date in ISO 8601 in UTC (``DateText/iso8601(_:timeZone:)``), as
    /// header values are read before the site's zone applies to them.
    package var text: String? {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return DateText.iso8601(d, timeZone: Self.utc)
        case .list, .map, .null: return nil
        }
    }

    private static let utc = TimeZone(secondsFromGMT: 0)!
}
