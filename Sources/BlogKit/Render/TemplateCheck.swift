import Foundation
import Mustache

/// Checks of a theme's templates that make mistakes fail the build instead of rendering empty pages.
enum TemplateCheck {
    /// What swift-mustache's parser error means, as "what was expected".
    static func describe(_ error: Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect?: return "this end tag does not close the section that is open"
        case .unfinishedName?: return "unfinished tag: expected a name and then `}}`"
        case .expectedSectionEnd?: return "unclosed section: expected its end tag `{{/name}}` before the end of the file"
        case .invalidSetDelimiter?: return "invalid set-delimiter tag: expected `{{=<% %>=}}`"
        case .transformAppliedToInheritanceSection?: return "a transform cannot apply to a parent or block tag"
        case .illegalTokenInsideInheritSection?: return "only blocks `{{$name}}...{{/name}}` may be inside a parent tag `{{<name}}`"
        case .textInsideInheritSection?: return "only blocks `{{$name}}...{{/name}}` may be inside a parent tag `{{<name}}`, not text"
        case .invalidConfigVariableSyntax?: return "invalid pragma: expected `{{% NAME: value}}`"
        case .unrecognisedConfigVariable?: return "unknown pragma: expected CONTENT_TYPE"
        case nil: return "invalid template: \(error)"
        }
    }

    /// An error for every partial (`{{>name}}`) or parent (`{{<name}}`) that `exists` doesn't know:
    /// Mustache would render nothing in its place. Dynamic names (`{{>*name}}`) can't be checked,
    /// and nothing is checked after a set-delimiter tag.
    static func unknownPartials(in text: String, path: String, exists: (String) -> Bool) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let open = rest.range(of: "{{") {
                let tag = rest[open.upperBound...]
                guard let close = tag.range(of: "}}") else { break }
                rest = tag[close.upperBound...]
                let inside = tag[..<close.lowerBound]
                if inside.first == "=" { return diagnostics }
                guard inside.first == ">" || inside.first == "<" else { continue }
                let name = inside.dropFirst().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("*") || exists(name) { continue }
                diagnostics.append(.error(path, line: lineIndex + 1, column: line.distance(from: line.startIndex, to: open.lowerBound) + 1,
                                          "unknown partial \"\(name)\": expected a template templates/\(name).mustache"))
            }
        }
        return diagnostics
    }
}
