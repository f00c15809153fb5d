import CCmarkGFM
import Foundation

/// Renders markdown with cmark-gfm and its GFM extensions.
public enum MarkdownRenderer {
    /// Renders a post's body (and its `summary` field, when given).
    public static func render(body: String, summary: String?) -> RenderedMarkdown {
        let html = renderHTML(body)
        return RenderedMarkdown(html: html, summaryHTML: summary.map(renderHTML) ?? html, headings: [])
    }

    static func renderHTML(_ markdown: String) -> String {
        guard let cString = cmark_markdown_to_html(markdown, markdown.utf8.count, CMARK_OPT_UNSAFE) else { return "" }
        defer { free(cString) }
        return String(cString: cString)
    }
}
