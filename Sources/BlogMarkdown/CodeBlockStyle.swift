import BlogCore
import CCmarkGFM

/// The first line of an indented code block read as a Python-Markdown CodeHilite marker:
/// `::python` (two or more colons, as CodeHilite's pattern `^::+` says) names the language;
/// `#!python` also asks for line numbers; a shebang with a path (`#!/usr/bin/python`,
/// `#!/usr/bin/env python3`) stays in the code and takes the language from the interpreter's name.
struct CodeHiliteMarker: Equatable {
    /// The language, lower-cased.
    var language: String
    /// Whether the block is shown with line numbers (the `#!` forms, as CodeHilite does).
    var lineNumbers: Bool
    /// Whether the marker line is part of the code (it names a path).
    var keepsLine: Bool
    /// Whether the marker asks for lines to be highlighted (`hl_lines="2 3"`), which blog does not do.
    var highlightsLines: Bool

    /// Reads `line` (a code block's first line), or returns nil when it is no marker.
    ///
    /// Where CodeHilite's pattern gives odd results, this reads the line as a person would: the
    /// language of `#!/bin/bash -e` is `bash` (not `-e`), `#!/usr/bin/env -S python3` gives
    /// `python3`, `::: python` drops the line like `:::python`. Colons need three; anything after
    /// the language (`hl_lines="2"`) is ignored; a language is ASCII letters, digits and `_#.+-`.
    init?(line: Substring) {
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
        let words = rest.split { $0.isWhitespace }
        let name: Substring
        if let path = words.first, path.hasPrefix("/") {
            let interpreter = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            name = interpreter == "env" ? words.dropFirst().first { !$0.hasPrefix("-") } ?? "" : interpreter
            keepsLine = true
        } else {
            name = words.first ?? ""
            keepsLine = false
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_#.+-".contains($0)) }) else {
            return nil
        }
        language = name.lowercased()
        highlightsLines = words.dropFirst().contains { $0.hasPrefix("hl_lines=") }
    }
}

/// Sets the language class of code blocks by editing the cmark tree: fenced blocks get the first
/// word of their info string lower-cased; indented blocks follow their `CodeHiliteMarker`.
enum CodeBlockStyle {
    /// Restyles `block`, a `CMARK_NODE_CODE_BLOCK`. A block that needs line numbers is replaced by
    /// an HTML block, since cmark cannot put a class on `<pre>`; `block` is freed then. Returns a
    /// warning when the marker asks for what blog does not do.
    @discardableResult
    static func apply(to block: CmarkNode) -> String? {
        var fenceLength: Int32 = 0, fenceOffset: Int32 = 0, fenceCharacter: CChar = 0
        if cmark_node_get_fenced(block.pointer, &fenceLength, &fenceOffset, &fenceCharacter) != 0 {
            let info = cmark_node_get_fence_info(block.pointer).map { String(cString: $0) } ?? ""
            let language = fenceLanguage(info: info)
            if language != info { cmark_node_set_fence_info(block.pointer, language) }
            return nil
        }
        guard let code = block.literal else { return nil }
        let lineEnd = code.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? code.endIndex
        guard let marker = CodeHiliteMarker(line: code[..<lineEnd]) else { return nil }
        let shown: String
        if marker.keepsLine {
            shown = code
        } else if lineEnd == code.endIndex {
            shown = ""
        } else {
            shown = String(code[code.utf8.index(after: lineEnd)...])
        }
        if marker.lineNumbers {
            block.replace(withHTMLBlock: "<pre class=\"linenums\"><code class=\"language-\(Escaping.html(marker.language))\">"
                + Escaping.html(shown) + "</code></pre>")
        } else {
            // cmark renders the info string of an indented block too (checked on 0.29.0.gfm.6):
            // no need to mark it fenced.
            cmark_node_set_fence_info(block.pointer, marker.language)
            if !marker.keepsLine { cmark_node_set_literal(block.pointer, shown) }
        }
        return marker.highlightsLines
            ? "hl_lines in a CodeHilite marker is not supported: the code block is shown without highlighted lines" : nil
    }

    /// The language class of a fenced block: the info string's first word (up to a space or a
    /// comma, as in ```` ```swift, nocopy ````), lower-cased.
    static func fenceLanguage(info: String) -> String {
        String(info.prefix { !$0.isWhitespace && $0 != "," }).lowercased()
    }
}
