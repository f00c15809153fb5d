import BlogContent
import BlogCore
import Foundation

/// Writes an indented XML document element by element, escaping every text and attribute value,
/// so no caller can forget to. Attributes keep the order given.
struct XMLWriter {
    /// The document so far.
    package private(set) var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    private var open: [String] = []

    /// A document, starting with the XML declaration.
    init() {}

    /// A fragment without the declaration, indented as if inside `depth` open elements, to be
    /// put into documents with ``append(fragment:)`` (a feed entry shown in several feeds).
    init(fragmentDepth depth: Int) {
        text = ""
        open = Array(repeating: "", count: depth)
    }

    /// `<name a="v">` on its own line; later elements go inside it until ``close()``.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        line("<\(name)\(Self.attributeText(attributes))>")
        open.append(name)
    }

    /// Closes the innermost open element.
    mutating func close() {
        let name = open.removeLast()
        line("</\(name)>")
    }

    /// `<name a="v">text</name>`, or `<name a="v"/>` when `text` is nil.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String?) {
        let start = "<\(name)\(Self.attributeText(attributes))"
        if let text {
            line(start + ">" + Escaping.xml(text) + "</\(name)>")
        } else {
            line(start + "/>")
        }
    }

    /// A fragment made by ``init(fragmentDepth:)`` with the depth of the elements open here.
    mutating func append(fragment: String) {
        text += fragment
    }

    private mutating func line(_ content: String) {
        text += String(repeating: "  ", count: open.count) + content + "\n"
    }

    private static func attributeText(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(Escaping.xml($0.1))\"" }.joined()
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
