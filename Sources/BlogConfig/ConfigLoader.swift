import BlogCore
import BlogYAML
import Foundation
import Yams

/// Reads `blog.yml` into a ``SiteConfig``.
///
/// Unknown keys are warnings with their line (a typo should not pass silently); a value of the
/// wrong type is an error with its line.
package enum ConfigLoader {
    /// The keys `blog.yml` understands (and `tagfilter`, the older spelling of `html: tagfilter`).
    package static let knownKeys: Set<String> = [
        "title", "description", "author", "base_url", "language", "timezone", "theme",
        "paginate", "date_format", "output", "content", "permalinks", "feed_limit", "feed_content", "html",
        "cache_dir", "new_post_format", "highlight", "highlight_style", "redirects", "params",
        "markdown", "relative_urls", "search", "image_size_warning",
        "default_category", "file_paths", "output_sources", "output_sources_extension",
        "words_per_minute", "toc_levels", "related_posts", "mermaid_script", "math_script",
    ]

    /// The `base_url` that `blog init` writes when it cannot tell where the blog will be published. A build warns
    /// about it (so `--strict`, in CI, refuses it) unless `--base-url` replaces it: a published feed full of
    /// example addresses is worse than a failed CI job.
    package static let initPlaceholderBaseURL = "https://your-site.example.org/"

    /// The warning about ``initPlaceholderBaseURL``, saying what to set.
    package static let placeholderMessage = "`base_url` is still the placeholder that `blog init` wrote (\(initPlaceholderBaseURL)): set it to the address where the site is published, such as https://USER.github.io/REPO/ for GitHub Pages, or pass --base-url; feeds and the sitemap would point to the placeholder"

    /// Loads `path`; a missing file gives the defaults. Throws ``BuildFailure`` on errors.
    /// - Parameters:
    ///   - path: the `blog.yml` file.
    ///   - displayPath: how to name the file in messages.
    package static func load(path: String, displayPath: String? = nil) throws -> (SiteConfig, [Diagnostic]) {
        let shown = displayPath ?? path
        guard FileManager.default.fileExists(atPath: path) else { return (SiteConfig(), []) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BuildFailure([.error(shown, "cannot read the configuration file")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw BuildFailure([.error(shown, "the configuration file is not valid UTF-8")])
        }
        return try parse(text, path: shown)
    }

    /// Parses the text of a `blog.yml`.
    static func parse(_ text: String, path: String) throws -> (SiteConfig, [Diagnostic]) {
        var config = SiteConfig()
        var diagnostics: [Diagnostic] = []
        let root: Node?
        do {
            root = try BoundedYAML.compose(text, path: path)
        } catch let error as YamlError {
            throw BuildFailure([YAMLErrors.diagnostic(for: error, path: path, lineOffset: 0)])
        }
        guard let root else { return (config, []) }
        guard case .mapping(let mapping) = root else {
            throw BuildFailure([.error(path, line: root.mark?.line ?? 1, column: root.mark?.column ?? 1,
                                       "expected a mapping of settings (`key: value` lines)")])
        }

        func fail(_ node: Node, _ message: String) {
            diagnostics.append(.error(path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, message))
        }
        func string(_ node: Node, _ key: String) -> String? {
            guard case .scalar(let scalar) = node else {
                fail(node, "`\(key)` must be a string"); return nil
            }
            return scalar.string
        }
        func flag(_ node: Node, _ key: String) -> Bool? {
            guard case .scalar = node, let flag = node.bool else {
                fail(node, "`\(key)` must be true or false"); return nil
            }
            return flag
        }
        func wholeNumber(_ node: Node, atLeast minimum: Int) -> Int? {
            guard case .scalar = node, let n = node.int, n >= minimum else { return nil }
            return n
        }

        // `html`, and `tagfilter: true` (its older spelling): the stricter of the two applies.
        var html = HTMLPolicy.trusted, tagfilter = false
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { continue }
            switch key {
            case "title": if let s = string(value, key) { config.title = s }
            case "description": if let s = string(value, key) { config.description = s }
            case "author": if let s = string(value, key) { config.author = s }
            case "language": if let s = string(value, key) { config.language = s }
            case "theme":
                if let s = string(value, key) {
                    if s.isEmpty || s.contains("/") || s.hasPrefix(".") {
                        fail(value, "`theme` must be the name of a folder under themes/, got \"\(s)\"")
                    } else {
                        config.theme = s
                    }
                }
            case "date_format": if let s = string(value, key) { config.dateFormat = s }
            case "default_category":
                // `null` (as `blog init` writes it): posts that name no category have none.
                if case .scalar(let scalar) = value, scalar.style == .plain, ["null", "~", "Null", "NULL"].contains(scalar.string) {
                    config.defaultCategory = nil
                } else if let s = string(value, key) {
                    if Slug.make(s).isEmpty { fail(value, "`default_category` must be a name with letters or digits, got \"\(s)\"") } else { config.defaultCategory = s }
                }
            case "output", "content":
                if let s = string(value, key) {
                    if s.isEmpty {
                        fail(value, "`\(key)` must not be empty")
                    } else if key == "output" {
                        config.output = s
                    } else {
                        config.content = s
                    }
                }
            case "cache_dir":
                if let s = string(value, key) {
                    if s.isEmpty { fail(value, "`cache_dir` must not be empty") } else { config.cacheDir = s }
                }
            case "base_url":
                if let s = string(value, key) {
                    if let normalized = normalizeBaseURL(s) {
                        config.baseURL = normalized
                        if normalized == initPlaceholderBaseURL {
                            diagnostics.append(.warning(path, line: value.mark?.line ?? 1, column: value.mark?.column ?? 1,
                                                        placeholderMessage))
                        }
                    } else {
                        fail(value, "`base_url` must be a URL such as https://example.org/ or a path such as /blog/, got \"\(s)\"")
                    }
                }
            case "timezone":
                if let s = string(value, key) {
                    if let zone = TimeZone(identifier: s) {
                        config.timeZone = zone
                        config.timeZoneIsSet = true
                    } else {
                        fail(value, "`timezone` must be a time zone name such as Europe/Paris or UTC, got \"\(s)\""
                             + (EditDistance.nearest(s, among: TimeZone.knownTimeZoneIdentifiers).map { "; did you mean `\($0)`?" } ?? ""))
                    }
                }
            case "paginate":
                if let n = wholeNumber(value, atLeast: 1) {
                    config.paginate = n
                } else {
                    fail(value, "`paginate` must be a whole number of posts per page, 1 or more")
                }
            case "feed_limit":
                if let n = wholeNumber(value, atLeast: 1) {
                    config.feedLimit = n
                } else {
                    fail(value, "`feed_limit` must be a whole number of posts per feed, 1 or more")
                }
            case "words_per_minute":
                if let n = wholeNumber(value, atLeast: 1) {
                    config.wordsPerMinute = n
                } else {
                    fail(value, "`words_per_minute` must be a whole number of words a reader reads in a minute, 1 or more")
                }
            case "mermaid_script": if let s = string(value, key) { config.mermaidScript = s }
            case "math_script": if let s = string(value, key) { config.mathScript = s }
            case "related_posts":
                if let n = wholeNumber(value, atLeast: 0) {
                    config.relatedPosts = n
                } else {
                    fail(value, "`related_posts` must be a whole number of related posts under each post, 0 for none")
                }
            case "toc_levels":
                if let levels = Self.headingLevels(value) {
                    config.tocLevels = levels
                } else {
                    fail(value, "`toc_levels` must be a heading level 1 to 6, or two joined by `-` such as `2-4`")
                }
            case "tagfilter": if let flag = flag(value, key) { tagfilter = flag }
            case "html":
                if let s = string(value, key) {
                    if let policy = HTMLPolicy(rawValue: s) {
                        html = policy
                    } else {
                        fail(value, "`html` must be `trusted` (raw HTML in posts as written), `tagfilter` (GFM's nine tags escaped) or `sanitize` (only an allow-list of elements, attributes and URLs), got \"\(s)\"")
                    }
                }
            case "highlight": if let flag = flag(value, key) { config.highlight = flag }
            case "relative_urls": if let flag = flag(value, key) { config.relativeURLs = flag }
            case "search": if let flag = flag(value, key) { config.search = flag }
            case "output_sources": if let flag = flag(value, key) { config.outputSources = flag }
            case "output_sources_extension":
                if let s = string(value, key) {
                    if s.isEmpty || s.contains("/") || s.contains("\0") {
                        fail(value, "`output_sources_extension` must end a file's name, such as .text or .md, got \"\(s)\"")
                    } else {
                        config.outputSourcesExtension = s
                    }
                }
            case "image_size_warning":
                if case .scalar = value, let bytes = ConfigLoader.byteCount(value.string ?? "") {
                    config.imageSizeWarning = bytes
                } else {
                    fail(value, "`image_size_warning` must be a size such as `500KB` or `2MB` (or a number of bytes)")
                }
            case "highlight_style":
                if let s = string(value, key) {
                    if !s.isEmpty, s.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }) {
                        config.highlightStyle = s
                    } else {
                        fail(value, "`highlight_style` must name one of the theme's palettes (lower-case letters, digits, `-`), got \"\(s)\"")
                    }
                }
            case "markdown":
                guard case .mapping(let settings) = value else {
                    fail(value, "`markdown` must be a mapping such as `smart_punctuation: auto`")
                    continue
                }
                for (nameNode, setting) in settings {
                    guard nameNode.string == "smart_punctuation" else {
                        diagnostics.append(.warning(path, line: nameNode.mark?.line ?? 1, column: nameNode.mark?.column ?? 1,
                                                    "unknown setting `markdown.\(nameNode.string ?? "")` (known: smart_punctuation); ignored"))
                        continue
                    }
                    if case .scalar = setting, setting.string == "auto" {
                        config.smartPunctuation = nil
                    } else if case .scalar = setting, let on = setting.bool {
                        config.smartPunctuation = on
                    } else {
                        fail(setting, "`markdown.smart_punctuation` must be `auto` (as each post's generator does), `true` or `false`")
                    }
                }
            case "feed_content":
                if let s = string(value, key) {
                    if let content = FeedContent(rawValue: s) {
                        config.feedContent = content
                    } else {
                        fail(value, "`feed_content` must be `full` (the whole post) or `summary`, got \"\(s)\"")
                    }
                }
            case "new_post_format":
                if let s = string(value, key) {
                    if s == "auto" {
                        config.newPostFormat = nil
                    } else if let format = NewPostFormat(rawValue: s) {
                        config.newPostFormat = format
                    } else {
                        fail(value, "`new_post_format` must be `auto` (the form most posts use), `pelican`, `yaml` or `toml`, got \"\(s)\"")
                    }
                }
            case "file_paths":
                guard case .mapping(let entries) = value else {
                    fail(value, "`file_paths` must be a mapping of content files to the paths they are published at, such as `extra/CNAME: CNAME`")
                    continue
                }
                for (sourceNode, pathNode) in entries {
                    guard let source = string(sourceNode, "file_paths"), let path = string(pathNode, "file_paths.\(source)") else { continue }
                    let trim = { (p: String) in p.hasPrefix("/") ? String(p.dropFirst()) : p }
                    let plain = { (p: String) in PathSafety.isPlainOutputPath(trim(p)) }
                    if !plain(source) {
                        fail(sourceNode, "`file_paths`: \"\(source)\" is not the path of a file under the content folder, such as extra/CNAME")
                    } else if !plain(path) || path.hasSuffix("/") {
                        fail(pathNode, "`file_paths`: \"\(path)\" is not a file's path inside the site, such as CNAME or .well-known/security.txt")
                    } else {
                        config.filePaths.append(FilePathRule(source: trim(source), path: trim(path),
                                                             line: sourceNode.mark?.line ?? 1, column: sourceNode.mark?.column ?? 1))
                    }
                }
            case "redirects":
                guard case .mapping(let entries) = value else {
                    fail(value, "`redirects` must be a mapping of old URLs to new ones, such as `old-post.html: /posts/new-post/`")
                    continue
                }
                for (fromNode, toNode) in entries {
                    guard let from = string(fromNode, "redirects"), let to = string(toNode, "redirects.\(from)") else { continue }
                    guard let clean = SitePath.clean(from), !clean.isEmpty else {
                        fail(fromNode, "`redirects`: \"\(from)\" is not a path inside the site such as /old-name/")
                        continue
                    }
                    if to.trimmingWhitespaces().isEmpty {
                        fail(toNode, "`redirects`: \"\(from)\" must name where it goes: a URL such as /posts/new/ or a post's file")
                        continue
                    }
                    config.redirects.append(RedirectRule(from: clean, to: to.trimmingWhitespaces(), file: path,
                                                         line: fromNode.mark?.line ?? 1, column: fromNode.mark?.column ?? 1))
                }
            case "params":
                guard case .mapping = value, case .map(let params) = YAMLValue.meta(value, text: false) else {
                    fail(value, "`params` must be a mapping of values for templates, such as `repository: https://github.com/me/blog`")
                    continue
                }
                config.params = params
            case "permalinks":
                if case .scalar = value, let name = value.string {
                    if let preset = PermalinkPreset(rawValue: name) { config.permalinks = preset.permalinks } else {
                        fail(value, PermalinkPreset.nearest(name).map { "unknown permalink preset \"\(name)\": did you mean `\($0)`?" }
                             ?? "`permalinks` must name a preset (\(PermalinkPreset.names)) or be a mapping such as `post: \"posts/{slug}/\"`, got \"\(name)\"")
                    }
                    continue
                }
                guard case .mapping(let links) = value else {
                    fail(value, "`permalinks` must be a mapping such as `post: \"posts/{slug}/\"`")
                    continue
                }
                // A `preset:` sets every pattern first, whatever its place: the other keys override it.
                if let presetNode = links.first(where: { $0.key.string == "preset" })?.value, let name = string(presetNode, "permalinks.preset") {
                    if let preset = PermalinkPreset(rawValue: name) { config.permalinks = preset.permalinks } else {
                        fail(presetNode, PermalinkPreset.nearest(name).map { "unknown permalink preset \"\(name)\": did you mean `\($0)`?" }
                             ?? "`permalinks.preset` must be one of \(PermalinkPreset.names), got \"\(name)\"")
                    }
                }
                for (kindNode, patternNode) in links {
                    guard let kind = kindNode.string, kind != "preset" else { continue }
                    if kind == "lowercase" {
                        if let lower = flag(patternNode, "permalinks.lowercase") { config.permalinks.lowercase = lower }
                        continue
                    }
                    guard let pattern = string(patternNode, "permalinks.\(kind)") else { continue }
                    switch kind {
                    case "post":
                        if let problem = Permalinks.problem(in: pattern, allowed: ["year", "month", "day", "slug", "category", "categories", "folder"]) {
                            fail(patternNode, problem)
                        } else {
                            config.permalinks.post = Permalinks.normalize(pattern)
                        }
                    case "draft", "draft_page":
                        if pattern == "none" {
                            if kind == "draft" { config.permalinks.draft = nil } else { config.permalinks.draftPage = nil }
                        } else if let problem = Permalinks.problem(in: pattern, allowed: kind == "draft" ? ["year", "month", "day", "slug", "category"] : ["slug"]) {
                            fail(patternNode, problem)
                        } else if kind == "draft" {
                            config.permalinks.draft = Permalinks.normalize(pattern)
                        } else {
                            config.permalinks.draftPage = Permalinks.normalize(pattern)
                        }
                    case "tag", "page":
                        if let problem = Permalinks.problem(in: pattern, allowed: kind == "page" ? ["slug", "folder"] : ["slug"]) {
                            fail(patternNode, problem)
                        } else if kind == "tag" {
                            config.permalinks.tag = Permalinks.normalize(pattern)
                        } else {
                            config.permalinks.page = Permalinks.normalize(pattern)
                        }
                    case "category", "author", "category_index", "author_index":
                        let taxonomy: Taxonomy = kind.hasPrefix("category") ? .category : .author
                        if let problem = Permalinks.termProblem(in: pattern, index: kind.hasSuffix("_index")) {
                            fail(patternNode, problem)
                        } else {
                            config.permalinks.setTerms(taxonomy, index: kind.hasSuffix("_index"), to: pattern)
                        }
                    case "home_list":
                        if let problem = Permalinks.folderProblem(in: pattern) {
                            fail(patternNode, problem)
                        } else if let folder = SitePath.clean(pattern) {
                            config.permalinks.homeList = folder
                        }
                    default:
                        diagnostics.append(.warning(path, line: kindNode.mark?.line ?? 1, column: kindNode.mark?.column ?? 1,
                                                    "unknown permalink `\(kind)` (known: post, tag, page, draft, draft_page, home_list, category, category_index, author, author_index); ignored"))
                    }
                }
            default:
                diagnostics.append(.warning(path, line: keyNode.mark?.line ?? 1, column: keyNode.mark?.column ?? 1,
                                            unknownSetting(key)))
            }
        }
        config.html = max(html, tagfilter ? .tagfilter : .trusted)
        if diagnostics.hasErrors { throw BuildFailure(diagnostics) }
        return (config, diagnostics)
    }

    /// The warning for a key of blog.yml that is no setting: the setting meant when one is near (`titel`), else them all.
    static func unknownSetting(_ key: String) -> String {
        if let meant = EditDistance.nearest(key, among: knownKeys.sorted()) {
            return "unknown setting `\(key)`: did you mean `\(meant)`? ignored"
        }
        return "unknown setting `\(key)` (known: \(knownKeys.sorted().joined(separator: ", "))); ignored"
    }

    /// The line and column of the value of `key` in the `blog.yml` at `path`, for a message about
    /// a value found wrong only once more than the file is known (a palette the theme lacks); nil
    /// when the file or the key is missing.
    package static func position(ofValueOf key: String, inFileAt path: String) -> (line: Int, column: Int)? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
              case .mapping(let mapping)? = try? BoundedYAML.compose(text, path: path),
              let value = mapping.first(where: { $0.key.string == key })?.value, let mark = value.mark else { return nil }
        return (mark.line, mark.column)
    }

    /// Returns the URL or path with a trailing `/`, or nil when it is neither.
    package static func normalizeBaseURL(_ s: String) -> String? {
        let trimmed = s.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "/" }
        if trimmed.hasPrefix("/") {
            return trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
        }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else { return nil }
        return trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
    }

    /// A size written as bytes (`1500000`) or with a decimal unit (`500KB`, `2 MB`, `1.5MB`); nil when
    /// it is none, or not above zero.
    static func byteCount(_ text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1)]
        let (number, unit) = units.first { text.hasSuffix($0.0) }.map { (String(text.dropLast($0.0.count)), $0.1) } ?? (text, 1)
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0, value * unit < 1e15 else { return nil }
        return Int(value * unit)
    }

    /// `toc_levels`: `2-4`, or one level such as `2`; nil for anything else.
    static func headingLevels(_ node: Node) -> ClosedRange<Int>? {
        guard case .scalar(let scalar) = node else { return nil }
        let parts = scalar.string.split(separator: "-", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let low = parts.first!, let high = parts.last!,
              (1...6).contains(low), (low...6).contains(high) else { return nil }
        return low...high
    }
}

extension Permalinks {
    /// Why `pattern` is not usable, or nil when it is.
    package static func problem(in pattern: String, allowed: Set<String>) -> String? {
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                return "unclosed `{` in permalink \"\(pattern)\""
            }
            let name = String(rest[rest.index(after: open)..<close])
            if !allowed.contains(name) {
                return "unknown placeholder `{\(name)}` in permalink \"\(pattern)\" (allowed: \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))"
            }
            rest = rest[rest.index(after: close)...]
        }
        if !pattern.contains("{slug}") {
            return "permalink \"\(pattern)\" must contain {slug}, or two pages would get the same URL"
        }
        if pattern.split(separator: "/").contains(where: PathSafety.isDotSegment) {
            return "permalink \"\(pattern)\" must not contain `.` or `..` segments"
        }
        return nil
    }

    /// Why `pattern` is not usable as `permalinks.category` or `.author` (`index`: `category_index`,
    /// `author_index`), or nil when it is. `none` (or an empty text) asks for no such pages.
    static func termProblem(in pattern: String, index: Bool) -> String? {
        if Self.isNone(pattern) { return nil }
        if !index { return problem(in: pattern, allowed: ["slug"]) }
        if pattern.contains("{") || pattern.contains("}") {
            return "permalink \"\(pattern)\" of an index takes no placeholder: it is one page, such as categories/"
        }
        guard let clean = SitePath.clean(pattern), !clean.isEmpty else {
            return "permalink \"\(pattern)\" must be a page inside the site other than its root, such as categories/"
        }
        return nil
    }

    /// Whether a pattern asks for no pages: `none` or empty.
    private static func isNone(_ pattern: String) -> Bool {
        let word = pattern.trimmingCharacters(in: .whitespaces).lowercased()
        return word.isEmpty || word == "none"
    }

    /// Sets the page pattern (or with `index`, the index's) of `taxonomy` to `pattern`, checked by
    /// ``termProblem(in:index:)``; `none` leaves the taxonomy without pages (or without an index).
    mutating func setTerms(_ taxonomy: Taxonomy, index: Bool, to pattern: String) {
        let value = Self.isNone(pattern) ? nil : index ? SitePath.clean(pattern) : Self.normalize(pattern)
        switch (taxonomy, index) {
        case (.category, false): category.page = value
        case (.category, true): category.index = value
        case (.author, false): author.page = value
        case (.author, true): author.index = value
        case (.tag, _), (.section, _): break
        }
    }

    /// Why `path` is not usable as `permalinks.home_list`, or nil when it is: a folder inside the
    /// site other than its root, without placeholders.
    static func folderProblem(in path: String) -> String? {
        if path.contains("{") || path.contains("}") {
            return "`permalinks.home_list` \"\(path)\" takes no placeholder: it is one folder, such as blog/"
        }
        guard let clean = SitePath.clean(path) else {
            return "`permalinks.home_list` \"\(path)\" must be a folder inside the site such as blog/ (no \"..\", no scheme)"
        }
        if clean.isEmpty {
            return "`permalinks.home_list` must not be the site's root: the home page is the content page that replaces it; use a folder such as blog/"
        }
        if !clean.hasSuffix("/") {
            return "`permalinks.home_list` \"\(path)\" must be a folder such as blog/, not a file: the list's next pages go under it"
        }
        return nil
    }

    /// Drops a leading `/` and adds a trailing `/`.
    package static func normalize(_ pattern: String) -> String {
        var p = pattern
        while p.hasPrefix("/") { p.removeFirst() }
        if !p.hasSuffix("/") && !p.hasSuffix(".html") { p += "/" }
        return p
    }
}
