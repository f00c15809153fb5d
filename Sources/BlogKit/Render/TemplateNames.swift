import Foundation

/// The names a template's tags use, and the templates it includes (partials) or extends (parents).
struct TemplateNames {
    var names: Set<String> = []
    var references: Set<String> = []
    /// False when the template changes its delimiters or names a partial dynamically.
    var analysable = true

    init(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        let open = Array("{{".utf8)
        func starts(_ pattern: [UInt8], at index: Int) -> Bool {
            index + pattern.count <= bytes.count && Array(bytes[index..<index + pattern.count]) == pattern
        }
        while i + 1 < bytes.count {
            guard bytes[i] == open[0], bytes[i + 1] == open[1] else { i += 1; continue }
            var start = i + 2
            var close = Array("}}".utf8)
            if start < bytes.count, bytes[start] == UInt8(ascii: "{") {
                start += 1
                close = Array("}}}".utf8)
            }
            var end = start
            while end < bytes.count, !starts(close, at: end) { end += 1 }
            guard end < bytes.count else { analysable = false; return }
            let tag = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            i = end + close.count
            guard let sigil = tag.first else { continue }
            switch sigil {
            case "!": continue
            case "=": analysable = false; return
            case ">", "<":
                let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("*") { analysable = false; return }
                references.insert(name)
            case "#", "^", "/", "&", "$":
                addNames(String(tag.dropFirst()))
            default:
                addNames(tag)
            }
        }
    }

    /// Every identifier of an expression such as `post.title` or `empty(tags)`.
    private mutating func addNames(_ expression: String) {
        for part in expression.split(whereSeparator: { "().,| \t\n".contains($0) }) where part != "." {
            names.insert(String(part))
        }
    }
}
