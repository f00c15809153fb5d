import BlogCore
import Foundation
import Mustache

/// Every post's record, for the texts rendered once per post (``RenderedOnce``) to render
/// from: they hold it unowned, since the records hold them. Set once, before any page is rendered.
final class PostTable: @unchecked Sendable {
    var posts: [TemplateRecord] = []
}

/// Text that templates print, made the first time one does and kept for the others; safe to use
/// from every core. Kept to the end of the build, so `make` gives it at its exact size (see
/// `String.atExactSize`; a compiled template's render is).
final class RenderedOnce: MustacheCustomRenderable, @unchecked Sendable {
    private let make: () -> String
    private var text: String?
    private let lock = NSLock()

    init(_ make: @escaping () -> String) {
        self.make = make
    }

    var isNull: Bool { false }

    var renderText: String {
        lock.lock()
        let known = text
        lock.unlock()
        if let known { return known }
        // Two cores may make it at once; both make the same text.
        let made = make()
        lock.lock()
        text = made
        lock.unlock()
        return made
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
