import CCmarkGFM

/// How markdown is turned into HTML, beyond what every post gets.
public struct MarkdownOptions: Sendable, Equatable, Encodable {
    /// Escape raw `<script>`, `<iframe>`, `<style>` and the other tags GFM's tagfilter disallows.
    /// Off by default: real blogs embed tweet widgets and videos.
    public var tagfilter: Bool = false

    /// Creates options; everything off by default.
    public init(tagfilter: Bool = false) {
        self.tagfilter = tagfilter
    }
}

/// Renders markdown with cmark-gfm: tables, strikethrough, autolinks, task lists, footnotes, raw
/// HTML, smart punctuation, CodeHilite code block markers, and an `id` on every heading.
/// Safe to call from several threads at once.
public enum MarkdownRenderer {
    /// Renders a post body, and its `summary` header field when given.
    ///
    /// The summary is the `summary` field rendered when given; else the body's top-level blocks
    /// before a `<!-- more -->` marker; else the body's first top-level paragraph; else empty.
    /// A summary taken from the body is rendered from the same tree, so its heading ids match.
    public static func render(body: String, summary: String?, options: MarkdownOptions = MarkdownOptions()) -> RenderedMarkdown {
        let tagfilter = options.tagfilter
        var rendered = withPreparedDocument(body, tagfilter: tagfilter) { document, headings in
            let summaryHTML = summary == nil
                ? SummarySelection.blocks(of: document).map { GFM.html($0.pointer, tagfilter: tagfilter) }.joined()
                : ""
            return RenderedMarkdown(html: GFM.html(document.pointer, tagfilter: tagfilter), summaryHTML: summaryHTML, headings: headings)
        }
        if let summary {
            rendered.summaryHTML = withPreparedDocument(summary, tagfilter: tagfilter) { document, _ in
                GFM.html(document.pointer, tagfilter: tagfilter)
            }
        }
        return rendered
    }

    /// Parses `markdown`, restyles its code blocks and anchors its headings, passes the document and
    /// its headings to `use`, then frees the tree.
    private static func withPreparedDocument<T>(_ markdown: String, tagfilter: Bool,
                                                _ use: (CmarkNode, [Heading]) -> T) -> T {
        let document = CmarkNode(pointer: GFM.parse(markdown))
        defer { cmark_node_free(document.pointer) }
        // Both lists are made before any edit: editing frees nodes, and cmark's iterator must not
        // walk a tree that changes under it.
        let codeBlocks = document.descendants(ofType: CMARK_NODE_CODE_BLOCK)
        let headingNodes = document.descendants(ofType: CMARK_NODE_HEADING)
        codeBlocks.forEach(CodeBlockStyle.apply)
        let headings = HeadingAnchors.apply(to: headingNodes, tagfilter: tagfilter)
        return use(document, headings)
    }
}
