import BlogContent
import BlogCore
import Foundation

/// Links from one content file to another, as other generators write them: Pelican's
/// `{filename}path`, `{static}path` and `{attach}path` (also the older `|filename|path`), and the
/// targets of Jekyll's `{% post_url %}` / `{% link %}` and Hugo's `ref` / `relref` (which
/// ``Liquid`` reads). They resolve against the site model, so they run after ``SiteBuilder``.
package struct ContentLinks: Sendable {
    /// Content path (`posts/a.md`) -> site-relative URL of its page.
    private let pages: [String: String]
    /// Content path of each page, sorted, for suffix and name matches: sorted when first asked (only Jekyll's and
    /// Hugo's references by path or name ask), not for every build (at 10,000 posts ~40 M instructions, beside
    /// ``ImageAttributes``' table on the other core while the markdown stage waits for both).
    private let sortedPaths: SortedPaths
    /// Content path of a copied file -> its path in the output.
    private let files: [String: String]
    /// Makes hrefs with the base path.
    private let links: SiteLinks

    /// The targets of `site`: every page and every copied file.
    package init(site: Site) {
        var pages: [String: String] = [:]
        // By index: `for item in site.posts` copied each post, every one of its strings retained and released.
        for index in site.posts.indices { pages[site.posts[index].post.contentPath] = site.posts[index].url }
        self.pages = pages
        sortedPaths = SortedPaths(Array(pages.keys))
        files = Dictionary(site.assets.map { ($0.source, $0.path) }, uniquingKeysWith: { a, _ in a })
        links = SiteLinks(config: site.config)
    }

    // MARK: Pelican

    /// The Pelican markers, as they appear in a link: `{filename}` and `|filename|`.
    static let markers = ["filename", "static", "attach"]

    /// Whether `html` may hold a Pelican reference: a marker right after `{`, `|` or their
    /// percent-encoded forms (how cmark writes them in an `href`). Every value that
    /// ``reference(_:)`` reads passes.
    package static func mayHoldReferences(_ html: String) -> Bool {
        ByteSearch.containsAny(html, after: ["{", "|", "%7B", "%7C"], markers)
    }

    /// Whether a markdown body may hold an `{attach}` (or `|attach|`) link.
    package static func mayHoldAttachments(_ body: String) -> Bool {
        ByteSearch.containsAny(body, after: attachmentOpeners, attachmentNames)
    }

    /// The same in bytes (a post file's body, not made a `String`).
    package static func mayHoldAttachments(bytes body: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteSearch.containsAny(body, after: attachmentOpeners, attachmentNames)
    }

    private static let attachmentOpeners = ["{", "|"], attachmentNames = ["attach}", "attach|"]

    /// The marker and path of a Pelican reference (`{filename}../a.md`, `%7Bstatic%7Dimg/x.png` as
    /// cmark writes it in an `href`), or nil.
    static func reference(_ value: String) -> (marker: String, path: String)? {
        guard value.hasPrefix("{") || value.hasPrefix("|") || value.hasPrefix("%7B") || value.hasPrefix("%7C") else { return nil }
        let decoded = value.removingPercentEncoding ?? value
        for marker in markers {
            for (open, close) in [("{", "}"), ("|", "|")] where decoded.hasPrefix(open + marker + close) {
                return (marker, String(decoded.dropFirst(marker.count + 2)))
            }
        }
        return nil
    }

    /// A path relative to the file at `from` (or to `content/` when it starts with `/`), with `.`
    /// and `..` resolved; nil when it leaves `content/`. Query and fragment are cut off.
    /// The content folder as messages name it, with a trailing `/` (`content/`, `site/_posts/`):
    /// the post's source path without its path in the folder.
    static func folder(of post: Post) -> String {
        post.source.hasSuffix("/" + post.contentPath) ? String(post.source.dropLast(post.contentPath.count)) : "content/"
    }

    static func contentPath(_ path: String, from: String) -> String? {
        let bare = String(path.prefix { $0 != "#" && $0 != "?" })
        let folder: [Substring] = bare.hasPrefix("/") ? [] : from.split(separator: "/").dropLast()
        let resolved = PathSafety.removingDotSegments(folder + bare.split(separator: "/"))
        guard !resolved.climbed else { return nil }
        // A path ending in `.` or `..` names the folder: the same content path.
        return resolved.segments.filter { !$0.isEmpty }.joined(separator: "/")
    }

    /// The `{attach}` links of every post: content path of the file -> its output path, in the
    /// folder of the first (newest) post that attaches it, as Pelican does.
    static func attachments(_ posts: [SitePost]) -> [String: String] {
        var placed: [String: String] = [:]
        // Which bodies may hold one is asked on every core; the places are then given in the posts' order.
        let holding = Parallel.map(posts.count) { mayHoldAttachments(posts[$0].post.body) }
        for index in posts.indices where holding[index] {
            let item = posts[index]
            var rest = Substring(item.post.body)
            while let marker = rest.range(of: "{attach}") ?? rest.range(of: "|attach|") {
                rest = rest[marker.upperBound...]
                let path = String(rest.prefix { !" )\"'>\n".contains($0) })
                guard let source = contentPath(path, from: item.post.contentPath), placed[source] == nil else { continue }
                let folder = item.outputPath.folderPart
                let name = (source as NSString).lastPathComponent
                placed[source] = folder.isEmpty ? name : folder + "/" + name
            }
        }
        return placed
    }

    /// `html` (a post's rendered body or summary) with its Pelican references replaced by the
    /// targets' addresses, and a warning (at the reference's line in the post) for each one whose
    /// target is not in the site; and whether the HTML returned may still hold a reference (``mayHoldReferences(_:)``
    /// of it, looked for again only when `html` may hold one: the build's state reads it, see BodyText.linksElsewhere).
    package func rewritePelican(html: String, post: Post) -> (html: String, warnings: [Diagnostic], references: Bool) {
        guard Self.mayHoldReferences(html) else { return (html, [], false) }
        var warnings: [Diagnostic] = []
        let rewritten = HTMLAttributes.rewriteURLs(in: html) { value in
            guard !value.isSrcset, let (marker, path) = Self.reference(value.text) else { return nil }
            let suffix = String(path.drop { $0 != "#" && $0 != "?" })
            let target = Self.contentPath(path, from: post.contentPath)
            let url: String?
            switch marker {
            case "filename": url = target.flatMap { pages[$0] }.map(links.href) ?? target.flatMap { files[$0] }.map(links.href)
            default: url = target.flatMap { files[$0] }.map(links.href) ?? target.flatMap { pages[$0] }.map(links.href)
            }
            if let url { return url + suffix }
            let written = "{\(marker)}\(path)"
            let (line, column) = Self.position(of: written, in: post)
            warnings.append(.warning(post.source, line: line, column: column,
                                     "link \(written): no \(marker == "filename" ? "post or page" : "file") \(Self.folder(of: post))\(target ?? path) in the site; left as written"))
            return nil
        }
        return (rewritten, warnings, Self.mayHoldReferences(rewritten))
    }

    /// The file line and column where `text` first appears in the post's body (its first line when absent).
    static func position(of text: String, in post: Post) -> (line: Int, column: Int) {
        guard let range = post.body.range(of: text) else { return (post.bodyLine, 1) }
        let offset = post.body.utf8.distance(from: post.body.startIndex, to: range.lowerBound)
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: post.body)
        return (post.bodyLine + line - 1, column)
    }

    // MARK: Jekyll and Hugo

    /// The address of the page a `{% link %}`, `ref` or `relref` names: a path under `content/` (or
    /// under the Jekyll site, `_posts/x.md`), a path ending like one, or a bundle's folder; nil
    /// when nothing matches.
    package func href(forPath reference: String) -> String? {
        var clean = reference.trimmingWhitespaces()
        while clean.hasPrefix("/") || clean.hasPrefix("./") { clean.removeFirst(clean.hasPrefix("/") ? 1 : 2) }
        if clean.hasSuffix("/") { clean.removeLast() }
        guard !clean.isEmpty else { return nil }
        // `_posts/x.md` from a Jekyll site whose posts folder is the content folder: drop leading
        // folders of the reference until it names a file.
        let parts = clean.split(separator: "/")
        let tails = parts.indices.map { parts[$0...].joined(separator: "/") }
        for tail in tails {
            let candidates = [tail, tail + ".md", tail + ".markdown", tail + "/index.md", tail + "/_index.md"]
            for candidate in candidates {
                if let url = pages[candidate] { return links.href(url) }
            }
            // A reference that ends like a page's path (`news/x/index.md` for `en/news/x/index.md`).
            for candidate in candidates {
                if let path = sortedPaths.paths.first(where: { $0.hasSuffix("/" + candidate) }) { return links.href(pages[path]!) }
            }
            if let file = files[tail] { return links.href(file) }
        }
        return nil
    }

    /// The address of the post a `{% post_url 2010-07-21-name %}` names (its file name without
    /// extension, maybe after folders); nil when no post has that name.
    package func href(forPostNamed name: String) -> String? {
        let wanted = name.trimmingWhitespaces()
        let last = wanted.split(separator: "/").last.map(String.init) ?? wanted
        func stem(_ path: String) -> String {
            let file = (path as NSString).lastPathComponent
            return (file as NSString).deletingPathExtension
        }
        let matches = sortedPaths.paths.filter { stem($0) == last }
        let best = matches.first { ($0 as NSString).deletingPathExtension.hasSuffix(wanted) } ?? matches.first
        return best.map { links.href(pages[$0]!) }
    }
}

/// Texts sorted once, when first read, by whichever thread reads them first.
private final class SortedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var unsorted: [String]
    private var sorted: [String]?

    init(_ paths: [String]) { unsorted = paths }

    var paths: [String] {
        lock.lock()
        defer { lock.unlock() }
        if let sorted { return sorted }
        let made = unsorted.sorted()
        sorted = made
        unsorted = []
        return made
    }
}
