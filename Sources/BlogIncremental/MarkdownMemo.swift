import BlogContent
import BlogCore
import BlogMarkdown
import Foundation

/// The rendered markdown of the last build's posts, kept in the process for its next build:
/// `blog serve` builds again on every save, and a post whose body did not change need not be
/// rendered again (a second and a half of a 10,000-post blog's build on 2 cores).
///
/// A post is kept only when its HTML depends on nothing but its body, its summary, its markdown
/// options and where it is (for messages): no Liquid or shortcodes, no links resolved against
/// other posts (see ``SiteState/linksElsewhere(_:_:)``). The memo is for one blog folder, output
/// and set of inputs (``QuickBuild/inputs(_:)``); another forgets it.
package final class MarkdownMemo: @unchecked Sendable {
    /// What a post's markdown is rendered from.
    private struct Source: Equatable {
        var source: String
        var bodyLine: Int
        var body: String
        var summary: String?
        var options: MarkdownOptions
    }

    private struct Kept {
        var source: Source
        var rendered: RenderedMarkdown
        var diagnostics: [Diagnostic]
    }

    /// The memo of the process: one blog folder at a time.
    private static let shared = MarkdownMemo()
    private let lock = NSLock()
    /// What the memo is about: the state folder and the build's inputs.
    private var about: (folder: String, inputs: Digest)?
    /// Kept posts by content path, from the last build.
    private var kept: [String: Kept] = [:]
    /// What this build renders, for the next one.
    private var next: [String: Kept] = [:]

    /// The memo for builds about `folder` with `inputs`, emptied when it was about others.
    static func memo(folder: String, inputs: Digest) -> MarkdownMemo {
        let memo = shared
        memo.lock.lock()
        defer { memo.lock.unlock() }
        if memo.about?.folder != folder || memo.about?.inputs != inputs {
            memo.kept = [:]
            memo.about = (folder, inputs)
        }
        memo.next = [:]
        return memo
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
        guard !SiteState.linksElsewhere(post, rendered) else { return }
        let made = Kept(source: Self.source(of: post, options: options), rendered: rendered, diagnostics: diagnostics)
        lock.lock()
        next[post.contentPath] = made
        lock.unlock()
    }

    /// The build's posts are rendered: what it kept is what the next build finds.
    package func finish() {
        lock.lock()
        kept = next
        next = [:]
        lock.unlock()
    }

    private static func source(of post: Post, options: MarkdownOptions) -> Source {
        Source(source: post.source, bodyLine: post.bodyLine, body: post.body, summary: post.summary, options: options)
    }
}
