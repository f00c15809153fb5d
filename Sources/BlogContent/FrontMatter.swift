import BlogCore
import Foundation

/// How a post's header is written.
package enum FrontMatterFormat: String, Sendable {
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
package struct HeaderField: Sendable {
    /// The value, typed as the header's language typed it.
    package var value: MetaValue
    /// The 1-based line of the value in the file (not in the header block).
    package var line: Int
    /// The 1-based column (in characters) where the value starts.
    package var column: Int
    /// The 1-based line of the key, when the value starts on a later one (a YAML list under its key).
    package var keyLine: Int?

    /// Creates a field.
    package init(value: MetaValue, line: Int, column: Int, keyLine: Int? = nil) {
        self.value = value
        self.line = line
        self.column = column
        self.keyLine = keyLine
    }
}

/// A post's header, split from its body.
package struct FrontMatter: Sendable {
    /// How the header was written.
    package var format: FrontMatterFormat
    /// The fields, by lower-cased key.
    package var fields: [String: HeaderField]
    /// The lower-cased keys in file order.
    package var keyOrder: [String]
    /// The markdown after the header.
    package var body: String
    /// The 1-based line of the file where the body starts.
    package var bodyLine: Int

    /// Creates a header.
    package init(format: FrontMatterFormat, fields: [String: HeaderField] = [:], keyOrder: [String] = [],
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
package enum FrontMatterParser {
    /// Keys whose values are text whatever they look like: `title: Yes` is the title "Yes", not
    /// `true`; `title: 1.10` is "1.10", not 1.1. Other keys are typed by YAML's rules.
    static let textKeys: Set<String> = ["title", "slug", "category", "author", "summary", "tags", "status"]

    /// Parses `text` (the file's text; a BOM and CRLF line ends are handled here too).
    /// Throws ``BuildFailure`` when a YAML or TOML header is malformed; returns the warnings (repeated
    /// keys; for a Pelican header, also where it ends otherwise than by a blank line).
    package static func parse(_ text: String, path: String) throws -> (FrontMatter, [Diagnostic]) {
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
}
