import Foundation

/// How a layer on top of the pipeline (the incremental build, BlogIncremental) learns where each
/// post's rendered body lands in the pages and feeds: Render reports it, in plain values, as it
/// makes each page's and feed's bytes (see ``BodyMarks``). The bytes are those of a render without
/// a hook.
///
/// Without a hook (`blog build --no-cache`, `blog check`, ``SiteRenderer/render(_:theme:)``)
/// templates and feeds get the plain body and text becomes bytes as it is.
package protocol RenderHook: Sendable {
    /// Page `number` (an index into ``Site/pages``) holds post bodies at `holes`; not called for a
    /// page that holds none.
    func page(_ number: Int, holds holes: [BodyHole])
    /// The feed at `path` holds post bodies at `holes`; not called for a feed that holds none.
    func feed(_ path: String, holds holes: [BodyHole])
    /// A template transformed post `post`'s body (`{{lowercased(html)}}`) rather than printing it:
    /// where the result went is not known.
    func bodyTransformed(post: Int)
    /// The own parts of the posts' digests kept from the last build of the process (`blog serve`), which the
    /// pages' digests (``PageInputs``) are made with; nil: each is made anew.
    var postDigests: PostDigestMemo? { get }
}

extension RenderHook {
    package var postDigests: PostDigestMemo? { nil }
}
