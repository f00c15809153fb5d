import BlogConfig
import BlogCore
import Foundation

/// A post's page, so that a broken link in it can be reported at the line of the post's source
/// that wrote it rather than in the generated HTML.
package struct PostPage: Sendable {
    /// The page's file, relative to the output folder (`posts/x/index.html`).
    var outputPath: String
    /// The post's file as messages name it (`content/posts/x.md`).
    var source: String
    /// Where to read that file.
    var sourceFile: URL
    /// The rendered body as the page holds it: links inside it come from the post, links around it
    /// from the templates. Nil when unknown.
    var bodyHTML: String?

    package init(outputPath: String, source: String, sourceFile: URL, bodyHTML: String?) {
        self.outputPath = outputPath
        self.source = source
        self.sourceFile = sourceFile
        self.bodyHTML = bodyHTML
    }
}

/// What ``LinkChecker/check(folder:displayPath:config:posts:)`` found.
public struct LinkCheckReport: Sendable {
    /// HTML pages read.
    public var pages: Int
    /// Links into the site that were followed (external links are counted nowhere: they are not fetched).
    public var links: Int
    /// One error per broken link, sorted by path and line.
    public var broken: [Diagnostic]
    /// The other URL schemes under which some broken links would work, in the order given.
    package var matches: [AlternativeMatch] = []
    /// Each link to a file that does not exist, as written and as the path it resolved to (without
    /// the base path: `blog/flask.html`), for telling which URL patterns the links were written for.
    package var missing: [(link: String, path: String)] = []
}

/// The files of the site as another URL scheme (a `permalinks` preset) would write them, for
/// telling which broken links that scheme would mend.
package struct AlternativeLayout: Sendable {
    /// What to call it (`pelican`).
    package var name: String
    /// Every file it writes, relative to the output folder.
    package var files: Set<String>

    /// A layout named `name` that writes `files`.
    package init(name: String, files: Set<String>) {
        self.name = name
        self.files = files
    }
}

/// Broken links that another URL scheme would mend: how many, and the first of them.
package struct AlternativeMatch: Sendable, Equatable {
    /// The scheme (`pelican`).
    package var name: String
    /// The first broken link it mends, as written (`/hello-world.html`).
    package var example: String
    /// How many broken links it mends.
    package var count: Int
}

/// Finds the links of a built site that point nowhere: an `href`, `src` or `srcset` URL inside the
/// site whose file does not exist, or whose `#id` no element of the target page has.
///
/// Links are resolved as a browser resolves them: against the page's own URL, with absolute paths
/// under the base path of `base_url` (`/blog/`). Links to the host of an absolute `base_url` are
/// inside the site; other hosts and schemes (`mailto:`, `data:`) are outside and never fetched.
/// Links inside `<pre>`, `<code>`, comments, `<script>` and `<style>` are not links.
package enum LinkChecker {
    /// Checks every HTML file under `folder` (hidden entries skipped).
    /// - Parameters:
    ///   - displayPath: how messages name `folder` (`public`).
    ///   - posts: the posts' pages, to report their links at the post's source line.
    ///   - alternatives: other layouts of the same site (asked for only when a link is missing):
    ///     a missing link that one of them has is counted in ``LinkCheckReport/matches``.
    package static func check(folder: URL, displayPath: String, config: SiteConfig, posts: [PostPage],
                              alternatives: () -> [AlternativeLayout] = { [] }) -> LinkCheckReport {
        let files = Set(filePaths(under: folder))
        let pagePaths = files.filter(isHTML).sorted()
        let scans = Parallel.map(pagePaths.count) { index in
            PageScan(bytes: (try? [UInt8](Data(contentsOf: folder.appendingPathComponent(pagePaths[index])))) ?? [])
        }
        var idsByPage: [String: Set<String>] = [:]
        for (path, scan) in zip(pagePaths, scans) { idsByPage[path] = scan.ids }

        let resolver = LinkResolver(config: config, files: files)
        let postsByPage = Dictionary(posts.map { ($0.outputPath, $0) }, uniquingKeysWith: { first, _ in first })
        var broken: [Diagnostic] = []
        var seen: Set<Diagnostic> = []
        var followed = 0
        var others: [(resolver: LinkResolver, match: AlternativeMatch)]?
        var missing: [(link: String, path: String)] = []
        for (path, scan) in zip(pagePaths, scans) {
            var locator = Locator(page: path, bytes: scan.bytes, displayPath: displayPath, post: postsByPage[path])
            for link in scan.links {
                let problem = resolver.problem(with: link.url, onPage: path, ids: idsByPage)
                if case .external = problem { continue }
                followed += 1
                guard let message = message(problem, link: link.url) else { continue }
                if case .missing(let target) = problem { missing.append((link.url, target)) }
                let diagnostic = locator.error(at: link.offset, target: link.url, message)
                guard seen.insert(diagnostic).inserted else {
                    if case .missing = problem { missing.removeLast() }
                    continue
                }
                broken.append(diagnostic)
                guard case .missing = problem else { continue }
                if others == nil { others = alternatives().map { (LinkResolver(config: config, files: $0.files), AlternativeMatch(name: $0.name, example: "", count: 0)) } }
                for index in others!.indices {
                    switch others![index].resolver.problem(with: link.url, onPage: path, ids: [:]) {
                    case .fine, .noElement:
                        if others![index].match.count == 0 { others![index].match.example = link.url }
                        others![index].match.count += 1
                    default: break
                    }
                }
            }
        }
        var report = LinkCheckReport(pages: pagePaths.count, links: followed, broken: broken.sortedForDisplay())
        report.matches = (others ?? []).map(\.match).filter { $0.count > 0 }
        report.missing = missing
        return report
    }

    /// What is wrong with `link` as a message, for a problem (nil when it is fine or outside: not checked).
    static func message(_ problem: LinkProblem, link: String) -> String? {
        switch problem {
        case .external, .fine: return nil
        case .missing: return "link to \(link) which does not exist"
        case .outside(let basePath): return "link to \(link) which is outside the site (its base path is \(basePath))"
        case .noElement(let id): return "link to \(link): no element with id \"\(id)\" there"
        }
    }

    /// Every regular file under `folder`, relative to it, hidden entries skipped.
    static func filePaths(under folder: URL) -> [String] {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return [] }
        let prefix = base.path.hasSuffix("/") ? base.path : base.path + "/"
        var paths: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            if path.hasPrefix(prefix) { paths.append(String(path.dropFirst(prefix.count))) }
        }
        return paths
    }

    static func isHTML(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }
}

/// The links and element ids of one page.
struct PageScan {
    /// A URL in an attribute, entity-decoded, and the byte offset of the attribute's value.
    struct Link {
        var url: String
        var offset: Int
    }

    let bytes: [UInt8]
    package private(set) var links: [Link] = []
    /// Every `id`, and every `name` of an `<a>`: what a `#fragment` can point at.
    private(set) var ids: Set<String> = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var links: [Link] = []
        var ids: Set<String> = []
        HTMLAttributes.scan(bytes) { attribute in
            let value = { WebText.decodeEntities(String(decoding: bytes[attribute.value], as: UTF8.self)) }
            switch attribute.name {
            case "id": ids.insert(value())
            case "name" where attribute.element == "a": ids.insert(value())
            case "href" where !attribute.inCode, "src" where !attribute.inCode:
                links.append(Link(url: value().trimmingCharacters(in: .whitespacesAndNewlines), offset: attribute.value.lowerBound))
            case "srcset" where !attribute.inCode:
                for candidate in Self.srcsetURLs(value()) {
                    links.append(Link(url: candidate, offset: attribute.value.lowerBound))
                }
            default: break
            }
        }
        self.links = links.filter { !$0.url.isEmpty }
        self.ids = ids
    }

    /// The URL of each candidate of a `srcset` (`a.png 1x, b.png 2x` -> `a.png`, `b.png`).
    static func srcsetURLs(_ value: String) -> [String] {
        var urls: [String] = []
        _ = AbsoluteURLs.mapSrcset(value) { urls.append($0); return $0 }
        return urls
    }
}

/// Where a link points, and what is wrong with it.
enum LinkProblem {
    /// Another host or scheme: not checked.
    case external
    /// Nothing wrong.
    case fine
    /// No file at `path` (relative to the output folder, without the base path).
    case missing(path: String)
    /// A path outside the site's base path.
    case outside(basePath: String)
    /// The page exists but has no element with this id.
    case noElement(String)
}

/// Resolves links against pages of the site as a browser would and looks for their targets.
struct LinkResolver {
    let basePath: String
    /// `example.org` (lower-cased) when `base_url` is absolute.
    let host: String?
    let files: Set<String>

    init(config: SiteConfig, files: Set<String>) {
        basePath = config.basePath
        host = LinkResolver.authority(of: config.baseURL)?.lowercased()
        self.files = files
    }

    /// What is wrong with `link` (not empty) on the page at `page` (relative to the output folder).
    func problem(with link: String, onPage page: String, ids: [String: Set<String>]) -> LinkProblem {
        var looked: String?
        return problem(with: link, onPage: page, ids: ids, lookedAt: &looked)
    }

    /// The same, and the path the link was looked up at, when it was (`x/`: `x/index.html`; `x`: the file `x`, else
    /// `x/index.html`): its outcome changes only when a file there appears or goes, or that page's ids change.
    func problem(with link: String, onPage page: String, ids: [String: Set<String>], lookedAt: inout String?) -> LinkProblem {
        var reference = link
        if reference.hasPrefix("//") { reference = "https:" + reference }
        var resolved: String
        if AbsoluteURLs.hasScheme(reference) {
            guard let authority = LinkResolver.authority(of: reference), authority.lowercased() == host else { return .external }
            let afterAuthority = reference[reference.range(of: "://")!.upperBound...].dropFirst(authority.count)
            resolved = AbsoluteURLs.resolve(String(afterAuthority), against: "/")
        } else {
            resolved = AbsoluteURLs.resolve(reference, against: url(ofPage: page))
        }
        var fragment: String?
        if let hash = resolved.firstIndex(of: "#") {
            fragment = WebText.decodePath(String(resolved[resolved.index(after: hash)...]))
            resolved = String(resolved[..<hash])
        }
        if let query = resolved.firstIndex(of: "?") { resolved = String(resolved[..<query]) }
        var path = WebText.decodePath(resolved)
        if path + "/" == basePath { path += "/" }
        guard path.hasPrefix(basePath) else { return .outside(basePath: basePath) }
        path.removeFirst(basePath.count)

        lookedAt = path
        let target: String
        if path.isEmpty || path.hasSuffix("/") {
            target = path + "index.html"
        } else if files.contains(path) {
            target = path
        } else {
            target = path + "/index.html"  // servers answer `/x` with the folder's `/x/`
        }
        guard files.contains(target) else { return .missing(path: path) }
        if let fragment, !fragment.isEmpty, fragment.lowercased() != "top", LinkChecker.isHTML(target),
           !(ids[target]?.contains(fragment) ?? false) {
            return .noElement(fragment)
        }
        return .fine
    }

    /// The URL path of the page at `page`: `/blog/posts/x/` for `posts/x/index.html`, percent-encoded.
    func url(ofPage page: String) -> String {
        var path = page
        if path == "index.html" {
            path = ""
        } else if path.hasSuffix("/index.html") {
            path.removeLast("index.html".count)
        }
        return WebText.encodePath(basePath + path)
    }

    /// `example.org:8080` of `https://example.org:8080/x` (http and https only), or nil.
    static func authority(of url: String) -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), let separator = url.range(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}

/// Says where a link of one page was written: in the post's source when the page is a post's and
/// the link is in its body (or its source names the target), else in the HTML file.
struct Locator {
    let page: String
    let bytes: [UInt8]
    let displayPath: String
    let post: PostPage?
    /// The bytes of the page that hold the post's body.
    let body: Range<Int>?
    private var source: [UInt8]?

    init(page: String, bytes: [UInt8], displayPath: String, post: PostPage?) {
        self.page = page
        self.bytes = bytes
        self.displayPath = displayPath
        self.post = post
        if let html = post?.bodyHTML, !html.isEmpty, let range = Data(bytes).range(of: Data(html.utf8)) {
            body = range
        } else {
            body = nil
        }
    }

    mutating func error(at offset: Int, target: String, _ message: String) -> Diagnostic {
        if let post {
            if source == nil { source = (try? [UInt8](Data(contentsOf: post.sourceFile))) ?? [] }
            if let found = Locator.find(target, in: source ?? []) {
                let (line, column) = TextPosition.lineAndColumn(ofByte: found, in: source ?? [])
                return .error(post.source, line: line, column: column, message)
            }
            if body?.contains(offset) == true { return .error(post.source, message) }
        }
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
        return .error(displayPath + "/" + page, line: line, column: column, message)
    }

    /// Where markdown writes `target` (as written or percent-decoded): as a link's destination
    /// first, then in quotes or angle brackets, then anywhere. The byte offset of the target.
    static func find(_ target: String, in source: [UInt8]) -> Int? {
        let decoded = WebText.decodePath(target)
        let candidates = decoded == target ? [target] : [target, decoded]
        let text = Data(source)
        for (before, after) in [("](", ""), ("](<", ""), ("<", ">"), ("\"", "\""), ("'", "'"), (": ", ""), ("", "")] {
            for candidate in candidates {
                if let range = text.range(of: Data((before + candidate + after).utf8)) {
                    return range.lowerBound + before.utf8.count
                }
            }
        }
        return nil
    }
}
