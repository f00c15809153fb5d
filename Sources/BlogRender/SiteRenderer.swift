import BlogCore
import BlogSite
import Foundation
import Mustache

/// The Render stage: every page of a site through a theme's templates.
package enum SiteRenderer {
    /// Every page of `site.pages`, in that order, as files whose bytes are made when
    /// ``SiteWriter`` writes them: each page is rendered, written and let go on one core, so
    /// pages are never all in memory at once. The same site and theme always give the same bytes,
    /// with `hook` or without (see ``RenderHook``).
    package static func pages(_ site: Site, theme: Theme, hook: RenderHook? = nil) -> [OutputFile] {
        pages(site, theme: theme, hook: hook, inputs: false).files
    }

    /// The pages as ``pages(_:theme:hook:)`` makes them, and the digest of what each is rendered
    /// from (see ``PageInputs``), in the order of `site.pages`: a page whose digest is the one of
    /// the last build has the bytes of the last build.
    package static func pagesAndInputs(_ site: Site, theme: Theme, hook: RenderHook?) -> (files: [OutputFile], inputs: [Digest]) {
        let made = pages(site, theme: theme, hook: hook, inputs: true)
        return (made.files, made.inputs)
    }

    private static func pages(_ site: Site, theme: Theme, hook: RenderHook?, inputs: Bool) -> (files: [OutputFile], inputs: [Digest]) {
        let summaries = theme.listSummaries
        let postPartials = (summaries?.postPartials ?? []).map { name -> (key: String, render: (Any) -> [UInt8]) in
            (ListSummaries.postPartialKey(name), { values in renderedOnce(name, values, theme.library) })
        }
        // Where a post partial is rendered once per post, or a shared partial once per kind of
        // page, pages and entries show that text.
        let library = summaries?.pageLibrary ?? theme.pageLibrary
        let listEntry = summaries.map { summaries in { (values: Any) in renderedOnce(summaries.partial, values, library) } }
        let marks = BodyMarks(site: site, hook: hook)
        let context = TemplateContext(site: site, marks: marks, postPartials: postPartials, listEntry: listEntry, digests: inputs,
                                      memo: inputs ? hook?.postDigests : nil,
                                      pageKeys: theme.sharedPartials?.names.map(SharedPartials.key) ?? [])
        var digests: [Digest] = []
        if inputs {
            let reads = theme.templateReads
            // In `blog serve`, a page whose values are made from what the last build's were has its digest.
            let memo = hook?.postDigests
            let last = memo?.lastPages()
            // The same pages in the same order: each is the last build's page of its number. With the posts that changed
            // known, a page that shows none of them has the last build's source, which is not made again.
            let samePages = last.map { site.pages == $0.pages } ?? false
            let changed = last.flatMap { samePages && context.readsAsBefore($0) ? memo?.changedPosts(context.postDigests, since: $0) : nil }
            let archivesKept = last?.archives == context.sharedDigests.archives
            let before = last.flatMap { last in
                samePages ? nil : Dictionary(last.pages.indices.map { (last.pages[$0].outputPath, $0) }, uniquingKeysWith: { a, _ in a })
            } ?? [:]
            let made = Parallel.map(site.pages.count) { number -> (source: Digest, inputs: Digest, kept: Bool) in
                let page = site.pages[number]
                var source = Digest.zero
                if memo != nil {
                    let template = shownTemplate(context.template(of: page), theme: theme).name
                    let names = reads.names(of: template)
                    if let last, let changed,
                       context.sourceIsKept(page, changed: changed, readsArchives: names?.contains("archives") ?? true, archivesKept: archivesKept) {
                        return (last.sources[number], last.inputs[number], true)
                    }
                    source = context.source(of: page, template: template, reads: names)
                    if let last, let was = samePages ? number : before[page.outputPath], last.sources[was] == source {
                        return (source, last.inputs[was], true)
                    }
                }
                let (template, values) = shown(context.page(page), theme: theme)
                return (source, context.inputs(of: page, template: template, values: values.record, reads: reads.names(of: template)), false)
            }
            digests = made.map(\.inputs)
            memo?.keepPages(PostDigestMemo.LastPages(pages: site.pages, sources: made.map(\.source), inputs: digests, listed: site.listed,
                                                     replacements: site.replacements, values: context.sharedDigests.values,
                                                     archives: context.sharedDigests.archives, postDigests: context.postDigests),
                            kept: made.reduce(0) { $0 + ($1.kept ? 1 : 0) })
        }
        let maker = PageMaker(context: context, theme: theme, library: library, summaries: summaries, marks: marks)
        // Each file holds the one maker and its page's number, not a copy of everything the page is
        // made from: 50,000 posts' pages would otherwise hold 1.4 KB each until the build ends.
        let files = site.pages.indices.map { number in
            OutputFile(path: site.pages[number].outputPath, contents: .made(by: OutputFile.Maker { try maker.bytes(of: number) }))
        }
        return (files, digests)
    }

    /// What every page is made from, shared by the makers of all the pages of one render.
    private final class PageMaker: @unchecked Sendable {
        // Unchecked: only reads the immutable template values (SharedTexts and BodyMarks lock their own).
        let context: TemplateContext
        let theme: Theme
        let library: TemplateLibrary
        let summaries: ListSummaries?
        let marks: BodyMarks?
        let shared = SharedTexts()

        init(context: TemplateContext, theme: Theme, library: TemplateLibrary, summaries: ListSummaries?, marks: BodyMarks?) {
            self.context = context
            self.theme = theme
            self.library = library
            self.summaries = summaries
            self.marks = marks
        }

        /// The bytes of page `number` of ``Site/pages``.
        func bytes(of number: Int) throws -> Data {
            let page = context.site.pages[number]
            var (template, values) = SiteRenderer.shown(context.page(page), theme: theme)
            if let names = theme.sharedPartials?.shown[template], !names.isEmpty {
                // Each text kept with its key's slot in the page's layout (every page's values share it), set by that
                // slot: by its key, each of the ~3 texts of every page was hashed to find its slot (~1,200 instructions).
                let texts = shared.texts(for: context.kind(of: page)) {
                    names.map { name in
                        let key = SharedPartials.key(name)
                        guard let slot = values.layout.slots[key] else { preconditionFailure("\(key) is not a key of the page's layout") }
                        return (slot, String(decoding: SiteRenderer.renderedOnce(name, values.record, theme.library), as: UTF8.self))
                    }
                }
                for (slot, text) in texts { values.set(slot: slot, text) }
            }
            // With marks the bodies' places are told (BodyMarks); without, the page's bytes are the render's own.
            let pageLibrary = summaries.flatMap { ListSummaries.listTemplates.contains(template) ? $0.listLibrary : nil } ?? library
            let bytes: Data?
            do {
                // A list's posts each carry their entry (``TemplateContext``).
                if let marks {
                    // The bodies written in place where the compiled render prints them; else into text, then filled.
                    let record = values.record
                    if !marks.markersInTexts, let marked = try pageLibrary.renderMarked(record, withTemplate: template),
                       let made = marks.pageBytes(number: number, marked: marked) {
                        bytes = made
                    } else {
                        bytes = try pageLibrary.render(record, withTemplate: template).map { marks.pageBytes(number: number, text: $0) }
                    }
                } else {
                    bytes = try pageLibrary.renderData(values.record, withTemplate: template)
                }
            } catch let loop as TemplateRenderer.Loop {
                throw BuildFailure([TemplateCheck.error(loop, texts: theme.templateTexts, folder: "themes/\(theme.name)/templates/")])
            }
            guard let bytes else {
                // Unreachable with a theme from Theme.load, which checks every page template.
                throw BuildFailure([.error("themes/\(theme.name)/templates/\(template).mustache",
                                           "missing template: the theme must have templates/\(template).mustache")])
            }
            return bytes
        }
    }

    /// The partial `name` rendered with `values`, once for many pages (``ListSummaries``, ``SharedPartials``). It
    /// never loops: those partials include no partial named by a value (``TemplateTags/lookups(of:in:atTop:seen:allowed:)``
    /// refuses them), and the theme has no loop of templates (``TemplateCheck/partialLoops(in:)``).
    ///
    /// The text's UTF-8 is kept to the end of the build, at its exact size (``RenderedOnce``).
    private static func renderedOnce(_ name: String, _ values: Any, _ library: TemplateLibrary) -> [UInt8] {
        do {
            if let bytes = try library.renderBytes(values, withTemplate: name) { return bytes }
        } catch {
            return []
        }
        return library.mustache.render(values, withTemplate: name).map { Array($0.utf8) } ?? []
    }

    /// The template of `theme` that shows a page, and the values it sees, from the template its
    /// kind names and its values (``TemplateContext/page(_:)``): what pages are rendered with, and
    /// what their digests (``PageInputs``) are made of.
    private static func shown(_ page: (template: String, values: TemplateRecord.Builder), theme: Theme)
        -> (template: String, values: TemplateRecord.Builder) {
        var values = page.values
        let shown = shownTemplate(page.template, theme: theme)
        if shown.termsAsTags { values["tags"] = values["terms"] }
        return (shown.name, values)
    }

    /// The template of `theme` that shows a page whose kind names `template`, and whether it shows the page's `terms`
    /// as `tags`.
    private static func shownTemplate(_ template: String, theme: Theme) -> (name: String, termsAsTags: Bool) {
        // A theme without a page template shows pages with its post template.
        let own = template == "page" && !theme.hasPageTemplate ? "post" : template
        // One without a category's or an author's templates shows them as tags.
        guard let fallback = theme.fallback(for: own) else { return (own, false) }
        return (fallback, fallback == "tags")
    }

    /// Every page of `site.pages` rendered now, on all cores, in the order of `site.pages`.
    package static func render(_ site: Site, theme: Theme) throws -> [OutputFile] {
        let pages = pages(site, theme: theme)
        let rendered = Parallel.map(pages.count) { index -> Result<Data, BuildFailure> in
            guard case .made(let maker) = pages[index].contents else { preconditionFailure("pages are made") }
            return Result { try maker.make() }.mapError { $0 as? BuildFailure ?? BuildFailure([.error(pages[index].path, "\($0)")]) }
        }
        var files: [OutputFile] = []
        var diagnostics: [Diagnostic] = []
        for (page, result) in zip(pages, rendered) {
            switch result {
            case .success(let data): files.append(OutputFile(path: page.path, contents: .bytes(data)))
            case .failure(let failure): diagnostics += failure.diagnostics
            }
        }
        if !diagnostics.isEmpty { throw BuildFailure(Array(Set(diagnostics)).sortedForDisplay()) }
        return files
    }
}
