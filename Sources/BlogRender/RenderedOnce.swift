import BlogCore
import Foundation
import Mustache
import Synchronization

/// Every post's record, for the texts rendered once per post (``RenderedOnce``) to render
/// from: they hold it unowned, since the records hold them. Set once, before any page is rendered.
final class PostTable: @unchecked Sendable {
    var posts: [TemplateRecord] = []
}

/// Text that templates print, made the first time one does and kept for the others; safe to use
/// from every core. Kept as its UTF-8 bytes, which the compiled render writes as they are (``write(into:)``):
/// made a `String`, the bytes of every entry and post partial were checked as UTF-8 again (0.8% of a build's
/// instructions), for pages that only copy them. Kept to the end of the build, so `render` gives them at their
/// exact size.
final class RenderedOnce: MustacheCustomRenderable, @unchecked Sendable {
    /// What renders it, from the record of post `index` of `table`: held here, not in a closure that captures them,
    /// which was an object more to make and free for each text of every post.
    private let render: (Any) -> [UInt8]
    private unowned let table: PostTable
    private let index: Int
    /// In place, not an `NSLock` beside it: every post has two of these, and each lock was an object of its own,
    /// made and freed with them (20,000 at 10,000 posts, on every build).
    private let made = Mutex<[UInt8]?>(nil)

    init(_ render: @escaping (Any) -> [UInt8], post index: Int, of table: PostTable) {
        self.render = render
        self.table = table
        self.index = index
    }

    var isNull: Bool { false }

    /// The text's UTF-8.
    var bytes: [UInt8] {
        if let known = made.withLock({ $0 }) { return known }
        // Two cores may make it at once; both make the same text.
        let bytes = render(table.posts[index])
        made.withLock { $0 = bytes }
        return bytes
    }

    /// The text, for swift-mustache and for a template that escapes it.
    var renderText: String { String(decoding: bytes, as: UTF8.self) }

    /// The text appended to `output` as it is (not escaped).
    func write<Output: RenderOutput>(into output: inout Output) {
        bytes.withUnsafeBufferPointer { output.write(utf8: $0) }
    }
}

/// A value templates read as what `make` returns, made each time one reads it and never kept: for
/// what a post's own page shows, if any page does (its table of contents, its headings, its header's
/// `meta`), whose dictionaries were otherwise held for every post until the last page was written
/// (3.5 KB a post). Both renderers read it as its representation; ``PageInputs`` digests that.
final class LazyValue: MustacheCustomRepresentation, @unchecked Sendable {
    private let make: @Sendable () -> Any

    init(_ make: @escaping @Sendable () -> Any) {
        self.make = make
    }

    /// The value, made now.
    var value: Any { make() }

    var representation: Any? { make() }
}
