import BlogCore
import BlogRender
import BlogSite
import Foundation
import Mustache

/// The incremental layer's ``RenderHook``: it finds where the posts' rendered bodies sit in the
/// pages and feeds, so that a later build can put a post's new body into its published pages
/// without the rest of the site (see ``QuickBuild``).
///
/// Templates see each post's `html` as a ``BodyMarker``, which prints a short marker instead of
/// the body. ``pageBytes(number:text:)`` then puts each body where its marker is, escaped when the
/// template escaped the marker (`{{html}}` turns the marker's `&` into `&amp;`), and remembers
/// each place as a ``BodyHole``; feeds the same, in their own forms. Printing is all a template
/// can do with the marker that leaves no trace of it: a transform (`{{lowercased(html)}}`) gets
/// the real body, and the post is recorded as *opaque*, so that a change to it is never patched in
/// place. The bytes are those of a render without the hook.
final class BodyHoles: RenderHook, @unchecked Sendable {
    /// Markers are ``PlaceholderMarks``: a post's own text can't forge one.
    let marks = PlaceholderMarks.build
    /// Each post's rendered body, by index into ``Site/posts``.
    let bodies: [String]
    /// Each post's marker, by index.
    let markers: [BodyMarker]
    /// Each post's address, against which feeds make its body's links absolute.
    private let permalinks: [String]
    private let recorder = OpaqueRecorder()
    private let lock = NSLock()
    /// Holes by index into ``Site/pages``; pages not rendered yet have none.
    private var pages: [[BodyHole]]
    /// Holes by feed path.
    private var feeds: [String: [BodyHole]] = [:]
    /// Each post's body in the form of the XML feeds and of the JSON feed, made the first time a
    /// feed shows it: a post is in the site's feeds and in each of its tags'.
    private var feedXML: [String?], feedJSON: [String?]

    init(site: Site) {
        bodies = site.posts.map(\.rendered.html)
        let (recorder, marks) = (self.recorder, marks)
        markers = site.posts.indices.map { index in
            BodyMarker(post: index, html: site.posts[index].rendered.html, marker: marks.mark("&", index), recorder: recorder)
        }
        permalinks = site.posts.map { AbsoluteURLs.url($0.url, config: site.config) }
        pages = Array(repeating: [], count: site.pages.count)
        feedXML = Array(repeating: nil, count: site.posts.count)
        feedJSON = feedXML
    }

    /// The body of post `number` in `form`.
    private func body(_ number: Int, in form: BodyForm) -> String {
        let kept: ReferenceWritableKeyPath<BodyHoles, [String?]>
        switch form {
        case .html: return bodies[number]
        case .escaped: return form.apply(bodies[number])
        case .feedXML: kept = \.feedXML
        case .feedJSON: kept = \.feedJSON
        }
        lock.lock()
        let known = self[keyPath: kept][number]
        lock.unlock()
        if let known { return known }
        // Two cores may make the same text at once; both give the same.
        let made = form.apply(bodies[number])
        lock.lock()
        self[keyPath: kept][number] = made
        lock.unlock()
        return made
    }

    /// Posts whose body a template transformed rather than printed.
    var opaquePosts: Set<Int> { recorder.posts }

    /// Where the bodies are in each page (by index into ``Site/pages``) and feed (by path).
    var found: (pages: [[BodyHole]], feeds: [String: [BodyHole]]) {
        lock.lock()
        defer { lock.unlock() }
        return (pages, feeds)
    }

    // MARK: RenderHook

    func templateBody(post: Int, html: String) -> Any { markers[post] }

    func feedBody(post: Int) -> String { feedMarker(post) }

    func pageBytes(number: Int, text: String) -> Data {
        let (bytes, holes) = fill(text)
        if !holes.isEmpty {
            lock.lock()
            pages[number] = holes
            lock.unlock()
        }
        return Data(bytes)
    }

    func feedBytes(path: String, json: Bool, text: String) -> Data {
        let (bytes, holes) = fillFeed(text) { index in json ? .feedJSON(base: permalinks[index]) : .feedXML(base: permalinks[index]) }
        if !holes.isEmpty {
            lock.lock()
            feeds[path] = holes
            lock.unlock()
        }
        return Data(bytes)
    }

    // MARK: Markers

    /// The marker of post `index` in a feed (see ``fillFeed(_:form:)``).
    func feedMarker(_ index: Int) -> String { marks.mark("F", index) }

    /// The page's bytes with every marker replaced by its post's body, and where each body went.
    func fill(_ marked: String) -> (bytes: [UInt8], holes: [BodyHole]) {
        fill(marked, lead: "&") { $0 ? .escaped : .html }
    }

    /// A feed's bytes with every feed marker replaced by its post's body in the form `form` gives
    /// for the post.
    func fillFeed(_ marked: String, form: (Int) -> BodyForm) -> (bytes: [UInt8], holes: [BodyHole]) {
        withoutActuallyEscaping(form) { form in fill(marked, lead: "F", post: form) { _ in .html } }
    }

    private func fill(_ marked: String, lead letter: Character, post postForm: ((Int) -> BodyForm)? = nil,
                      form: (Bool) -> BodyForm) -> (bytes: [UInt8], holes: [BodyHole]) {
        let text = Array(marked.utf8)
        guard marks.mayBeIn(marked) else { return (text, []) }
        // An escaped page marker's `&` is `&amp;`.
        let kinds = letter == "&" ? [Array("&".utf8), Array("&amp;".utf8)] : [Array(String(letter).utf8)]
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 4096)
        var holes: [BodyHole] = []
        var index = 0
        var copied = 0
        while let found = marks.next(in: text, from: index, kinds: kinds) {
            guard found.number < bodies.count else {
                index = found.range.lowerBound + 1
                continue
            }
            out.append(contentsOf: text[copied..<found.range.lowerBound])
            let form = postForm?(found.number) ?? form(found.kind == 1)
            let start = out.count
            out.append(contentsOf: body(found.number, in: form).utf8)
            holes.append(BodyHole(post: found.number, offset: start, length: out.count - start, form: form))
            copied = found.range.upperBound
            index = copied
        }
        out.append(contentsOf: text[copied...])
        return (out, holes)
    }
}

/// Where one post's body went in a page or feed: `length` bytes at `offset`.
struct BodyHole: Sendable, Equatable {
    /// Index into ``Site/posts``.
    var post: Int
    var offset: Int
    var length: Int
    /// How the body was written there.
    var form: BodyForm

    init(post: Int, offset: Int, length: Int, form: BodyForm) {
        self.post = post
        self.offset = offset
        self.length = length
        self.form = form
    }
}

/// How a body is written where its marker was.
enum BodyForm: Sendable, Equatable {
    /// As it is (`{{{html}}}`).
    case html
    /// HTML-escaped (`{{html}}`).
    case escaped
    /// In a feed: links made absolute against the post's address, then XML-escaped.
    case feedXML(base: String)
    /// In the JSON feed: links made absolute, then as a JSON string's content.
    case feedJSON(base: String)

    /// `html` in this form.
    func apply(_ html: String) -> String {
        switch self {
        case .html: return html
        case .escaped: return Escaping.template(html)
        case .feedXML(let base): return Escaping.xml(AbsoluteURLs.rewrite(html: html, base: base))
        case .feedJSON(let base): return Self.jsonContent(AbsoluteURLs.rewrite(html: html, base: base))
        }
    }

    /// The characters of `text` as JSONEncoder writes them inside a string.
    static func jsonContent(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let bytes = (try? encoder.encode([text])) ?? Data("[\"\"]".utf8)
        return String(decoding: bytes.dropFirst(2).dropLast(2), as: UTF8.self)
    }
}

/// A post's `html` as templates see it: printed, it is a marker that ``BodyHoles`` replaces.
struct BodyMarker: MustacheCustomRenderable, MustacheTransformable, @unchecked Sendable {
    let post: Int
    /// The rendered body.
    let html: String
    let marker: String
    fileprivate let recorder: OpaqueRecorder

    var renderText: String { marker }
    var isNull: Bool { false }

    /// The body's transform, as a string's; the post is then opaque (see ``BodyHoles``).
    func transform(_ name: String) -> Any? {
        recorder.add(post)
        return html.transform(name)
    }
}

private final class OpaqueRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var found: Set<Int> = []

    func add(_ post: Int) {
        lock.lock()
        found.insert(post)
        lock.unlock()
    }

    var posts: Set<Int> {
        lock.lock()
        defer { lock.unlock() }
        return found
    }
}
