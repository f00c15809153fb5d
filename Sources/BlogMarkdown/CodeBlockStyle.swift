import BlogCore
import BlogHighlight
import CCmarkGFM

/// The first line of an indented code block read as a Python-Markdown CodeHilite marker:
/// `::python` (two or more colons, as CodeHilite's pattern `^::+` says) names the language;
/// `#!python` also asks for line numbers; a shebang with a path (`#!/usr/bin/python`,
/// `#!/usr/bin/env python3`) stays in the code and takes the language from the interpreter's name.
struct CodeHiliteMarker: Equatable {
    /// The language, lower-cased; empty when the marker names none (`::` alone).
    var language: String
    /// Whether the block is shown with line numbers (the `#!` forms, as CodeHilite does).
    var lineNumbers: Bool
    /// Whether the marker line is part of the code (it names a path).
    var keepsLine: Bool
    /// Whether the marker asks for lines to be highlighted (`hl_lines="2 3"`), which blog does
    /// only when it highlights code.
    var highlightsLines: Bool
    /// What the rest of the line asks for (`hl_lines="2 3"`).
    var display: CodeDisplay

    /// Reads `line` (a code block's first line), or returns nil when it is no marker.
    ///
    /// With `exact` (Pelican posts), as CodeHilite's pattern reads it (`markdown/extensions/codehilite.py`,
    /// `_parseHeader`): `(?:^::+|^#!)(?P<path>(?:/\w+)*[/ ])?(?P<lang>[\w#.+-]*)`, searched in the line. A
    /// line that starts with `::` or `#!` is always a marker, whatever follows the language: `::swift::`,
    /// `:::swift!` and `::` alone are dropped (the last names no language: CodeHilite has Pygments guess
    /// one, blog shows the code plain). A path, or a single space after the marker (`::: python`), keeps
    /// the line in the code; the language is then the word after the space. Without `exact` (other
    /// generators have no such marker), only a marker whose first word is all language is read.
    ///
    /// Where CodeHilite's pattern gives odd results for a real shebang, this reads the line as a person
    /// would: the language of `#!/bin/bash -e` is `bash` (not `-e`), `#!/usr/bin/env -S python3` gives
    /// `python3`, `#! /bin/sh` gives `sh` (none for CodeHilite). The line is kept either way.
    init?(line: Substring, exact: Bool = false) {
        var rest = line
        if rest.hasPrefix("::") {
            rest = rest.drop { $0 == ":" }
            lineNumbers = false
        } else if rest.hasPrefix("#!") {
            rest = rest.dropFirst(2)
            lineNumbers = true
        } else {
            return nil
        }
        func isLanguage(_ character: Character) -> Bool { character.isLetter || character.isNumber || "_#.+-".contains(character) }
        let words = rest.split { $0.isWhitespace }
        let name: Substring
        if let path = words.first, path.hasPrefix("/") {
            let interpreter = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            name = interpreter == "env" ? words.dropFirst().first { !$0.hasPrefix("-") } ?? "" : interpreter
            keepsLine = true
        } else if exact {
            // CodeHilite's path group `[/ ]`: one space after the marker keeps the line.
            keepsLine = rest.first == " "
            name = (keepsLine ? rest.dropFirst() : rest).prefix(while: isLanguage)
        } else {
            name = words.first ?? ""
            keepsLine = false
        }
        guard exact || (!name.isEmpty && name.allSatisfy({ $0.isASCII && isLanguage($0) })) else { return nil }
        language = name.lowercased()
        highlightsLines = ByteSearch.contains(String(rest), "hl_lines=")
        display = CodeDisplay(options: rest)
        display.lines.numbers = lineNumbers
    }
}

/// How a code block asks to be shown beyond its language: its line numbers and highlighted lines,
/// read from a fenced block's info string (Hugo's `{linenos=table,hl_lines=[2,"4-6"]}`, Pelican's
/// `hl_lines="2 3"`) or a CodeHilite marker's line.
struct CodeDisplay: Equatable {
    /// The numbers and highlighted lines asked for.
    var lines = Highlighter.Lines()

    /// Lines the largest range may cover: a typo (`hl_lines=[1-99999999]`) costs no memory.
    static let maxLines = 100_000

    /// Reads `options`, the text after the language.
    init(options: Substring) {
        // Both keys end in `=`: most info strings (`swift`, `::python`) have none, and their look for each
        // key (a search by characters) cost some 5,000 instructions a code block.
        guard options.utf8.contains(UInt8(ascii: "=")) else { return }
        if let value = Self.value(of: "linenos=", in: options) {
            lines.numbers = ["true", "table", "inline"].contains(value.lowercased().filter { $0 != "\"" && $0 != "'" })
        }
        guard let value = Self.value(of: "hl_lines=", in: options) else { return }
        for item in value.split(whereSeparator: { " ,\"'[]".contains($0) }) {
            let bounds = item.split(separator: "-", maxSplits: 1).map { Int($0) }
            guard let first = bounds.first ?? nil, first >= 1 else { continue }
            let last = bounds.count == 2 ? (bounds[1] ?? first) : first
            guard last >= first, last - first < Self.maxLines else { continue }
            lines.highlighted.formUnion(first...last)
        }
    }

    /// The value after `key` in `options`: a `[…]` list, a quoted text, or a word.
    private static func value(of key: String, in options: Substring) -> Substring? {
        guard let range = options.range(of: key) else { return nil }
        let rest = options[range.upperBound...]
        guard let first = rest.first else { return nil }
        let end: Substring.Index?
        switch first {
        case "[": end = rest.firstIndex(of: "]").map { rest.index(after: $0) }
        case "\"", "'": end = rest.dropFirst().firstIndex(of: first).map { rest.index(after: $0) }
        default: end = rest.firstIndex { $0.isWhitespace || $0 == "," || $0 == "}" }
        }
        return rest[..<(end ?? rest.endIndex)]
    }
}

/// Sets the language class of code blocks by editing the cmark tree: fenced blocks get the first
/// word of their info string lower-cased; indented blocks follow their `CodeHiliteMarker`. With
/// highlighting on, a block in a known language (or one that asks for line numbers or highlighted
/// lines) becomes an HTML block: `<pre><code class="language-x">` and the code from ``Highlighter``.
enum CodeBlockStyle {
    /// Restyles `block`, a `CMARK_NODE_CODE_BLOCK`. A block that needs line numbers or is
    /// highlighted is replaced by an HTML block, since cmark cannot put a class on `<pre>` nor
    /// spans in code; `block` is freed then. Returns a warning when the marker asks for what blog
    /// does not do.
    @discardableResult
    static func apply(to block: CmarkNode, options: MarkdownOptions = MarkdownOptions()) -> String? {
        var fenceLength: Int32 = 0, fenceOffset: Int32 = 0, fenceCharacter: CChar = 0
        if cmark_node_get_fenced(block.pointer, &fenceLength, &fenceOffset, &fenceCharacter) != 0 {
            let info = cmark_node_get_fence_info(block.pointer).map { String(cString: $0) } ?? ""
            let (word, rest) = splitInfo(info)
            let language = word.lowercased()
            if language == "mermaid" {
                // A diagram, drawn in the browser by Mermaid: never highlighted.
                block.replace(withHTMLBlock: RenderedMarkdown.diagramStart + Escaping.html(block.literal ?? "") + "</pre>")
                return nil
            }
            if options.highlight {
                let display = CodeDisplay(options: rest)
                if Highlighter.language(named: language) != nil || display.lines != Highlighter.Lines() {
                    block.replace(withHTMLBlock: highlighted(block.literal ?? "", language: language, display: display,
                                                             style: options.highlightStyle))
                    return nil
                }
            }
            if language != info { cmark_node_set_fence_info(block.pointer, language) }
            return nil
        }
        guard let code = block.literal else { return nil }
        let lineEnd = code.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? code.endIndex
        guard let marker = CodeHiliteMarker(line: code[..<lineEnd], exact: options.dialect == .pythonMarkdown) else { return nil }
        let shown: String
        if marker.keepsLine {
            shown = code
        } else if lineEnd == code.endIndex {
            shown = ""
        } else {
            shown = String(code[code.utf8.index(after: lineEnd)...])
        }
        if options.highlight {
            block.replace(withHTMLBlock: highlighted(shown, language: marker.language, display: marker.display,
                                                     style: options.highlightStyle))
            return nil
        }
        if marker.lineNumbers {
            let code = marker.language.isEmpty ? "<code>" : "<code class=\"language-\(Escaping.html(marker.language))\">"
            block.replace(withHTMLBlock: "<pre class=\"linenums\">" + code + Escaping.html(shown) + "</code></pre>")
        } else {
            // cmark renders the info string of an indented block too (checked on 0.29.0.gfm.6):
            // no need to mark it fenced.
            cmark_node_set_fence_info(block.pointer, marker.language)
            if !marker.keepsLine { cmark_node_set_literal(block.pointer, shown) }
        }
        return marker.highlightsLines
            ? "hl_lines in a CodeHilite marker is not supported: the code block is shown without highlighted lines" : nil
    }

    /// A highlighted block: `<pre>` (with `linenums` when numbered, and `highlight-STYLE` for a
    /// palette other than the default), `<code class="language-x">`, the code in spans.
    private static func highlighted(_ code: String, language: String, display: CodeDisplay, style: String) -> String {
        var classes: [String] = []
        if display.lines.numbers { classes.append("linenums") }
        if style != "default" { classes.append("highlight-" + style) }
        let pre = classes.isEmpty ? "<pre>" : "<pre class=\"\(Escaping.html(classes.joined(separator: " ")))\">"
        let codeTag = language.isEmpty ? "<code>" : "<code class=\"language-\(Escaping.html(language))\">"
        return Highlighter.html(code, language: language, lines: display.lines, before: pre + codeTag, after: "</code></pre>")
    }

    /// The info string's first word (up to a `Character` that is whitespace or a comma, as in
    /// ```` ```swift, nocopy ````), whose lower-cased text is a fenced block's language class, and the rest.
    static func splitInfo(_ info: String) -> (word: Substring, rest: Substring) {
        if let end = asciiWordEnd(info) {
            let index = info.utf8.index(info.startIndex, offsetBy: end)
            return (info[..<index], info[index...])
        }
        let rest = info.drop { !$0.isWhitespace && $0 != "," }
        return (info[..<rest.startIndex], rest)
    }

    /// Where the first word of `info` ends, in bytes, when it can be told from the bytes: the word is
    /// ASCII, and so is the byte after the space, tab, line end or comma that ends it (a combining mark
    /// there would make the two one `Character`). Nil otherwise: the `Character`s tell.
    private static func asciiWordEnd(_ info: String) -> Int? {
        var info = info
        return info.withUTF8 { bytes in
            for (end, byte) in bytes.enumerated() {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || (byte >= 0x09 && byte <= 0x0D) {
                    return end + 1 < bytes.count && bytes[end + 1] >= 0x80 ? nil : end
                }
            }
            return bytes.count
        }
    }
}
