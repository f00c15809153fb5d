import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// A new post's header in each form `blog new` writes, with every value quoted or escaped as its form needs, so
/// that any title reads back as it was given.
struct PostHeader {
    var title: String
    var date: Date
    var timeZone: TimeZone
    var tags: [String]
    var category: String?
    var draft: Bool

    /// The header in `form`, up to and including the blank line (or closing fence line) that ends it.
    func text(_ form: NewPostFormat) -> String {
        var lines: [String]
        switch form {
        case .pelican:
            // Pelican splits tags on `;` when the value has one, else on `,`.
            let separator = tags.contains { $0.contains(",") } ? "; " : ", "
            lines = ["Title: \(title)", "Date: \(DateText.minute(date, in: timeZone))"]
            if !tags.isEmpty { lines.append("Tags: " + tags.joined(separator: separator)) }
            if let category { lines.append("Category: \(category)") }
            if draft { lines.append("Status: draft") }
            return lines.joined(separator: "\n") + "\n\n"
        case .yaml, .toml:
            // Both read double-quoted strings, arrays in brackets and RFC 3339 dates alike; they differ in
            // the fence and in how a key meets its value.
            let (fence, assign) = form == .yaml ? ("---", ": ") : ("+++", " = ")
            lines = [fence, "title" + assign + Self.quoted(title), "date" + assign + DateText.iso8601(date, timeZone: timeZone)]
            if !tags.isEmpty { lines.append("tags" + assign + "[" + tags.map(Self.quoted).joined(separator: ", ") + "]") }
            if let category { lines.append("categories" + assign + "[" + Self.quoted(category) + "]") }
            if draft { lines.append("draft" + assign + "true") }
            return (lines + [fence]).joined(separator: "\n") + "\n"
        }
    }

    /// `text` as a double-quoted string, which YAML and TOML read alike: `\` and `"` escaped, control characters as
    /// `\uXXXX`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
