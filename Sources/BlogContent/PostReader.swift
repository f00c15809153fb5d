import BlogConfig
import BlogCore
import Foundation

/// Reads one post file into a ``Post``: text checked and normalised, header split and resolved
/// (title, date, tags, slug, status...), every problem reported with its file, line and column.
package enum PostReader {
    /// The revision of the reading rules. Bump it when the same file reads into another post (a
    /// header rule changed): build states made under other rules are then not
    /// used, though the `blog` version is the same.
    /// 1: Pelican headers as Python-Markdown's meta extension reads them.
    /// 2: a TextBundle's first `# heading` is its title when its header has none.
    package static let rulesRevision = 2

    /// The most tags (and the most categories) a post may have: each tag's page lists the post with all its tags,
    /// so pages grow with the square of their number (10,000 tags made 10,000 pages of 10,000 links, 3 GB of
    /// memory and minutes of work).
    package static let maxTags = 1_000

    /// The most bytes a post file may hold, 100 MB: a post twice the size of the longest book is a mistake (a
    /// log or a dump saved as `.md`), and reading it whole would hold several times its size in memory. Checked
    /// before the file is read: a 2.5 GB file took 7 GB of memory and 17 s to be refused for its nesting.
    package static let maxFileSize = 100 << 20

    /// The most bytes of container prefix (spaces, tabs, `>`, list markers) before a body line's text. Each level
    /// of block quote or list costs markdown's parser a check on every later line of the block, so 50,000 nested
    /// `>` or list levels take minutes; 1,000 bytes allow 250 levels and more than any post needs.
    package static let maxNesting = 1_000

    /// The most characters a title may have. A title is repeated in every list, feed and term page that shows its
    /// post, and in its page's head: a title of a million characters with 500 tags wrote 1.5 GB. A longer title is
    /// an error rather than cut with a warning: no title is meant to be that long (it is a body or a broken header),
    /// and a cut one would be published, and named in URLs, as nobody wrote it.
    package static let maxTitle = 1_000

    /// The most bytes a post may be repeated over the pages and feeds of its tags, categories and authors: its
    /// bytes times their number. Each term's page lists the post (title, summary, the first paragraph when it has no
    /// summary) and its feed carries it whole, so without a bound a post of 100 MB with 1,000 tags would write
    /// hundreds of GB; with it, what a post adds to the site is bounded as its size is (``maxFileSize``, a post
    /// with one term).
    package static let maxRepeated = maxFileSize

    /// The first line of `body` (0-based) whose container prefix (spaces, tabs, `>`, and list markers `-`, `*`, `+`,
    /// `1.`, `1)` followed by a space) is longer than ``maxNesting`` bytes.
    static func tooDeeplyNested(_ body: String) -> Int? {
        var body = body
        return body.withUTF8 { bytes -> Int? in
            var line = 0
            var index = 0
            let count = bytes.count
            while index < count {
                // The prefix of the line that starts at `index`.
                var prefix = 0
                scan: while index < count, prefix <= maxNesting {
                    switch bytes[index] {
                    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ">"):
                        index += 1
                        prefix += 1
                    case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"):
                        guard index + 1 < count, bytes[index + 1] == UInt8(ascii: " ") || bytes[index + 1] == UInt8(ascii: "\t") else { break scan }
                        index += 2
                        prefix += 2
                    case UInt8(ascii: "0")...UInt8(ascii: "9"):
                        var end = index
                        while end < count, end - index < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                        guard end + 1 < count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"),
                              bytes[end + 1] == UInt8(ascii: " ") || bytes[end + 1] == UInt8(ascii: "\t") else { break scan }
                        prefix += end + 2 - index
                        index = end + 2
                    default:
                        break scan
                    }
                }
                if prefix > maxNesting { return line }
                // On to the next line.
                while index < count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                index += 1
                line += 1
            }
            return nil
        }
    }

    /// Reads one post. `source` is the path shown in messages and stored in `Post.source`
    /// (e.g. `content/posts/a.md`). Throws ``BuildFailure`` (errors and warnings); returns the
    /// post and its warnings.
    /// `contentPath` is the file's path under `content/` (`pages/about.md`): a file under `pages/`,
    /// and a Hugo section page `_index.md`, is a page rather than a post. It defaults to `source`.
    /// `bundle` says whether the file is its folder's post (see ``PageBundle``), named by its
    /// folder; by default, what its name says (a README counting as alone in its folder).
    package static func read(data: Data, source: String, contentPath: String? = nil, bundle: Bool? = nil,
                            timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        try checkSize(data.count, source: source)
        let text = try SourceText.decode(data, path: source)
        let (header, headerWarnings) = try FrontMatterParser.parse(text, path: source)
        let path = contentPath ?? Post.contentPath(ofSource: source)
        var resolver = Resolver(header: header, source: source, contentPath: path,
                                bundle: bundle ?? PageBundle.isBundle(path), timeZone: timeZone, size: data.count)
        resolver.diagnostics = headerWarnings
        let post = resolver.resolve()
        let diagnostics = resolver.diagnostics.sortedForDisplay()
        if diagnostics.hasErrors { throw BuildFailure(diagnostics) }
        return (post!, diagnostics)
    }

    /// Reads the post in the file at `url` (see ``read(data:source:contentPath:bundle:timeZone:)``).
    package static func read(fileAt url: URL, source: String, contentPath: String? = nil, bundle: Bool? = nil,
                            timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        try read(data: contents(of: url, source: source), source: source, contentPath: contentPath, bundle: bundle,
                 timeZone: timeZone)
    }

    /// The bytes of the post file at `url`; throws when it can't be read, or is over ``maxFileSize`` (checked
    /// before it is read).
    package static func contents(of url: URL, source: String) throws -> Data {
        var status = stat()
        if stat(url.path, &status) == 0 { try checkSize(Int(status.st_size), source: source) }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw BuildFailure([.error(source, "cannot read the file: \(reason(error))")])
        }
    }

    /// Throws when a post of `size` bytes is over ``maxFileSize``.
    static func checkSize(_ size: Int, source: String) throws {
        guard size > maxFileSize else { return }
        let megabytes = String(format: "%.1f", Double(size) / Double(1 << 20))
        throw BuildFailure([.error(source, "this post is \(megabytes) MB: a post may be at most \(maxFileSize >> 20) MB; is it a post?")])
    }

    package static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return ns.localizedDescription
    }

    // MARK: - File names

    /// What a post's file name says: `2016-11-25-my-post.md` gives the date 2016-11-25 and the name
    /// `my-post`. A bundle's post is named by its folder (`my-post/index.md`,
    /// `2019-11-04-my-post.textbundle/text.md`), and so is a Hugo section page (`news/_index.md`).
    package struct FileName {
        /// The name without extension and date prefix.
        package var name: String
        /// The name without extension (date prefix kept).
        var stem: String
        /// The date prefix's year, month and day, if any.
        package var datePrefix: (year: Int, month: Int, day: Int)?
        /// A Hugo section page: `_index.md`, named by its folder.
        package var isSectionIndex = false
        /// Its folder's post (see ``PageBundle``), named by its folder.
        var isBundle = false

        package init(source: String, bundle: Bool) {
            var parts = source.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            var last = parts.popLast() ?? source
            if let dot = last.lastIndex(of: "."), dot != last.startIndex { last = String(last[..<dot]) }
            isSectionIndex = last.lowercased() == "_index"
            if bundle || isSectionIndex, let folder = parts.last {
                last = PageBundle.postName(ofFolder: folder)
                isBundle = bundle
            }
            stem = last
            name = last
            // YYYY-M-D- prefix (Jekyll), unpadded month and day allowed.
            let chars = Array(last)
            var i = 0
            func digits(_ min: Int, _ max: Int) -> Int? {
                var value = 0, count = 0
                while i < chars.count, count < max, chars[i].isASCII, let d = chars[i].wholeNumberValue {
                    value = value * 10 + d; count += 1; i += 1
                }
                return count >= min ? value : nil
            }
            if let y = digits(4, 4), i < chars.count, chars[i] == "-" {
                i += 1
                if let m = digits(1, 2), i < chars.count, chars[i] == "-" {
                    i += 1
                    if let d = digits(1, 2), i < chars.count, chars[i] == "-" {
                        i += 1
                        datePrefix = (y, m, d)
                        name = String(chars[i...])
                    }
                }
            }
        }

        /// A title made from the name: `-` and `_` become spaces, first letter upper-cased.
        var title: String {
            var words = (name.isEmpty ? stem : name).map { $0 == "-" || $0 == "_" ? " " : $0 }
            while words.first == " " { words.removeFirst() }
            while words.last == " " { words.removeLast() }
            var text = String(words).split(separator: " ").joined(separator: " ")
            if let first = text.first {
                text = first.uppercased() + text.dropFirst()
            }
            return text
        }
    }

    // MARK: - Resolving fields

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
        var diagnostics: [Diagnostic] = []

        init(header: FrontMatter, source: String, contentPath: String, bundle: Bool, timeZone: TimeZone, size: Int) {
            self.size = size
            self.header = header
            self.source = source
            self.timeZone = timeZone
            self.file = FileName(source: contentPath, bundle: bundle)
            self.contentPath = contentPath
            kind = file.isSectionIndex || contentPath.hasPrefix("pages/") ? .page : .post
        }

        mutating func error(_ field: HeaderField?, _ message: String) {
            diagnostics.append(.error(source, line: field?.line ?? 1, column: field?.column ?? 1, message))
        }

        mutating func warning(_ field: HeaderField?, _ message: String) {
            diagnostics.append(.warning(source, line: field?.line ?? 1, column: field?.column ?? 1, message))
        }

        /// The field, unless absent or null.
        func field(_ key: String) -> HeaderField? {
            guard let f = header.fields[key] else { return nil }
            if case .null = f.value { return nil }
            return f
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
                title = file.title
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
                slug = Slug.isPlainFileName(file.name) ? file.name : Slug.make(file.name)
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
            let termField = ["tags", "categories", "category", "author", "authors"].lazy.compactMap(field).first
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

            var meta: [String: MetaValue] = [:]
            for (key, f) in header.fields { meta[key] = f.value }

            guard !diagnostics.hasErrors else { return nil }
            var post = Post(source: source, title: title, date: parsedDate ?? Date(timeIntervalSince1970: 0),
                            modified: modified, tags: tags, slug: slug, author: author, summary: summary,
                            status: status, meta: meta, body: body, bodyLine: bodyLine)
            post.kind = kind
            post.isBundle = file.isBundle
            post.headerFormat = header.format
            post.contentPath = contentPath
            post.dated = parsedDate != nil
            post.categories = categories
            post.authors = authors
            post.permalink = permalink
            post.saveAs = saveAs
            post.aliases = aliases
            post.lang = lang
            post.html = html
            return post
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

        /// `author`: a name or a list of names; else Pelican's `authors`, names separated by commas.
        mutating func resolveAuthor() -> [String] {
            let f: HeaderField
            if let author = field("author") {
                f = author
            } else if let authors = field("authors") {
                if let text = authors.value.text {  // Pelican's `Authors: Ana, Bea`
                    return text.split(separator: ",").map { String($0).trimmingWhitespaces() }.filter { !$0.isEmpty }
                }
                f = authors
            } else {
                return []
            }
            switch f.value {
            case .list(let items):
                var names: [String] = []
                for item in items {
                    switch item {
                    case .list, .map: error(f, "`author` must be text or a list of names")
                    case .null: continue
                    default:
                        let name = item.text?.trimmingWhitespaces() ?? ""
                        if !name.isEmpty { names.append(name) }
                    }
                }
                return names
            case .map:
                error(f, "`author` must be text or a list of names, not a mapping")
                return []
            default:
                let a = f.value.text?.trimmingWhitespaces() ?? ""
                return a.isEmpty ? [] : [a]
            }
        }

        /// Categories: Jekyll's and Hugo's `categories` (a list, or words separated by spaces), then
        /// `category`; for a Pelican post without one, its folder's name (Pelican's default).
        mutating func resolveCategories() -> [Tag] {
            var names: [String] = []
            if let f = field("categories") {
                if case .list = f.value {
                    names += itemNames(f, key: "categories")
                } else if let text = f.value.text {
                    names += text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                } else {
                    error(f, "`categories` must be a list of names or names separated by spaces, not \(kind(f.value))")
                }
            }
            if let (c, _) = text("category") { names.append(c) }
            if names.isEmpty, header.format == .pelican, kind == .post {
                // The folder under content/, except `posts/` itself, which holds every post and
                // says nothing about this one.
                let folders = contentPath.split(separator: "/").dropLast()
                if let folder = folders.last, folders.count > 1 || folder != "posts" { names.append(String(folder)) }
            }
            return tagList(names, field: field("categories") ?? field("category"), what: "category")
        }

        /// The names of a list field's items; an item that is itself a list or a mapping is an error.
        mutating func itemNames(_ f: HeaderField, key: String) -> [String] {
            guard case .list(let items) = f.value else { return [] }
            var names: [String] = []
            for item in items {
                switch item {
                case .list, .map:
                    error(f, "`\(key)` must be text or a list of names; an item is \(kind(item))")
                case .null:
                    continue
                default:
                    names.append(item.text ?? "")
                }
            }
            return names
        }

        /// Names trimmed, empty ones dropped, repeats (same slug) dropped, order kept. More than
        /// ``PostReader/maxTags`` is an error.
        mutating func tagList(_ names: [String], field f: HeaderField?, what: String) -> [Tag] {
            var tags: [Tag] = []
            var seen: Set<Tag> = []
            for raw in names {
                let name = raw.trimmingWhitespacesAndNewlines()
                if name.isEmpty { continue }
                let tag = Tag(name: name)
                if tag.slug.isEmpty {
                    warning(f, "\(what) \"\(name)\" has no letter or digit to make its URL: ignored")
                    continue
                }
                if seen.insert(tag).inserted { tags.append(tag) }
            }
            if tags.count > PostReader.maxTags {
                error(f, "\(tags.count) \(what == "tag" ? "tags" : "categories"): a post may have at most \(PostReader.maxTags) (each one's page lists the post with all of them, so a site's size grows with the square of their number)")
                return Array(tags.prefix(PostReader.maxTags))
            }
            return tags
        }

        /// A site-relative path from the first of `keys` present: `/2016/about/` -> `2016/about/`.
        /// Jekyll's `:year`, `:month`, `:day`, `:title`/`:slug` and `:categories` are replaced.
        mutating func resolvePath(_ keys: [String], date: Date?, slug: String, categories: [Tag]) -> String? {
            guard let key = keys.first(where: { field($0) != nil }), let (raw, f) = text(key) else { return nil }
            var path = raw.trimmingWhitespaces()
            if path.contains(":") {
                let time = CivilTime(date ?? Date(timeIntervalSince1970: 0), timeZone: timeZone)
                for (placeholder, value) in [(":year", String(format: "%04d", time.year)),
                                             (":month", String(format: "%02d", time.month)),
                                             (":day", String(format: "%02d", time.day)),
                                             (":title", slug), (":slug", slug),
                                             (":categories", categories.map(\.slug).joined(separator: "/"))] {
                    path = path.replacingOccurrences(of: placeholder, with: value)
                }
            }
            guard let clean = SitePath.clean(path) else {
                error(f, "`\(key)` \"\(raw)\" must be a path inside the site such as /about/ (no \"..\", no scheme)")
                return nil
            }
            return clean
        }

        /// Hugo's `aliases` and Jekyll's `redirect_from`: old URLs that redirect to the post.
        mutating func resolveAliases() -> [String] {
            var paths: [String] = []
            for key in ["aliases", "redirect_from"] {
                guard let f = field(key) else { continue }
                let items: [String]
                if case .list = f.value { items = itemNames(f, key: key) } else { items = f.value.text.map { [$0] } ?? [] }
                for item in items {
                    if let clean = SitePath.clean(item), !clean.isEmpty {
                        if !paths.contains(clean) { paths.append(clean) }
                    } else {
                        warning(f, "`\(key)`: \"\(item)\" is not a path inside the site such as /old-name/: no redirect made for it")
                    }
                }
            }
            return paths
        }

        /// The date of the first of `keys` present. Without one, a required date comes from the file
        /// name's `YYYY-MM-DD-` prefix, else is missing: a warning, and nil.
        mutating func resolveDate(_ keys: [String], required: Bool) -> Date? {
            guard let key = keys.first(where: { field($0) != nil }), let f = field(key) else {
                guard required else { return nil }
                if let (y, m, d) = file.datePrefix {
                    do {
                        let text = String(format: "%04d-%02d-%02d", y, m, d)
                        return try DateParser.parse(text, timeZone: timeZone).date
                    } catch let failure as DateParser.Failure {
                        error(nil, "date in the file name: \(failure.message)")
                        return nil
                    } catch {
                        return nil
                    }
                }
                warning(nil, "missing date: the post is listed after every dated post and shows no date; add a `date: YYYY-MM-DD` header line")
                return nil
            }
            switch f.value {
            case .date(let d):
                do {
                    return try DateParser.inYears(d, timeZone: timeZone, text: f.value.text ?? "")
                } catch {
                    self.error(f, "`\(key)`: \(error)")
                    return nil
                }
            case .string, .int, .double:
                let text = f.value.text ?? ""
                do {
                    let parsed = try DateParser.parse(text, timeZone: timeZone)
                    if parsed.ambiguous { warning(f, DateParser.ambiguityMessage(text)) }
                    if parsed.repeatedYear {
                        warning(f, "`\(key)` \"\(text)\" has the year twice, before the offset: read as \(DateText.iso8601(parsed.date, timeZone: timeZone)); remove the second year")
                    }
                    return parsed.date
                } catch let failure as DateParser.Failure {
                    error(f, "`\(key)`: \(failure.message)")
                } catch {
                    self.error(f, "`\(key)`: \(error)")
                }
                return nil
            default:
                error(f, "`\(key)` must be a date such as 2016-11-25, not \(kind(f.value))")
                return nil
            }
        }

        /// Tags: a list, or text split on `;` when it has one, else on `,`. A list holding one text
        /// with commas (`tags = ["go, docker"]`, a common TOML slip) is split, with a warning.
        mutating func resolveTags() -> [Tag] {
            guard let f = field("tags") else { return [] }
            var names: [String] = []
            switch f.value {
            case .list:
                names = itemNames(f, key: "tags")
                if names.count == 1, names[0].contains(",") {
                    let parts = names[0].split(separator: ",").map { $0.trimmingWhitespaces() }.filter { !$0.isEmpty }
                    warning(f, "`tags` is a list holding one text with commas: read as \(parts.count) tags (\(parts.joined(separator: ", "))); write one item per tag")
                    names = parts
                }
            case .map:
                error(f, "`tags` must be text or a list of tag names, not a mapping")
            default:
                let text = f.value.text ?? ""
                let separator: Character = text.contains(";") ? ";" : ","
                names = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            }
            return tagList(names, field: f, what: "tag")
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

extension DateParser {
    /// `ambiguous date "03/04/2017": read as day/month (3 April 2017); write 2017-04-03 to be explicit`.
    static func ambiguityMessage(_ text: String) -> String {
        let trimmed = text.trimmingWhitespacesAndNewlines()
        let numbers = trimmed.split(whereSeparator: { !$0.isNumber }).prefix(3).compactMap { Int($0) }
        guard numbers.count == 3 else { return "ambiguous date \"\(trimmed)\": read as day/month" }
        let (day, month, year) = (numbers[0], numbers[1], numbers[2])
        let iso = String(format: "%04d-%02d-%02d", year, month, day)
        return "ambiguous date \"\(trimmed)\": read as day/month (\(day) \(monthNames[month - 1]) \(year)); write \(iso) to be explicit"
    }
}
