import BlogCore
import Foundation

/// Pelican's `Key: value` header, read as Python-Markdown's meta extension (Pelican's markdown
/// reader) reads it, line by line from the first:
///
/// - a **key line**: up to three spaces, a key of ASCII letters, digits, `_` and `-`, a `:`, any
///   white space or none (Unicode's, as Python's `\s`: `Slug:my-post`, and `Summary:` followed
///   by an ideographic space U+3000, are key lines), then the value, which keeps its colons
///   (`Date: 2017-12-18 22:20`);
/// - a line indented by four columns or more (a tab reaches the next multiple of four) continues
///   the value of the key before it;
/// - a blank line (nothing but white space) ends the header;
/// - a line starting with `---` or `...` ends the header and is dropped;
/// - any other line ends the header and starts the body (with a warning: Pelican reads it so,
///   but a missing blank line or a key without its colon is the likelier cause).
///
/// Values are trimmed of white space at both ends. Keys are lower-cased. As Pelican reads the
/// values, a repeated or continued `date`, `slug`, `tags`... (``singleDefinitionKeys``) keeps
/// its first line, and the lines of a `summary` are joined with line breaks (it is markdown);
/// other continued values, which Pelican makes lists of, are joined with spaces, with a warning.
enum PelicanHeader {
    /// Keys that Pelican reads once: when one is repeated, Pelican keeps the first (and warns).
    /// Other repeated keys make a list in Pelican, which `blog` can't show: the last one is kept.
    static let singleDefinitionKeys: Set<String> = ["tags", "date", "modified", "status", "category", "author",
                                                    "authors", "save_as", "url", "slug"]

    /// One line of a header, as the meta extension sees it.
    enum Line: Equatable {
        /// `Key: value`; `valueIndex` is the 0-based character index where the value starts.
        case field(key: String, value: String, valueIndex: Int)
        /// An indented line that continues the previous value.
        case continuation(value: String, valueIndex: Int)
        /// Nothing but white space: the header's end.
        case blank
        /// A line starting with `---` or `...`: the header's end, dropped. `plain` when that is
        /// all it holds (trailing white space aside).
        case end(plain: Bool)
        /// Anything else: the body's first line.
        case other
    }

    /// Whether a file whose first line is `line` has a Pelican header: `line` is a key line, but
    /// not a link such as `https://example.org` (a scheme's colon followed by `//`).
    static func startsHeader(_ line: Substring) -> Bool {
        guard let field = keyValue(line) else { return false }
        let afterColon = line.utf8.dropFirst(leadingSpaces(line) + field.key.utf8.count + 1)
        return !afterColon.starts(with: "//".utf8)
    }

    /// What `line` is in a header.
    static func classify(_ line: Substring) -> Line {
        // Most lines start with a key's letter: neither blank, nor an end, nor indented, so a key line or the body's
        // first line, told from the bytes without the scalar and index walks below (~1,900 instructions a line).
        if let first = line.utf8.first, first < 0x80, !isASCIISpace(first), first != UInt8(ascii: "-"), first != UInt8(ascii: "."),
           let read = line.utf8.withContiguousStorageIfAvailable({ keyValue(line, bytes: $0) }) {
            guard let field = read else { return .other }
            return .field(key: field.key, value: field.value, valueIndex: field.valueIndex)
        }
        return classifyScalars(line)
    }

    /// ``classify(_:)`` of any line, on its scalars.
    static func classifyScalars(_ line: Substring) -> Line {
        if line.unicodeScalars.allSatisfy(isSpace) { return .blank }
        if startsWithThree(line, UInt8(ascii: "-")) || startsWithThree(line, UInt8(ascii: ".")) {
            return .end(plain: trimmed(line).utf8.count == 3)
        }
        if let field = keyValue(line) { return .field(key: field.key, value: field.value, valueIndex: field.valueIndex) }
        // Python-Markdown turns tabs into spaces up to the next multiple of 4 before reading.
        var column = 0
        var start = line.startIndex
        for byte in line.utf8 {
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") else { break }
            column = byte == UInt8(ascii: " ") ? column + 1 : (column / 4 + 1) * 4
            start = line.utf8.index(after: start)
        }
        guard column >= 4 else { return .other }
        let valueStart = line.unicodeScalars[start...].firstIndex { !isSpace($0) } ?? line.endIndex
        return .continuation(value: trimmed(line[valueStart...]), valueIndex: characters(line, upTo: valueStart))
    }

    /// The key, the value (trimmed) and the 0-based character index where the value starts, when
    /// `line` is a key line.
    static func keyValue(_ line: Substring) -> (key: String, value: String, valueIndex: Int)? {
        // On the line's bytes in memory (a file's text always has them): reading them through the UTF-8 view's
        // indices cost a call a byte, 15 M instructions for the headers of 1,000 posts.
        if let read = line.utf8.withContiguousStorageIfAvailable({ keyValue(line, bytes: $0) }) { return read }
        return keyValue(line, bytes: nil)
    }

    /// ``keyValue(_:)`` with the bytes of `line` (nil when they are not in memory: read through its views).
    private static func keyValue(_ line: Substring, bytes buffer: UnsafeBufferPointer<UInt8>?) -> (key: String, value: String, valueIndex: Int)? {
        let utf8 = line.utf8
        let count = utf8.count
        func byte(_ offset: Int) -> UInt8 { buffer?[offset] ?? utf8[utf8.index(utf8.startIndex, offsetBy: offset)] }
        // A part of the line. From the bytes in memory when they are (both ends are at ASCII bytes: whole characters): taking the
        // substring between two indices checked that they fall on characters, 550 instructions a value.
        func text(_ from: Int, _ to: Int) -> String {
            if let buffer { return String(decoding: UnsafeBufferPointer(rebasing: buffer[from..<to]), as: UTF8.self) }
            return String(line[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
        }
        var spaces = 0
        while spaces < 4, spaces < count, byte(spaces) == UInt8(ascii: " ") { spaces += 1 }
        guard spaces <= 3 else { return nil }
        var i = spaces
        while i < count, isKeyByte(byte(i)) { i += 1 }
        guard i != spaces, i < count, byte(i) == UInt8(ascii: ":") else { return nil }
        let key = text(spaces, i)
        let afterColon = i + 1
        // On the bytes while they are ASCII (the line up to the value, and the value's last byte, nearly always):
        // the same ends as the scalars give, without reading them.
        var start = afterColon
        while start < count, byte(start) < 0x80, isASCIISpace(byte(start)) { start += 1 }
        if start == count { return (key, "", start) }
        if byte(start) < 0x80 {
            var end = count
            while byte(end - 1) < 0x80, isASCIISpace(byte(end - 1)) { end -= 1 }
            if byte(end - 1) < 0x80 { return (key, text(start, end), start) }
        }
        let valueStart = line.unicodeScalars[utf8.index(utf8.startIndex, offsetBy: afterColon)...].firstIndex { !isSpace($0) } ?? line.endIndex
        return (key, trimmed(line[valueStart...]), characters(line, upTo: valueStart))
    }

    /// Whether `line` starts with three `byte`s (`---`, `...`).
    private static func startsWithThree(_ line: Substring, _ byte: UInt8) -> Bool {
        let utf8 = line.utf8
        var index = utf8.startIndex
        for _ in 0..<3 {
            guard index != utf8.endIndex, utf8[index] == byte else { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    /// ``isSpace(_:)`` for an ASCII byte.
    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        (0x09...0x0D).contains(byte) || (0x1C...0x20).contains(byte)
    }

    /// Reads the header that starts on the first of `lines` (a key line: see ``startsHeader(_:)``).
    /// Never fails: every line has a meaning. Returns the warnings (repeated keys, values continued
    /// where Pelican reads them otherwise, a header that ends without a blank line, a dropped
    /// `---` line holding more).
    static func parse(_ lines: SourceText.LazyLines, path: String) -> (FrontMatter, [Diagnostic]) {
        var entries: [(key: String, value: String, line: Int, column: Int, continued: Bool)] = []
        entries.reserveCapacity(8)
        var warnings: [Diagnostic] = []
        var index = 0
        var bodyStart = 0
        reading: while true {
            guard let line = lines[index] else {
                bodyStart = index
                break
            }
            let lineNumber = index + 1
            switch classify(line) {
            case .blank:
                bodyStart = index + 1
                break reading
            case .end(let plain):
                if !plain {
                    warnings.append(.warning(path, line: lineNumber, column: 1,
                                             "a line starting with `\(line.prefix(3))` ends the header and is dropped, as Python-Markdown does: the rest of the line is not shown; add a blank line before it to keep it"))
                }
                bodyStart = index + 1
                break reading
            case .field(let key, let value, let valueIndex):
                // A key is ASCII: one already in lower case (most are) is kept as it is.
                let lower = key.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? key.lowercased() : key
                entries.append((lower, value, lineNumber, valueIndex + 1, false))
            case .continuation(let more, let valueIndex) where !entries.isEmpty:
                var last = entries.removeLast()
                if !last.continued, let problem = continuationProblem(last.key) {
                    warnings.append(.warning(path, line: lineNumber, column: valueIndex + 1, problem))
                }
                last.continued = true
                if singleDefinitionKeys.contains(last.key) {
                    // Pelican reads only the first line.
                } else if last.value.isEmpty {
                    last.value = more
                    last.line = lineNumber
                    last.column = valueIndex + 1
                } else {
                    // Markdown in a summary keeps its line breaks (lists, paragraphs), as
                    // Pelican joins its lines; other values are one line of text.
                    last.value += (last.key == "summary" ? "\n" : " ") + more
                }
                entries.append(last)
            case .continuation, .other:
                let column = line.prefix(while: { $0 == " " || $0 == "\t" }).count + 1
                warnings.append(.warning(path, line: lineNumber, column: column,
                                         "the header ends here without a blank line: this line is not `Key: value`, so it starts the body, as Python-Markdown reads it; add a blank line before it, or a `:` after its key"))
                bodyStart = index
                break reading
            }
            index += 1
        }

        var fields: [String: HeaderField] = .init(minimumCapacity: entries.count)
        var keyOrder: [String] = []
        keyOrder.reserveCapacity(entries.count)
        for entry in entries {
            // A new key (each, nearly always) is told by the few before it, not looked up.
            if keyOrder.count > 16 || keyOrder.contains(entry.key), let earlier = fields[entry.key] {
                let keepFirst = singleDefinitionKeys.contains(entry.key)
                warnings.append(.warning(path, line: entry.line, column: 1,
                                         "repeated header key `\(entry.key)` (also on line \(earlier.line)): "
                                            + (keepFirst ? "the first one is used, as Pelican does" : "the last one is used")))
                if keepFirst { continue }
            } else {
                keyOrder.append(entry.key)
            }
            fields[entry.key] = HeaderField(value: .string(entry.value), line: entry.line, column: entry.column)
        }
        return (FrontMatter(format: .pelican, fields: fields, keyOrder: keyOrder, body: lines.rest(from: bodyStart),
                            bodyLine: bodyStart + 1), warnings.sortedForDisplay())
    }

    /// Why a value of `key` that continues on more lines is not read as Pelican reads it, or nil
    /// when it is: Pelican joins the lines of a `summary` (markdown), reads only the first line
    /// of its single-definition keys (as `blog` does), and makes a list of any other value.
    static func continuationProblem(_ key: String) -> String? {
        if key == "summary" { return nil }
        if singleDefinitionKeys.contains(key) {
            return "`\(key)` continues on this line, but Pelican reads only its first line: this line is ignored, as Pelican does; put the whole value on the `\(key):` line"
        }
        return "`\(key)` continues on this line: Pelican makes a list of its lines (a continued title shows as ['A', 'B']); here they are joined with a space; put the whole value on the `\(key):` line"
    }

    // MARK: Characters

    /// Python's `str.isspace()`, which `\s` and `strip()` follow: Unicode's White_Space
    /// characters (U+00A0, U+2000 to U+200A, U+3000...) and the separators U+001C to U+001F.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (0x09...0x0D).contains(scalar.value) || (0x1C...0x20).contains(scalar.value)
            : scalar.properties.isWhitespace
    }

    /// `text` without white space (``isSpace(_:)``) at either end.
    static func trimmed(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// `[A-Za-z0-9_-]`.
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// How many spaces `line` starts with (4 at most: more make no key line).
    private static func leadingSpaces(_ line: Substring) -> Int {
        let bytes = line.utf8
        var count = 0, index = bytes.startIndex
        while count < 4, index != bytes.endIndex, bytes[index] == UInt8(ascii: " ") { count += 1; index = bytes.index(after: index) }
        return count
    }

    /// How many characters of `line` come before `index` (bytes, when they are all ASCII).
    private static func characters(_ line: Substring, upTo index: String.Index) -> Int {
        let prefix = line.utf8[..<index]
        return prefix.allSatisfy { $0 < 0x80 } ? prefix.count : line[..<index].count
    }
}
