import BlogCore
import Foundation
import Yams

/// Turns Yams' parse errors into diagnostics with a line and column.
package enum YAMLErrors {
    /// - Parameter lineOffset: lines before the YAML text in its file (for front matter).
    package static func diagnostic(for error: YamlError, path: String, lineOffset: Int) -> Diagnostic {
        switch error {
        case let .scanner(context, problem, mark, yaml), let .parser(context, problem, mark, yaml),
             let .composer(context, problem, mark, yaml):
            if let context, let (opened, closer) = unclosed(context, mark: mark) {
                // libyaml notices a `[`, `{` or quote left open only where the text ends (at a header's closing
                // `---`): the place to fix is where it opened.
                return .error(path, line: context.mark.line + lineOffset, column: context.mark.column,
                              "invalid YAML: this \(opened) is never closed (still open at line \(mark.line + lineOffset)); add its \(closer)")
            }
            if problem == "mapping values are not allowed in this context", let quoted = quotedLine(yaml, line: mark.line, column: mark.column) {
                return .error(path, line: mark.line + lineOffset, column: mark.column,
                              "invalid YAML: a value with `: ` in it reads as a second key; put the value in quotes: `\(quoted)`")
            }
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

    /// What was left open and what closes it (`` `[` `` and `` `]` ``, a quoted value and its closing quote), when
    /// libyaml's error is about a flow collection or quoted value it was still inside on a later line than where it
    /// began; nil for any other error.
    static func unclosed(_ context: YamlError.Context, mark: Mark) -> (opened: String, closer: String)? {
        guard mark.line > context.mark.line else { return nil }
        switch context.text {
        case "while parsing a flow sequence": return ("`[`", "`]`")
        case "while parsing a flow mapping": return ("`{`", "`}`")
        case "while scanning a quoted scalar": return ("quoted value", "closing quote")
        default: return nil
        }
    }

    /// Line `line` (1-based) of `yaml` with its value quoted, when it is a `key: value` line whose plain value holds
    /// the `: ` libyaml stopped at, at `column` (`title: My first post: a story` → `title: "My first post: a story"`);
    /// nil otherwise (a line whose key itself is the trouble, such as an indented `key:` under a plain value).
    static func quotedLine(_ yaml: String, line: Int, column: Int) -> String? {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        let text = lines[line - 1].hasSuffix("\r") ? lines[line - 1].dropLast() : lines[line - 1]
        let indent = text.prefix { $0 == " " }
        let rest = text.dropFirst(indent.count)
        let listMark = rest.hasPrefix("- ") ? "- " : ""
        let entry = rest.dropFirst(listMark.count)
        guard let colon = entry.range(of: ": ") else { return nil }
        let key = entry[..<colon.lowerBound]
        let value = entry[colon.upperBound...].trimmingWhitespaces()
        let valueColumn = indent.count + listMark.count + key.count + 3
        guard column > valueColumn, !key.isEmpty, !key.contains(" "), !value.isEmpty, let first = value.first,
              !"\"'[{|>&*!".contains(first) else { return nil }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\(indent)\(listMark)\(key): \"\(escaped)\""
    }
}
