import BlogCore
import Foundation

/// kramdown's inline attribute lists in Jekyll-form posts: `![x](y){:width="100%"}` after an image or
/// a link (a span IAL), `{: .class #id key="v"}` on the line after a paragraph or a heading (a block
/// IAL), and the `{::options …}`, `{::comment}…{:/comment}` and `{::nomarkdown}…{:/nomarkdown}`
/// extensions.
///
/// Before the markdown is parsed, each attribute list outside code is replaced by a mark (a number
/// between two private-use characters, which no markdown changes), and the extensions are taken out
/// (a comment with its text; `nomarkdown`'s text stays, as HTML). After rendering, each mark gives
/// its attributes to the element it follows: the `<img>` or `<a>` right before a span mark, the `<p>`
/// a block mark ends, or the heading right before a block mark alone in its paragraph. A mark
/// anywhere else is removed with a warning: the attributes are never left as text. Values are
/// HTML-escaped.
enum KramdownAttributes {
    /// One attribute list found in the text.
    struct List {
        /// Where it was: 1-based line and column of the body.
        var line: Int
        var column: Int
        /// Attributes in order: `class` (the classes joined), `id`, and the others as written.
        var attributes: [(name: String, value: String)]
        /// After an image or link on the same line (a span IAL), or on a line of its own.
        var span: Bool
    }

    /// The text with marks, the lists by mark number, and warnings about what was taken out.
    struct Prepared {
        var text: String
        var lists: [List]
        var warnings: [MarkdownWarning]
    }

    static let delimiter: Character = "\u{E001}"

    /// Whether `text` may hold an attribute list or an extension (a quick check).
    static func mayHold(_ text: String) -> Bool {
        text.contains("{:")
    }

    // MARK: - Before parsing

    /// `body` with its attribute lists replaced by marks and the extensions taken out.
    static func prepare(_ body: String) -> Prepared {
        var lists: [List] = []
        var warnings: [MarkdownWarning] = []
        var out = ""
        out.reserveCapacity(body.utf8.count)
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        let bytes = Array(body.utf8)
        var tracker = LiquidBlockTracker()
        var offset = 0
        /// Inside `{::comment}` or `{::nomarkdown}`, across lines: the name.
        var openExtension: String?
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let isCode = offset < bytes.count && openExtension == nil ? tracker.classify(bytes, offset) : false
            offset += line.utf8.count + 1
            if index > 0 { out += "\n" }
            if isCode || !line.contains("{:") && openExtension == nil {
                out += line
                continue
            }
            out += rewrite(String(line), line: number, open: &openExtension, lists: &lists, warnings: &warnings)
        }
        return Prepared(text: out, lists: lists, warnings: warnings)
    }

    /// One line of prose: its attribute lists as marks, its extensions out.
    private static func rewrite(_ line: String, line number: Int, open: inout String?, lists: inout [List],
                                warnings: inout [MarkdownWarning]) -> String {
        let chars = Array(line)
        var out = ""
        var i = 0
        var backticks = 0
        let standalone = line.trimmingCharacters(in: .whitespaces).hasPrefix("{:")
        while i < chars.count {
            if let name = open {
                // Inside an extension: up to its end, `{:/name}` or `{:/}`.
                guard let end = find("{:/", in: chars, from: i), let close = chars[end...].firstIndex(of: "}") else {
                    if name == "nomarkdown" { out += String(chars[i...]) }
                    return out
                }
                let closing = String(chars[(end + 3)..<close])
                if closing.isEmpty || closing == name {
                    if name == "nomarkdown" { out += String(chars[i..<end]) }
                    open = nil
                    i = close + 1
                } else {
                    if name == "nomarkdown" { out += String(chars[i...close]) }
                    i = close + 1
                }
                continue
            }
            let c = chars[i]
            if c == "`" { backticks += 1 }
            guard c == "{", i + 1 < chars.count, chars[i + 1] == ":", backticks % 2 == 0,
                  let close = chars[i...].firstIndex(of: "}") else {
                out.append(c)
                i += 1
                continue
            }
            let inside = String(chars[(i + 2)..<close])
            let column = i + 1
            if inside.hasPrefix(":") {
                // An extension: `{::name …}` or `{::name …/}`.
                let words = inside.dropFirst().split(separator: " ", maxSplits: 1)
                var name = words.first.map(String.init) ?? ""
                let selfClosing = inside.hasSuffix("/")
                if name.hasSuffix("/") { name.removeLast() }
                switch name {
                case "comment", "nomarkdown":
                    if !selfClosing { open = name }
                case "options":
                    warnings.append(MarkdownWarning(line: number, column: column,
                        message: "kramdown options ({::options}) are not read: blog renders every post alike; the line is removed"))
                default:
                    warnings.append(MarkdownWarning(line: number, column: column,
                        message: "kramdown extension {::\(name)} is not supported; it is removed"))
                }
                i = close + 1
                continue
            }
            if let colon = inside.firstIndex(of: ":"), !inside[..<colon].contains(" "), !inside[..<colon].isEmpty,
               !inside.hasPrefix(" "), inside[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                // An attribute list definition, `{:name: …}`.
                warnings.append(MarkdownWarning(line: number, column: column,
                    message: "kramdown attribute list definitions ({:\(inside[..<colon]): …}) are not supported; it is removed"))
                i = close + 1
                continue
            }
            guard let attributes = parse(inside) else {
                out.append(c)
                i += 1
                continue
            }
            let afterElement = out.hasSuffix(")") || out.hasSuffix("]")
            let span = !(standalone && out.trimmingCharacters(in: .whitespaces).isEmpty)
            if span && !afterElement {
                warnings.append(MarkdownWarning(line: number, column: column,
                    message: "kramdown attribute list {:\(inside)} follows no image or link; it is removed"))
            } else {
                out.append(delimiter)
                out += String(lists.count)
                out.append(delimiter)
                lists.append(List(line: number, column: column, attributes: attributes, span: span))
            }
            i = close + 1
        }
        return out
    }

    private static func find(_ needle: String, in chars: [Character], from start: Int) -> Int? {
        let pattern = Array(needle)
        guard chars.count >= pattern.count else { return nil }
        var i = start
        while i + pattern.count <= chars.count {
            if Array(chars[i..<(i + pattern.count)]) == pattern { return i }
            i += 1
        }
        return nil
    }

    /// The attributes of ` .class #id key="v" key='v'` (what is between `{:` and `}`); nil when it is
    /// not an attribute list (a bare word, which kramdown reads as a reference to a definition, or
    /// anything else: left as text).
    static func parse(_ text: String) -> [(name: String, value: String)]? {
        var classes: [String] = []
        var result: [(name: String, value: String)] = []
        let chars = Array(text)
        var i = 0
        func isNameChar(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "-" || c == "_" || c == ":" }
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" { i += 1; continue }
            if c == "." || c == "#" {
                var j = i + 1
                while j < chars.count && isNameChar(chars[j]) { j += 1 }
                let name = String(chars[(i + 1)..<j])
                guard let first = name.first, first.isLetter || first == "_" || first == "-" else { return nil }
                if c == "." { classes.append(name) } else { result.removeAll { $0.name == "id" }; result.append(("id", name)) }
                i = j
                continue
            }
            var j = i
            while j < chars.count && isNameChar(chars[j]) { j += 1 }
            guard j > i, j < chars.count, chars[j] == "=", chars[i].isLetter else { return nil }
            let key = String(chars[i..<j]).lowercased()
            j += 1
            var value = ""
            if j < chars.count, chars[j] == "\"" || chars[j] == "'" {
                let quote = chars[j]
                var k = j + 1
                while k < chars.count && chars[k] != quote {
                    if chars[k] == "\\" && k + 1 < chars.count { k += 1 }
                    value.append(chars[k])
                    k += 1
                }
                guard k < chars.count else { return nil }
                i = k + 1
            } else {
                var k = j
                while k < chars.count && chars[k] != " " { value.append(chars[k]); k += 1 }
                i = k
            }
            if key == "class" {
                classes.append(value)
            } else {
                result.removeAll { $0.name == key }
                result.append((key, value))
            }
        }
        guard !classes.isEmpty || !result.isEmpty else { return nil }
        if !classes.isEmpty { result.insert(("class", classes.joined(separator: " ")), at: 0) }
        return result
    }

    // MARK: - After rendering

    /// `html` with each mark's attributes given to its element, warnings for marks that had none, and
    /// the headings whose `id` an attribute list changed (old id: new id).
    static func apply(_ html: String, _ prepared: Prepared) -> (html: String, warnings: [MarkdownWarning], ids: [String: String]) {
        guard !prepared.lists.isEmpty, html.contains(delimiter) else { return (html, [], [:]) }
        var html = html
        var warnings: [MarkdownWarning] = []
        var ids: [String: String] = [:]
        for (index, list) in prepared.lists.enumerated() {
            let mark = "\(delimiter)\(index)\(delimiter)"
            guard let range = html.range(of: mark) else { continue }
            let before = html[..<range.lowerBound]
            let after = html[range.upperBound...]
            var target: Range<String.Index>?
            var removal = range
            if list.span {
                if before.hasSuffix(" />"), let open = before.range(of: "<img ", options: .backwards),
                   before[open.lowerBound...].firstIndex(of: ">") == before.index(before: before.endIndex) {
                    target = open.lowerBound..<before.endIndex
                } else if before.hasSuffix("</a>"), let open = before.range(of: "<a ", options: .backwards) {
                    target = open.lowerBound..<(before[open.lowerBound...].firstIndex(of: ">").map { before.index(after: $0) } ?? before.endIndex)
                }
            } else if before.hasSuffix("\n"), after.hasPrefix("</p>"), let open = lastParagraphStart(before) {
                target = open
                removal = before.index(before: before.endIndex)..<range.upperBound
            } else if before.hasSuffix("<p>"), after.hasPrefix("</p>\n") {
                let paragraph = before.index(before.endIndex, offsetBy: -3)..<html.index(range.upperBound, offsetBy: 5)
                let previous = before[..<paragraph.lowerBound]
                if previous.hasSuffix(">\n"), let heading = lastHeadingStart(previous) {
                    target = heading
                    if let id = list.attributes.last(where: { $0.name == "id" })?.value,
                       let old = html[heading].range(of: " id=\""), let end = html[old.upperBound...].firstIndex(of: "\"") {
                        ids[String(html[old.upperBound..<end])] = id
                    }
                }
                removal = paragraph
            }
            guard let target else {
                html.removeSubrange(removal)
                warnings.append(MarkdownWarning(line: list.line, column: list.column,
                    message: "kramdown attribute list here has no paragraph, heading, image or link to go to; it is removed"))
                continue
            }
            let tag = String(html[target])
            html.removeSubrange(removal)
            html.replaceSubrange(target, with: setting(list.attributes, in: tag))
        }
        return (html, warnings, ids)
    }

    /// The opening tag of the last paragraph started in `text`, when that paragraph is still open.
    private static func lastParagraphStart(_ text: Substring) -> Range<String.Index>? {
        guard let open = text.range(of: "<p", options: .backwards),
              let end = text[open.upperBound...].firstIndex(of: ">"),
              text[open.upperBound] == ">" || text[open.upperBound] == " ",
              !text[open.upperBound...].contains("</p>") else { return nil }
        return open.lowerBound..<text.index(after: end)
    }

    /// The opening tag of a heading that `text` ends with (`<h2 id="x">…</h2>\n`).
    private static func lastHeadingStart(_ text: Substring) -> Range<String.Index>? {
        let trimmed = text.dropLast()
        guard trimmed.hasSuffix("</h1>") || trimmed.hasSuffix("</h2>") || trimmed.hasSuffix("</h3>") || trimmed.hasSuffix("</h4>")
                || trimmed.hasSuffix("</h5>") || trimmed.hasSuffix("</h6>") else { return nil }
        let level = trimmed[trimmed.index(trimmed.endIndex, offsetBy: -2)]
        guard let open = trimmed.range(of: "<h\(level)", options: .backwards),
              let end = trimmed[open.upperBound...].firstIndex(of: ">") else { return nil }
        return open.lowerBound..<trimmed.index(after: end)
    }

    /// The opening tag `tag` (as cmark writes it: `<name a="v">` or `<name a="v" />`) with `attributes`
    /// set: a class is added to the element's, any other replaces the element's own.
    static func setting(_ attributes: [(name: String, value: String)], in tag: String) -> String {
        var tag = tag
        let selfClosing = tag.hasSuffix(" />")
        tag.removeLast(selfClosing ? 3 : 1)
        for (name, value) in attributes {
            var value = value
            if let range = tag.range(of: " \(name)=\""), let end = tag[range.upperBound...].firstIndex(of: "\"") {
                if name == "class" { value = String(tag[range.upperBound..<end]) + " " + Escaping.html(value) } else { value = Escaping.html(value) }
                tag.removeSubrange(range.lowerBound...end)
            } else {
                value = Escaping.html(value)
            }
            tag += " \(name)=\"\(value)\""
        }
        return tag + (selfClosing ? " />" : ">")
    }
}
