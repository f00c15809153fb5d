import Foundation
import Mustache

/// Renders a partial that shows the same text on every page of a kind once per kind, not on
/// every page: the default theme's `site-head`, `site-header` and `site-footer`, which show the
/// site's title, menu, stylesheet and feeds.
///
/// On a post page, those three are most of the page's template lookups (28 of 46 in the default
/// theme), and every lookup costs swift-mustache several dynamic casts.
///
/// A partial qualifies when
/// - every template that includes it is a page template, or a parent that only page templates
///   extend (`{{<base}}` at their top level, without indentation), and it is included outside
///   any section and without indentation; in a page template's block, only where the block is
///   shown at the top of the page (``TemplateTags/blocksShownAtTheTop(of:_:)``). The page's
///   values are then alone on the stack wherever it is shown;
/// - it, and the partials it includes, read no value that differs between pages of a kind
///   (``TemplateContext/variableKeys``), print no whole page value (`{{.}}` at their top), and
///   have no blocks, parents, dynamic partials or pragmas.
///
/// Rendered with a page's values, such a partial then gives the text it shows in place on every
/// page of that page's kind (``TemplateContext/kind(of:)``). Pages print that text through a
/// library in which the partial is `{{{key}}}`. Any other partial is rendered in place.
struct SharedPartials {
    /// The partials, sorted.
    let names: [String]
    /// The partials each page template shows, directly or through its parent.
    let shown: [String: [String]]

    /// The key of a partial's text in a page's values.
    static func key(_ name: String) -> String { "__blog_shared_" + name }

    /// The partials of `sources` (every template's text by name, without the pragma Theme adds)
    /// that qualify, for pages rendered with `pageTemplates`; nil when none does.
    init?(sources: [String: String], pageTemplates: [String]) {
        var scanned: [String: [TemplateTag]] = [:]
        for (name, text) in sources {
            guard let tags = TemplateTags.scan(text) else { return nil }
            scanned[name] = tags
        }
        let pages = Set(pageTemplates.filter { scanned[$0] != nil })
        func indented(_ tag: TemplateTag, in name: String) -> Bool { TemplateTags.indented(tag, in: sources[name]!) }

        // Every tag that names a template, with the tags open around it.
        var references: [String: [(template: String, tag: TemplateTag, open: [TemplateTag])]] = [:]
        for (template, tags) in scanned {
            for (tag, open) in zip(tags, TemplateTags.enclosing(tags)) where tag.kind == ">" || tag.kind == "<" {
                references[tag.name, default: []].append((template, tag, open))
            }
        }
        // Parents that only page templates extend, each showing its blocks at the top of the page
        // (so the parent itself is shown there too).
        let parents = Set(references.keys.filter { name in
            scanned[name] != nil && !pages.contains(name) && references[name]!.allSatisfy {
                $0.tag.kind == "<" && pages.contains($0.template) && TemplateTags.blocksShownAtTheTop(of: $0.template, sources)
            }
        })
        func shownOnTop(_ use: (template: String, tag: TemplateTag, open: [TemplateTag])) -> Bool {
            guard use.tag.kind == ">", !indented(use.tag, in: use.template),
                  !use.open.contains(where: { $0.kind == "#" || $0.kind == "^" }) else { return false }
            if parents.contains(use.template) { return true }
            // In a page template: at its top level, or in a block its parent shows there.
            return pages.contains(use.template)
                && (use.open.isEmpty || TemplateTags.blocksShownAtTheTop(of: use.template, sources))
        }
        let names = references.keys.filter { name in
            scanned[name] != nil && !pages.contains(name) && !parents.contains(name)
                && references[name]!.allSatisfy(shownOnTop) && Self.readsOnlyShared(name, scanned)
        }.sorted()
        guard !names.isEmpty else { return nil }

        var shown: [String: [String]] = [:]
        for page in pages {
            let extended = scanned[page]!.filter { $0.kind == "<" }.map(\.name)
            shown[page] = names.filter { name in
                references[name]!.contains { $0.template == page || extended.contains($0.template) }
            }
        }
        self.names = names
        self.shown = shown
    }

    /// Registers each partial in `library` as a template that prints its text from the page's values.
    func register(in library: inout TemplateLibrary) {
        for name in names {
            guard let text = try? MustacheTemplate(string: "{{{\(Self.key(name))}}}") else { continue }
            library.register(text, named: name)
        }
    }

    /// Whether `name` and the partials it includes read only what all pages of a kind share, and
    /// print no whole page value (`{{.}}` at the top).
    private static func readsOnlyShared(_ name: String, _ scanned: [String: [TemplateTag]]) -> Bool {
        TemplateTags.lookups(of: name, in: { scanned[$0] }) { tag, atTop in
            let root = tag.rootName
            return !(root == "." && atTop) && !TemplateContext.variableKeys.contains(root) && !root.hasPrefix("__blog_")
        }
    }
}

/// The text of each shared partial, rendered the first time a page of its kind needs it; safe to
/// use from every core.
final class SharedTexts: @unchecked Sendable {
    private var texts: [String: [(slot: Int, text: String)]] = [:]
    private let lock = NSLock()

    /// The slots of the keys (in the layout of every page's values) and the texts of the partials that pages of `kind`
    /// show, made by `render` the first time.
    func texts(for kind: String, render: () -> [(slot: Int, text: String)]) -> [(slot: Int, text: String)] {
        lock.lock()
        let known = texts[kind]
        lock.unlock()
        if let known { return known }
        // Two cores may render the same kind at once; both give the same texts.
        let made = render()
        lock.lock()
        texts[kind] = made
        lock.unlock()
        return made
    }
}
