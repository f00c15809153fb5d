import BlogConfig
import BlogCore
import Foundation
internal import TOMLKit
import Yams

/// How a post's header is written.
public enum FrontMatterFormat: String, Sendable {
    /// `Key: value` lines from the first line, as Python-Markdown's meta extension reads them (Pelican).
    case pelican
    /// YAML between a first `---` line and the next `---` (or `...`) line (Jekyll, Hugo).
    case yaml
    /// TOML between `+++` lines (Hugo, Zola).
    case toml
    /// No header: the whole file is the body.
    case none
}

/// One header value and where it is in the file.
public struct HeaderField: Sendable {
    /// The value, typed as the header's language typed it.
    public var value: MetaValue
    /// The 1-based line of the value in the file (not in the header block).
    public var line: Int
    /// The 1-based column (in characters) where the value starts.
    public var column: Int

    /// Creates a field.
    public init(value: MetaValue, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }
}

/// A post's header, split from its body.
public struct FrontMatter: Sendable {
    /// How the header was written.
    public var format: FrontMatterFormat
    /// The fields, by lower-cased key.
    public var fields: [String: HeaderField]
    /// The lower-cased keys in file order.
    public var keyOrder: [String]
    /// The markdown after the header.
    public var body: String
    /// The 1-based line of the file where the body starts.
    public var bodyLine: Int

    /// Creates a header.
    public init(format: FrontMatterFormat, fields: [String: HeaderField] = [:], keyOrder: [String] = [],
                body: String, bodyLine: Int = 1) {
        self.format = format
        self.fields = fields
        self.keyOrder = keyOrder
        self.body = body
        self.bodyLine = bodyLine
    }
}

/// Splits a post's text into its header and body.
///
/// - Pelican: `Key: value` lines from the first line, as Python-Markdown's meta extension reads
///   them (see ``PelicanHeader``).
/// - YAML: between a first `---` line (blank lines may come before it) and the next `---` or `...`.
/// - TOML: between a first `+++` line and the next `+++`.
///
/// Keys are lower-cased. Positions are those of the file, so messages point into it.
public enum FrontMatterParser {
    /// Keys whose values are text whatever they look like: `title: Yes` is the title "Yes", not
    /// `true`; `title: 1.10` is "1.10", not 1.1. Other keys are typed by YAML's rules.
    static let textKeys: Set<String> = ["title", "slug", "category", "author", "summary", "tags", "status"]

    /// Parses `text` (the file's text; a BOM and CRLF line ends are handled here too).
    /// Throws ``BuildFailure`` when a YAML or TOML header is malformed; returns the warnings (repeated
    /// keys; for a Pelican header, also where it ends otherwise than by a blank line).
    public static func parse(_ text: String, path: String) throws -> (FrontMatter, [Diagnostic]) {
        let text = SourceText.normalize(text)
        let lines = SourceText.LazyLines(text)
        var first = 0
        while let line = lines[first], SourceText.isBlank(line) { first += 1 }
        guard let firstLine = lines[first] else {
            return (FrontMatter(format: .none, body: text, bodyLine: 1), [])
        }
        switch SourceText.trimmingTrailing(firstLine) {
        case "---":
            return try parseFenced(lines, open: first, path: path, format: .yaml)
        case "+++":
            return try parseFenced(lines, open: first, path: path, format: .toml)
        default:
            if first == 0, PelicanHeader.startsHeader(firstLine) {
                return PelicanHeader.parse(lines, path: path)
            }
            return (FrontMatter(format: .none, body: text, bodyLine: 1), [])
        }
    }

    // MARK: Fenced (YAML, TOML)

    static func parseFenced(_ lines: SourceText.LazyLines, open: Int, path: String,
                            format: FrontMatterFormat) throws -> (FrontMatter, [Diagnostic]) {
        let fence = format == .yaml ? "---" : "+++"
        let closers: Set<Substring> = format == .yaml ? ["---", "..."] : ["+++"]
        var close = open + 1
        var blockLines: [Substring] = []
        while true {
            guard let line = lines[close] else {
                throw BuildFailure([.error(path, line: open + 1, column: 1,
                                           "unclosed front matter: expected a closing `\(fence)` line")])
            }
            if closers.contains(SourceText.trimmingTrailing(line)) { break }
            blockLines.append(line)
            close += 1
        }
        let block = blockLines.joined(separator: "\n") + "\n"
        // Line 1 of the block is file line open + 2.
        let lineOffset = open + 1
        var header: (fields: [String: HeaderField], keyOrder: [String], warnings: [Diagnostic])
        if format == .yaml {
            header = try parseYAML(block, path: path, lineOffset: lineOffset)
        } else {
            header = try parseTOML(block, path: path, lineOffset: lineOffset)
        }
        let body = lines.rest(from: close + 1)
        return (FrontMatter(format: format, fields: header.fields, keyOrder: header.keyOrder, body: body,
                            bodyLine: close + 2), header.warnings)
    }

    // MARK: YAML

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
            fields[key] = HeaderField(value: YAMLValue.meta(valueNode, text: textKeys.contains(key)), line: line, column: column)
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

    // MARK: TOML

    static func parseTOML(_ block: String, path: String,
                          lineOffset: Int) throws -> ([String: HeaderField], [String], [Diagnostic]) {
        if let abort = tomlAbort(block) {
            throw BuildFailure([.error(path, line: abort.line + lineOffset, column: abort.column, "invalid TOML: \(abort.message)")])
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: block)
        } catch let error as TOMLParseError {
            throw BuildFailure([.error(path, line: error.source.begin.line + lineOffset, column: error.source.begin.column,
                                       "invalid TOML: \(error.description)")])
        } catch {
            throw BuildFailure([.error(path, line: 1 + lineOffset, column: 1, "invalid TOML: \(error)")])
        }
        let positions = tomlKeyPositions(block)
        var fields: [String: HeaderField] = [:]
        var warnings: [Diagnostic] = []
        var order: [(key: String, line: Int)] = []
        for (rawKey, value) in table {
            let key = rawKey.lowercased()
            let position = positions[rawKey] ?? (line: 1, column: 1)
            let line = position.line + lineOffset
            if let earlier = fields[key] {
                let (lost, kept) = earlier.line < line ? (earlier.line, line) : (line, earlier.line)
                warnings.append(.warning(path, line: kept, column: 1,
                                         "repeated front matter key `\(key)` (also on line \(lost)): the last one is used"))
                if earlier.line > line { continue }
                order.removeAll { $0.key == key }
            }
            fields[key] = HeaderField(value: metaValue(value), line: line, column: position.column)
            order.append((key, line))
        }
        let keyOrder = order.enumerated().sorted { a, b in
            a.element.line != b.element.line ? a.element.line < b.element.line : a.offset < b.offset
        }.map(\.element.key)
        return (fields, keyOrder, warnings)
    }

    /// Where toml++, under TOMLKit, would abort the process instead of reporting an error in a TOML block (it asserts
    /// what it takes as already checked, and `blog` is built with assertions on): the first such place's line and
    /// column in the block, and what toml++ would have said. Two are known:
    /// - a table header whose name starts with a character no key starts with (`[[[x]]]`, `[&]`, a `[` alone;
    ///   tomlplusplus issues 294 and 301);
    /// - a `}` where a list expects a value (`x = [}`, `x = [1, }`: its `parse_array` takes what is neither `,` nor
    ///   `]` for the start of a value).
    ///
    /// Places that only look like one (inside a string or a comment, a `[` line inside a multi-line array) are told
    /// apart by toml++ itself, on the text before them, which it reads in one pass; suspects are asked about in
    /// order, so the text toml++ is given never holds a place where it would abort.
    static func tomlAbort(_ block: String) -> (line: Int, column: Int, message: String)? {
        let suspects = (tomlHeaderSuspects(block) + tomlBraceSuspects(block)).sorted { $0.offset < $1.offset }
        for suspect in suspects {
            if let found = suspect.header {
                // A header only at the top level: exactly when the text before its line parses alone.
                guard (try? TOMLTable(string: String(block.utf8.prefix(suspect.offset))!)) != nil else { continue }
                return (suspect.line, suspect.column,
                        "a table name starts with a letter, a digit, `_`, `-` or a quote, not \(found)")
            }
            // A `}` a list took for a value: with a `,` in its place, toml++ stops right there for want of a value.
            let comma = "expected value or closing ']', saw comma"
            do {
                _ = try TOMLTable(string: String(block.utf8.prefix(suspect.offset))! + ",")
            } catch let error as TOMLParseError where error.description.hasSuffix(comma)
                && error.source.begin.line == suspect.line && error.source.begin.column == suspect.column {
                return (suspect.line, suspect.column, error.description.dropLast("comma".count) + "'}'")
            } catch {}
        }
        return nil
    }

    /// The table header lines of a TOML block whose name starts with a character no key starts with, if they are
    /// headers (see ``tomlAbort(_:)``): each line's start (a UTF-8 offset), line and column of the character, and the
    /// character as messages name it.
    static func tomlHeaderSuspects(_ block: String) -> [(offset: Int, line: Int, column: Int, header: String?)] {
        var suspects: [(offset: Int, line: Int, column: Int, header: String?)] = []
        var lineStart = 0
        for (index, line) in SourceText.lines(block).enumerated() {
            defer { lineStart += line.utf8.count + 1 }
            let scalars = Array(line.unicodeScalars) + ["\n"]
            var i = 0
            func skipSpaces() -> Bool {
                let start = i
                while scalars[i] == " " || scalars[i] == "\t" { i += 1 }
                return i > start
            }
            _ = skipSpaces()
            guard scalars[i] == "[" else { continue }
            i += 1
            let spaced = skipSpaces()
            if !spaced, scalars[i] == "[" {
                i += 1
                _ = skipSpaces()
            }
            // What toml++ reports itself: `]`, `[ [`, other spaces; and a name that starts well.
            let first = scalars[i]
            if "]'\"_-".unicodeScalars.contains(first) || (spaced && first == "[") || tomlHorizontalSpaces.contains(first)
                || (first.isASCII && (first.properties.isAlphabetic || ("0"..."9").contains(first))) {
                continue
            }
            suspects.append((lineStart, index + 1, i + 1, first == "\n" ? "the end of the line" : "`\(first)`"))
        }
        return suspects
    }

    /// The `}` of a TOML block that may stand where a list expects a value (see ``tomlAbort(_:)``): each one with
    /// only spaces and tabs between it and a `[`, a `,` or its line's start (the line before may end in a comment, a
    /// `[` or a `,`); its UTF-8 offset, line and column (in scalars, as toml++ counts).
    static func tomlBraceSuspects(_ block: String) -> [(offset: Int, line: Int, column: Int, header: String?)] {
        var suspects: [(offset: Int, line: Int, column: Int, header: String?)] = []
        var (offset, line, column) = (0, 1, 1)
        var afterOpening = true
        for scalar in block.unicodeScalars {
            switch scalar {
            case "}":
                if afterOpening { suspects.append((offset, line, column, nil)) }
                afterOpening = false
            case "\n": (line, column, afterOpening) = (line + 1, 0, true)
            case "[", ",": afterOpening = true
            case " ", "\t", "\r": break
            default: afterOpening = false
            }
            offset += scalar.utf8.count
            column += 1
        }
        return suspects
    }

    /// The spaces other than space and tab that toml++ finds and refuses between brackets (its
    /// `is_non_ascii_horizontal_whitespace`).
    static let tomlHorizontalSpaces: Set<Unicode.Scalar> = Set(
        ["\u{A0}", "\u{1680}", "\u{180E}", "\u{202F}", "\u{205F}", "\u{2060}", "\u{3000}", "\u{FEFF}"]
            + (0x2000...0x200B).map { Unicode.Scalar($0)! }
    )

    /// Where each top-level key of a TOML block is (TOMLKit keeps no positions): the line of
    /// `key = value` (or of the `[key]` table header) and the column where the value starts.
    static func tomlKeyPositions(_ block: String) -> [String: (line: Int, column: Int)] {
        var positions: [String: (line: Int, column: Int)] = [:]
        var inTopLevel = true
        for (i, raw) in SourceText.lines(block).enumerated() {
            let line = Array(raw)
            var j = 0
            while j < line.count, line[j] == " " || line[j] == "\t" { j += 1 }
            guard j < line.count else { continue }
            if line[j] == "[" {
                // `[table]` or `[[array]]`: its first key part names a top-level key.
                var k = j
                while k < line.count, line[k] == "[" || line[k] == " " { k += 1 }
                if let (key, _) = tomlKey(line, from: k), positions[key] == nil {
                    positions[key] = (i + 1, j + 1)
                }
                inTopLevel = false
                continue
            }
            guard inTopLevel, let (key, end) = tomlKey(line, from: j) else { continue }
            var k = end
            while k < line.count, line[k] == " " || line[k] == "\t" { k += 1 }
            guard k < line.count, line[k] == "=" || line[k] == "." else { continue }
            var v = k + 1
            if line[k] == "=" {
                while v < line.count, line[v] == " " || line[v] == "\t" { v += 1 }
            } else {
                v = j  // dotted key: point at the key
            }
            if positions[key] == nil { positions[key] = (i + 1, v + 1) }
        }
        return positions
    }

    /// A bare or quoted TOML key starting at `start`, and the index after it.
    static func tomlKey(_ line: [Character], from start: Int) -> (String, Int)? {
        guard start < line.count else { return nil }
        let c = line[start]
        if c == "\"" || c == "'" {
            guard let end = line[(start + 1)...].firstIndex(of: c) else { return nil }
            return (String(line[(start + 1)..<end]), end + 1)
        }
        var k = start
        while k < line.count, line[k].isASCII, line[k].isLetter || line[k].isNumber || line[k] == "_" || line[k] == "-" {
            k += 1
        }
        return k > start ? (String(line[start..<k]), k) : nil
    }

    /// A TOML value as a ``MetaValue``. A date-time with an offset is an instant (`.date`); a local
    /// date or date-time has no instant until the site's zone is known, so it stays text in ISO
    /// form (`2016-11-25`, `2016-11-25T10:20:00`) that ``DateParser`` reads in that zone.
    static func metaValue(_ value: TOMLValueConvertible) -> MetaValue {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return value.int.map(MetaValue.int) ?? .null
        case .double: return value.double.map(MetaValue.double) ?? .null
        case .bool: return value.bool.map(MetaValue.bool) ?? .null
        case .date:
            guard let d = value.date else { return .null }
            return .string(String(format: "%04d-%02d-%02d", d.year, d.month, d.day))
        case .time:
            guard let t = value.time else { return .null }
            return .string(timeText(t))
        case .dateTime:
            guard let dt = value.dateTime else { return .null }
            if let offset = dt.offset {
                let date = DateParser.instant(year: Int(dt.date.year), month: Int(dt.date.month), day: Int(dt.date.day),
                                              hour: Int(dt.time.hour), minute: Int(dt.time.minute), second: Int(dt.time.second),
                                              offset: Int(offset.offset) * 60, timeZone: TimeZone(secondsFromGMT: 0)!)
                return .date(date.addingTimeInterval(Double(dt.time.nanoSecond) / 1_000_000_000))
            }
            return .string(String(format: "%04d-%02d-%02dT", dt.date.year, dt.date.month, dt.date.day) + timeText(dt.time))
        case .array:
            guard let array = value.array else { return .null }
            return .list(array.map { metaValue($0) })
        case .table:
            guard let table = value.table else { return .null }
            var map: [String: MetaValue] = [:]
            for (k, v) in table { map[k] = metaValue(v) }
            return .map(map)
        }
    }

    static func timeText(_ t: TOMLTime) -> String {
        var text = String(format: "%02d:%02d:%02d", t.hour, t.minute, t.second)
        if t.nanoSecond > 0 {
            var fraction = String(format: "%09d", t.nanoSecond)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}
