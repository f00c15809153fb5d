import BlogContent
import BlogCore
import Foundation

/// Writes an indented XML document element by element, escaping every text and attribute value,
/// so no caller can forget to. Attributes keep the order given.
///
/// The document is UTF-8 written in place into a ``RenderBuffer``, as a page's bytes are: appended to a `String`, each
/// of the few dozen pieces of an element (`<`, a name, `="`, a value…) cost about 350 instructions (the strings' forms
/// and capacity checked at every append); here each is a capacity test and a copy of its bytes. Owned by its maker,
/// which takes the bytes once, with ``data()`` (a whole feed) or ``bytes()`` (a fragment), which free the memory.
struct XMLWriter {
    /// The XML declaration a document starts with.
    static let declaration = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    /// The document so far.
    private var out = RenderBuffer()
    private var open: [String] = []

    /// A document, starting with the XML declaration.
    init() {
        out.write(Self.declaration)
    }

    /// A fragment without the declaration, indented as if inside `depth` open elements, to be
    /// put into documents with ``append(fragment:)`` (a feed entry shown in several feeds).
    init(fragmentDepth depth: Int) {
        open = Array(repeating: "", count: depth)
    }

    /// The UTF-8 bytes written so far.
    var count: Int { out.count }

    /// Room for `extra` more bytes, so a document whose size is known grows once.
    mutating func reserve(_ extra: Int) {
        out.reserve(extra)
    }

    /// The document as `Data` that owns its memory. The writer must not be used after.
    func data() -> Data {
        out.data()
    }

    /// The document's bytes in an array of their size (a fragment); the memory is freed. The writer must not be used after.
    func bytes() -> [UInt8] {
        out.array()
    }

    /// `<name a="v">` on its own line; later elements go inside it until ``close()``.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        startTag(name, attributes)
        out.write(">\n")
        open.append(name)
    }

    /// Closes the innermost open element.
    mutating func close() {
        let name = open.removeLast()
        indent()
        out.write("</")
        out.write(name)
        out.write(">\n")
    }

    /// `<name a="v">text</name>`, or `<name a="v"/>` when `text` is nil.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String?) {
        guard let text else {
            startTag(name, attributes)
            out.write("/>\n")
            return
        }
        element(name, attributes, escaping: text)
    }

    /// `<name a="v">text</name>`, `text` escaped by ``Escaping/xml(_:utf8:)`` straight into the document (no escaped
    /// `String` made of it: a feed entry's summary and body). Returns where the escaped text is in the document, in
    /// UTF-8 bytes, so that another document can take it from there.
    @discardableResult
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], escaping text: String) -> Range<Int> {
        startTag(name, attributes)
        out.write(">")
        let start = out.count
        Escaping.xml(text) { out.write(utf8: $0) }
        return end(name, from: start)
    }

    /// `<name a="v">escaped</name>`, `escaped` being the UTF-8 of text ``Escaping/xml(_:)`` made (a feed entry's body,
    /// escaped once for every feed that shows it: see ``FeedEntry/escaped(_:)``). Returns where it is, as above.
    @discardableResult
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], escapedUTF8 escaped: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        startTag(name, attributes)
        out.write(">")
        let start = out.count
        out.write(utf8: escaped)
        return end(name, from: start)
    }

    /// `</name>` and a line feed after the text written since `start`; where that text is.
    private mutating func end(_ name: String, from start: Int) -> Range<Int> {
        let end = out.count
        out.write("</")
        out.write(name)
        out.write(">\n")
        return start..<end
    }

    /// A fragment's bytes (``bytes()`` of a writer made by ``init(fragmentDepth:)`` with the depth of the elements
    /// open here).
    mutating func append(fragment: [UInt8]) {
        fragment.withUnsafeBufferPointer { out.write(utf8: $0) }
    }

    /// The indentation of a line inside the elements open, then `<name a="v"`.
    private mutating func startTag(_ name: String, _ attributes: [(String, String)]) {
        indent()
        out.write("<")
        out.write(name)
        for (attribute, value) in attributes {
            out.write(" ")
            out.write(attribute)
            out.write("=\"")
            Escaping.xml(value) { out.write(utf8: $0) }
            out.write("\"")
        }
    }

    private mutating func indent() {
        for _ in open.indices { out.write("  ") }
    }
}

/// The dates feeds and sitemaps carry, as seen in the site's time zone.
struct FeedDates: Sendable {
    private let timeZone: TimeZone
    private let rfc822Pattern: DatePattern

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        rfc822Pattern = DatePattern("%a, %d %b %Y %H:%M:%S %z", timeZone: timeZone)
    }

    /// RFC 3339 with the zone's offset, as Atom, JSON Feed and sitemaps want it:
    /// `2016-11-25T10:20:00+01:00` (`Z` for UTC).
    func rfc3339(_ date: Date) -> String {
        DateText.iso8601(date, timeZone: timeZone)
    }

    /// RFC 822 as RSS 2.0 wants it, with a four-digit year: `Fri, 25 Nov 2016 00:00:00 +0100`.
    /// English names, whatever the machine's locale.
    func rfc822(_ date: Date) -> String {
        rfc822Pattern.format(date)
    }

    /// When a post last changed: its `modified` date when later than its `date`, else its `date`.
    static func updated(_ post: Post) -> Date {
        max(post.date, post.modified ?? post.date)
    }

    /// The newest ``updated(_:)`` of `posts`, or nil when there are none.
    static func newest<S: Sequence>(_ posts: S) -> Date? where S.Element == Post {
        posts.lazy.map(updated).max()
    }
}
