import Foundation

/// Links written relative to the page that holds them, so that a site opened from the file system
/// (`file:///…/public/index.html`) is styled and its links work: `relative_urls: true` in blog.yml, or
/// `blog build --relative-urls` (Hugo's `relativeURLs`). A link to a folder gets `index.html`, which a
/// browser reading files does not add. Feeds and the sitemap keep their absolute URLs.
package enum RelativeURLs {
    /// `html`, the page written at `pagePath` (relative to the output folder, `posts/x/index.html`), with
    /// every link inside the site (in `href`, `src`, `poster` and `srcset`; see ``relative(_:page:basePath:)``)
    /// written relative to the page.
    package static func rewrite(html: String, pagePath: String, basePath: String) -> String {
        let page = Page(pagePath, basePath: basePath)
        return HTMLAttributes.rewriteURLs(in: html) { value in
            let rewritten = value.isSrcset ? AbsoluteURLs.mapSrcset(value.text) { relative($0, page: page) }
                                           : relative(value.text, page: page)
            return rewritten == value.text ? nil : rewritten
        }
    }

    /// The page a link is written in.
    package struct Page {
        /// The page's file under the output folder (`posts/x/index.html`), and its folders (`["posts", "x"]`).
        var path: String, folders: [Substring]
        /// The site's path under its host (`/` or `/blog/`), from `base_url`.
        var basePath: String

        package init(_ pagePath: String, basePath: String) {
            path = pagePath
            folders = pagePath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            self.basePath = basePath.hasSuffix("/") ? basePath : basePath + "/"
        }
    }

    /// `reference` as a path relative to `page`, when it leads inside the site: a path from the host's
    /// root under the base path (`/blog/tags/x/`), or a relative path (`../x/`). A folder (a path ending in
    /// `/`) gets `index.html`; the query and fragment are kept. Anything else is returned as it is: a URL
    /// with a scheme or a host, a fragment or query alone, a path outside the base path.
    package static func relative(_ reference: String, page: Page) -> String {
        guard !reference.contains(where: \.isWhitespace),
              let (path, suffix) = AbsoluteURLs.sitePath(reference, page: page.path, basePath: page.basePath) else { return reference }
        var target = path.split(separator: "/", omittingEmptySubsequences: false)
        if target.last == "" || target.isEmpty {
            if !target.isEmpty { target.removeLast() }
            target.append("index.html")
        }
        var common = 0
        while common < page.folders.count, common < target.count - 1, page.folders[common] == target[common] { common += 1 }
        let up = Array(repeating: "..", count: page.folders.count - common)
        return (up + target[common...].map(String.init)).joined(separator: "/") + suffix
    }
}
