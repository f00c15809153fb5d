import BlogConfig
import BlogContent
import BlogCore
import BlogLiquid
import Foundation

/// The markdown stage: every placed post's body and summary to HTML, on all cores. A Jekyll- or
/// Hugo-form post (a YAML or TOML header) is first run through Liquid and its shortcodes, then every
/// post through cmark-gfm in its dialect, and last its Pelican `{filename}` links are rewritten.
///
/// The stage does not see the site model: what it needs from the placed site (where the other posts
/// are, Liquid's `page` of a post) comes in as closures, and the site takes the rendered values back.
package enum MarkdownStage {
    /// Each of `count` pages (`page(index)`: a post, and the URL path of its page in the placed site:
    /// `/posts/name/`) rendered under `config`, in order, with the posts' messages in order.
    /// - Parameters:
    ///   - page: asked on every core, once for each index: each post is taken from the site as it is rendered,
    ///     not copied into an array on one core first.
    ///   - liquid: what Liquid and shortcodes resolve against (see ``liquidContext(config:resolvePost:resolvePath:)``).
    ///   - liquidPage: Liquid's `page` of a Jekyll-form post placed at a URL path.
    ///   - rewriteLinks: the HTML rendered from a post with its Pelican `{filename}` links rewritten, messages
    ///     about links to nothing, and whether the HTML returned links elsewhere (``BodyText/linksElsewhere``; nil
    ///     when not known).
    ///   - memo: the posts kept from the last build of the process (`blog serve`), which keeps what this
    ///     build renders for the next; nil when nothing is kept.
    ///   - keepingOthers: the pages are some of the site's posts, the others' markdown kept elsewhere: the memo keeps
    ///     what it holds of those.
    /// - Returns: each page's markdown and messages, in order.
    package static func render(_ count: Int, page: (Int) -> (post: Post, url: String), config: SiteConfig, liquid: LiquidContext,
                               liquidPage: (Post, String) -> MetaValue, rewriteLinks: (String, Post) -> (String, [Diagnostic], Bool?),
                               memo: MarkdownMemo?, keepingOthers: Bool = false) -> (rendered: [RenderedMarkdown], diagnostics: [[Diagnostic]]) {
        var rendered = Parallel.map(count) { index -> (RenderedMarkdown, [Diagnostic]) in
            let (post, url) = page(index)
            let options = config.markdownOptions(for: post)
            if let kept = memo?.rendered(post, options: options) { return kept }
            var (body, summary, linkWarnings) = (post.body, post.summary, [Diagnostic]())
            var fragments: (body: [String], summary: [String]) = ([], [])
            if post.headerFormat == .yaml || post.headerFormat == .toml {
                // Jekyll-form posts are run as Liquid templates; others have their links and shortcodes rewritten.
                let page = liquidPage(post, url)
                let runsLiquid = post.markdownDialect == .kramdown
                let done = Liquid.run(body, path: post.source, firstLine: post.bodyLine, context: liquid, page: page, runsLiquid: runsLiquid)
                (body, linkWarnings, fragments.body) = (done.markdown, done.diagnostics, done.fragments)
                if let text = summary {
                    let done = Liquid.run(text, path: post.source, firstLine: post.bodyLine, context: liquid, page: page, runsLiquid: runsLiquid)
                    (summary, fragments.summary) = (done.markdown, done.fragments)
                }
            }
            var markdown = MarkdownRenderer.render(body: body, summary: summary, options: options)
            markdown.html = ShortcodeMarks.restore(markdown.html, fragments: fragments.body, policy: options.html)
            markdown.summaryHTML = ShortcodeMarks.restore(markdown.summaryHTML, fragments: summary == nil ? fragments.body : fragments.summary,
                                                          policy: options.html)
            if !fragments.body.isEmpty { MarkdownRenderer.fillTableOfContents(&markdown, mark: TableOfContents.shortcodeMark, options: options) }
            let (html, pelicanWarnings, bodyLinks) = rewriteLinks(markdown.html, post)
            markdown.html = html
            let summaryLinks: Bool?
            (markdown.summaryHTML, _, summaryLinks) = rewriteLinks(markdown.summaryHTML, post)
            // Read once here for the word count and the summary's text; the search words are read as the
            // index is written (see BodyText).
            markdown.text = BodyText(html: markdown.html, summaryHTML: markdown.summaryHTML)
            if let bodyLinks, let summaryLinks { markdown.text?.linksElsewhere = bodyLinks || summaryLinks }
            let diagnostics = linkWarnings + pelicanWarnings + markdown.diagnostics(path: post.source, bodyLine: post.bodyLine)
            memo?.keep(post, options: options, rendered: markdown, diagnostics: diagnostics)
            return (markdown, diagnostics)
        }
        memo?.finishMarkdown(keepingOthers: keepingOthers)
        // Each page's HTML moved out of its pair, not copied: a copy retains each of its strings, and the pairs'
        // release releases them again, on one core.
        var markdown: [RenderedMarkdown] = []
        markdown.reserveCapacity(rendered.count)
        var diagnostics: [[Diagnostic]] = []
        diagnostics.reserveCapacity(rendered.count)
        for index in rendered.indices {
            var moved = RenderedMarkdown(html: "", summaryHTML: "", headings: [])
            swap(&moved, &rendered[index].0)
            markdown.append(moved)
            diagnostics.append(rendered[index].1)
        }
        return (markdown, diagnostics)
    }

    /// What Jekyll's `{{ site.baseurl }}` and `{{ site.url }}` become under `config`, with `{% post_url %}`
    /// resolved through `resolvePost`, and `{% link %}` and Hugo's `ref` through `resolvePath`.
    package static func liquidContext(config: SiteConfig, resolvePost: @escaping @Sendable (String) -> String?,
                                      resolvePath: @escaping @Sendable (String) -> String?) -> LiquidContext {
        let basePath = config.basePath.hasSuffix("/") ? String(config.basePath.dropLast()) : config.basePath
        var siteURL = ""
        if let url = URL(string: config.baseURL), let scheme = url.scheme, let host = url.host {
            siteURL = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
        return LiquidContext(baseURL: basePath, siteURL: siteURL, resolvePost: resolvePost, resolvePath: resolvePath,
                             timeZone: config.timeZone)
    }
}

/// Rendered posts kept from one build of the process to the next (BlogIncremental's `BuildMemo`, in
/// `blog serve`): a post whose body and options did not change is not rendered again.
package protocol MarkdownMemo: AnyObject, Sendable {
    /// The markdown of `post` with `options` and its messages as the last build rendered it; nil when it
    /// was not kept or its source changed.
    func rendered(_ post: Post, options: MarkdownOptions) -> (RenderedMarkdown, [Diagnostic])?
    /// Keeps `rendered` for the next build (called on all cores).
    func keep(_ post: Post, options: MarkdownOptions, rendered: RenderedMarkdown, diagnostics: [Diagnostic])
    /// The build's posts are rendered: what it kept is what the next build finds; with `keepingOthers` it keeps what
    /// it holds of the posts the build did not render.
    func finishMarkdown(keepingOthers: Bool)
}
