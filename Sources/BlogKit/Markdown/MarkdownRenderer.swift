import CCmarkGFM

/// How markdown is turned into HTML, beyond what every post gets.
public struct MarkdownOptions: Sendable, Equatable {
    /// Escape raw `<script>`, `<iframe>`, `<style>` and the other tags GFM's tagfilter disallows.
    /// Off by default: real blogs embed tweet widgets and videos.
    public var tagfilter: Bool = false

    /// Creates options; everything off by default.
    public init(tagfilter: Bool = false) {
        self.tagfilter = tagfilter
    }
}

/// Renders markdown with cmark-gfm: tables, strikethrough, autolinks, task lists, footnotes, raw
/// HTML, smart punctuation, CodeHilite code block markers.
/// Safe to call from several threads at once.
public enum MarkdownRenderer {
    /// Renders a post body, and its `summary` header field when given.
    ///
    /// The summary is the `summary` field rendered when given, else empty for now.
    public static func render(body: String, summary: String?, options: MarkdownOptions = MarkdownOptions()) -> RenderedMarkdown {
        let tagfilter = options.tagfilter
        let html = withPreparedDocument(body) { document in GFM.html(document.pointer, tagfilter: tagfilter) }
        let summaryHTML = summary.map { summary in
            withPreparedDocument(summary) { document in GFM.html(document.pointer, tagfilter: tagfilter) }
        }
        return RenderedMarkdown(html: html, summaryHTML: summaryHTML ?? "", headings: [])
    }

    /// Parses `markdown`, restyles its code blocks, passes the document to `use`, then frees the tree.
    private static func withPreparedDocument<T>(_ markdown: String, _ use: (CmarkNode) -> T) -> T {
        let document = CmarkNode(pointer: GFM.parse(markdown))
        defer { cmark_node_free(document.pointer) }
        // The list is made before any edit: editing frees nodes, and cmark's iterator must not
        // walk a tree that changes under it.
        document.descendants(ofType: CMARK_NODE_CODE_BLOCK).forEach(CodeBlockStyle.apply)
        return use(document)
    }
}
