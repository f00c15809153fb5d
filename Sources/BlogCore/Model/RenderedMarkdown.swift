/// A heading in a rendered body, with the `id` that links to it.
package struct Heading: Sendable, Equatable {
    /// 1...6.
    package var level: Int
    /// The `id` attribute: slug of the text, unique in the page.
    package var id: String
    /// The heading's plain text.
    package var text: String

    package init(level: Int, id: String, text: String) {
        self.level = level
        self.id = id
        self.text = text
    }
}

/// Something in a body that blog renders otherwise than the generator it was written for.
package struct MarkdownWarning: Sendable, Equatable {
    /// The 1-based line in the body.
    package var line: Int
    /// The 1-based column in that line, in characters.
    package var column: Int
    /// What blog does, and what the generator does.
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// A post's body and summary as HTML.
package struct RenderedMarkdown: Sendable, Equatable {
    /// The whole body.
    package var html: String
    /// The summary for lists and feeds: the `summary` field rendered, else the body up to
    /// `<!-- more -->`, else the first paragraph.
    package var summaryHTML: String
    /// Every heading of the body, in order.
    package var headings: [Heading]
    /// What the body's dialect renders and blog can't (see ``MarkdownDialect``), in order.
    package var warnings: [MarkdownWarning]
    /// What the page's features read of the body's text, read once where the body is made
    /// (``BodyText``, set by the markdown stage); nil for a body made elsewhere, read when asked.
    package var text: BodyText?
    /// The number of words of the body (``BodyText/words``).
    package var words: Int { text?.words ?? BodyText(html: html).words }
    /// Whether the body holds a table of contents (``BodyText/holdsTableOfContents``).
    package var holdsTableOfContents: Bool { text?.holdsTableOfContents
        ?? ByteSearch.contains(html, TableOfContents.filledStart, by: TableOfContents.filledStartAnchor) }
    /// The text of the summary (``BodyText/summary``).
    package var summaryText: String { text?.summary ?? WebText.plainText(fromHTML: summaryHTML, limit: BodyText.summaryCharacters) }
    /// Whether the body has TeX math kept as written for a renderer in the browser (`$…$`, `\(…\)`…).
    package var math = false
    /// Whether the body has a diagram for Mermaid (a fenced `mermaid` block).
    package var diagrams: Bool { ByteSearch.contains(html, Self.diagramStart, by: Self.diagramAnchor) }
    /// How a fenced `mermaid` block starts in the HTML.
    package static let diagramStart = "<pre class=\"mermaid\">"
    /// Where ``diagramStart`` is looked for (``ByteSearch/contains(_:_:by:)``): its `=`, about one byte in 100 of the
    /// benchmark's bodies (an attribute's), where memmem read every byte of every body (issue 32).
    package static let diagramAnchor = 10

    package init(html: String, summaryHTML: String, headings: [Heading], warnings: [MarkdownWarning] = []) {
        self.html = html
        self.summaryHTML = summaryHTML
        self.headings = headings
        self.warnings = warnings
    }

    /// The warnings as diagnostics of the file `path`, whose body starts at line `bodyLine`.
    package func diagnostics(path: String, bodyLine: Int) -> [Diagnostic] {
        warnings.map { .warning(path, line: bodyLine + $0.line - 1, column: $0.column, $0.message) }
    }
}
