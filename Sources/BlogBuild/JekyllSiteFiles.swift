import BlogConfig
import BlogContent
import BlogCore
import BlogYAML
import BlogLiquid
import BlogMarkdown
import Foundation

/// A Jekyll site's `_config.yml` and `_data/` files, which Liquid's `site.x` and `site.data.x`
/// read in Jekyll-form posts.
///
/// They are looked for in the Jekyll folder: the blog folder, or, when the content folder is a
/// `_posts` folder elsewhere (`content: site/_posts`), the folder that holds it. Files in `_data/`
/// (`.yml`, `.yaml`, `.json`, in sub-folders too) become `site.data.<name>` (`_data/team/a.yml`:
/// `site.data.team.a`).
enum JekyllSiteFiles {
    /// The files, sorted by path (none when there is no Jekyll folder), and warnings named through `display`
    /// (from a path in the Jekyll folder). The rule of ``BlogBoundary`` applies, the Jekyll folder counting as
    /// the blog's: a symbolic link leading out of the blog folder, or nowhere, is not read.
    static func read(source: URL, content: String, display: (String) -> String) throws -> (files: [ConfigFile], warnings: [Diagnostic]) {
        guard let root = root(source: source, content: content) else { return ([], []) }
        let boundary = BlogBoundary([source, root])
        var files: [ConfigFile] = []
        var warnings: [Diagnostic] = []
        let config = root.appendingPathComponent("_config.yml")
        switch boundary.resolve(config.path) {
        case .inside(let real, type: S_IFREG):
            if let text = try? String(contentsOfFile: real, encoding: .utf8) { files.append(ConfigFile(path: "_config.yml", text: text)) }
        case let resolution:
            warnings += BlogBoundary.skipped(display("_config.yml"), resolution).map { [$0] } ?? []
        }
        let extensions: Set<String> = ["yml", "yaml", "json"]
        let walk = try boundary.walk(root.appendingPathComponent("_data").path, shown: display("_data"), context: (),
                                     wants: { name, type, _ in type == S_IFDIR || extensions.contains((name as NSString).pathExtension.lowercased()) },
                                     folder: { _, _ in () }, file: { entry, _ in
            if let text = try? String(contentsOfFile: entry.real, encoding: .utf8) {
                files.append(ConfigFile(path: "_data/" + entry.relative, text: text))
            }
        })
        return (files.sorted { $0.path < $1.path }, warnings + walk.warnings)
    }

    /// The Jekyll folder: the first of the blog folder and the content folder's parent (when the content
    /// folder is named `_posts`) that has a `_config.yml` or a `_data/` folder.
    static func root(source: URL, content: String) -> URL? {
        var candidates = [source]
        let contentURL = URL(fileURLWithPath: content, relativeTo: source).standardizedFileURL
        if contentURL.lastPathComponent == "_posts" { candidates.append(contentURL.deletingLastPathComponent()) }
        let fm = FileManager.default
        return candidates.first { fm.fileExists(atPath: $0.appendingPathComponent("_config.yml").path)
            || fm.fileExists(atPath: $0.appendingPathComponent("_data").path) }
    }

    /// Liquid's `site`: `_config.yml`'s values, then blog.yml's `params:` over them, `data` from `_data/`,
    /// and from blog.yml `title`, `description`, `author`, `lang`, `baseurl` and `url` (whatever the
    /// Jekyll files say: they are the built site's); with warnings for files that are not YAML.
    static func site(config: SiteConfig, baseURL: String, siteURL: String, display: (String) -> String) -> ([String: MetaValue], [Diagnostic]) {
        var site: [String: MetaValue] = [:]
        var data: [String: MetaValue] = [:]
        var warnings: [Diagnostic] = []
        func values(_ text: String, _ path: String) -> MetaValue? {
            do {
                return try YAMLValue.file(text, path: path)
            } catch let failure as BuildFailure {
                warnings += failure.diagnostics.map { .warning($0.path, line: $0.line, column: $0.column, $0.message + "; the file is not read") }
            } catch {
                warnings.append(.warning(path, "\(error); the file is not read"))
            }
            return nil
        }
        for file in config.jekyllFiles {
            guard let value = values(file.text, display(file.path)) else { continue }
            if file.path == "_config.yml" {
                if case .map(let map) = value { site.merge(map) { _, new in new } }
            } else {
                var keys = file.path.dropFirst("_data/".count).split(separator: "/").map(String.init)
                keys[keys.count - 1] = (keys[keys.count - 1] as NSString).deletingPathExtension
                data = inserting(value, at: keys[...], into: data)
            }
        }
        site.merge(config.params) { _, new in new }
        if !data.isEmpty { site["data"] = .map(data) }
        site["title"] = .string(config.title)
        if !config.description.isEmpty { site["description"] = .string(config.description) }
        if !config.author.isEmpty { site["author"] = .string(config.author) }
        site["lang"] = .string(config.language)
        site["baseurl"] = .string(baseURL)
        site["url"] = .string(siteURL)
        return (site, warnings)
    }

    private static func inserting(_ value: MetaValue, at keys: ArraySlice<String>, into map: [String: MetaValue]) -> [String: MetaValue] {
        var map = map
        guard let first = keys.first else { return map }
        if keys.count == 1 {
            map[first] = value
        } else {
            var inner: [String: MetaValue] = [:]
            if case .map(let existing)? = map[first] { inner = existing }
            map[first] = .map(inserting(value, at: keys.dropFirst(), into: inner))
        }
        return map
    }

    /// Liquid's `page` for `post`, placed at `url`: its header's keys as written, then `title`, `date`,
    /// `slug`, `url`, `categories` and `tags` as blog read them.
    static func page(_ post: Post, url: String) -> MetaValue {
        var page = post.meta
        page["title"] = .string(post.title)
        if post.dated { page["date"] = .date(post.date) }
        page["slug"] = .string(post.slug)
        page["url"] = .string(url)
        page["categories"] = .list(post.categories.map { .string($0.name) })
        page["tags"] = .list(post.tags.map { .string($0.name) })
        return .map(page)
    }
}
