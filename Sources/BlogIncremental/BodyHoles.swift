import BlogCore
import BlogRender
import BlogSite
import Foundation

/// The incremental layer's ``RenderHook``: it keeps where Render reports the posts' rendered bodies
/// landed in the pages and feeds, so that a later build can put a post's new body into its
/// published pages without the rest of the site (see ``QuickBuild``). A post whose body a template
/// transformed rather than printed is *opaque*: a change to it is never patched in place.
final class BodyHoles: RenderHook, @unchecked Sendable {
    private let lock = NSLock()
    /// Holes by index into ``Site/pages``; pages not rendered yet have none.
    private var pages: [[BodyHole]]
    /// Holes by feed path.
    private var feeds: [String: [BodyHole]] = [:]
    private var transformed: Set<Int> = []
    /// Kept from the last build of the process, when it builds again (see ``BuildMemo``).
    let postDigests: PostDigestMemo?

    init(site: Site, postDigests: PostDigestMemo? = nil) {
        pages = Array(repeating: [], count: site.pages.count)
        self.postDigests = postDigests
    }

    /// Posts whose body a template transformed rather than printed.
    var opaquePosts: Set<Int> {
        lock.withLock { transformed }
    }

    /// Where the bodies are in each page (by index into ``Site/pages``) and feed (by path).
    var found: (pages: [[BodyHole]], feeds: [String: [BodyHole]]) {
        lock.withLock { (pages, feeds) }
    }

    // MARK: RenderHook

    func page(_ number: Int, holds holes: [BodyHole]) {
        lock.withLock { pages[number] = holes }
    }

    func feed(_ path: String, holds holes: [BodyHole]) {
        lock.withLock { feeds[path] = holes }
    }

    func bodyTransformed(post: Int) {
        _ = lock.withLock { transformed.insert(post) }
    }
}
