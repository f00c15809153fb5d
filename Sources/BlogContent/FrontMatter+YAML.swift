import BlogYAML
import BlogCore
import Foundation
import Yams

// YAML headers (between `---` lines), and YAML values as ``MetaValue``s.

extension FrontMatterParser {
    static func parseYAML(_ block: String, path: String,
                          lineOffset: Int) throws -> ([String: HeaderField], [String], [Diagnostic]) {
        // Yams refuses a mapping with a repeated key; a repeated header key is only a warning
        // (the last one wins), so earlier top-level copies are renamed before composing.
        let (yaml, renamed) = renameRepeatedTopLevelKeys(block)
        let root: Node?
        do {
            root = try BoundedYAML.compose(yaml, path: path, lineOffset: lineOffset)
        } catch let YamlError.duplicatedKeysInMapping(duplicates, context) {
            throw BuildFailure([.error(path, line: context.mark.line + lineOffset, column: context.mark.column,
                                       "repeated key \(duplicates.map { "`\($0)`" }.joined(separator: ", ")) in the front matter")])
        } catch let error as YamlError {
            throw BuildFailure([YAMLErrors.diagnostic(for: error, path: path, lineOffset: lineOffset)])
        }
        guard let root else { return ([:], [], []) }
        guard case .mapping(let mapping) = root else {
            throw BuildFailure([.error(path, line: (root.mark?.line ?? 1) + lineOffset, column: root.mark?.column ?? 1,
                                       "the front matter must be `key: value` lines (a YAML mapping), not \(describe(root))")])
        }
        var fields: [String: HeaderField] = [:]
        var keyOrder: [String] = []
        var warnings: [Diagnostic] = []
        var errors: [Diagnostic] = []
        for (keyNode, valueNode) in mapping {
            let keyLine = (keyNode.mark?.line ?? 1) + lineOffset
            guard case .scalar(let keyScalar) = keyNode else {
                errors.append(.error(path, line: keyLine, column: keyNode.mark?.column ?? 1,
                                     "a front matter key must be a word, not \(describe(keyNode))"))
                continue
            }
            if let original = renamed[keyScalar.string] {
                // An earlier copy of a repeated key: dropped, with a warning at the copy that wins.
                let winner = original.laterLine + lineOffset
                warnings.append(.warning(path, line: winner, column: 1,
                                         "repeated front matter key `\(original.key)` (also on line \(keyLine)): the last one is used"))
                continue
            }
            let key = keyScalar.string.lowercased()
            var line = (valueNode.mark?.line ?? keyNode.mark?.line ?? 1) + lineOffset
            var column = valueNode.mark?.column ?? 1
            if case .scalar(let s) = valueNode, s.string.isEmpty, s.style == .plain {
                // An empty value: point just after the key, not at the next line.
                line = keyLine
                column = (keyNode.mark?.column ?? 1) + keyScalar.string.count + 1
            }
            if let earlier = fields[key] {
                warnings.append(.warning(path, line: keyLine, column: keyNode.mark?.column ?? 1,
                                         "repeated front matter key `\(key)` (also on line \(earlier.line)): the last one is used"))
            } else {
                keyOrder.append(key)
            }
            fields[key] = HeaderField(value: YAMLValue.meta(valueNode, text: textKeys.contains(key)), line: line, column: column,
                                      keyLine: keyLine)
            if textKeys.contains(key) || key == "description", case .scalar(let scalar) = valueNode, scalar.style == .plain,
               let comment = trailingComment(in: block, line: line - lineOffset, column: column, value: scalar.string) {
                warnings.append(.warning(path, line: line, column: column + comment.offset,
                                         "`\(key)` is \"\(scalar.string)\": YAML reads ` \(comment.text)` as a comment; put the whole value in quotes to keep it"))
            }
        }
        if !errors.isEmpty { throw BuildFailure(errors + warnings) }
        return (fields, keyOrder, warnings)
    }

    /// The ` #...` comment YAML found after a plain value on its line (`title: Fixing issue #42`
    /// reads as "Fixing issue"): its text and its offset from the value's column; nil without one.
    static func trailingComment(in block: String, line: Int, column: Int, value: String) -> (text: String, offset: Int)? {
        let lines = SourceText.lines(block)
        guard line >= 1, line <= lines.count else { return nil }
        let rest = Array(lines[line - 1].dropFirst(max(0, column - 1)))
        guard rest.contains("#") else { return nil }
        for index in rest.indices.dropFirst() where rest[index] == "#" && (rest[index - 1] == " " || rest[index - 1] == "\t") {
            return (String(rest[index...]), index)
        }
        return nil
    }

    /// Renames all but the last copy of each exactly repeated top-level key (a line starting at
    /// column 1 with `key:`), so Yams accepts the block. Returns the new text and, by placeholder,
    /// the key it stands for and the (block) line of the copy that wins.
    static func renameRepeatedTopLevelKeys(_ block: String) -> (String, [String: (key: String, laterLine: Int)]) {
        var lines = SourceText.lines(block).map(String.init)
        var seen: [String: [Int]] = [:]
        for (i, line) in lines.enumerated() {
            if let key = topLevelYAMLKey(line) { seen[key, default: []].append(i) }
        }
        var renamed: [String: (key: String, laterLine: Int)] = [:]
        var counter = 0
        for (key, indices) in seen where indices.count > 1 {
            for (n, i) in indices.dropLast().enumerated() {
                counter += 1
                let placeholder = "__blog_repeated_key_\(counter)__"
                lines[i] = placeholder + lines[i].dropFirst(key.count)
                renamed[placeholder] = (key, indices[n + 1] + 1)
            }
        }
        if renamed.isEmpty { return (block, [:]) }
        return (lines.joined(separator: "\n"), renamed)
    }

    /// The plain key of a top-level YAML `key: value` line, or nil.
    static func topLevelYAMLKey(_ line: String) -> String? {
        guard let first = line.first, first.isLetter || first.isNumber || first == "_" else { return nil }
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let after = line.index(after: colon)
        guard after == line.endIndex || line[after] == " " || line[after] == "\t" else { return nil }
        let key = line[..<colon]
        if key.contains("#") || key.hasSuffix(" ") || key.hasSuffix("\t") { return nil }
        return String(key)
    }

    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "the text \"\(s.string.prefix(40))\""
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }
}
