import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// Local images in posts, given what keeps a page from jumping while it loads: an `<img>` whose
/// `src` is a file of the site (under content/, as published) gets the `width` and `height` its file
/// declares (``ImageHeader``), and every image of a body but its first gets `loading="lazy"`, so the
/// browser fetches images below the first screen only as the reader comes near them. Attributes the
/// author wrote are kept: an image with a `width` or `height` gets neither, one with `loading` keeps it.
///
/// Runs on a post's rendered HTML after its Pelican links are rewritten, so `{static}` images are
/// found at their published paths; relative sources resolve against the post's page.
package final class ImageAttributes: @unchecked Sendable {
    /// Published path (`images/a.png`) -> the file under content/.
    private let files: [String: URL]
    /// Content path of each post -> the site-relative URL of its page.
    private let pages: [String: String]
    /// The base path (`/` or `/blog/`), decoded, and the absolute base URL, lower-cased.
    private let basePath: String, baseURL: String?
    private let lock = NSLock()
    /// Each file's size, read once a build (nil: not an image, or unreadable).
    private var sizes: [String: (width: Int, height: Int)?] = [:]

    /// The images of `site`: its copied files, read from the content folder `content`.
    package init(site: Site, content: URL) {
        var files: [String: URL] = [:]
        for asset in site.assets where Self.isImagePath(asset.path) {
            files[asset.path] = content.appendingPathComponent(asset.source)
        }
        self.files = files
        var pages: [String: String] = [:]
        for index in site.posts.indices { pages[site.posts[index].post.contentPath] = site.posts[index].url }
        self.pages = pages
        basePath = site.config.basePath
        baseURL = site.config.baseURL.lowercased().hasPrefix("http") ? site.config.baseURL.lowercased() : nil
    }

    private init(files: [String: URL], pages: [String: String], basePath: String, baseURL: String?) {
        self.files = files
        self.pages = pages
        self.basePath = basePath
        self.baseURL = baseURL
    }

    /// These images for another build of a site with the same pages, files and configuration: no size read yet (a
    /// picture may have changed since).
    package func sizesUnread() -> ImageAttributes {
        ImageAttributes(files: files, pages: pages, basePath: basePath, baseURL: baseURL)
    }

    /// Whether `html` holds an image: an `<img` anywhere in it (the attributes ``apply(_:post:)`` adds make none).
    package static func holdsImages(_ html: String) -> Bool { ByteSearch.contains(html, "<img") }

    /// `html`, a body of `post`, with its images' attributes added.
    package func apply(_ html: String, post: Post) -> String {
        guard Self.holdsImages(html) else { return html }
        let bytes = Array(html.utf8)
        var insertions: [(at: Int, text: String)] = []
        var first = true
        let page = pages[post.contentPath] ?? ""
        HTMLTokenizer.tokenize(bytes) { token in
            guard token.kind == .startTag, token.name == "img" else { return }
            defer { first = false }
            func has(_ name: String) -> Bool { token.attributes.contains { $0.name == name } }
            var added = ""
            if !has("width"), !has("height"),
               let range = token.attributes.first(where: { $0.name == "src" })?.value,
               let path = publishedPath(WebText.decodeEntities(String(decoding: bytes[range], as: UTF8.self)), page: page),
               let size = size(of: path) {
                added += " width=\"\(size.width)\" height=\"\(size.height)\""
            }
            if !first, !has("loading") { added += " loading=\"lazy\"" }
            guard !added.isEmpty else { return }
            // Before `>`, or before `/>`.
            var end = token.range.upperBound - 1
            if token.selfClosing, end > token.range.lowerBound, bytes[end - 1] == UInt8(ascii: "/") {
                end -= 1
                while bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            }
            insertions.append((end, added))
        }
        guard !insertions.isEmpty else { return html }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + insertions.count * 48)
        var copied = 0
        for (at, text) in insertions {
            out += bytes[copied..<at]
            out += text.utf8
            copied = at
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The published path of an image source seen on the page at site-relative `page`, when it
    /// is one of the site's files; nil for other hosts, `data:` and paths outside the base path.
    /// The source is resolved as the browser resolves it (``AbsoluteURLs/sitePath(_:page:basePath:)``).
    func publishedPath(_ source: String, page: String) -> String? {
        var source = source.trimmingCharacters(in: .whitespaces)
        if let baseURL, source.lowercased().hasPrefix(baseURL) {
            source = basePath + source.dropFirst(baseURL.count)
        }
        guard let (path, _) = AbsoluteURLs.sitePath(source, page: page, basePath: basePath) else { return nil }
        return WebText.decodePath(String(path))
    }

    /// The size of the published image at `path`, read once.
    private func size(of path: String) -> (width: Int, height: Int)? {
        guard let file = files[path] else { return nil }
        lock.lock()
        if let known = sizes[path] { lock.unlock(); return known }
        lock.unlock()
        let size = ImageHeader.size(ofFileAt: file)
        lock.lock()
        sizes[path] = .some(size)
        lock.unlock()
        return size
    }

    /// Whether a path names a kind of image ``ImageHeader`` reads.
    package static func isImagePath(_ path: String) -> Bool {
        guard let dot = path.lastDot else { return false }
        return ["png", "jpg", "jpeg", "gif", "webp", "svg"].contains(path[path.index(after: dot)...].lowercased())
    }
}
