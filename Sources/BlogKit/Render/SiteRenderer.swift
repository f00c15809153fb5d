import Foundation
import Mustache

/// The Render stage: every page of a site through a theme's templates.
public enum SiteRenderer {
    /// Renders every page of `site.pages` with the theme, on all cores, returning files in the
    /// order of `site.pages`. The same site and theme always give the same bytes.
    public static func render(_ site: Site, theme: Theme) throws -> [OutputFile] {
        let context = TemplateContext(site: site)
        let pages = site.pages
        let html = Parallel.map(pages.count) { index -> String? in
            let (template, values) = context.page(pages[index])
            return theme.library.render(values, withTemplate: template)
        }
        var files: [OutputFile] = []
        files.reserveCapacity(pages.count)
        var diagnostics: [Diagnostic] = []
        for (page, text) in zip(pages, html) {
            guard let text else {
                let (template, _) = context.page(page)
                diagnostics.append(.error("themes/\(theme.name)/templates/\(template).mustache",
                                          "missing template: the theme must have templates/\(template).mustache"))
                continue
            }
            files.append(OutputFile(path: page.outputPath, contents: .bytes(Data(text.utf8))))
        }
        if !diagnostics.isEmpty { throw BuildFailure(Array(Set(diagnostics)).sortedForDisplay()) }
        return files
    }
}
