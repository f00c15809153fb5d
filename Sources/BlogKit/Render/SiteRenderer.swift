import Foundation
import Mustache

/// The Render stage: every page of a site through a theme's templates.
public enum SiteRenderer {
    /// Renders every page of `site.pages` with the theme, on all cores, returning files in the
    /// order of `site.pages`. The same site and theme always give the same bytes.
    public static func render(_ site: Site, theme: Theme) throws -> [OutputFile] {
        try render(site, theme: theme, cache: nil)
    }

    /// With `cache`, a page whose template and context are those of a cached page is not rendered.
    static func render(_ site: Site, theme: Theme, cache: PageCache?) throws -> [OutputFile] {
        let context = TemplateContext(site: site)
        let pages = site.pages
        let rendered = Parallel.map(pages.count) { index -> (template: String, contents: OutputFile.Contents?) in
            var (template, values) = context.page(pages[index])
            // A theme without a page template shows pages with its post template.
            if template == "page", !theme.hasPageTemplate { template = "post" }
            guard let cache else { return (template, theme.library.render(values, withTemplate: template).map { .bytes(Data($0.utf8)) }) }
            return (template, cache.contents(template: template, values: values) { theme.library.render(values, withTemplate: template) })
        }
        var files: [OutputFile] = []
        files.reserveCapacity(pages.count)
        var diagnostics: [Diagnostic] = []
        for (page, result) in zip(pages, rendered) {
            guard let contents = result.contents else {
                // Unreachable with a theme from Theme.load, which checks every page template.
                diagnostics.append(.error("themes/\(theme.name)/templates/\(result.template).mustache",
                                          "missing template: the theme must have templates/\(result.template).mustache"))
                continue
            }
            files.append(OutputFile(path: page.outputPath, contents: contents))
        }
        if !diagnostics.isEmpty { throw BuildFailure(Array(Set(diagnostics)).sortedForDisplay()) }
        return files
    }
}
