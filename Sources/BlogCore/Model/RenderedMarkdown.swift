/// A heading in a rendered body, with the `id` that links to it.
public struct Heading: Sendable, Equatable {
    /// 1...6.
    public var level: Int
    /// The `id` attribute: slug of the text, unique in the page.
    public var id: String
    /// The heading's plain text.
    public var text: String

    public init(level: Int, id: String, text: String) {
        self.level = level
        self.id = id
        self.text = text
    }
}

/// Something in a body that blog renders otherwise than the generator it was written for.
public struct MarkdownWarning: Sendable, Equatable {
    /// The 1-based line in the body.
    public var line: Int
    /// The 1-based column in that line, in characters.
    public var column: Int
    /// What blog does, and what the generator does.
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// A post's body and summary as HTML.
public struct RenderedMarkdown: Sendable, Equatable {
    /// The whole body.
    public var html: String
    /// The summary for lists and feeds: the `summary` field rendered, else the body up to
    /// `<!-- more -->`, else the first paragraph.
    public var summaryHTML: String
    /// Every heading of the body, in order.
    public var headings: [Heading]
    /// What the body's dialect renders and blog can't (see ``MarkdownDialect``), in order.
    public var warnings: [MarkdownWarning]

    public init(html: String, summaryHTML: String, headings: [Heading], warnings: [MarkdownWarning] = []) {
        self.html = html
        self.summaryHTML = summaryHTML
        self.headings = headings
        self.warnings = warnings
    }

    /// The warnings as diagnostics of the file `path`, whose body starts at line `bodyLine`.
    public func diagnostics(path: String, bodyLine: Int) -> [Diagnostic] {
        warnings.map { .warning(path, line: bodyLine + $0.line - 1, column: $0.column, $0.message) }
    }
}
