import BlogConfig
import BlogCore

/// The addresses that need the site's `base_url`; the rest of ``AbsoluteURLs`` (resolving and rewriting
/// references) is plain text work in BlogCore, which the link checker uses without the site model.
extension AbsoluteURLs {
    /// Whether `base_url` is a full `http(s)` address rather than only a path.
    package static func isAbsolute(_ config: SiteConfig) -> Bool {
        SiteLinks(config: config).absoluteBase != nil
    }

    /// The address of a site-relative URL (`posts/x/`): `https://example.org/blog/posts/x/`, or
    /// `/blog/posts/x/` when `base_url` is a path. Characters not allowed in a URL are percent-encoded.
    package static func url(_ siteRelative: String, config: SiteConfig) -> String {
        SiteLinks(config: config).address(siteRelative)
    }
}
