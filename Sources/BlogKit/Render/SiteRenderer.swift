import Foundation
import Mustache

/// The Render stage: every page of a site through a theme's templates.
public enum SiteRenderer {
    /// Every page of `site.pages`, in that order, as files whose bytes are rendered with the
    /// theme when ``SiteWriter`` writes them: each page is rendered, written and let go on one
    /// core, so pages are never all in memory at once. The same site and theme always give the
    /// same bytes.
    public static func pages(_ site: Site, theme: Theme) -> [OutputFile] {
        var context = TemplateContext(site: site)
        if let summaries = theme.listSummaries {
            context.addListEntries { theme.library.render($0, withTemplate: summaries.partial) ?? "" }
        }
        return site.pages.map { page in
            OutputFile(path: page.outputPath, contents: .made(by: OutputFile.Maker {
                let (template, values) = context.page(page)
                var library = theme.library
                if let summaries = theme.listSummaries, ListSummaries.listTemplates.contains(template) {
                    library = summaries.listLibrary
                }
                guard let html = library.render(values, withTemplate: template) else {
                    // Unreachable with a theme from Theme.load, which checks every page template.
                    throw BuildFailure([.error("themes/\(theme.name)/templates/\(template).mustache",
                                               "missing template: the theme must have templates/\(template).mustache")])
                }
                return Data(html.utf8)
            }))
        }
    }

    /// Every page of `site.pages` rendered now, on all cores, in the order of `site.pages`.
    public static func render(_ site: Site, theme: Theme) throws -> [OutputFile] {
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
