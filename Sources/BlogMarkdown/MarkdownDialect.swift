import BlogContent

/// The markdown a post was written for: cmark-gfm parses CommonMark with the GFM extensions, and
/// for the generators whose markdown differs, the Markdown stage makes the constructs below come
/// out as they did there.
///
/// | construct | `pythonMarkdown` | `kramdown` | `goldmark` | `commonMark` |
/// |---|---|---|---|---|
/// | `##Title` (no space) is a heading | yes | | | |
/// | a raw HTML line ends its HTML block, the markdown after it is rendered | yes | yes | | |
/// | `Term` + `: definition` is a definition list | yes | yes | yes | |
/// | a list item on the line after a paragraph's starts a list (else: text of the paragraph) | | yes | yes | yes |
/// | `> a`, blank line, `> b` is one block quote | yes | | | |
/// | a `<div>` holding blank lines is raw HTML up to its `</div>` | yes | yes | | |
/// | `[x](/my file.png)` (spaces in a destination) is a link | yes | | | |
/// | `<p>` in a list's items only next to a blank line | yes | | | |
/// | curly quotes, dashes and ellipses (`markdown.smart_punctuation: auto`) | | yes | yes | yes |
/// | footnotes in the generator's markup (``FootnoteStyle``) | | yes | yes | |
/// | an item's first paragraph bare per item (``KramdownListItems``) | | yes | | |
/// | no markdown in `<code>`, `<kbd>`, `<samp>`, `<var>` (``KramdownRawSpans``) | | yes | | |
/// | `*`/`**` paired by the generator's rule, not CommonMark's flanking (`これは**「強調」**です`) (``EmphasisRuns``) | yes | yes | | |
/// | a quote after markup closes before `s` or a space (`` `Mirror`'s ``) (``KramdownQuotes``) | | yes | | |
/// | goldmark's typographer (quotes decided one by one) (``GoldmarkTypographer``) | | | yes | |
/// | the first `<!--more-->` out of the page, wherever it is (``HugoSummaryDivider``) | | | yes | |
package enum MarkdownDialect: String, Sendable, CaseIterable {
    /// CommonMark with the GFM extensions, as cmark-gfm reads it (posts written for no known generator).
    case commonMark
    /// Python-Markdown with Pelican's extensions (`extra`, `codehilite`, `meta`): Pelican-form posts.
    case pythonMarkdown
    /// kramdown with GFM input, Jekyll's default: Jekyll posts.
    case kramdown
    /// goldmark with Hugo's default extensions: Hugo posts.
    case goldmark

    /// Whether a line of `#`s followed by text without a space is a heading (Python-Markdown).
    var hashHeadings: Bool { self == .pythonMarkdown }

    /// Whether an HTML block ends where its element does, or at once for an inline element, rather
    /// than at the next blank line (Python-Markdown, kramdown).
    var htmlBlocksEndWithTheirElement: Bool { self == .pythonMarkdown || self == .kramdown }

    /// Whether a list may start on the line after a paragraph's, with no blank line between
    /// (CommonMark); Python-Markdown keeps `* a` there as text of the paragraph.
    var listsInterruptParagraphs: Bool { self != .pythonMarkdown }

    /// Whether a block quote after a block quote, only blank lines between, goes on in it
    /// (Python-Markdown); CommonMark ends a quote at a blank line.
    var blockQuotesJoinAcrossBlankLines: Bool { self == .pythonMarkdown }

    /// Whether a block element's raw HTML at the top of the text goes on to its closing tag across
    /// blank lines (Python-Markdown, kramdown); CommonMark ends it at a blank line.
    var htmlBlocksKeepBlankLines: Bool { self == .pythonMarkdown || self == .kramdown }

    /// Whether `markdown="1"` on such a block's opening tag makes its content markdown by Python-Markdown's
    /// `md_in_html` rules (``HTMLBlocksAcrossBlankLines/openForMarkdown(_:tag:lines:edits:)``).
    var markdownInHTMLAsPythonMarkdown: Bool { self == .pythonMarkdown }

    /// Whether each list item is loose or tight by itself (Python-Markdown: the items next to a
    /// blank line), rather than the whole list (CommonMark).
    var looseItemByItem: Bool { self == .pythonMarkdown }

    /// Whether a link's destination may hold spaces without `<…>` (Python-Markdown:
    /// `[x](/my file.png)`).
    var linkDestinationsWithSpaces: Bool { self == .pythonMarkdown }

    /// Whether `*` and `**` pair one after another whatever is around them (`これは**「強調」**です` is strong),
    /// as Python-Markdown's and kramdown's emphasis do, rather than by CommonMark's flanking rules
    /// (see ``EmphasisRuns``).
    var emphasisByRuns: Bool { self == .pythonMarkdown || self == .kramdown }

    /// Whether `Term` + `: definition` lines make a definition list (Python-Markdown's `def_list`,
    /// kramdown, goldmark's `definitionList` which Hugo turns on).
    var definitionLists: Bool { self != .commonMark }

    /// Whether straight quotes, `--`, `---` and `...` become curly quotes, dashes and ellipses by
    /// default: kramdown's and goldmark's typographers are on by default (cmark-gfm's smart
    /// punctuation stands in for both, with goldmark's quotes set by ``GoldmarkTypographer``); Python-Markdown makes them only with `smarty`, which
    /// Pelican does not enable.
    var smartPunctuation: Bool { self != .pythonMarkdown }

    /// The generator's markdown library, for messages.
    var generatorName: String {
        switch self {
        case .commonMark: return "CommonMark"
        case .pythonMarkdown: return "Python-Markdown"
        case .kramdown: return "kramdown"
        case .goldmark: return "goldmark"
        }
    }

    /// Whether this dialect needs any pass beyond cmark-gfm's parse.
    var needsFixes: Bool { self != .commonMark }
}

// Here rather than in Content: Content reads posts and knows nothing of the markdown stage.
extension Post {
    /// The markdown the post was written for, told by its header and its path:
    /// - a Pelican-form header: Python-Markdown;
    /// - a YAML header, in a `_posts` or `_drafts` folder or named `YYYY-MM-DD-…` (Jekyll's posts):
    ///   kramdown, Jekyll's default;
    /// - any other YAML header, and TOML: goldmark (Hugo);
    /// - no header: CommonMark.
    package var markdownDialect: MarkdownDialect {
        switch headerFormat {
        case .pelican: return .pythonMarkdown
        case .toml: return .goldmark
        case .none: return .commonMark
        case .yaml:
            return PostReader.isJekyllPost(source: source, contentPath: contentPath) ? .kramdown : .goldmark
        }
    }
}
