import BlogCore
import Foundation

extension PostReader {
    struct Resolver {
        let header: FrontMatter
        let source: String
        let timeZone: TimeZone
        let file: FileName
        let contentPath: String
        /// A page (no date needed, in no list) rather than a post.
        let kind: PostKind
        /// The file's bytes.
        let size: Int
        /// The file's text, for values as written (a TOML or YAML date's offset).
        var text = ""
        /// A YAML header's file is in Jekyll's folders or named by date (``PostReader/isJekyllPost(source:contentPath:)``),
        /// found once; false for other headers, which never ask.
        let jekyllPlace: Bool
        var diagnostics: [Diagnostic] = []

        init(header: FrontMatter, source: String, contentPath: String, bundle: Bool, timeZone: TimeZone, size: Int) {
            self.size = size
            self.header = header
            self.source = source
            self.timeZone = timeZone
            self.file = FileName(source: contentPath, bundle: bundle)
            self.contentPath = contentPath
            kind = file.isSectionIndex || contentPath.hasPrefix("pages/") ? .page : .post
            jekyllPlace = header.format == .yaml && PostReader.isJekyllPost(source: source, contentPath: contentPath)
        }

        mutating func error(_ field: HeaderField?, _ message: String) {
            diagnostics.append(.error(source, line: field?.line ?? 1, column: field?.column ?? 1, message))
        }

        mutating func warning(_ field: HeaderField?, _ message: String) {
            diagnostics.append(.warning(source, line: field?.line ?? 1, column: field?.column ?? 1, message))
        }

        /// The field, unless absent or null.
        func field(_ key: String) -> HeaderField? {
            // A header has a few keys, and most keys asked for are not among them: compared with each (by length
            // first), not hashed. Hashing the thirty-odd keys asked for cost 9 k instructions a post.
            if header.keyOrder.count <= 16, header.keyOrder.count == header.fields.count {
                let length = key.utf8.count
                guard header.keyOrder.contains(where: { $0.utf8.count == length && $0 == key }) else { return nil }
            }
            guard let f = header.fields[key] else { return nil }
            if case .null = f.value { return nil }
            return f
        }

        /// The first of `keys` that is a field (``field(_:)``). A loop: `keys.lazy.compactMap(field)` made a closure
        /// holding a copy of the resolver, every string of the header retained, and released again.
        func firstField(_ keys: [String]) -> HeaderField? {
            for key in keys {
                if let found = field(key) { return found }
            }
            return nil
        }

        /// A field that must be one piece of text (a number or bool is taken as written).
        mutating func text(_ key: String) -> (String, HeaderField)? {
            guard let f = field(key) else { return nil }
            switch f.value {
            case .list, .map:
                error(f, "`\(key)` must be text, not \(kind(f.value))")
                return nil
            default:
                return f.value.text.map { ($0, f) }
            }
        }

        func kind(_ value: MetaValue) -> String {
            switch value {
            case .list: return "a list"
            case .map: return "a mapping"
            case .bool: return "true/false"
            case .int, .double: return "a number"
            case .date: return "a date"
            case .string: return "text"
            case .null: return "nothing"
            }
        }

        /// A post of Jekyll's: a YAML header, in `_posts`/`_drafts` or named by date.
        var isJekyll: Bool {
            header.format == .yaml && !file.isBundle && jekyllPlace
        }

        /// A post of Hugo's: a TOML header, or YAML outside Jekyll's folders and names.
        var isHugo: Bool {
            header.format == .toml || (header.format == .yaml && !jekyllPlace)
        }

        /// Returns nil only when there are errors.
        mutating func resolve() -> Post? {
            // Title.
            var title = ""
            var titleField: HeaderField?
            if let (t, f) = text("title") {
                title = t.trimmingWhitespacesAndNewlines()
                titleField = f
            }
            let titleFromHeader = !title.isEmpty
            // Ulysses, Bear and iA Writer write a TextBundle's title as its text's first line,
            // `# Title`, with no header: that heading is the title, and is not shown twice.
            var body = header.body, bodyLine = header.bodyLine
            if !titleFromHeader, PageBundle.role(of: contentPath) == .text,
               let heading = PostReader.leadingTitleHeading(body) {
                title = heading.title
                body = String(body[heading.rest...])
                bodyLine += heading.lines
            } else if !titleFromHeader {
                title = isJekyll ? file.jekyllTitle : file.title
                warning(titleField, "missing title: using \"\(title)\" from the file name")
            }
            if title.utf8.count > PostReader.maxTitle, case let length = title.count, length > PostReader.maxTitle {
                error(titleField, "the title has \(length) characters: a title may have at most \(PostReader.maxTitle) (every list, feed and tag page that shows the post repeats it); put the rest in the body")
            }

            // Dates. A post without one (Hugo allows it) is listed last; a page needs none.
            let parsedDate = resolveDate(["date", "publishdate", "pubdate"], required: kind == .post)
            let modified = resolveDate(["modified", "lastmod"], required: false)

            // Slug: the header's; else, for Jekyll and Hugo, the file's name, as those tools do,
            // and for a bundle (whatever its header) its folder's; else, as Pelican does, the title.
            var slug = ""
            if let (s, f) = text("slug") {
                let s = s.trimmingWhitespaces()
                if !s.isEmpty {
                    if PathSafety.isSafeSegment(s) {
                        slug = s
                    } else {
                        error(f, "unsafe slug \"\(s)\": a slug is one URL segment without \"/\" or \"..\"")
                        slug = "-"  // don't add an "empty slug" error on top
                    }
                }
            }
            if slug.isEmpty, header.format == .yaml || header.format == .toml || file.isSectionIndex || file.isBundle {
                // Jekyll's `:title` keeps an apostrophe of the file name (`don't-panic`) and drops
                // trailing periods.
                if isJekyll, let jekyll = file.jekyllSlug {
                    slug = jekyll
                } else {
                    slug = Slug.isPlainFileName(file.name) ? file.name : Slug.make(file.name)
                }
            }
            if slug.isEmpty, titleFromHeader { slug = Slug.make(title) }
            if slug.isEmpty { slug = Slug.make(file.name) }
            if slug.isEmpty { slug = Slug.make(file.stem) }
            if slug.isEmpty {
                error(field("slug") ?? titleField, "empty slug: neither the title nor the file name has a letter or digit; add a `slug:` header line")
            }

            if let deep = PostReader.tooDeeplyNested(body) {
                diagnostics.append(.error(source, line: bodyLine + deep, column: 1,
                                          "this line is nested too deep: more than \(PostReader.maxNesting) bytes of indentation, `>` and list markers before its text (markdown's cost grows with the square of the nesting depth)"))
            }
            let tags = resolveTags()
            let categories = resolveCategories()
            let authors = resolveAuthor()
            let author = authors.isEmpty ? nil : authors.joined(separator: ", ")
            let termField = firstField(["tags", "categories", "category", "author", "authors"])
            if authors.count > PostReader.maxTags {
                error(field("author") ?? field("authors"), "\(authors.count) authors: a post may have at most \(PostReader.maxTags) (each one's page lists the post with all of them, so a site's size grows with the square of their number)")
            } else if case let terms = tags.count + categories.count + authors.count, size * terms > PostReader.maxRepeated {
                error(termField, "this post's \(size) bytes are repeated on the page and feed of each of its \(terms) tags, categories and authors (\((size * terms) >> 20) MB): at most \(PostReader.maxRepeated >> 20) MB; give it fewer, or make it shorter")
            }

            // Summary: the header's `summary` (or Jekyll's `excerpt`), else the body up to the
            // post's `excerpt_separator`; else the renderer finds `<!--more-->` or the first paragraph.
            var summary: String?
            if let (s, _) = text("summary") ?? text("excerpt") {
                summary = s.isEmpty ? nil : s
            } else if let (separator, _) = text("excerpt_separator"), !separator.isEmpty,
                      let cut = header.body.range(of: separator) {
                summary = String(header.body[..<cut.lowerBound])
            }

            // Status: `status`, Hugo's `draft`, Jekyll's `published: false`.
            var status = PostStatus.published
            if let (s, f) = text("status") {
                let word = s.trimmingWhitespaces().lowercased()
                if let known = PostStatus(rawValue: word) {
                    status = known
                } else {
                    error(f, "unknown status \"\(s)\": use published, draft or hidden")
                }
            }
            // What its raw HTML may do: blog.yml's, or a stricter one (a guest post asking to be sanitized).
            var html: HTMLPolicy?
            if let (s, f) = text("html") {
                html = HTMLPolicy(rawValue: s.trimmingWhitespaces().lowercased())
                if html == nil { error(f, "unknown `html` \"\(s)\": use trusted, tagfilter or sanitize (a post may only make blog.yml's stricter)") }
            }
            if flag("draft") == true { status = .draft }
            if flag("published") == false { status = .draft }

            // Where it goes: Jekyll `permalink`, Hugo and Pelican `url`, Pelican `save_as`.
            let permalink = resolvePath(["permalink", "url"], date: parsedDate, slug: slug, categories: categories)
            let saveAs = resolvePath(["save_as"], date: parsedDate, slug: slug, categories: categories)
            let aliases = resolveAliases()
            let lang = text("lang").map { $0.0.trimmingWhitespaces() }.flatMap { $0.isEmpty ? nil : $0 }

            // The fields' own table, their values taken: nothing hashed again.
            let meta = header.fields.mapValues(\.value)
            for key in header.keyOrder {
                if let message = HeaderKeys.misspelling(key) {
                    diagnostics.append(.warning(source, line: header.fields[key].map { $0.keyLine ?? $0.line } ?? 1, column: 1, message))
                }
            }

            guard !diagnostics.hasErrors else { return nil }
            var writtenOffset: Int?
            if parsedDate != nil, isHugo, let f = firstField(["date", "publishdate", "pubdate"]) {
                writtenOffset = DateParser.writtenOffset(writtenText(of: f))
            }
            // Made where it is returned, every field at once: made then set field by field, the post was copied twice.
            return Post(source: source, contentPath: contentPath, title: title, kind: kind, isBundle: file.isBundle,
                        headerFormat: header.format, date: parsedDate ?? Date(timeIntervalSince1970: 0), dated: parsedDate != nil,
                        writtenOffset: writtenOffset, modified: modified, tags: tags, categories: categories, lang: lang,
                        permalink: permalink, saveAs: saveAs, aliases: aliases, slug: slug, author: author, authors: authors,
                        summary: summary, html: html, status: status, meta: meta, body: body, bodyLine: bodyLine)
        }

        /// A true/false field (`true`, `false` as text too); nil when absent, an error otherwise.
        mutating func flag(_ key: String) -> Bool? {
            guard let f = field(key) else { return nil }
            switch f.value {
            case .bool(let b): return b
            case .string(let s) where ["true", "false"].contains(s.trimmingWhitespaces().lowercased()):
                return s.trimmingWhitespaces().lowercased() == "true"
            default:
                error(f, "`\(key)` must be true or false")
                return nil
            }
        }
    }
}

extension PostReader {
    /// The text of a level-1 ATX heading (`# Title`, closing `#`s dropped) that is the first
    /// non-blank line of `body`, where the rest of the body starts, and how many lines that skips;
    /// nil when the first line is anything else or the heading is empty.
    static func leadingTitleHeading(_ body: String) -> (title: String, rest: String.Index, lines: Int)? {
        var lines = 0
        var start = body.startIndex
        while start < body.endIndex {
            let end = body[start...].firstIndex(of: "\n") ?? body.endIndex
            let line = body[start..<end]
            let next = end < body.endIndex ? body.index(after: end) : end
            lines += 1
            guard line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else {
                // CommonMark: up to three spaces, one `#`, then a space or tab (or nothing).
                let text = line.drop { $0 == " " }
                guard line.count - text.count <= 3, text.hasPrefix("#"), text.dropFirst().first.map({ $0 == " " || $0 == "\t" }) == true else { return nil }
                var title = text.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
                // A closing sequence of `#`s after a space is not part of the heading.
                if let hashes = title.lastIndex(where: { $0 != "#" }).map({ title.index(after: $0) }), hashes < title.endIndex,
                   title[..<hashes].last == " " || title[..<hashes].last == "\t" {
                    title = String(title[..<hashes]).trimmingCharacters(in: .whitespaces)
                }
                return title.isEmpty ? nil : (title, next, lines)
            }
            start = next
        }
        return nil
    }
}
