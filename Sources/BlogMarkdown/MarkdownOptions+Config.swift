import BlogConfig
import BlogContent

extension SiteConfig {
    /// How the markdown of `post` is rendered under this configuration: one place for the full build
    /// and the build in place, so both agree.
    package func markdownOptions(for post: Post) -> MarkdownOptions {
        // A post's own `html` applies only when stricter: a guest post can't loosen blog.yml's.
        var options = MarkdownOptions(html: max(html, post.html ?? html), dialect: post.markdownDialect, highlight: highlight,
                                      highlightStyle: highlightStyle)
        options.headingIDs = permalinks.preset?.headingIDs ?? .blog
        options.smartPunctuation = smartPunctuation
        options.tocLevels = tocLevels
        options.math = !mathScript.isEmpty
        return options
    }
}

extension PermalinkPreset {
    /// The heading ids of this generator's markdown: Pelican's Python-Markdown `toc`, Jekyll's
    /// kramdown, Hugo's goldmark.
    var headingIDs: HeadingIDStyle {
        switch self {
        case .pelican: return .pythonMarkdown
        case .jekyll, .jekyllPretty: return .kramdown
        case .hugo: return .goldmark
        }
    }
}
