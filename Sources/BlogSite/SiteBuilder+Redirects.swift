import BlogConfig
import BlogContent
import BlogCore
import Foundation

// Redirects (`redirects:` of blog.yml), and the generated pages that posts replace.

extension SiteBuilder {
    /// A message for a `redirects:` target that names nothing.
    struct RedirectProblem: Error { var text: String }

    /// Where a `redirects:` entry sends (the old URL is filled in by the caller): the post whose
    /// file `to` names (`posts/x.md` under content/, or `content/posts/x.md`), an absolute
    /// address as it is, or a site URL (`/posts/new/`) cleaned as aliases are.
    static func redirectTarget(_ to: String, posts: [SitePost], content: String) -> Result<Redirect, RedirectProblem> {
        if to.hasPrefix("http://") || to.hasPrefix("https://") {
            return .success(Redirect(url: "", outputPath: "", target: nil, location: to))
        }
        let file = to.hasPrefix("/") ? String(to.drop { $0 == "/" }) : to
        if ContentScanner.postExtensions.contains((file as NSString).pathExtension.lowercased()) {
            let contentPrefix = content.hasSuffix("/") ? content : content + "/"
            let underContent = file.hasPrefix(contentPrefix) ? String(file.dropFirst(contentPrefix.count)) : file
            guard let index = posts.firstIndex(where: { $0.post.contentPath == underContent }) else {
                return .failure(RedirectProblem(text: "`redirects`: no post or page is built from \"\(to)\" (a file under \(contentPrefix), such as posts/x.md; drafts and future posts are built only with --drafts/--future)"))
            }
            return .success(Redirect(url: "", outputPath: "", target: index))
        }
        guard let url = SitePath.clean(to) else {
            return .failure(RedirectProblem(text: "`redirects`: \"\(to)\" is neither a URL inside the site such as /posts/new/, an address such as https://example.org/, nor a post's file"))
        }
        return .success(Redirect(url: "", outputPath: "", target: nil, location: url))
    }

    /// The generated pages that posts replace: a post or page whose header names a generated
    /// page's output (`save_as: index.html`, `url:` empty, `permalink: /`, `url: /tags/`,
    /// `save_as: 404.html`) takes its place, as Pelican's explicit `save_as` overrides a generated
    /// file, for articles and pages alike. A URL that only comes from a slug and a permalink
    /// pattern claims nothing (it collides). When several posts claim one page the first is
    /// kept here; the others then collide with it, an error naming both.
    static func replacements(_ posts: [SitePost], permalinks: Permalinks = Permalinks()) -> [GeneratedPage: Int] {
        var replaced: [GeneratedPage: Int] = [:]
        for index in posts.indices where hasExplicitURL(posts[index].post) {
            let outputPath = posts[index].outputPath
            guard let generated = GeneratedPage.allCases.first(where: { $0.outputPath(in: permalinks) == outputPath }) else { continue }
            if replaced[generated] == nil { replaced[generated] = index }
        }
        return replaced
    }

    /// Whether the header names the post's URL or output file (`save_as`, `url`, `permalink`).
    static func hasExplicitURL(_ post: Post) -> Bool {
        post.saveAs != nil || post.permalink != nil
    }

    /// A note for each generated page that a post replaces (see ``replacements(_:)``), at the
    /// post's file: intended, so never a warning, but the site then lacks a page it would have.
    package static func replacementNotes(_ site: Site) -> [Diagnostic] {
        site.replacements.sorted { $0.value < $1.value }.map { generated, index in
            let post = site.posts[index].post
            let what = post.kind == .page ? "page" : "post"
            var message = "this \(what) replaces the generated \(generated.noun)"
            switch generated {
            case .home: message += "; the post list is at /\(site.listURL) (`permalinks.home_list`)"
            case .tagIndex: message += "; each tag's page is still generated"
            case .archives, .notFound: break
            }
            return .note(post.source, message)
        }
    }
}
