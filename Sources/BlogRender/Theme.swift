import BlogConfig
import BlogCore
import Foundation
import Mustache

/// A theme: Mustache templates that make the pages, and static files copied beside them.
/// Every template is parsed when the theme is loaded, so a broken one fails the build before
/// anything is rendered.
package struct Theme: Sendable {
    /// The templates every theme must have: one per kind of page (``SiteRenderer`` renders with them).
    static let pageTemplates = ["post", "index", "tag", "tags", "archives", "404"]

    /// The theme's files as read, before its templates were compiled (see ``ThemeFiles``).
    package let files: ThemeFiles
    /// The theme's name, the folder under `themes/`.
    package var name: String { files.name }
    /// Every template, registered under its path in `templates/` without `.mustache` (`post`, `partials/x`).
    let library: TemplateLibrary
    /// Each post's entry in the lists rendered once, when the theme's list templates allow it.
    var listSummaries: ListSummaries?
    /// The partials rendered once per kind of page, when the theme has any.
    var sharedPartials: SharedPartials? = nil
    /// The theme's static/ files, to copy to the output root (`static/style.css` -> `style.css`):
    /// embedded ones as `.bytes`, the site's as `.copy`. Sorted by path.
    package var staticFiles: [OutputFile] { files.staticFiles }
    /// The text of every template by name (`post`, `partials/x`): a build in place reads them to know
    /// whether pages show headings, and its state digests them, so a template edit is a full build.
    package var templateTexts: [String: String] { files.templateTexts }
    /// Whether the theme has `templates/page.mustache` for pages (else they use `post`).
    var hasPageTemplate = false
    /// The palettes of highlighted code the theme styles (see ``ThemeFiles/palettes``).
    package var palettes: [String] { files.palettes }
    /// Hugo shortcodes' templates: the theme's `shortcodes/*.mustache`, and the site's
    /// `shortcodes/*.mustache` over them (see ``ShortcodeTemplates``).
    package var shortcodes = ShortcodeTemplates()
    /// What loading the theme skipped: symbolic links leading out of the blog folder, or nowhere (see
    /// ``BlogBoundary``); and each template the compiled renderer cannot read (``TemplateCheck/notCompiled(_:path:)``).
    package var warnings: [Diagnostic] { (files.warnings + compileWarnings).sortedForDisplay() }
    /// The warnings of compiling the templates (each one the compiled renderer cannot read), which depend only on
    /// ``ThemeFiles``' texts: a build keeps them in its state, so that a build in place, which compiles nothing, says them.
    package var compileWarnings: [Diagnostic] = []
    /// What each template reads (``TemplateReads``), made the first time a build asks: a theme `blog serve` keeps
    /// (``ThemeMemo``) is read once, not once a build.
    let reads = Once<TemplateReads>()

    /// What each of the theme's templates reads (see ``TemplateReads``).
    var templateReads: TemplateReads {
        reads.get { TemplateReads(sources: templateTexts) }
    }

    /// Every name the theme's templates show (see ``ThemeFiles/templateNames``).
    package var templateNames: Set<String>? { files.templateNames }

    /// The template that shows pages of the template `name` when the theme lacks it: `tag` for a
    /// category's, an author's or a section's list (`category`, `author`, `section`), `tags` for
    /// their index; else nil.
    func fallback(for name: String) -> String? {
        guard templateTexts[name] == nil else { return nil }
        for taxonomy in Taxonomy.allCases where taxonomy != .tag {
            if name == taxonomy.rawValue { return Taxonomy.tag.rawValue }
            if name == taxonomy.plural { return Taxonomy.tag.plural }
        }
        return nil
    }

    /// ``library`` with each of ``sharedPartials`` printing its text from the page's values.
    var pageLibrary: TemplateLibrary {
        var library = library
        sharedPartials?.register(in: &library)
        return library
    }

    /// A theme of `files` compiled into `library`.
    init(files: ThemeFiles, library: TemplateLibrary, listSummaries: ListSummaries? = nil, sharedPartials: SharedPartials? = nil) {
        self.files = files
        self.library = library
        self.listSummaries = listSummaries
        self.sharedPartials = sharedPartials
    }

    /// Loads `name`: for `default`, the embedded theme, with any file of `siteRoot/themes/default/`
    /// overriding the embedded one of the same path (a site may override single templates or add
    /// static files). For another name, `siteRoot/themes/<name>/` must exist and have every page
    /// template. Throws a ``BuildFailure`` naming every missing template, every template that
    /// doesn't parse (`themes/<name>/templates/x.mustache:line:column: error: ...`), and every
    /// loop of templates including one another (``TemplateCheck/partialLoops(in:)``).
    package static func load(name: String, siteRoot: URL) throws -> Theme {
        try load(name: name, siteRoot: siteRoot, listing: listing(name: name, siteRoot: siteRoot))
    }

    /// The folders a theme is loaded from, listed (``ThemeFile/list(_:shown:boundary:)``): the theme's
    /// `templates/`, `static/` and `shortcodes/`, and the blog's `shortcodes/`, in that order.
    typealias Listing = [(part: String, files: [String: URL]?, warnings: [Diagnostic])]

    /// The folders ``load(name:siteRoot:listing:)`` loads `name` from, listed.
    static func listing(name: String, siteRoot: URL) throws -> Listing {
        let folder = siteRoot.appendingPathComponent("themes").appendingPathComponent(name)
        let boundary = BlogBoundary([siteRoot])
        return try [("templates", folder), ("static", folder), ("shortcodes", folder), ("site shortcodes", siteRoot)].map { part, root in
            let site = part == "site shortcodes"
            let found = try ThemeFile.list(root.appendingPathComponent(site ? "shortcodes" : part),
                                           shown: site ? "shortcodes" : "themes/\(name)/" + part, boundary: boundary)
            return (part, found.files, found.warnings)
        }
    }

    /// Loads `name` from its folders as `listing` found them (``listing(name:siteRoot:)``).
    static func load(name: String, siteRoot: URL, listing: Listing) throws -> Theme {
        try compile(ThemeFiles.read(name: name, siteRoot: siteRoot, listing: listing))
    }

    /// The theme of `files`: every template parsed and compiled, and checked (partials that are not there, loops of
    /// partials); throws a ``BuildFailure`` with every error of reading or compiling.
    package static func compile(_ files: ThemeFiles) throws -> Theme {
        var diagnostics: [Diagnostic] = []
        var library = TemplateLibrary()
        let sources = register(files.templates, diagnostics: &diagnostics) {
            library.register(try TemplateEscaping.template($0.text), named: $0.name)
        }
        // Templates that failed to parse count as present: their own error says what is wrong.
        for source in sources.values {
            diagnostics += TemplateCheck.unknownPartials(in: source.text, path: source.path, exists: files.presentTemplates.contains)
        }
        diagnostics += TemplateCheck.partialLoops(in: sources)
        var shortcodes = ShortcodeTemplates()
        // A shortcode's partials are the other shortcodes' templates; the site's file of a name replaces the theme's.
        let shortcodeSources = register(files.shortcodes, diagnostics: &diagnostics) {
            try shortcodes.register($0.text, named: $0.name)
        }
        diagnostics += TemplateCheck.partialLoops(in: shortcodeSources)
        if (files.warnings + diagnostics).hasErrors { throw BuildFailure((files.warnings + diagnostics).sortedForDisplay()) }

        let shared = SharedPartials(sources: files.templateTexts, pageTemplates: pageTemplates + (files.hasPageTemplate ? ["page"] : []))
        var theme = Theme(files: files, library: library, sharedPartials: shared)
        theme.listSummaries = ListSummaries(sources: files.templateTexts, library: theme.pageLibrary)
        theme.hasPageTemplate = files.hasPageTemplate
        theme.shortcodes = shortcodes
        theme.compileWarnings = diagnostics.sortedForDisplay()
        return theme
    }

    /// Registers each of `files` with `register` (templates or shortcodes), into `diagnostics` what went wrong: a
    /// template compiled in the slower way, a parse error at its `path:line:column`, any other failure as unreadable.
    /// The path and text of each file registered, by name.
    private static func register(_ files: [(name: String, path: String, text: String)], diagnostics: inout [Diagnostic],
                                 _ register: ((name: String, path: String, text: String)) throws -> CompiledTemplate.Unreadable?)
        -> [String: (path: String, text: String)] {
        var sources: [String: (path: String, text: String)] = [:]
        for file in files {
            do {
                if let unreadable = try register(file) {
                    diagnostics.append(TemplateCheck.notCompiled(unreadable, path: file.path))
                }
                sources[file.name] = (file.path, file.text)
            } catch let error as MustacheTemplate.ParserError {
                diagnostics.append(.error(file.path, line: error.context.lineNumber, column: error.context.columnNumber,
                                          TemplateCheck.describe(error.error)))
            } catch {
                diagnostics.append(.error(file.path, "cannot read the template: \(error.localizedDescription)"))
            }
        }
        return sources
    }
}

/// A theme's files read, its templates not compiled: what a build in place needs of the theme (the texts its state
/// digests, the names the templates show, the palettes), and what ``Theme/compile(_:)`` makes the theme of. Reading
/// is ~1 M instructions; compiling the default theme's templates ~80 M (Mustache's parse, ``CompiledTemplate`` and
/// the runtime's first type lookups), 45% of a body edit at 1,000 posts, which uses no template.
package struct ThemeFiles: Sendable {
    /// The theme's name, the folder under `themes/`.
    package let name: String
    /// The text of every template by name (`post`, `partials/x`).
    package let templateTexts: [String: String]
    /// Each template, sorted by path: its name, its path as messages name it (`themes/default/templates/post.mustache`)
    /// and its text.
    let templates: [(name: String, path: String, text: String)]
    /// The names of every template file there, read or not.
    let presentTemplates: Set<String>
    /// Each shortcode's template, the theme's then the site's (which replaces the theme's of its name): its name,
    /// its path as messages name it, and its text.
    let shortcodes: [(name: String, path: String, text: String)]
    /// The shortcodes' texts by name, the site's over the theme's (``ShortcodeTemplates/texts`` once compiled).
    package let shortcodeTexts: [String: String]
    /// The theme's static/ files, to copy to the output root (`static/style.css` -> `style.css`):
    /// embedded ones as `.bytes`, the site's as `.copy`. Sorted by path.
    package let staticFiles: [OutputFile]
    /// Whether the theme has `templates/page.mustache` for pages (else they use `post`).
    let hasPageTemplate: Bool
    /// The palettes of highlighted code the theme styles, sorted (`highlight_style` names one):
    /// `default`, and each ``HighlightPalettes`` finds in its stylesheets.
    package let palettes: [String]
    /// What reading skipped (symbolic links leading out of the blog folder, or nowhere: see ``BlogBoundary``), and the
    /// errors of a missing template or one that can't be read. Every build makes them again.
    package let warnings: [Diagnostic]
    /// The names the theme's templates show (``templateNames``), made the first time a build asks.
    private let names = Once<Set<String>?>()

    /// Every name the theme's templates show (``TemplateTags/names(in:)`` of each); nil when a template's cannot be
    /// told. `blog serve` asks twice a build (which facts of a post's body the pages show): parsing every template
    /// each time was 10 M instructions of a title edit, at any size.
    package var templateNames: Set<String>? {
        names.get {
            var all: Set<String> = []
            for text in templateTexts.values {
                guard let names = TemplateTags.names(in: text) else { return nil }
                all.formUnion(names)
            }
            return all
        }
    }

    /// Reads the theme `name` from its folders as `listing` found them (``Theme/listing(name:siteRoot:)``): for
    /// `default`, the embedded theme with the site's files over it. Throws a ``BuildFailure`` when the theme is not
    /// there; a missing template or one that can't be read is an error of ``warnings``.
    package static func read(name: String, siteRoot: URL) throws -> ThemeFiles {
        try read(name: name, siteRoot: siteRoot, listing: Theme.listing(name: name, siteRoot: siteRoot))
    }

    /// ``read(name:siteRoot:)`` from the folders as `listing` found them.
    static func read(name: String, siteRoot: URL, listing: Theme.Listing) throws -> ThemeFiles {
        let prefix = "themes/\(name)/"
        var files: [String: ThemeFile] = [:]
        var diagnostics: [Diagnostic] = []
        var hasTemplates = false
        for found in listing.prefix(3) {
            let part = found.part
            for (path, url) in found.files ?? [:] { files[part + "/" + path] = .site(url) }
            diagnostics += found.warnings
            if part == "templates" { hasTemplates = found.files != nil }
        }
        if name == "default" {
            for (path, data) in ThemeFile.embedded where files[path] == nil { files[path] = .embedded(data) }
        } else if !hasTemplates {
            let present = ((try? FileManager.default.contentsOfDirectory(atPath: siteRoot.appendingPathComponent("themes").path)) ?? [])
                .filter { !$0.hasPrefix(".") } + ["default"]
            let meant = EditDistance.nearest(name, among: Array(Set(present)).sorted()).map { "; did you mean `\($0)`?" } ?? ""
            throw BuildFailure(diagnostics + [.error("missing theme \"\(name)\": expected a folder \(prefix) with templates/\(meant)")])
        }
        for page in Theme.pageTemplates where files["templates/\(page).mustache"] == nil {
            diagnostics.append(.error(prefix + "templates/\(page).mustache",
                                      "missing template: the theme \"\(name)\" must have templates/\(page).mustache"))
        }
        var templates: [(name: String, path: String, text: String)] = []
        var texts: [String: String] = [:]
        for (path, file) in files.sorted(by: { $0.key < $1.key }) {
            guard let templateName = templateName(path) else { continue }
            do {
                let text = String(decoding: try file.data(), as: UTF8.self)
                templates.append((templateName, prefix + path, text))
                texts[templateName] = text
            } catch {
                diagnostics.append(.error(prefix + path, "cannot read the template: \(error.localizedDescription)"))
            }
        }
        var shortcodeFiles = files.filter { $0.key.hasPrefix("shortcodes/") }.map { (prefix + $0.key, $0.key, $0.value) }
        let siteShortcodes = listing[3]
        for (path, url) in (siteShortcodes.files ?? [:]).sorted(by: { $0.key < $1.key }) {
            shortcodeFiles.append(("shortcodes/" + path, "shortcodes/" + path, .site(url)))
        }
        diagnostics += siteShortcodes.warnings
        var shortcodes: [(name: String, path: String, text: String)] = []
        var shortcodeTexts: [String: String] = [:]
        for (shown, path, file) in shortcodeFiles where path.hasSuffix(".mustache") {
            let name = String(path.dropFirst("shortcodes/".count).dropLast(".mustache".count))
            do {
                let text = String(decoding: try file.data(), as: UTF8.self)
                shortcodes.append((name, shown, text))
                shortcodeTexts[name] = text
            } catch {
                diagnostics.append(.error(shown, "cannot read the template: \(error.localizedDescription)"))
            }
        }
        let statics = files.keys.filter { $0.hasPrefix("static/") }.sorted().map { path in
            OutputFile(path: String(path.dropFirst("static/".count)), contents: files[path]!.contents)
        }
        let palettes = HighlightPalettes.names(inStylesheets: files.filter { $0.key.hasPrefix("static/") && $0.key.hasSuffix(".css") }
            .sorted { $0.key < $1.key }.compactMap { try? $0.value.data() })
        return ThemeFiles(name: name, templateTexts: texts, templates: templates, presentTemplates: Set(files.keys.compactMap(templateName)),
                          shortcodes: shortcodes, shortcodeTexts: shortcodeTexts, staticFiles: statics,
                          hasPageTemplate: files["templates/page.mustache"] != nil, palettes: palettes, warnings: diagnostics.sortedForDisplay())
    }

    /// `post` for `templates/post.mustache`, `partials/x` for `templates/partials/x.mustache`;
    /// nil for a file that is not a template.
    private static func templateName(_ path: String) -> String? {
        guard path.hasPrefix("templates/") && path.hasSuffix(".mustache") else { return nil }
        return String(path.dropFirst("templates/".count).dropLast(".mustache".count))
    }
}

/// One file of a theme, from the binary or from the site's folder.
enum ThemeFile: Sendable {
    /// A file of the embedded default theme.
    case embedded(Data)
    /// A file under the site's `themes/<name>/`.
    case site(URL)

    /// The embedded default theme, by path relative to `themes/default/`, decoded once.
    static let embedded: [String: Data] = Dictionary(
        EmbeddedTheme.files.map { ($0.path, Data(base64Encoded: $0.base64) ?? Data()) },
        uniquingKeysWith: { first, _ in first })

    /// The file's bytes.
    func data() throws -> Data {
        switch self {
        case .embedded(let data): return data
        case .site(let url): return try Data(contentsOf: url)
        }
    }

    /// As an output file's contents: embedded bytes, or a copy of the site's file.
    var contents: OutputFile.Contents {
        switch self {
        case .embedded(let data): return .bytes(data)
        case .site(let url): return .copy(from: url)
        }
    }

    /// The regular files under `folder`, by `/`-separated relative path, each at its real path; nil when
    /// no folder is there that may be read. The rule of ``BlogBoundary`` applies: links leading out of the blog
    /// folder or nowhere are skipped, with the warnings, named from `shown`. Hidden files and folders
    /// (`.DS_Store`, `.git`) are left out.
    static func list(_ folder: URL, shown: String, boundary: BlogBoundary) throws -> (files: [String: URL]?, warnings: [Diagnostic]) {
        var files: [String: URL] = [:]
        let walk = try boundary.walk(folder.path, shown: shown, context: (), folder: { _, _ in () }, file: { entry, _ in
            files[entry.relative] = URL(fileURLWithPath: entry.real)
        })
        return (walk.folders.isEmpty ? nil : files, walk.warnings)
    }
}
