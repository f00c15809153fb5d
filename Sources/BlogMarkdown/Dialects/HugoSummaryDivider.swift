import BlogCore

/// Hugo's summary divider in goldmark (Hugo-form) posts (issue 29). Hugo finds the first `<!--more-->` of
/// the content before the markdown is read, wherever it is (in code too), drops it with the white
/// space after it, and puts a block break in its place: the divider is never in the page, the text
/// before it is the summary, and one written in a code block or span is taken out of the code (which
/// a code span does not survive). Later ones are text as any other. blog does the same: the divider
/// becomes a paragraph holding ``placeholder``, which marks the summary's end (``SummarySelection``) and
/// is removed from the HTML with every other trace of it.
enum HugoSummaryDivider {
    /// Hugo's divider, exactly (no spaces, lower case).
    static let divider = "<!--more-->"

    /// What stands for the divider while the text is parsed: private-use characters no post holds.
    static let placeholder = "\u{E000}hugo-summary-divider\u{E000}"

    /// `markdown` with its first divider replaced, and how to map a line of the result back; nil
    /// when it has none.
    static func prepare(_ markdown: String) -> (text: String, originalLine: (Int) -> Int)? {
        guard let found = markdown.range(of: divider) else { return nil }
        var end = found.upperBound
        var newlines = 0
        while end < markdown.endIndex, markdown[end].isWhitespace {
            newlines += markdown[end].isNewline ? 1 : 0
            end = markdown.index(after: end)
        }
        let line = 1 + markdown[..<found.lowerBound].utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let text = markdown[..<found.lowerBound] + "\n\n" + placeholder + "\n\n" + markdown[end...]
        // Line `line + 4` of the text is line `line + newlines` of the markdown; the lines between are the divider's.
        return (text, { $0 <= line ? $0 : $0 < line + 4 ? line : $0 - 4 + newlines })
    }

    /// `html` without the divider's paragraph and placeholder.
    static func finish(_ html: String) -> String {
        guard html.contains(placeholder) else { return html }
        return html.replacingOccurrences(of: "<p>" + placeholder + "</p>\n", with: "")
            .replacingOccurrences(of: placeholder, with: "")
    }

    /// Whether `node` is the paragraph that stands for the divider.
    static func isPlaceholder(_ node: CmarkNode) -> Bool {
        guard let child = node.firstChild, child.next == nil else { return false }
        return child.literal == placeholder
    }
}
