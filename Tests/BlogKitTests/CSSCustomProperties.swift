import Foundation

/// The custom properties (`--name: value`) a stylesheet sets, rule by rule: as much of CSS as the
/// theme tests need (comments, `@media` blocks one level deep, rules and their declarations), not
/// a CSS parser.
struct CSSCustomProperties {
    /// One rule: its `@media` condition (nil outside any), its selectors, its custom properties.
    struct Rule {
        var media: String?
        var selectors: [String]
        var properties: [(name: String, value: String)]
    }

    /// The rules in the stylesheet's order.
    private(set) var rules: [Rule] = []

    /// Reads `css`.
    init(_ css: String) {
        var text = css
        while let open = text.range(of: "/*") {
            let close = text.range(of: "*/", range: open.upperBound..<text.endIndex)?.upperBound ?? text.endIndex
            text.removeSubrange(open.lowerBound..<close)
        }
        var rest = Substring(text)
        read(&rest, media: nil)
    }

    /// Reads rules from `rest` up to its end or an unmatched `}` (the end of a `@media` block).
    private mutating func read(_ rest: inout Substring, media: String?) {
        while let brace = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            if rest[brace] == "}" {
                rest = rest[rest.index(after: brace)...]
                return
            }
            let prelude = rest[..<brace].trimmingCharacters(in: .whitespacesAndNewlines)
            rest = rest[rest.index(after: brace)...]
            if prelude.hasPrefix("@media") {
                read(&rest, media: prelude.dropFirst("@media".count).trimmingCharacters(in: .whitespaces))
                continue
            }
            let end = rest.firstIndex(of: "}") ?? rest.endIndex
            let body = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            let properties = body.split(separator: ";").compactMap { declaration -> (String, String)? in
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                guard parts.count == 2, parts[0].hasPrefix("--") else { return nil }
                return (parts[0], parts[1])
            }
            let selectors = prelude.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            rules.append(Rule(media: media, selectors: selectors, properties: properties))
        }
    }

    /// The custom properties every rule for `selector` under exactly `media` sets, later rules winning.
    func properties(selector: String, media: String?) -> [String: String] {
        var values: [String: String] = [:]
        for rule in rules where rule.media == media && rule.selectors.contains(selector) {
            for (name, value) in rule.properties { values[name] = value }
        }
        return values
    }
}
