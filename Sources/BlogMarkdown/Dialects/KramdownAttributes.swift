import BlogCore
import BlogLiquid
import Foundation

/// kramdown's inline attribute lists in Jekyll-form posts: `![x](y){:width="100%"}` after an image or
/// a link (a span IAL), `{: .class #id key="v"}` on the line after a paragraph or a heading (a block
/// IAL), and the `{::options …}`, `{::comment}…{:/comment}` and `{::nomarkdown}…{:/nomarkdown}`
/// extensions.
///
/// Before the markdown is parsed, each attribute list outside code is replaced by a mark (a
/// ``PlaceholderMarks`` mark whose kind is empty: its number), and the extensions are taken out
/// (a comment with its text; `nomarkdown`'s text stays, as HTML). After rendering, each mark gives
/// its attributes to the element it follows: the `<img>` or `<a>` right before a span mark, the `<p>`
/// a block mark ends, or the heading right before a block mark alone in its paragraph. A mark
/// anywhere else is removed with a warning: the attributes are never left as text. Values are
/// HTML-escaped.
///
/// In Pelican-form posts the same code reads Python-Markdown's `attr_list` (part of `extra`), whose
/// rules differ (`AttrListTreeprocessor`): the colon is optional (`{: .c}`, `{.c}`, `{#id}`,
/// `{key=v}`); a heading's list ends its own line (`## Title {: #id }`); a paragraph's is a line of
/// its own at the paragraph's end; a span list follows an image or link. There are no extensions,
/// and a list that fits none of these places is text there, so it is put back as written (no warning).
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
        /// At the end of a heading's line (Python-Markdown).
        var heading = false
        /// The list as written (Python-Markdown: put back where it has no element).
        var text = ""
    }

    /// The text with marks, the lists by mark number, and warnings about what was taken out.
    struct Prepared {
        var text: String
        var lists: [List]
        var warnings: [MarkdownWarning]
        /// Read by Python-Markdown's rules rather than kramdown's.
        var pythonMarkdown = false
    }

    /// Whether `text` may hold an attribute list or an extension (a quick check); in Python-Markdown
    /// (`pythonMarkdown`), `{.`, `{#`, `{ .` and `{ #` too (a list of `key=value` only is found when
    /// the line holds another).
    static func mayHold(_ text: String, pythonMarkdown: Bool = false) -> Bool {
        pythonMarkdown ? ByteSearch.containsAny(text, after: ["{"], [":", ".", "#", " .", " #"]) : ByteSearch.contains(text, "{:")
    }

    /// Whether the characters at `i` open an attribute list: `{:`, and in Python-Markdown `{.`,
    /// `{#`, `{` and a letter followed by `=` later (read by ``parse(_:)``).
    private static func opens(_ chars: [Character], at i: Int, pythonMarkdown: Bool) -> Bool {
        guard chars[i] == "{", i + 1 < chars.count else { return false }
        return chars[i + 1] == ":" || (pythonMarkdown && (chars[i + 1] == "." || chars[i + 1] == "#"
            || chars[i + 1] == " " || chars[i + 1].isLetter))
    }

    // MARK: - Before parsing

    /// `body` with its attribute lists replaced by marks and the extensions taken out. Line by line
    /// over the bytes; only a line holding `{:` (or inside an extension) is read as characters.
    static func prepare(_ body: String, pythonMarkdown: Bool = false) -> Prepared {
        var lists: [List] = []
        var warnings: [MarkdownWarning] = []
        let bytes = Array(body.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var tracker = LiquidBlockTracker()
        /// Inside `{::comment}` or `{::nomarkdown}`, across lines: the name.
        var openExtension: String?
        var start = 0
        var number = 0
        while start <= bytes.count {
            var end = start
            var holdsList = false
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") {
                if bytes[end] == UInt8(ascii: "{"), end + 1 < bytes.count,
                   bytes[end + 1] == UInt8(ascii: ":") || (pythonMarkdown && bytes[end + 1] != UInt8(ascii: "\n")) { holdsList = true }
                end += 1
            }
            number += 1
            let isCode = start < bytes.count && openExtension == nil ? tracker.classify(bytes, start) : false
            if number > 1 { out.append(UInt8(ascii: "\n")) }
            if isCode || !(holdsList || openExtension != nil) {
                out.append(contentsOf: bytes[start..<end])
            } else {
                let line = String(decoding: bytes[start..<end], as: UTF8.self)
                out.append(contentsOf: rewrite(line, line: number, pythonMarkdown: pythonMarkdown, open: &openExtension,
                                               lists: &lists, warnings: &warnings).utf8)
            }
            start = end + 1
        }
        return Prepared(text: String(decoding: out, as: UTF8.self), lists: lists, warnings: warnings, pythonMarkdown: pythonMarkdown)
    }

    /// One line of prose: its attribute lists as marks, its extensions out.
    private static func rewrite(_ line: String, line number: Int, pythonMarkdown: Bool, open: inout String?, lists: inout [List],
                                warnings: inout [MarkdownWarning]) -> String {
        let chars = Array(line)
        var out = ""
        var i = 0
        var backticks = 0
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let standalone = pythonMarkdown ? trimmed.hasPrefix("{") : trimmed.hasPrefix("{:")
        // Python-Markdown: a `#` heading's line (up to three spaces before the hashes).
        let heading = pythonMarkdown && line.prefix(while: { $0 == " " }).count < 4 && trimmed.hasPrefix("#")
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
            guard opens(chars, at: i, pythonMarkdown: pythonMarkdown), backticks % 2 == 0,
                  let close = chars[i...].firstIndex(of: "}") else {
                out.append(c)
                i += 1
                continue
            }
            let colon = chars[i + 1] == ":"
            let inside = String(chars[(i + (colon ? 2 : 1))..<close])
            let column = TextPosition.column(ofByte: String(chars[..<i]).utf8.count, lineStart: 0, in: Array(line.utf8))
            if pythonMarkdown {
                // Python-Markdown: after an image or link, at the end of a heading's line, or a line of its own.
                let rest = chars[(close + 1)...].drop { $0 == " " }
                // After the heading's text and a space (`# {.x}` is a heading of that text).
                let atHeadingEnd = heading && rest.allSatisfy { $0 == "#" } && out.hasSuffix(" ")
                    && out.contains { $0 != "#" && $0 != " " }
                let afterElement = out.hasSuffix(")") || out.hasSuffix("]")
                guard let attributes = parse(inside),
                      afterElement || atHeadingEnd || (standalone && rest.isEmpty) else {
                    out.append(c)
                    i += 1
                    continue
                }
                var mark = PlaceholderMarks.build.mark("", lists.count)
                if atHeadingEnd {
                    // Out of the heading's id: an HTML comment's text is no part of it.
                    while out.hasSuffix(" ") { out.removeLast() }
                    mark = "<!--" + mark + "-->"
                }
                out += mark
                lists.append(List(line: number, column: column, attributes: attributes, span: afterElement && !atHeadingEnd,
                                  heading: atHeadingEnd, text: String(chars[i...close])))
                i = atHeadingEnd ? chars.count : close + 1
                continue
            }
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
                out += PlaceholderMarks.build.mark("", lists.count)
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
    /// the headings whose `id` an attribute list changed (old id: new id). Works on the HTML's bytes:
    /// Foundation's searches on a `String` cost more than rendering the page.
    static func apply(_ html: String, _ prepared: Prepared) -> (html: String, warnings: [MarkdownWarning], ids: [String: String]) {
        guard !prepared.lists.isEmpty, html.utf8.contains(0xEE) else { return (html, [], [:]) }
        let b = Array(html.utf8)
        var warnings: [MarkdownWarning] = []
        var ids: [String: String] = [:]
        /// Tags to rewrite (by start: end, attributes, and whether it is a heading), and ranges to drop.
        var tags: [Int: (end: Int, attributes: [(name: String, value: String)])] = [:]
        var drops: [Range<Int>] = []
        /// Marks that go back to the text they stand for (Python-Markdown).
        var putBack: [(Range<Int>, [UInt8])] = []
        var position = 0
        while let (found, number) = PlaceholderMarks.build.next(in: b, from: position, kind: "") {
            guard number < prepared.lists.count else {
                position = found.lowerBound + 1
                continue
            }
            let (start, end) = (found.lowerBound, found.upperBound)
            position = end
            let list = prepared.lists[number]
            var target: Range<Int>?
            var removal = start..<end
            if list.heading {
                // `<hN …>Title<!--mark--></hN>`.
                if ends(b, at: start, with: "<!--"), starts(b, at: end, with: "--></h"), let heading = closedHeading(b, before: end + 8) {
                    target = heading
                    removal = (start - 4)..<(end + 3)
                    if let id = list.attributes.last(where: { $0.name == "id" })?.value, let old = headingID(b, heading) {
                        ids[old] = id
                    }
                }
            } else if list.span {
                if ends(b, at: start, with: " />"), let open = lastIndex(of: UInt8(ascii: "<"), in: b, before: start),
                   starts(b, at: open, with: "<img ") {
                    target = open..<start
                } else if ends(b, at: start, with: "</a>"), let open = lastIndex(of: "<a ", in: b, before: start - 4),
                          let close = b[open..<start].firstIndex(of: UInt8(ascii: ">")) {
                    target = open..<(close + 1)
                }
            } else if ends(b, at: start, with: "\n"), starts(b, at: end, with: "</p>"), let open = openParagraph(b, before: start) {
                target = open
                removal = (start - 1)..<end
            } else if !prepared.pythonMarkdown, ends(b, at: start, with: "<p>"), starts(b, at: end, with: "</p>\n") {
                removal = (start - 3)..<(end + 5)
                if ends(b, at: start - 3, with: ">\n"), let heading = closedHeading(b, before: start - 4) {
                    target = heading
                    if let id = list.attributes.last(where: { $0.name == "id" })?.value,
                       let old = headingID(b, heading) {
                        ids[old] = id
                    }
                }
            }
            guard let target else {
                if prepared.pythonMarkdown {
                    // Text in Python-Markdown too: put back as written.
                    let comment = list.heading && ends(b, at: start, with: "<!--") && starts(b, at: end, with: "-->")
                    putBack.append((comment ? (start - 4)..<(end + 3) : start..<end,
                                    (list.heading ? [UInt8(ascii: " ")] : []) + Array(Escaping.html(list.text).utf8)))
                    continue
                }
                drops.append(removal)
                warnings.append(MarkdownWarning(line: list.line, column: list.column,
                    message: "kramdown attribute list here has no paragraph, heading, image or link to go to; it is removed"))
                continue
            }
            drops.append(removal)
            tags[target.lowerBound, default: (target.upperBound, [])].attributes += list.attributes
        }
        // Rebuild: rewritten tags and dropped ranges never overlap (a tag ends before its mark starts).
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 256)
        var edits: [(range: Range<Int>, text: [UInt8])] = drops.map { ($0, []) } + putBack
        for (start, tag) in tags {
            edits.append((start..<tag.end, Array(setting(tag.attributes, in: String(decoding: b[start..<tag.end], as: UTF8.self)).utf8)))
        }
        var copied = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where edit.range.lowerBound >= copied {
            out.append(contentsOf: b[copied..<edit.range.lowerBound])
            out.append(contentsOf: edit.text)
            copied = edit.range.upperBound
        }
        out.append(contentsOf: b[copied...])
        return (String(decoding: out, as: UTF8.self), warnings, ids)
    }

    private static func ends(_ b: [UInt8], at index: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= count else { return false }
        return b[(index - count)..<index].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count))
    }

    private static func starts(_ b: [UInt8], at index: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= b.count else { return false }
        return b[index..<(index + count)].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count))
    }

    private static func lastIndex(of byte: UInt8, in b: [UInt8], before index: Int) -> Int? {
        var i = index - 1
        while i >= 0 {
            if b[i] == byte { return i }
            i -= 1
        }
        return nil
    }

    private static func lastIndex(of text: StaticString, in b: [UInt8], before index: Int) -> Int? {
        var i = index - text.utf8CodeUnitCount
        while i >= 0 {
            if starts(b, at: i, with: text) { return i }
            i -= 1
        }
        return nil
    }

    /// The opening tag (`<p>` or `<p …>`) of the paragraph still open at `index`.
    private static func openParagraph(_ b: [UInt8], before index: Int) -> Range<Int>? {
        var i = index - 2
        while i >= 0 {
            if b[i] == UInt8(ascii: "<"), i + 2 < b.count {
                if starts(b, at: i, with: "</p>") { return nil }
                if b[i + 1] == UInt8(ascii: "p"), b[i + 2] == UInt8(ascii: ">") || b[i + 2] == UInt8(ascii: " "),
                   let close = b[i..<index].firstIndex(of: UInt8(ascii: ">")) {
                    return i..<(close + 1)
                }
            }
            i -= 1
        }
        return nil
    }

    /// The opening tag of the heading that ends at `index` (right after its `</hN>`).
    private static func closedHeading(_ b: [UInt8], before index: Int) -> Range<Int>? {
        guard index >= 5, starts(b, at: index - 5, with: "</h"), b[index - 1] == UInt8(ascii: ">") else { return nil }
        let level = b[index - 2]
        guard level >= UInt8(ascii: "1"), level <= UInt8(ascii: "6") else { return nil }
        var i = index - 6
        while i >= 0 {
            if b[i] == UInt8(ascii: "<"), i + 2 < b.count, b[i + 1] == UInt8(ascii: "h"), b[i + 2] == level,
               let close = b[i..<index].firstIndex(of: UInt8(ascii: ">")) {
                return i..<(close + 1)
            }
            i -= 1
        }
        return nil
    }

    /// The `id` of the heading tag at `range`.
    private static func headingID(_ b: [UInt8], _ range: Range<Int>) -> String? {
        let tag = Array(b[range])
        guard let start = ByteSearch.firstIndex(of: Array(" id=\"".utf8), in: tag, from: 0),
              let end = tag[(start + 5)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: tag[(start + 5)..<end], as: UTF8.self)
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
