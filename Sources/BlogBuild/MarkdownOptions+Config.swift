import BlogConfig
import BlogContent
import BlogMarkdown

extension SiteConfig {
    /// How the markdown of `post` is rendered under this configuration: one place for the build
    /// and the quick build, so both (and the cache, which keys on the options) agree.
    func markdownOptions(for post: Post) -> MarkdownOptions {
        MarkdownOptions(tagfilter: tagfilter, dialect: post.markdownDialect, highlight: highlight, highlightStyle: highlightStyle)
    }
}
