import Foundation
import Mustache

/// Renders each post's entry in the home and tag lists once, however many list pages show it.
///
/// A post is on a home page and on a page of each of its tags: for 10,000 posts the lists show
/// 35,000 entries, and rendering the entry partial was most of the template time (callgrind).
/// When a theme's list templates hold the entry in the shape of the default theme,
///
///     {{#posts}}
///     {{>post-summary}}
///     {{/posts}}
///
/// and that partial can only read the post (``cacheablePartial(_:)`` checks it), the partial is
/// rendered once per post with the post alone, and the list pages use a copy of the library in
/// which the partial prints that text. Any other theme is rendered as it is, only slower.
struct ListSummaries {
    /// The partial rendered once per post.
    let partial: String
    /// The theme's library with the partial replaced by the post's rendered entry.
    let listLibrary: MustacheLibrary

    /// The key of the rendered entry in the post values the list pages see.
    static let key = "__blog_listEntry"

    /// The templates that render list pages.
    static let listTemplates = ["index", "tag"]

    /// Names a list page's values have (see TemplateContext) that a post's values may lack: a
    /// partial that reads one of them depends on the page, not on the post alone. `tags` is not
    /// one: every post has its own `tags`, found first.
    static let pageNames: Set<String> = ["config", "links", "archives", "feeds", "nav", "page", "posts",
                                         "pagination", "tag", "neighbours", "post"]

    /// For a theme whose list templates qualify (see the type's documentation), the partial to
    /// render once per post and the library for list pages; nil otherwise.
    /// - Parameter sources: every template's text by name (without the pragma Theme adds).
    init?(sources: [String: String], library: MustacheLibrary) {
        guard let partial = Self.cacheablePartial(sources) else { return nil }
        var listLibrary = library
        guard let entry = try? MustacheTemplate(string: "{{{\(Self.key)}}}") else { return nil }
        listLibrary.register(entry, named: partial)
        self.partial = partial
        self.listLibrary = listLibrary
    }

    /// The partial that every list template shows its posts with, in the default theme's shape at
    /// the top level of the page, used nowhere else, and reading only names of the post.
    static func cacheablePartial(_ sources: [String: String]) -> String? {
        var partial: String?
        var uses = 0
        for name in listTemplates {
            guard let text = sources[name], let tags = TemplateTags.scan(text) else { return nil }
            for (index, tag) in tags.enumerated() where tag.kind == "#" && tag.name == "posts" {
                guard index + 2 < tags.count, tags[index + 1].kind == ">", tags[index + 2].kind == "/" else { return nil }
                let name = tags[index + 1].name
                let shape = "{{#posts}}\n{{>\(name)}}\n{{/posts}}"
                let start = tag.range.lowerBound, end = tags[index + 2].range.upperBound
                guard text[start..<end] == shape, start == text.startIndex || text[text.index(before: start)] == "\n",
                      end == text.endIndex || text[end] == "\n",
                      partial == nil || partial == name, tag.depth == 0,
                      parentsExpandBlocksAtTheTop(tags, sources) else { return nil }
                partial = name
                uses += 1
            }
        }
        guard let partial, readsOnlyThePost(partial, sources, seen: []) else { return nil }
        // Used nowhere but in those lists: the list library would show the post's entry there too.
        var references = 0
        for text in sources.values {
            guard let tags = TemplateTags.scan(text) else { return nil }
            references += tags.filter { ($0.kind == ">" || $0.kind == "<") && $0.name == partial }.count
        }
        return references == uses ? partial : nil
    }

    /// The parent templates (`{{<base}}`) `tags` fills have their blocks outside any section,
    /// and no parents of their own: a block's content is then rendered with the page's values
    /// alone on the stack.
    private static func parentsExpandBlocksAtTheTop(_ tags: [TemplateTag], _ sources: [String: String]) -> Bool {
        for parent in tags where parent.kind == "<" {
            guard let text = sources[parent.name], let parentTags = TemplateTags.scan(text) else { return false }
            if parentTags.contains(where: { $0.kind == "<" || ($0.kind == "$" && $0.depth > 0) }) { return false }
        }
        return true
    }

    /// Whether `name` and the partials it includes read only the post they are rendered with:
    /// no name of ``pageNames``, no blocks, parents, dynamic partials or pragmas.
    private static func readsOnlyThePost(_ name: String, _ sources: [String: String], seen: Set<String>) -> Bool {
        guard !seen.contains(name), let text = sources[name], let tags = TemplateTags.scan(text) else { return false }
        for tag in tags {
            switch tag.kind {
            case "!", "/":
                continue
            case "$", "<", "%":
                return false
            case ">":
                if tag.name.hasPrefix("*") || !readsOnlyThePost(tag.name, sources, seen: seen.union([name])) { return false }
            default:
                if pageNames.contains(tag.rootName) { return false }
            }
        }
        return true
    }
}

/// A tag of a Mustache template, as far as ``ListSummaries`` needs to know it.
struct TemplateTag {
    /// `#`, `^`, `/`, `>`, `<`, `$`, `!`, `%`, `&` or `{`; nil for a variable.
    var kind: Character?
    /// The name, trimmed (`post-summary`, `empty(tags)`, `config.title`).
    var name: String
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

enum TemplateTags {
    /// Every tag of `text` in order; nil when the text changes the delimiters (`{{=<% %>=}}`)
    /// or a tag is not closed.
    static func scan(_ text: String) -> [TemplateTag]? {
        var tags: [TemplateTag] = []
        var open: [Character] = []  // kinds of the sections, parents and blocks open
        var rest = text[...]
        while let start = rest.range(of: "{{") {
            var inside = rest[start.upperBound...]
            var kind: Character? = inside.first
            let closing: String
            switch kind {
            case "{": closing = "}}}"
            case "#", "^", "/", ">", "<", "$", "!", "%", "&": closing = "}}"
            case "=": return nil
            default: kind = nil; closing = "}}"
            }
            if kind != nil { inside = inside.dropFirst() }
            guard let end = inside.range(of: closing) else { return nil }
            let name = inside[..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            let depth = open.filter { $0 == "#" || $0 == "^" }.count
            if kind == "/" {
                if !open.isEmpty { open.removeLast() }
            }
            tags.append(TemplateTag(kind: kind, name: name, range: start.lowerBound..<end.upperBound,
                                    depth: kind == "/" ? open.filter { $0 == "#" || $0 == "^" }.count : depth))
            if let kind, "#^<$".contains(kind) { open.append(kind) }
            rest = text[end.upperBound...]
        }
        return tags
    }
}
