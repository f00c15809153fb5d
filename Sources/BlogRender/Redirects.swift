import BlogCore
import BlogSite
import Foundation

/// The pages at posts' old URLs (Hugo `aliases`, Jekyll `redirect_from`, blog.yml's `redirects:`): each sends the browser
/// on to the post at once, names it as canonical for search engines, and asks not to be indexed,
/// as Hugo's own alias pages do. They are not theme pages: the same few lines for every theme.
package enum Redirects {
    /// One file per alias of ``Site/redirects``.
    package static func render(_ site: Site) -> [OutputFile] {
        let links = SiteLinks(config: site.config)
        return site.redirects.map { redirect in
            // A `redirects:` entry may name a URL rather than a post: then the URL is the title.
            let post = redirect.target.map { site.posts[$0] }
            let url = post?.url ?? redirect.location
            let address = url.hasPrefix("http://") || url.hasPrefix("https://") ? url : links.absolute(url) ?? links.href(url)
            let target = Escaping.html(address)
            let title = Escaping.html(post?.post.title ?? address)
            let html = """
            <!DOCTYPE html>
            <html lang="\(Escaping.html(post?.post.lang ?? site.config.language))">
            <head>
            <meta charset="utf-8">
            <title>\(title)</title>
            <link rel="canonical" href="\(target)">
            <meta name="robots" content="noindex">
            <meta http-equiv="refresh" content="0; url=\(target)">
            </head>
            <body>
            <p>This page has moved to <a href="\(target)">\(title)</a>.</p>
            </body>
            </html>

            """
            return OutputFile(path: redirect.outputPath, contents: .bytes(Data(html.utf8)))
        }
    }
}
