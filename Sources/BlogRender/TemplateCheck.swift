import BlogCore
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
        for tag in TemplateTags.read(text).tags where tag.kind == ">" || tag.kind == "<" {
            let name = tag.name
            if name.hasPrefix("*") || exists(name) { continue }
            let offset = text.utf8.distance(from: text.startIndex, to: tag.range.lowerBound)
            let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: text)
            diagnostics.append(.error(path, line: line, column: column,
                                      "unknown partial \"\(name)\": expected a template templates/\(name).mustache"))
        }
        return diagnostics
    }
}
