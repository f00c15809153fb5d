import BlogContent
import BlogOutput
import BlogRender
import BlogSite
import Foundation

/// Who asks for an output path of a built site (see ``OutputOrigin``): what messages about the path
/// name (two files that want it, a name too long for the file system). Looked up only for such a
/// message.
enum OutputOrigins {
    /// Everything of `site` and `theme` that wants the output file `path`: posts (at the header line
    /// that places them), content files, theme files, `redirects:` entries and aliases; `generated`
    /// are the paths of the feeds, the sitemap and robots.txt.
    static func of(_ path: String, site: Site, theme: Theme, generated: Set<String>, options: BuildOptions) -> [OutputOrigin] {
        let content = Pipeline.contentFolder(options, config: site.config)
        var found: [OutputOrigin] = []
        for page in site.pages where page.outputPath == path {
            if case .post(let index) = page.kind {
                let post = site.posts[index].post
                found.append(origin(of: post, keys: placingKeys(post), contentDir: content.url))
            } else {
                found.append(OutputOrigin("the generated page /\(page.url)"))
            }
        }
        for asset in site.assets + site.sources where asset.path == path {
            let file = content.display + "/" + asset.source
            found.append(OutputOrigin(file, file: file))
        }
        for redirect in site.redirects where redirect.outputPath == path {
            if let rule = redirect.rule {
                found.append(OutputOrigin("the `redirects` entry /\(redirect.url) of \(rule.file)", file: rule.file, line: rule.line, column: rule.column))
            } else if let target = redirect.target {
                found.append(origin(of: site.posts[target].post, keys: ["aliases", "redirect_from"], contentDir: content.url))
            } else {
                found.append(OutputOrigin("the alias /\(redirect.url) of the list's first page"))
            }
        }
        for file in theme.staticFiles where file.path == path {
            if case .copy(let url) = file.contents, url.path.hasPrefix(options.source.path + "/") {
                let shown = options.sourceDisplay + url.path.dropFirst(options.source.path.count + 1)
                found.append(OutputOrigin(shown, file: shown))
            } else {
                found.append(OutputOrigin("the \(theme.name) theme's static/\(path)"))
            }
        }
        if generated.contains(path) { found.append(OutputOrigin("the file \(path) that blog makes (a feed, sitemap.xml or robots.txt)")) }
        return found
    }

    /// The header keys that place `post`'s page, the first one present deciding: `save_as`, then
    /// `permalink` or `url`, then `slug`, then the title a Pelican header's slug is made from.
    static func placingKeys(_ post: Post) -> [String] {
        if post.saveAs != nil { return ["save_as"] }
        if post.permalink != nil { return ["permalink", "url"] }
        let sluggedByName = post.isBundle || post.headerFormat == .yaml || post.headerFormat == .toml
        return sluggedByName ? ["slug"] : ["slug", "title"]
    }

    /// `post` as an origin, at the line and column of the first of `keys` in its header (the
    /// post file read again: only for a message); its first line when none is there.
    static func origin(of post: Post, keys: [String], contentDir: URL) -> OutputOrigin {
        let url = contentDir.appendingPathComponent(post.contentPath)
        if let data = try? PostReader.contents(of: url, source: post.source),
           let (header, _) = try? FrontMatterParser.parse(String(decoding: data, as: UTF8.self), path: post.source),
           let field = keys.lazy.compactMap({ header.fields[$0] }).first {
            return OutputOrigin(post.source, file: post.source, line: field.line, column: field.column)
        }
        return OutputOrigin(post.source, file: post.source)
    }
}
