import BlogCore
import Foundation
internal import TOMLKit

// Positions in a TOML block that TOMLKit does not give: where toml++ would abort instead of reporting an error,
// and where each top-level key is.

extension FrontMatterParser {
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
}
