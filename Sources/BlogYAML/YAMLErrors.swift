import BlogCore
import Yams

/// Turns Yams' parse errors into diagnostics with a line and column.
package enum YAMLErrors {
    /// - Parameter lineOffset: lines before the YAML text in its file (for front matter).
    package static func diagnostic(for error: YamlError, path: String, lineOffset: Int) -> Diagnostic {
        switch error {
        case let .scanner(context, problem, mark, _):
            return .error(path, line: mark.line + lineOffset, column: mark.column,
                          "invalid YAML: \(problem)\(context.map { " \($0.text)" } ?? "")")
        case let .parser(context, problem, mark, _):
            return .error(path, line: mark.line + lineOffset, column: mark.column,
                          "invalid YAML: \(problem)\(context.map { " \($0.text)" } ?? "")")
        case let .composer(context, problem, mark, _):
            return .error(path, line: mark.line + lineOffset, column: mark.column,
                          "invalid YAML: \(problem)\(context.map { " \($0.text)" } ?? "")")
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams' own text of this error quotes the whole mapping; the place and the keys say it all.
            let keys = duplicates.sorted().map { "`\($0)`" }.joined(separator: ", ")
            return .error(path, line: context.mark.line + lineOffset, column: context.mark.column,
                          "invalid YAML: \(duplicates.count == 1 ? "the key" : "the keys") \(keys) \(duplicates.count == 1 ? "is" : "are") set here and again later in this mapping; keep one")
        default:
            return .error(path, line: 1 + lineOffset, column: 1, "invalid YAML: \(error)")
        }
    }
}
