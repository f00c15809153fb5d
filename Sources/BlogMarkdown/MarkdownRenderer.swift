import BlogConfig
import BlogCore
import CCmarkGFM
import Foundation

/// How markdown is turned into HTML, beyond what every post gets.
package struct MarkdownOptions: Sendable, Equatable {
    /// What raw HTML may do: pass as written (the default: real blogs embed tweet widgets and
    /// videos), have GFM's tagfilter escape `<script>`, `<iframe>`, `<style>` and six more, or be
    /// sanitized (``HTMLSanitizer``).
    package var html: HTMLPolicy = .trusted

    /// The markdown the text was written for: whose headings, HTML blocks and definition lists
    /// it follows (see ``MarkdownDialect``).
    package var dialect: MarkdownDialect = .commonMark

    /// Highlight code blocks in a known language at build time (see ``CodeBlockStyle``), and show
    /// the line numbers and highlighted lines their markers ask for.
    package var highlight: Bool = false

    /// The theme's palette for highlighted code: `default`, or a name that becomes the class
    /// `highlight-NAME` of each highlighted block's `<pre>`.
    package var highlightStyle: String = "default"

    /// Curly quotes, dashes and ellipses (`markdown.smart_punctuation`); nil: as the dialect's generator
    /// does by default (``MarkdownDialect/smartPunctuation``).
    package var smartPunctuation: Bool?

    /// Whose rule makes the headings' ids (blog's own unless a `permalinks` preset names another generator).
    package var headingIDs: HeadingIDStyle = .blog

    /// Whether TeX math in Hugo- and Jekyll-form posts is kept from markdown (``MathPassthrough``): when
    /// the blog loads a renderer (`math_script`), as Hugo keeps it only when its passthrough is turned on.
    package var math = false

    /// The heading levels of a table of contents that the body asks for (`toc_levels`): Python-Markdown's
    /// `[TOC]`, Hugo's `{{< toc >}}` (see ``TableOfContents``).
    package var tocLevels: ClosedRange<Int> = 1...3

    /// Creates options; everything off, and plain CommonMark, by default. `tagfilter: true` is `html: .tagfilter`.
    package init(tagfilter: Bool = false, html: HTMLPolicy = .trusted, dialect: MarkdownDialect = .commonMark,
                 highlight: Bool = false, highlightStyle: String = "default") {
        self.html = max(html, tagfilter ? .tagfilter : .trusted)
        self.dialect = dialect
        self.highlight = highlight
        self.highlightStyle = highlightStyle
    }
}

/// Renders markdown with cmark-gfm: tables, strikethrough, autolinks, task lists, footnotes, raw
/// HTML, smart punctuation (as the dialect's generator makes it), CodeHilite code block markers, and an `id` on every heading; read as
/// the options' dialect reads it (see ``DialectDocument``).
/// Safe to call from several threads at once.
package enum MarkdownRenderer {
    /// Renders a post body, and its `summary` header field when given.
    ///
    /// The summary is the `summary` field rendered when given; else the body's top-level blocks
    /// before a `<!-- more -->` marker; else the body's first top-level paragraph; else empty.
    /// A summary taken from the body is rendered from the same tree, so its heading ids match.
    ///
    /// The warnings are the body's (the `summary` field's are not reported: it is no line of the body).
    ///
    /// With `html: sanitize`, the body and the summary go through ``HTMLSanitizer`` once every
    /// pass is done (kramdown's attribute lists add attributes too), and what it removed from the
    /// body is one warning at the first piece's line.
    package static func render(body: String, summary: String?, options: MarkdownOptions = MarkdownOptions()) -> RenderedMarkdown {
        guard options.math, options.dialect == .goldmark || options.dialect == .kramdown,
              MathPassthrough.mayHold(body) || summary.map(MathPassthrough.mayHold) == true else {
            return renderKeepingMath(body: body, summary: summary, options: options)
        }
        // TeX math in Hugo- and Jekyll-form posts reaches the page as written.
        let protectedBody = MathPassthrough.protect(body)
        let protectedSummary = summary.map(MathPassthrough.protect)
        var rendered = renderKeepingMath(body: protectedBody.markdown, summary: protectedSummary?.markdown, options: options)
        rendered.html = MathPassthrough.restore(rendered.html, spans: protectedBody.spans)
        rendered.summaryHTML = MathPassthrough.restore(rendered.summaryHTML, spans: protectedSummary?.spans ?? protectedBody.spans)
        rendered.math = !protectedBody.spans.isEmpty
        return rendered
    }

    /// ``render(body:summary:options:)`` once math is kept from markdown.
    private static func renderKeepingMath(body: String, summary: String?, options: MarkdownOptions) -> RenderedMarkdown {
        var rendered = renderPolicy(body: body, summary: summary, options: options)
        // Python-Markdown's `[TOC]`; Hugo's `{{< toc >}}` is filled once its shortcode is back (``MarkdownStage``).
        if options.dialect == .pythonMarkdown {
            // Looked for by its `[` (``ByteSearch/contains(_:_:by:)``): rare in HTML, since cmark writes a link as `<a>`.
            fillTableOfContents(&rendered, mark: TableOfContents.pelicanMark, rareByte: 3, options: options)
        }
        return rendered
    }

    /// `rendered` with its table of contents where the body has `mark`; a list page's summary
    /// shows none (its links lead into the post). With `rareByte`, the mark is looked for by its byte there
    /// (``ByteSearch/contains(_:_:by:)``).
    package static func fillTableOfContents(_ rendered: inout RenderedMarkdown, mark: String, rareByte: Int? = nil, options: MarkdownOptions) {
        guard rareByte.map({ ByteSearch.contains(rendered.html, mark, by: $0) }) ?? ByteSearch.contains(rendered.html, mark),
              let filled = TableOfContents(rendered.headings, levels: options.tocLevels).fill(rendered.html, marks: [mark]) else { return }
        rendered.html = filled
        rendered.summaryHTML = rendered.summaryHTML.replacingOccurrences(of: mark, with: "")
    }

    /// ``render(body:summary:options:)`` but the table of contents: the dialect, then the HTML policy.
    private static func renderPolicy(body: String, summary: String?, options: MarkdownOptions) -> RenderedMarkdown {
        var rendered = renderDialect(body: body, summary: summary, options: options)
        if FootnoteStyle.applies(to: options.dialect) {
            rendered.html = FootnoteStyle.apply(rendered.html, dialect: options.dialect)
            rendered.summaryHTML = FootnoteStyle.apply(rendered.summaryHTML, dialect: options.dialect)
        }
        guard options.html == .sanitize else { return rendered }
        let sanitized = HTMLSanitizer.sanitize(rendered.html)
        rendered.html = sanitized.html
        rendered.summaryHTML = HTMLSanitizer.sanitize(rendered.summaryHTML).html
        if let warning = sanitized.warning(in: body) {
            rendered.warnings = (rendered.warnings + [warning]).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        }
        return rendered
    }

    /// ``render(body:summary:options:)`` before the HTML policy: the dialect's passes and cmark-gfm's.
    private static func renderDialect(body: String, summary: String?, options: MarkdownOptions) -> RenderedMarkdown {
        let python = options.dialect == .pythonMarkdown
        if options.dialect == .kramdown || python,
           KramdownAttributes.mayHold(body, pythonMarkdown: python) || summary.map({ KramdownAttributes.mayHold($0, pythonMarkdown: python) }) == true {
            // kramdown's and Python-Markdown's attribute lists: marks in the markdown, given to their elements in the HTML.
            let preparedBody = KramdownAttributes.prepare(body, pythonMarkdown: python)
            let preparedSummary = summary.map { KramdownAttributes.prepare($0, pythonMarkdown: python) }
            var rendered = renderPrepared(body: preparedBody.text, summary: preparedSummary?.text, options: options)
            let (html, warnings, ids) = KramdownAttributes.apply(rendered.html, preparedBody)
            rendered.html = html
            for index in rendered.headings.indices {
                if let id = ids[rendered.headings[index].id] { rendered.headings[index].id = id }
            }
            rendered.summaryHTML = KramdownAttributes.apply(rendered.summaryHTML, preparedSummary ?? preparedBody).0
            rendered.warnings = (rendered.warnings + preparedBody.warnings + warnings).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
            return rendered
        }
        if options.dialect == .goldmark, let prepared = HugoSummaryDivider.prepare(body) {
            // Hugo's `<!--more-->`: out of the page, wherever it is.
            var rendered = renderPrepared(body: prepared.text, summary: summary, options: options)
            rendered.html = HugoSummaryDivider.finish(rendered.html)
            rendered.summaryHTML = HugoSummaryDivider.finish(rendered.summaryHTML)
            for index in rendered.warnings.indices { rendered.warnings[index].line = prepared.originalLine(rendered.warnings[index].line) }
            return rendered
        }
        return renderPrepared(body: body, summary: summary, options: options)
    }

    /// ``render(body:summary:options:)`` once the dialect's text-level passes are done.
    ///
    /// A summary taken from the body is rendered once: each of its blocks (top-level, so written alike alone and
    /// in the document) is then an HTML block of its HTML in the document, which cmark writes as it is, where its
    /// inlines were walked and escaped a second time (issue 32). `tagfilter` filters that HTML block again, which
    /// changes nothing: the filtered tags' `<` are `&lt;` already. `summaryOnce` false renders the blocks twice
    /// (the tests compare the two).
    static func renderPrepared(body: String, summary: String?, options: MarkdownOptions, summaryOnce: Bool = true) -> RenderedMarkdown {
        let tagfilter = options.html == .tagfilter
        var rendered = withPreparedDocument(body, options: options) { document, headings, warnings in
            var summaryHTML = ""
            if summary == nil {
                for block in SummarySelection.blocks(of: document) {
                    let html = GFM.html(block.pointer, tagfilter: tagfilter)
                    summaryHTML += html
                    if summaryOnce, block.type != CMARK_NODE_HTML_BLOCK { block.replace(withHTMLBlock: html) }
                }
            }
            return RenderedMarkdown(html: GFM.html(document.pointer, tagfilter: tagfilter), summaryHTML: summaryHTML,
                                    headings: headings, warnings: warnings)
        }
        if let summary {
            rendered.summaryHTML = withPreparedDocument(summary, options: options) { document, _, _ in
                GFM.html(document.pointer, tagfilter: tagfilter)
            }
        }
        return rendered
    }

    /// Parses `markdown` as the options' dialect reads it, restyles its code blocks and anchors its
    /// headings, passes the document, its headings and the warnings to `use`, then frees the tree (all of it
    /// at once: cmark allocates in the thread's arena, ``GFM/withArena(sized:_:)``).
    private static func withPreparedDocument<T>(_ markdown: String, options: MarkdownOptions,
                                                _ use: (CmarkNode, [Heading], [MarkdownWarning]) -> T) -> T {
        GFM.withArena(sized: markdown.utf8.count) {
            // goldmark's typography is its own (``GoldmarkTypographer``), in place of cmark-gfm's.
            let smart = options.smartPunctuation ?? options.dialect.smartPunctuation
            // Quotes written as entities are no quotes to goldmark's typographer.
            let marked = smart && options.dialect == .goldmark ? GoldmarkTypographer.markEntityQuotes(markdown) : nil
            let parsed = DialectDocument.parse(marked ?? markdown, dialect: options.dialect, smart: smart && options.dialect != .goldmark)
            let document = parsed.document
            defer { parsed.free() }
            if smart, options.dialect == .goldmark {
                GoldmarkTypographer.apply(to: document)
                if marked != nil { GoldmarkTypographer.restoreEntityQuotes(in: document) }
            }
            // Both lists are made before any edit: editing frees nodes, and cmark's iterator must not
            // walk a tree that changes under it.
            let (codeBlocks, headingNodes) = document.blocks(ofTypes: CMARK_NODE_CODE_BLOCK, CMARK_NODE_HEADING)
            var warnings = parsed.warnings
            for block in codeBlocks {
                let (line, column) = (parsed.originalLine(block.startLine), block.startColumn)
                if let message = CodeBlockStyle.apply(to: block, options: options) {
                    warnings.append(MarkdownWarning(line: line, column: column, message: message))
                }
            }
            let headings = HeadingAnchors.apply(to: headingNodes, tagfilter: options.html == .tagfilter, style: options.headingIDs)
            return use(document, headings, warnings.count > parsed.warnings.count
                ? warnings.sorted { ($0.line, $0.column) < ($1.line, $1.column) } : warnings)
        }
    }
}
