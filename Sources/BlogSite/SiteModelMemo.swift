import BlogContent
import BlogCore
import Foundation

/// The related posts and the notes of merged terms of the last site model of a process that builds again
/// (`blog serve`), kept with the inputs they were made from: each post's place in the site's order, its file, kind,
/// date, tags, categories and authors, the listed posts and the number of related posts. A title edit leaves every
/// one of them as it was, so the site model gives back what it made last instead of weighing every post's related
/// posts and walking every term again (together a fourteenth of a title edit's rebuild at 10,000 posts).
///
/// One memo is about one blog and one configuration: its owner (BlogIncremental's build memo) empties it when
/// `blog.yml`, the options or the theme change. The strings and arrays of a post kept by the build memo are the
/// same storage from one build to the next, so comparing an unchanged post costs little.
package final class SiteModelMemo: @unchecked Sendable {
    /// What a post gives the related posts and the term groups (``SiteBuilder/termGroups(_:_:listed:config:)``).
    private struct Inputs {
        var source: String
        var contentPath: String
        var isBundle: Bool
        var kind: PostKind
        var date: Date
        var tags: [Tag]
        var categories: [Tag]
        var authors: [String]

        init(_ post: Post) {
            source = post.source
            contentPath = post.contentPath
            isBundle = post.isBundle
            kind = post.kind
            date = post.date
            tags = post.tags
            categories = post.categories
            authors = post.authors
        }

        /// Whether the post at `item` has these inputs (a ``Tag`` compares by its slug alone: its name is compared too).
        /// Read in place: a post passed as an argument was copied, every string retained.
        func same(as item: UnsafePointer<SitePost>) -> Bool {
            source == item.pointee.post.source && contentPath == item.pointee.post.contentPath && isBundle == item.pointee.post.isBundle
                && kind == item.pointee.post.kind && date == item.pointee.post.date && Self.same(tags, item.pointee.post.tags)
                && Self.same(categories, item.pointee.post.categories) && authors == item.pointee.post.authors
        }

        static func same(_ a: [Tag], _ b: [Tag]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.slug == $1.slug && $0.name == $1.name }
        }
    }

    private let lock = NSLock()
    /// The inputs of the last site model, in the order of its posts.
    private var posts: [Inputs] = []
    private var listed: [Int] = []
    private var limit = -1
    /// What was made from them; the notes are nil until the build that made the related posts made them.
    private var related: [[Int]]?
    private var notes: [Diagnostic]?
    /// Whether the inputs kept are those of the build running: its related posts were compared with them (and kept
    /// or made), and its notes not yet.
    private var current = false
    /// How many of the last build's parts were kept (0, 1 or 2): the tests read it.
    private(set) var kept = 0

    package init() {}

    /// The related posts of `posts` (in the site's order) with `listed` and `limit`: the last build's when every input
    /// is as it was, else `make()`, kept with its inputs (which then make the notes of the last build stale).
    func related(of posts: [SitePost], listed: [Int], limit: Int, make: () -> [[Int]]) -> [[Int]] {
        let known: [[Int]]? = lock.withLock {
            kept = 0
            current = true
            guard let related, limit == self.limit, listed == self.listed, posts.count == self.posts.count else { return nil }
            let same = posts.withUnsafeBufferPointer { buffer in
                buffer.indices.allSatisfy { self.posts[$0].same(as: buffer.baseAddress! + $0) }
            }
            guard same else { return nil }
            kept = 1
            return related
        }
        if let known { return known }
        let made = make()
        let inputs = posts.map { Inputs($0.post) }
        lock.withLock {
            self.posts = inputs
            self.listed = listed
            self.limit = limit
            related = made
            notes = nil
        }
        return made
    }

    /// The notes of the terms of `site` that share a URL (``SiteBuilder/mergedTermNotes(_:)``): the last build's when
    /// its related posts were given back from the same inputs (``related(of:listed:limit:make:)``, called for this
    /// site), else `make()`, kept.
    package func mergedTermNotes(_ site: Site, make: () -> [Diagnostic]) -> [Diagnostic] {
        let (known, isCurrent): ([Diagnostic]?, Bool) = lock.withLock {
            defer { current = false }
            let isCurrent = current && posts.count == site.posts.count
            guard isCurrent, kept == 1, let notes else { return (nil, isCurrent) }
            kept = 2
            return (notes, true)
        }
        if let known { return known }
        let made = make()
        // Kept only for the inputs this site's related posts were compared with.
        if isCurrent { lock.withLock { notes = made } }
        return made
    }

    /// Forgets the last build (the blog folder or the inputs changed).
    package func forget() {
        lock.withLock {
            posts = []
            listed = []
            limit = -1
            related = nil
            notes = nil
            current = false
            kept = 0
        }
    }
}
