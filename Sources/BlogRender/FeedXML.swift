import BlogContent
import BlogCore
import Foundation

/// Writes an indented XML document element by element, escaping every text and attribute value,
/// so no caller can forget to. Attributes keep the order given.
struct XMLWriter {
    /// The XML declaration a document starts with.
    static let declaration = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    /// The document so far.
    package private(set) var text = declaration
    private var open: [String] = []

    /// A document, starting with the XML declaration.
    init() {}

    /// A fragment without the declaration, indented as if inside `depth` open elements, to be
    /// put into documents with ``append(fragment:)`` (a feed entry shown in several feeds).
    init(fragmentDepth depth: Int) {
        text = ""
        open = Array(repeating: "", count: depth)
    }

    /// Room for `extra` more bytes of text, so a document whose size is known grows once.
    mutating func reserve(_ extra: Int) {
        text.reserveCapacity(text.utf8.count + extra)
    }

    /// `<name a="v">` on its own line; later elements go inside it until ``close()``.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        startTag(name, attributes)
        text += ">\n"
        open.append(name)
    }

    /// Closes the innermost open element.
    mutating func close() {
        let name = open.removeLast()
        indent()
        text += "</"
        text += name
        text += ">\n"
    }

    /// `<name a="v">text</name>`, or `<name a="v"/>` when `text` is nil.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String?) {
        guard let text else {
            startTag(name, attributes)
            self.text += "/>\n"
            return
        }
        element(name, attributes, escaped: Escaping.xml(text))
    }

    /// `<name a="v">escaped</name>`, `escaped` being text ``Escaping/xml(_:)`` made (a feed entry's
    /// body, escaped once for every feed that shows it). Returns where `escaped` is in ``text``, in
    /// UTF-8 bytes, so that another document can take it from there.
    @discardableResult
    mutating func element<Text: StringProtocol>(_ name: String, _ attributes: [(String, String)] = [], escaped: Text) -> Range<Int> {
        startTag(name, attributes)
        text += ">"
        let start = text.utf8.count
        text += escaped
        let end = text.utf8.count
        text += "</"
        text += name
        text += ">\n"
        return start..<end
    }

    /// A fragment made by ``init(fragmentDepth:)`` with the depth of the elements open here.
    mutating func append(fragment: String) {
        text += fragment
    }

    /// The indentation of a line inside the elements open, then `<name a="v"`. Each piece is
    /// appended as it is: no line is put together in a string of its own first.
    private mutating func startTag(_ name: String, _ attributes: [(String, String)]) {
        indent()
        text += "<"
        text += name
        for (attribute, value) in attributes {
            text += " "
            text += attribute
            text += "=\""
            text += Escaping.xml(value)
            text += "\""
        }
    }

    private mutating func indent() {
        for _ in open.indices { text += "  " }
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
