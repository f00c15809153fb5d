import Foundation
import Mustache

/// Renders each post's entry in the home and tag lists once, however many list pages show it.
///
/// A post is on a home page and on a page of each of its tags: for 10,000 posts the lists show
/// 35,000 entries, and rendering the entry partial is most of the template time.
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
    let listLibrary: TemplateLibrary
    /// Partials that the entry and the post pages both show for the post on top of the stack
    /// (the default theme's `post-meta`), rendered once per post (see ``postPartials(_:entry:)``).
    let postPartials: [String]
    /// The theme's library with each of ``postPartials`` replaced by the post's rendered text,
    /// for every page but the lists, and for the entries.
    let pageLibrary: TemplateLibrary

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
    init?(sources: [String: String], library: TemplateLibrary) {
        guard let partial = Self.cacheablePartial(sources) else { return nil }
        var listLibrary = library
        guard let entry = try? MustacheTemplate(string: "{{{\(Self.key)}}}") else { return nil }
        listLibrary.register(entry, named: partial)
        var pageLibrary = library
        var postPartials: [String] = []
        for name in Self.postPartials(sources, entry: partial) {
            guard let text = try? MustacheTemplate(string: "{{{\(Self.postPartialKey(name))}}}") else { continue }
            pageLibrary.register(text, named: name)
            listLibrary.register(text, named: name)
            postPartials.append(name)
        }
        self.partial = partial
        self.listLibrary = listLibrary
        self.postPartials = postPartials
        self.pageLibrary = pageLibrary
    }

    /// The key of a post partial's rendered text in the post values.
    static func postPartialKey(_ name: String) -> String { "__blog_partial_" + name }

    /// The partials, besides the entry, that can be rendered once per post: each reads only the
    /// post (``readsOnlyThePost``), the entry includes it at its top level, and every other
    /// template that includes it is a post or page template doing so directly inside its
    /// `{{#post}}` section, itself outside any other section, in a block of a parent that expands
    /// it at its top level. The post is then on top of the stack wherever the partial is shown,
    /// and it shows the same text there as when rendered with the post alone. A partial included
    /// after indentation (which swift-mustache adds to its lines) is left out.
    static func postPartials(_ sources: [String: String], entry: String) -> [String] {
        guard let entryTags = TemplateTags.scan(sources[entry] ?? "") else { return [] }
        let candidates = Set(entryTags.filter { $0.kind == ">" && $0.depth == 0 }.map(\.name))
        var refused: Set<String> = []
        for (name, text) in sources {
            guard let tags = TemplateTags.scan(text) else { return [] }
            for (tag, open) in zip(tags, TemplateTags.enclosing(tags)) {
                guard tag.kind == ">" || tag.kind == "<", candidates.contains(tag.name) else { continue }
                let sections = open.filter { $0.kind == "#" || $0.kind == "^" }
                let allowed: Bool
                if tag.kind == "<" || TemplateTags.indented(tag, in: text) {
                    allowed = false
                } else if name == entry {
                    allowed = sections.isEmpty
                } else {
                    allowed = (name == "post" || name == "page") && sections.count == 1 && sections[0].kind == "#"
                        && sections[0].name == "post" && TemplateTags.blocksShownAtTheTop(of: name, sources)
                }
                if !allowed { refused.insert(tag.name) }
            }
        }
        return candidates.subtracting(refused).filter { readsOnlyThePost($0, sources) }.sorted()
    }

    /// The partial that every list template shows its posts with, in the default theme's shape at
    /// the top level of the page, used nowhere else, and reading only names of the post.
    static func cacheablePartial(_ sources: [String: String]) -> String? {
        var partial: String?
        var uses = 0
        for list in listTemplates {
            guard let text = sources[list], let tags = TemplateTags.scan(text) else { return nil }
            for (index, tag) in tags.enumerated() where tag.kind == "#" && tag.name == "posts" {
                guard index + 2 < tags.count, tags[index + 1].kind == ">", tags[index + 2].kind == "/" else { return nil }
                let name = tags[index + 1].name
                let shape = "{{#posts}}\n{{>\(name)}}\n{{/posts}}"
                let start = tag.range.lowerBound, end = tags[index + 2].range.upperBound
                guard text[start..<end] == shape, start == text.startIndex || text[text.index(before: start)] == "\n",
                      end == text.endIndex || text[end] == "\n",
                      partial == nil || partial == name, tag.depth == 0,
                      TemplateTags.blocksShownAtTheTop(of: list, sources) else { return nil }
                partial = name
                uses += 1
            }
        }
        guard let partial, readsOnlyThePost(partial, sources) else { return nil }
        // Used nowhere but in those lists: the list library would show the post's entry there too.
        var references = 0
        for text in sources.values {
            guard let tags = TemplateTags.scan(text) else { return nil }
            references += tags.filter { ($0.kind == ">" || $0.kind == "<") && $0.name == partial }.count
        }
        return references == uses ? partial : nil
    }

    /// Whether `name` and the partials it includes read only the post they are rendered with:
    /// no name of ``pageNames``, no blocks, parents, dynamic partials or pragmas.
    private static func readsOnlyThePost(_ name: String, _ sources: [String: String]) -> Bool {
        TemplateTags.lookups(of: name, in: { sources[$0].flatMap(TemplateTags.scan) }) { tag, _ in
            !pageNames.contains(tag.rootName)
        }
    }
}
