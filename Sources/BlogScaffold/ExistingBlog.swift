import BlogConfig
import BlogContent
import BlogCore
import BlogOutput
import Foundation

/// `blog init --from DIR`: writes the `blog.yml` that builds an existing Pelican, Jekyll or Hugo
/// blog where it is, with the `permalinks` preset of its generator so that its URLs stay as they were.
///
/// The form comes from the generator's settings file (`pelicanconf.py`, `_config.yml`,
/// `hugo.toml`/`config.toml`/`hugo.yaml`/`config.yaml`), else from the header form of the posts
/// (`Key: value` lines: Pelican; YAML or TOML: Jekyll when there is a `_posts/` folder, else Hugo).
/// A few settings are carried over when the file has them: the title, the author, the address, the time zone,
/// posts per page, the content folder, and URL patterns that `permalinks` can say.
public enum ExistingBlog {
    /// The blog's generator as found.
    public struct Detection: Sendable, Equatable {
        /// The preset of its URLs.
        public var preset: PermalinkPreset
        /// What it was told by: `pelicanconf.py`, or `the posts' headers`.
        public var evidence: String
        /// Settings read from it: blog.yml's key -> value, as they go in.
        package var settings: [(key: String, value: String)]
        /// Patterns of the generator's settings that replace the preset's (`post` -> `blog/{slug}.html`).
        package var permalinks: [(key: String, value: String)]
        /// Settings it has that blog can't follow, as comments for blog.yml.
        package var notes: [String]
        /// What the settings file holds that could not be read, at its line (printed by `init --from`).
        public var warnings: [Diagnostic] = []

        /// Equal when every field is (the tuples' keys and values, in order).
        public static func == (a: Detection, b: Detection) -> Bool {
            a.preset == b.preset && a.evidence == b.evidence && a.notes == b.notes
                && a.settings.map { [$0.key, $0.value] } == b.settings.map { [$0.key, $0.value] }
                && a.permalinks.map { [$0.key, $0.value] } == b.permalinks.map { [$0.key, $0.value] }
                && a.warnings == b.warnings
        }
    }

    /// Why a folder with a blog.yml is refused.
    static let existsMessage = "this blog has a blog.yml already; blog init --from never overwrites one (remove it first to start again)"

    /// Writes `blog.yml` into `folder` for the blog there, and returns what was found.
    /// - Throws: ``BuildFailure`` when `folder` holds a `blog.yml` already (never overwritten), is
    ///   not a folder, or nothing in it tells a Pelican, Jekyll or Hugo blog.
    public static func writeConfig(in folder: URL, display: String) throws -> Detection {
        let shown = NewBlog.join(display, "blog.yml")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw BuildFailure([.error("\(display) is not a folder: expected the folder of an existing blog")])
        }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("blog.yml").path) {
            throw BuildFailure([.error(shown, existsMessage)])
        }
        guard var found = detect(folder) else {
            throw BuildFailure([.error("no Pelican, Jekyll or Hugo blog found in \(display): no pelicanconf.py, _config.yml, hugo.toml or config.toml, and no posts with a header under content/ or _posts/")])
        }
        found.notes += unpublishedFiles(found, in: folder)
        try FileCreation.createNew(folder.appendingPathComponent("blog.yml"), contents: Data(configText(found).utf8), shown: shown,
                                   exists: existsMessage)
        for index in found.warnings.indices where found.warnings[index].hasFile {
            found.warnings[index].path = NewBlog.join(display, found.warnings[index].path)
        }
        found.warnings += recordReplaceableOutput(found, in: folder, display: display)
        return found
    }

    /// Files the old generator published that blog would not, as notes for blog.yml: a Jekyll
    /// site's root files that deploys need (`CNAME`, `robots.txt`, `favicon.ico`…; blog publishes
    /// the files of `content`, `_posts`), and a Hugo site's `static/`.
    static func unpublishedFiles(_ found: Detection, in folder: URL) -> [String] {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) }
        let content = found.settings.last { $0.key == "content" }?.value ?? "content"
        switch found.preset {
        case .jekyll, .jekyllPretty:
            guard content == "_posts" || content.hasSuffix("/_posts") else { return [] }
            let root = String(content.dropLast("_posts".count))
            let names = ["CNAME", "robots.txt", "favicon.ico", "favicon.png", "favicon.svg", "apple-touch-icon.png", "ads.txt", "humans.txt"]
                .filter { exists(root + $0) }
            guard !names.isEmpty else { return [] }
            return ["\(names.map { root + $0 }.joined(separator: ", ")): Jekyll publishes \(names.count == 1 ? "it" : "them") at the site's root, blog only the files of `content` (\(content)): copy \(names.count == 1 ? "it" : "them") into \(content)/ to keep \(names.count == 1 ? "it" : "them") (a robots.txt there replaces the one blog makes)"]
        case .hugo:
            guard exists("static") else { return [] }
            return ["static/: Hugo publishes its files at the site's root, blog only the files of `content` (\(content)): move them into \(content)/ (static/CNAME to \(content)/CNAME) to keep them"]
        case .pelican:
            return []
        }
    }

    /// When the output folder blog.yml names holds the old generator's site (Pelican's `OUTPUT_PATH`,
    /// Hugo's `public/`), records there that the first build may replace it: `init --from` is the
    /// author's word for it. Only a folder inside the blog's folder (links resolved), never the
    /// content folder, one that holds it, or one that holds a settings file or `.git`.
    static func recordReplaceableOutput(_ found: Detection, in folder: URL, display: String) -> [Diagnostic] {
        let output = found.settings.last { $0.key == "output" }?.value ?? "public"
        let content = found.settings.last { $0.key == "content" }?.value ?? "content"
        guard let relative = outputInside(output), let contentPath = outputInside(content) else { return [] }
        let blog = PathSafety.resolved(folder)
        let target = PathSafety.resolved(folder.appendingPathComponent(relative))
        let contentTarget = PathSafety.resolved(folder.appendingPathComponent(contentPath))
        guard PathSafety.isInside(target, blog), target != blog, !PathSafety.isInside(contentTarget, target), !PathSafety.isInside(target, contentTarget),
              !["blog.yml", "pelicanconf.py", "_config.yml", "hugo.toml", "config.toml", ".git", "themes"].contains(where: {
                  FileManager.default.fileExists(atPath: URL(fileURLWithPath: target).appendingPathComponent($0).path)
              }),
              let count = OutputFolder.recordReplaceable(folder.appendingPathComponent(relative), site: "the \(found.preset.generator) site")
        else { return [] }
        return [Diagnostic(.note, "\(NewBlog.join(display, relative))/ holds the \(found.preset.generator) site (\(count) entries), which blog did not write: recorded in \(OutputFolder.markerName) that `blog build` may replace it; the first build does, and says so")]
    }

    /// The blog.yml for `found`.
    static func configText(_ found: Detection) -> String {
        var lines = [
            "# blog.yml written by `blog init --from` for a \(found.preset.generator) blog (told by \(found.evidence)).",
            "# Every other setting keeps its default; docs/configuration.md explains each one.",
        ]
        var mapping: Substring?
        for (key, value) in found.settings {
            // `markdown.smart_punctuation` is `smart_punctuation` in the `markdown` mapping, and
            // `file_paths.extra/CNAME` the entry `extra/CNAME` of `file_paths`.
            if let dot = key.firstIndex(of: ".") {
                if mapping != key[..<dot] { lines.append("\(key[..<dot]):") }
                mapping = key[..<dot]
                let inner = String(key[key.index(after: dot)...])
                lines.append("  \(inner.allSatisfy { $0.isLetter || $0 == "_" } ? inner : quoted(inner)): \(quoted(value))")
            } else {
                mapping = nil
                lines.append("\(key): \(quoted(value))")
            }
        }
        lines += found.notes.map { "# " + $0 }
        if found.permalinks.isEmpty {
            lines.append("permalinks: \(found.preset.rawValue)")
        } else {
            lines.append("permalinks:")
            lines.append("  preset: \(found.preset.rawValue)")
            for (key, value) in found.permalinks { lines.append("  \(key): \(quoted(value))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `value` as a YAML double-quoted string; a whole number or `true`/`false` as it is.
    static func quoted(_ value: String) -> String {
        if value == "true" || value == "false" || (!value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }) { return value }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\x%02X", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// What `folder` holds, or nil when it is no blog of a known form.
    static func detect(_ folder: URL) -> Detection? {
        func read(_ name: String) -> String? {
            (try? Data(contentsOf: folder.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
        }
        func isFolder(_ name: String) -> Bool {
            var flag: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &flag) && flag.boolValue
        }
        if let text = read("pelicanconf.py") {
            return pelican(text, publish: read("publishconf.py"), hasContent: isFolder("content"))
        }
        if let text = read("_config.yml") ?? read("_config.yaml") {
            return jekyll(text, evidence: read("_config.yml") != nil ? "_config.yml" : "_config.yaml")
        }
        for name in ["hugo.toml", "config.toml", "hugo.yaml", "config.yaml", "hugo.yml", "config.yml"] {
            if let text = read(name) { return hugo(text, evidence: name) }
        }
        // No settings file: the posts' headers.
        let postsFolder = isFolder("_posts") ? "_posts" : "content"
        let posts = BlogPosts(folder.appendingPathComponent(postsFolder), display: postsFolder, timeZone: TimeZone(identifier: "UTC")!)
        switch posts.mostUsedFormat {
        case .pelican?:
            let (permalinks, notes) = inferredPermalinks(posts.posts, preset: .pelican)
            return Detection(preset: .pelican, evidence: "the posts' headers", settings: [], permalinks: permalinks, notes: notes)
        case .yaml?, .toml?:
            if postsFolder == "_posts" {
                return Detection(preset: .jekyll, evidence: "the posts' headers and _posts/", settings: [("content", "_posts")], permalinks: [], notes: [])
            }
            return Detection(preset: .hugo, evidence: "the posts' headers", settings: [], permalinks: [], notes: [])
        case nil:
            return nil
        }
    }

    // MARK: Pelican

    /// Whether the `MARKDOWN` setting of a Pelican settings file turns on Python-Markdown's `smarty`
    /// (curly quotes, dashes, ellipses): `'markdown.extensions.smarty'` or `'smarty'` in its
    /// `extension_configs` or `extensions`, in the assignment (its lines up to the closing bracket)
    /// or in a later `MARKDOWN[…]` one. Comments are left out.
    static func pelicanTypography(_ text: String) -> Bool {
        var depth = 0
        var inMarkdown = false
        for line in text.split(whereSeparator: \.isNewline) {
            let code = line.prefix { $0 != "#" }
            if depth == 0 {
                let name = code.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                inMarkdown = name == "MARKDOWN"
            }
            if inMarkdown, ["'markdown.extensions.smarty'", "\"markdown.extensions.smarty\"", "'smarty'", "\"smarty\""]
                .contains(where: { code.contains($0) }) {
                return true
            }
            for character in code {
                if "{[(".contains(character) { depth += 1 } else if "}])".contains(character) { depth = max(0, depth - 1) }
            }
        }
        return false
    }

    /// The settings of pelicanconf.py that `init --from` carries, with the blog.yml key each one
    /// sets (for the warning when its value can't be read).
    static let pelicanSettingKeys: [(setting: String, key: String)] = [
        ("SITENAME", "title"), ("AUTHOR", "author"), ("SITEURL", "base_url"), ("TIMEZONE", "timezone"),
        ("TYPOGRIFY", "markdown.smart_punctuation"), ("DEFAULT_PAGINATION", "paginate"), ("PATH", "content"),
        ("ARTICLE_URL", "permalinks.post"), ("ARTICLE_SAVE_AS", "permalinks.post"), ("PAGE_URL", "permalinks.page"),
        ("PAGE_SAVE_AS", "permalinks.page"), ("TAG_URL", "permalinks.tag"), ("TAG_SAVE_AS", "permalinks.tag"),
        ("CATEGORY_URL", "permalinks.category"), ("CATEGORY_SAVE_AS", "permalinks.category"),
        ("AUTHOR_URL", "permalinks.author"), ("AUTHOR_SAVE_AS", "permalinks.author"),
        ("DEFAULT_CATEGORY", "default_category"), ("DRAFT_URL", "permalinks.draft"), ("DRAFT_SAVE_AS", "permalinks.draft"),
        ("DRAFT_PAGE_URL", "permalinks.draft_page"), ("DRAFT_PAGE_SAVE_AS", "permalinks.draft_page"), ("STATIC_PATHS", "file_paths"),
        ("EXTRA_PATH_METADATA", "file_paths"), ("OUTPUT_PATH", "output"), ("OUTPUT_SOURCES", "output_sources"),
        ("OUTPUT_SOURCES_EXTENSION", "output_sources_extension"),
    ]

    static func pelican(_ text: String, publish: String?, hasContent: Bool) -> Detection {
        let settings = PythonSettings(text)
        // publishconf.py starts with `from pelicanconf import *`: its sums may use pelicanconf's settings.
        let published = publish.map { PythonSettings($0, start: settings.settings) }
        var found = Detection(preset: .pelican, evidence: "pelicanconf.py", settings: [], permalinks: [], notes: [])
        for (setting, key) in pelicanSettingKeys {
            for (file, read) in [("pelicanconf.py", settings), ("publishconf.py", published)] {
                guard let problem = read?.unreadable[setting], !(file == "pelicanconf.py" && setting == "SITEURL" && published?.text(setting) != nil) else { continue }
                found.warnings.append(.warning(file, line: problem.line, column: problem.column,
                                               "\(setting) can't be read without running Python (\(problem.reason)); set `\(key)` in blog.yml yourself"))
            }
        }
        if let title = settings.text("SITENAME") { found.settings.append(("title", title)) }
        if let author = settings.text("AUTHOR"), !author.isEmpty { found.settings.append(("author", author)) }
        if let site = published?.text("SITEURL") ?? settings.text("SITEURL"), !site.isEmpty { found.settings.append(("base_url", site)) }
        if let zone = settings.text("TIMEZONE"), TimeZone(identifier: zone) != nil { found.settings.append(("timezone", zone)) }
        if pelicanTypography(text) || settings["TYPOGRIFY"] == .bool(true) { found.settings.append(("markdown.smart_punctuation", "true")) }
        if let count = settings.text("DEFAULT_PAGINATION").flatMap(Int.init), count > 0 { found.settings.append(("paginate", String(count))) }
        if let path = settings.text("PATH"), !path.isEmpty, path != "content" { found.settings.append(("content", path)) }
        else if settings["PATH"] == nil, settings.unreadable["PATH"] == nil, !hasContent { found.notes.append("pelicanconf.py has no PATH and there is no content/ folder: set `content:` to the posts' folder") }
        if let category = settings.text("DEFAULT_CATEGORY"), category != "misc", !Slug.make(category).isEmpty {
            found.settings.append(("default_category", category))
        }
        found.settings += pelicanFilePaths(settings, notes: &found.notes).map { ("file_paths.\($0.source)", $0.path) }
        if settings["OUTPUT_SOURCES"] == .bool(true) {
            found.settings.append(("output_sources", "true"))
            if let ending = settings.text("OUTPUT_SOURCES_EXTENSION"), ending != ".text" {
                if ending.isEmpty || ending.contains("/") { found.notes.append("OUTPUT_SOURCES_EXTENSION \"\(ending)\" is not carried: blog needs an ending of a file's name, such as .text") }
                else { found.settings.append(("output_sources_extension", ending)) }
            }
        }
        if settings["USE_FOLDER_AS_CATEGORY"] == .bool(false) {
            found.notes.append("USE_FOLDER_AS_CATEGORY = False is not followed: under the pelican preset a post without a Category is in its folder's")
        }
        if let output = settings.text("OUTPUT_PATH"), let at = settings.settings["OUTPUT_PATH"] {
            if let folder = outputInside(output) {
                if folder != "public" { found.settings.append(("output", folder)) }
            } else {
                found.warnings.append(.warning("pelicanconf.py", line: at.line, column: at.column,
                    "OUTPUT_PATH \"\(output)\" is not a folder inside the blog's folder: not carried (blog init --from lets a build replace only a folder inside the blog); the site goes to public/, or set `output:` in blog.yml yourself"))
            }
        }
        let preset = PermalinkPreset.pelican.permalinks
        for (setting, key, allowed, presetPattern) in [
            ("ARTICLE", "post", ["slug", "year", "month", "day", "category"], preset.post), ("PAGE", "page", ["slug"], preset.page),
            ("TAG", "tag", ["slug"], preset.tag), ("CATEGORY", "category", ["slug"], preset.category.page ?? ""),
            ("AUTHOR", "author", ["slug"], preset.author.page ?? ""),
            ("DRAFT", "draft", ["slug", "year", "month", "day", "category"], preset.draft ?? ""), ("DRAFT_PAGE", "draft_page", ["slug"], preset.draftPage ?? ""),
        ] {
            guard let url = settings.text("\(setting)_URL") ?? settings.text("\(setting)_SAVE_AS") else { continue }
            var pattern = url
            for (pelicanName, ours) in [("{date:%Y}", "{year}"), ("{date:%m}", "{month}"), ("{date:%d}", "{day}")] {
                pattern = pattern.replacingOccurrences(of: pelicanName, with: ours)
            }
            if let problem = Permalinks.problem(in: pattern, allowed: Set(allowed)) {
                found.notes.append("\(setting)_URL \"\(url)\" can't be followed (\(problem)); the preset's \(presetPattern) is used")
            } else if Permalinks.normalize(pattern) != presetPattern {
                found.permalinks.append((key, Permalinks.normalize(pattern)))
            }
        }
        return found
    }

    /// The `path` entries of `EXTRA_PATH_METADATA` for files under `STATIC_PATHS` (`images` when
    /// unset), which Pelican copies there: `extra/CNAME` -> `CNAME`. Others are left out, with a note.
    static func pelicanFilePaths(_ settings: PythonSettings, notes: inout [String]) -> [(source: String, path: String)] {
        guard case .dict(let entries)? = settings["EXTRA_PATH_METADATA"] else { return [] }
        let trim = { (path: String) in path.split(separator: "/").filter { $0 != "." }.joined(separator: "/") }
        var statics = ["images"]
        if case .list(let items)? = settings["STATIC_PATHS"] { statics = items.compactMap(\.text).map(trim) }
        var found: [(source: String, path: String)] = []
        for entry in entries {
            guard let key = entry.key.text, let target = entry.value["path"]?.text else { continue }
            let source = trim(key), path = trim(target)
            guard statics.contains(where: { $0.isEmpty || source == $0 || source.hasPrefix($0 + "/") }) else {
                notes.append("EXTRA_PATH_METADATA: \(key) is not under STATIC_PATHS, so Pelican does not copy it; not carried")
                continue
            }
            guard !source.isEmpty, !path.isEmpty, source != path, PathSafety.isPlainOutputPath(source), PathSafety.isPlainOutputPath(path) else { continue }
            found.append((source, path))
        }
        return found
    }

    /// `path` as blog.yml's `output` (`docs/` -> `docs`) when it names a folder inside the blog's
    /// folder; nil for an absolute path, one with a `..` segment, or the blog's folder itself.
    static func outputInside(_ path: String) -> String? {
        guard !path.hasPrefix("/"), !path.hasPrefix("~") else { return nil }
        let segments = path.split(separator: "/").filter { $0 != "." }
        guard !segments.isEmpty, !segments.contains(where: { $0 == ".." || $0.contains("\0") }) else { return nil }
        return segments.joined(separator: "/")
    }

    // MARK: Jekyll

    static func jekyll(_ text: String, evidence: String) -> Detection {
        let fields = fencedSettings(text, fence: "---")
        var found = Detection(preset: .jekyll, evidence: evidence, settings: [], permalinks: [], notes: [])
        if let title = fields["title"]?.text { found.settings.append(("title", title)) }
        if let url = fields["url"]?.text, !url.isEmpty {
            let base = fields["baseurl"]?.text ?? ""
            found.settings.append(("base_url", url.trimmingTrailingSlashes() + (base.hasPrefix("/") || base.isEmpty ? base : "/" + base)))
        }
        if let zone = fields["timezone"]?.text, TimeZone(identifier: zone) != nil { found.settings.append(("timezone", zone)) }
        if case .int(let count)? = fields["paginate"], count > 0 { found.settings.append(("paginate", String(count))) }
        let source = fields["source"]?.text.map { $0.trimmingTrailingSlashes() } ?? ""
        found.settings.append(("content", source.isEmpty || source == "." ? "_posts" : source + "/_posts"))
        switch fields["permalink"]?.text ?? "date" {
        case "date": break
        case "pretty": found.preset = .jekyllPretty
        case let pattern:
            let builtins = ["none": "/:categories/:title:output_ext", "ordinal": "/:categories/:year/:y_day/:title:output_ext"]
            let jekyllPattern = builtins[pattern] ?? pattern
            var ours = jekyllPattern.replacingOccurrences(of: ":output_ext", with: ".html")
            for (theirs, mine) in [(":categories", "{categories}"), (":year", "{year}"), (":month", "{month}"), (":day", "{day}"), (":title", "{slug}"), (":slug", "{slug}")] {
                ours = ours.replacingOccurrences(of: theirs, with: mine)
            }
            if ours.contains(":") || Permalinks.problem(in: ours, allowed: ["categories", "year", "month", "day", "slug"]) != nil {
                found.notes.append("_config.yml's permalink \"\(pattern)\" has placeholders blog lacks; the preset's date URLs are used")
            } else {
                found.permalinks.append(("post", Permalinks.normalize(ours)))
            }
        }
        return found
    }

    // MARK: Hugo

    static func hugo(_ text: String, evidence: String) -> Detection {
        let fields = fencedSettings(text, fence: evidence.hasSuffix(".toml") ? "+++" : "---")
        var found = Detection(preset: .hugo, evidence: evidence, settings: [], permalinks: [], notes: [])
        if let title = fields["title"]?.text { found.settings.append(("title", title)) }
        if let url = fields["baseurl"]?.text, !url.isEmpty { found.settings.append(("base_url", url)) }
        if let zone = fields["timezone"]?.text, TimeZone(identifier: zone) != nil { found.settings.append(("timezone", zone)) }
        if case .int(let count)? = fields["paginate"], count > 0 { found.settings.append(("paginate", String(count))) }
        if case .map(let pagination)? = fields["pagination"], case .int(let count)? = pagination["pagerSize"] ?? pagination["pagersize"], count > 0 {
            found.settings.append(("paginate", String(count)))
        }
        if let content = fields["contentdir"]?.text, !content.isEmpty, content != "content" { found.settings.append(("content", content)) }
        // Hugo's output folder (GitHub Pages from `docs/`), as Pelican's OUTPUT_PATH.
        if let publish = fields["publishdir"]?.text, !publish.isEmpty {
            if let folder = outputInside(publish) {
                if folder != "public" { found.settings.append(("output", folder)) }
            } else {
                found.notes.append("\(evidence)'s publishDir \"\(publish)\" is not a folder inside the blog's folder: not carried (blog init --from lets a build replace only a folder inside the blog); the site goes to public/, or set `output:` in blog.yml yourself")
            }
        }
        if case .bool(true)? = fields["disablepathtolower"] { found.permalinks.append(("lowercase", "false")) }
        if fields["permalinks"] != nil { found.notes.append("\(evidence) sets [permalinks]: blog's hugo preset gives Hugo's default URLs; set permalinks.post to match yours") }
        return found
    }

    /// The top-level settings of a YAML or TOML file, read as a post's header is.
    static func fencedSettings(_ text: String, fence: String) -> [String: MetaValue] {
        guard let (header, _) = try? FrontMatterParser.parse("\(fence)\n\(text)\n\(fence)\n", path: "settings") else { return [:] }
        return header.fields.mapValues(\.value)
    }
}

extension PermalinkPreset {
    /// The generator's name, for messages (`Pelican`).
    public var generator: String {
        switch self {
        case .pelican: return "Pelican"
        case .jekyll, .jekyllPretty: return "Jekyll"
        case .hugo: return "Hugo"
        }
    }
}

extension StringProtocol {
    /// Without `/` at the end.
    func trimmingTrailingSlashes() -> String {
        var s = String(self)
        while s.hasSuffix("/") { s.removeLast() }
        return s
    }
}
