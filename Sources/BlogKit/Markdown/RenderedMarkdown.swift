/// A heading in a rendered body, with the `id` that links to it.
public struct Heading: Sendable, Equatable, Codable {
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

/// A post's body and summary as HTML.
public struct RenderedMarkdown: Sendable, Equatable, Codable {
    /// The whole body.
    public var html: String
    /// The summary for lists and feeds: the `summary` field rendered, else the body up to
    /// `<!-- more -->`, else the first paragraph.
    public var summaryHTML: String
    /// Every heading of the body, in order.
    public var headings: [Heading]

    public init(html: String, summaryHTML: String, headings: [Heading]) {
        self.html = html
        self.summaryHTML = summaryHTML
        self.headings = headings
    }
}
