import BlogConfig
import BlogCore
import Foundation

/// Link targets, all starting with the base path so that they work at any depth and under any prefix.
package struct SiteLinks {
    /// The percent-encoded base path (`/` or `/blog/`).
    let basePath: String
    /// The base URL when it is absolute (`https://example.org/blog/`), for canonical links.
    let absoluteBase: String?

    package init(config: SiteConfig) {
        basePath = WebText.encodePath(config.basePath)
        absoluteBase = config.baseURL.lowercased().hasPrefix("http") ? config.baseURL : nil
    }

    /// `href` of a site-relative URL: `/blog/tags/caf%C3%A9/`.
    package func href(_ url: String) -> String { basePath + WebText.encodePath(url) }

    /// The absolute URL of a site-relative URL, when the base URL is absolute.
    package func absolute(_ url: String) -> String? { absoluteBase.map { $0 + WebText.encodePath(url) } }

    /// The address of a site-relative URL for what is read away from the site (see
    /// ``AbsoluteURLs/url(_:config:)``): absolute when the base URL is, else its `href`.
    package func address(_ url: String) -> String { absolute(url) ?? href(url) }
}
