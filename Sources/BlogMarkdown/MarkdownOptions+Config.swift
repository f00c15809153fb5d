import BlogConfig
import BlogContent

extension SiteConfig {
    /// How the markdown of `post` is rendered under this configuration: one place for the full build
    /// and the build in place, so both agree.
    package func markdownOptions(for post: Post) -> MarkdownOptions {
        MarkdownOptions(tagfilter: tagfilter, dialect: post.markdownDialect, highlight: highlight, highlightStyle: highlightStyle)
    }
}
