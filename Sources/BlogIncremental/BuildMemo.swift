import BlogContent
import BlogCore
import BlogMarkdown
import BlogRender
import BlogSite
import Foundation

/// The last build's posts as read and their rendered markdown, kept in the process for its next
/// build: `blog serve` builds again on every save, and a post file that did not change need not be
/// read again, nor a body that did not change rendered again (together two seconds of a
/// 10,000-post blog's build on 2 cores).
///
/// A post file's reading is kept with the file's state (device, inode, size, times) from before
/// it was read, when that state is older than the build: a change in the same tick of the
/// kernel's clock could leave the state as it was. A post's markdown is kept only when its HTML
/// depends on nothing but its body, its summary, its markdown options and where it is (for
/// messages): no Liquid or shortcodes, no links resolved against other posts (see
/// ``SiteState/linksElsewhere(_:_:)``). The memo is for one blog folder and set of inputs
/// (``RequestDigests/inputs``); another forgets it.
package final class BuildMemo: @unchecked Sendable {
    /// What a post's markdown is rendered from.
    private struct Source: Equatable {
        var source: String
        var bodyLine: Int
        var body: String
        var summary: String?
        var options: MarkdownOptions
    }

    /// A class, as ``Read`` is: each build puts every post's into the next build's table.
    private final class Kept {
        let source: Source
        let rendered: RenderedMarkdown
        let diagnostics: [Diagnostic]

        init(source: Source, rendered: RenderedMarkdown, diagnostics: [Diagnostic]) {
            self.source = source
            self.rendered = rendered
            self.diagnostics = diagnostics
        }
    }

    /// A post file as read: a class, so that looking one up copies a reference, not every string of its post.
    private final class Read {
        let stat: FileStat
        let bundle: Bool
        let post: Post?
        let diagnostics: [Diagnostic]

        init(stat: FileStat, bundle: Bool, post: Post?, diagnostics: [Diagnostic]) {
            self.stat = stat
            self.bundle = bundle
            self.post = post
            self.diagnostics = diagnostics
        }
    }

    /// The memo of the process: one blog folder at a time.
    static let shared = BuildMemo()
    private let lock = NSLock()
    /// What the memo is about: the state folder and the build's inputs.
    private var about: (folder: String, inputs: Digest)?
    /// When this build started (nanoseconds since 1970, by the clock that dates file changes).
    private var started: Int64 = 0
    /// Kept posts by content path, from the last build.
    private var kept: [String: Kept] = [:]
    /// What this build renders, for the next one.
    private var next: [String: Kept] = [:]
    /// The posts this build rendered and does not keep (see ``finishMarkdown(keepingOthers:)``).
    private var dropped: [String] = []
    /// Post files as the last build read them, by content path; and as this one does.
    private var read: [String: Read] = [:]
    private var nextRead: [String: Read] = [:]
    /// The own parts of the posts' digests, for the pages' digests of the next build (see ``PostDigestMemo``).
    let digests = PostDigestMemo()
    /// The related posts and term notes of the last site model (see ``SiteModelMemo``).
    package let model = SiteModelMemo()

    /// The memo for a build about `folder` with `inputs` that started at `started` (see
    /// ``IncrementalBuild``), emptied when it was about others.
    static func memo(folder: String, inputs: Digest, started: Int64) -> BuildMemo {
        let memo = shared
        memo.lock.lock()
        defer { memo.lock.unlock() }
        if memo.about?.folder != folder || memo.about?.inputs != inputs {
            memo.kept = [:]
            memo.read = [:]
            memo.digests.forget()
            memo.model.forget()
            memo.about = (folder, inputs)
        }
        memo.started = started
        // As many as the last build kept: the tables are not grown (and copied) as the posts come in.
        memo.next = [:]
        memo.next.reserveCapacity(memo.kept.count)
        memo.dropped = []
        memo.nextRead = [:]
        memo.nextRead.reserveCapacity(memo.read.count)
        return memo
    }

    /// The post file `path` of the content folder `contentDir` as `read` reads it (`bundle`: it
    /// is a bundle's text), or as the last build read it when the file is as it was then.
    package func post(_ path: String, in contentDir: URL, bundle: Bool, read: () -> (Post?, [Diagnostic])) -> (Post?, [Diagnostic]) {
        let stat = FileStat.of(contentDir.path + "/" + path)
        lock.lock()
        let known = self.read[path]
        lock.unlock()
        if let stat, let known, known.stat == stat, known.bundle == bundle {
            lock.lock()
            nextRead[path] = known
            lock.unlock()
            return (known.post, known.diagnostics)
        }
        let made = read()
        if let stat, stat.ctime < started {
            lock.lock()
            nextRead[path] = Read(stat: stat, bundle: bundle, post: made.0, diagnostics: made.1)
            lock.unlock()
        }
        return made
    }

    /// The markdown of `post` with `options` and its messages, as the last build rendered it;
    /// nil when it was not kept or its source changed.
    package func rendered(_ post: Post, options: MarkdownOptions) -> (RenderedMarkdown, [Diagnostic])? {
        lock.lock()
        let known = kept[post.contentPath]
        lock.unlock()
        guard let known, known.source == Self.source(of: post, options: options) else { return nil }
        lock.lock()
        next[post.contentPath] = known
        lock.unlock()
        return (known.rendered, known.diagnostics)
    }

    /// Keeps `rendered`, the markdown of `post` with `options`, and its messages for the next
    /// build, when it depends on nothing else.
    package func keep(_ post: Post, options: MarkdownOptions, rendered: RenderedMarkdown, diagnostics: [Diagnostic]) {
        // The HTML rendered has its `{filename}` links resolved: the body tells that it had any.
        guard !SiteState.linksElsewhere(post, rendered), !ContentLinks.mayHoldReferences(post.body),
              !(post.summary.map(ContentLinks.mayHoldReferences) ?? false) else {
            lock.withLock { dropped.append(post.contentPath) }
            return
        }
        let made = Kept(source: Self.source(of: post, options: options), rendered: rendered, diagnostics: diagnostics)
        lock.lock()
        next[post.contentPath] = made
        lock.unlock()
    }

    /// The build's posts are rendered: what it kept is what the next build finds; with `keepingOthers` (it rendered
    /// some of the posts, the site model's memo keeps the others' markdown) the posts it did not render stay kept.
    package func finishMarkdown(keepingOthers: Bool = false) {
        lock.lock()
        if keepingOthers {
            for path in dropped { kept[path] = nil }
            for (path, made) in next { kept[path] = made }
        } else {
            kept = next
        }
        next = [:]
        dropped = []
        lock.unlock()
    }

    /// Whether the markdown of the post at `contentPath` is kept for the next build (after ``finishMarkdown(keepingOthers:)``).
    package func keepsMarkdown(of contentPath: String) -> Bool {
        lock.withLock { kept[contentPath] != nil }
    }

    /// The state (device, inode, size, times) of each post file as this build found it before reading it, by content
    /// path; nil for a file it did not keep (changed in the clock's tick of the build's start, or not read). The
    /// incremental layer records these instead of looking at every post file again: a file changed after it was
    /// looked at is one the next build finds changed.
    func statsRead() -> (String) -> FileStat? {
        let read = lock.withLock { self.read }
        return { read[$0]?.stat }
    }

    /// The build's posts are read: what it kept is what the next build finds.
    package func finishReading() {
        lock.lock()
        read = nextRead
        nextRead = [:]
        lock.unlock()
    }

    private static func source(of post: Post, options: MarkdownOptions) -> Source {
        Source(source: post.source, bodyLine: post.bodyLine, body: post.body, summary: post.summary, options: options)
    }
}
