import BlogCore
import Foundation

/// A tag of a Mustache template, as ``TemplateTags/read(_:)`` finds it.
package struct TemplateTag {
    /// `#`, `^`, `/`, `>`, `<`, `$`, `!`, `%`, `&` or `{`; nil for a variable.
    var kind: Character?
    /// The name, without the white space around it (`post-summary`, `empty(tags)`, `config.title`).
    package var name: String
    /// From `{{` to `}}`.
    var range: Range<String.Index>
    /// How many sections (`{{#x}}`, `{{^x}}`) are open around it.
    var depth: Int

    /// The first part of the name the tag looks up, inside any transforms: `tags` for
    /// `empty(tags)`, `config` for `config.title`; `.` stays `.`.
    var rootName: String {
        var inner = Substring(name)
        if let open = inner.lastIndex(of: "(") { inner = inner[inner.index(after: open)...] }
        if let close = inner.firstIndex(of: ")") { inner = inner[..<close] }
        if inner == "." || inner.hasPrefix(".") { return "." }
        return String(inner.split(separator: ".", maxSplits: 1).first ?? "")
    }
}

/// The one reader of Mustache tags: what the theme checks (``TemplateCheck``), the renderer's
/// shortcuts (``ListSummaries``, ``SharedPartials``) and a build in place (``QuickBuild``) know
/// of a template comes from ``read(_:)``.
package enum TemplateTags {
    /// Whether only spaces or tabs stand between the start of the tag's line and the tag: a
    /// partial or block shown there has every line indented by swift-mustache.
    static func indented(_ tag: TemplateTag, in text: String) -> Bool {
        let before = text[..<tag.range.lowerBound]
        let line = before[(before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex)...]
        return !line.isEmpty && line.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// Whether every name that the template `name` and the partials it includes look up passes
    /// `allowed`, and they have no blocks, parents, dynamic partials or pragmas. `allowed` also
    /// gets whether the tag is at the top level of what `name` is shown with (outside any of
    /// their sections). `tags` gives a template's tags by name.
    static func lookups(of name: String, in tags: (String) -> [TemplateTag]?, atTop: Bool = true, seen: Set<String> = [],
                        allowed: (TemplateTag, _ atTop: Bool) -> Bool) -> Bool {
        guard !seen.contains(name), let list = tags(name) else { return false }
        for tag in list {
            switch tag.kind {
            case "!", "/":
                continue
            case "$", "<", "%":
                return false
            case ">":
                guard !tag.name.hasPrefix("*"), lookups(of: tag.name, in: tags, atTop: atTop && tag.depth == 0,
                                                        seen: seen.union([name]), allowed: allowed) else { return false }
            default:
                if !allowed(tag, atTop && tag.depth == 0) { return false }
            }
        }
        return true
    }

    /// Whether the blocks that `template` fills (`{{<base}}{{$content}}...{{/content}}{{/base}}`)
    /// are shown with the page's values alone on the stack and without indentation: its parents
    /// are at its top level and not indented, have no parents of their own, and expand blocks
    /// outside any section, parent or block, without indentation; and no other template expands a
    /// block (a partial of the parent could expand the page's block inside a section).
    static func blocksShownAtTheTop(of template: String, _ sources: [String: String]) -> Bool {
        guard let text = sources[template], let tags = scan(text) else { return false }
        var parents: Set<String> = []
        for (tag, open) in zip(tags, enclosing(tags)) where tag.kind == "<" {
            guard open.isEmpty, !indented(tag, in: text) else { return false }
            parents.insert(tag.name)
        }
        for (name, text) in sources {
            guard let tags = scan(text) else { return false }
            for (tag, open) in zip(tags, enclosing(tags)) {
                if tag.kind == "<" && parents.contains(name) { return false }
                // A block inside a parent tag is a block's content, not an expansion.
                guard tag.kind == "$", !open.contains(where: { $0.kind == "<" }) else { continue }
                guard parents.contains(name), open.isEmpty, !indented(tag, in: text) else { return false }
            }
        }
        return true
    }

    /// For each of `tags`, the sections, parents and blocks open around it, outermost first.
    static func enclosing(_ tags: [TemplateTag]) -> [[TemplateTag]] {
        var open: [TemplateTag] = []
        return tags.map { tag in
            if tag.kind == "/" {
                if !open.isEmpty { open.removeLast() }
                return open
            }
            defer { if let kind = tag.kind, "#^<$".contains(kind) { open.append(tag) } }
            return open
        }
    }

    /// Every tag of `text` in order; nil when the text changes the delimiters (`{{=<% %>=}}`)
    /// or a tag is not closed. Each text is scanned once: loading a theme asks for its templates
    /// again and again (a tenth of a build in place).
    package static func scan(_ text: String) -> [TemplateTag]? {
        ScannedTemplates.shared.tags(of: text) { text in
            let read = read(text)
            return read.complete ? read.tags : nil
        }
    }

    /// The tags of `text` in order, as far as they can be read: up to a set-delimiter tag
    /// (`{{=<% %>=}}`, after which `{{` no longer opens a tag) or a tag that is not closed, and
    /// whether that is the whole text. A tag is `{{` and the first `}}` after it (`}}}` after
    /// `{{{`); its kind is the byte right after `{{`, as swift-mustache reads it.
    static func read(_ text: String) -> (tags: [TemplateTag], complete: Bool) {
        // Plain arrays and an index loop: the same scan written inside `withUTF8` with a nested
        // search function crashed the Swift 6.3 optimiser (SILCombine) in release builds.
        let bytes = Array(text.utf8)
        let opener: [UInt8] = Array("{{".utf8), closer: [UInt8] = Array("}}".utf8), tripleCloser: [UInt8] = Array("}}}".utf8)
        let sigils = Set("{#^/><$!%&".utf8)
        let utf8 = text.utf8
        var tags: [TemplateTag] = []
        var open: [UInt8] = []  // kinds of the sections, parents and blocks open
        var sections = 0  // how many of them are sections (`#`, `^`)
        var position = 0
        while let start = ByteSearch.firstIndex(of: opener, in: bytes, from: position) {
            var nameStart = start + opener.count
            var kind: UInt8?
            if nameStart < bytes.count, bytes[nameStart] == UInt8(ascii: "=") { return (tags, false) }
            if nameStart < bytes.count, sigils.contains(bytes[nameStart]) {
                kind = bytes[nameStart]
                nameStart += 1
            }
            let closing = kind == UInt8(ascii: "{") ? tripleCloser : closer
            guard let end = ByteSearch.firstIndex(of: closing, in: bytes, from: nameStart) else { return (tags, false) }
            position = end + closing.count
            let name = String(decoding: bytes[nameStart..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if kind == UInt8(ascii: "/"), let closed = open.popLast(), closed == UInt8(ascii: "#") || closed == UInt8(ascii: "^") {
                sections -= 1
            }
            tags.append(TemplateTag(kind: kind.map { Character(Unicode.Scalar($0)) }, name: name,
                                    range: utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: position),
                                    depth: sections))
            if let kind, kind == UInt8(ascii: "#") || kind == UInt8(ascii: "^") || kind == UInt8(ascii: "<") || kind == UInt8(ascii: "$") {
                open.append(kind)
                if kind == UInt8(ascii: "#") || kind == UInt8(ascii: "^") { sections += 1 }
            }
        }
        return (tags, true)
    }

    /// The names that the tags of `text` look up (each identifier of `post.title`, `empty(tags)`),
    /// or nil when they can't all be known: the text changes its delimiters, leaves a tag open or
    /// names a partial dynamically (`{{>*name}}`). A closing tag names what it closes.
    package static func names(in text: String) -> Set<String>? {
        guard let tags = scan(text) else { return nil }
        var names: Set<String> = []
        for tag in tags {
            switch tag.kind {
            case "!":
                continue
            case ">", "<":
                if tag.name.hasPrefix("*") { return nil }
            default:
                for part in tag.name.split(whereSeparator: { "().,| \t\n".contains($0) }) where part != "." {
                    names.insert(String(part))
                }
            }
        }
        return names
    }
}

/// Template texts already scanned by ``TemplateTags/scan(_:)``, for the whole process.
private final class ScannedTemplates: @unchecked Sendable {
    static let shared = ScannedTemplates()
    private let lock = NSLock()
    private var known: [String: [TemplateTag]?] = [:]

    func tags(of text: String, scan: (String) -> [TemplateTag]?) -> [TemplateTag]? {
        lock.lock()
        if let tags = known[text] { lock.unlock(); return tags }
        lock.unlock()
        let tags = scan(text)
        lock.lock()
        known[text] = .some(tags)
        lock.unlock()
        return tags
    }
}
