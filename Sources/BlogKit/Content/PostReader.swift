import Foundation

/// Reads one post file into a ``Post``: text checked and normalised, header split and resolved
/// (title, date, tags, slug, status...), every problem reported with its file, line and column.
public enum PostReader {
    /// Reads one post. `source` is the path shown in messages and stored in `Post.source`
    /// (e.g. `content/posts/a.md`). Throws ``BuildFailure`` (errors and warnings); returns the
    /// post and its warnings.
    public static func read(data: Data, source: String, timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        let text = try SourceText.decode(data, path: source)
        let (header, headerWarnings) = try FrontMatterParser.parse(text, path: source)
        var resolver = Resolver(header: header, source: source, timeZone: timeZone)
        resolver.diagnostics = headerWarnings
        let post = resolver.resolve()
        let diagnostics = resolver.diagnostics.sortedForDisplay()
        if diagnostics.hasErrors { throw BuildFailure(diagnostics) }
        return (post!, diagnostics)
    }

    /// Reads the post in the file at `url` (see ``read(data:source:timeZone:)``).
    public static func read(fileAt url: URL, source: String, timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BuildFailure([.error(source, "cannot read the file: \(reason(error))")])
        }
        return try read(data: data, source: source, timeZone: timeZone)
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return ns.localizedDescription
    }

    // MARK: - File names

    /// What a post's file name says: `2016-11-25-my-post.md` gives the date 2016-11-25 and the name
    /// `my-post`. A page bundle's `index.md` is named by its folder (`my-post/index.md`).
    struct FileName {
        /// The name without extension and date prefix.
        var name: String
        /// The name without extension (date prefix kept).
        var stem: String
        /// The date prefix's year, month and day, if any.
        var datePrefix: (year: Int, month: Int, day: Int)?

        init(source: String) {
            var parts = source.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            var last = parts.popLast() ?? source
            if let dot = last.lastIndex(of: "."), dot != last.startIndex { last = String(last[..<dot]) }
            if last.lowercased() == "index", let folder = parts.last { last = folder }
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
        var diagnostics: [Diagnostic] = []

        init(header: FrontMatter, source: String, timeZone: TimeZone) {
            self.header = header
            self.source = source
            self.timeZone = timeZone
            self.file = FileName(source: source)
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
                title = t.trimmingCharacters(in: .whitespacesAndNewlines)
                titleField = f
            }
            let titleFromHeader = !title.isEmpty
            if !titleFromHeader {
                title = file.title
                warning(titleField, "missing title: using \"\(title)\" from the file name")
            }

            // Dates.
            let date = resolveDate("date", required: true)
            let modified = resolveDate("modified", required: false)

            // Slug.
            var slug = ""
            if let (s, f) = text("slug") {
                let s = s.trimmingCharacters(in: .whitespaces)
                if !s.isEmpty {
                    if Slug.isSafe(s) {
                        slug = s
                    } else {
                        error(f, "unsafe slug \"\(s)\": a slug is one URL segment without \"/\" or \"..\"")
                        slug = "-"  // don't add an "empty slug" error on top
                    }
                }
            }
            if slug.isEmpty, titleFromHeader { slug = Slug.make(title) }
            if slug.isEmpty { slug = Slug.make(file.name) }
            if slug.isEmpty { slug = Slug.make(file.stem) }
            if slug.isEmpty {
                error(field("slug") ?? titleField, "empty slug: neither the title nor the file name has a letter or digit; add a `slug:` header line")
            }

            // Tags and category.
            let tags = resolveTags()
            var category: Tag?
            if let (c, f) = text("category") {
                let name = c.trimmingCharacters(in: .whitespaces)
                if !name.isEmpty {
                    let tag = Tag(name: name)
                    if tag.slug.isEmpty {
                        warning(f, "category \"\(name)\" has no letter or digit to make its URL: ignored")
                    } else {
                        category = tag
                    }
                }
            }

            // Author.
            var author: String?
            if let f = field("author") {
                switch f.value {
                case .list(let items):
                    var names: [String] = []
                    for item in items {
                        switch item {
                        case .list, .map: error(f, "`author` must be text or a list of names")
                        case .null: continue
                        default:
                            let name = item.text?.trimmingCharacters(in: .whitespaces) ?? ""
                            if !name.isEmpty { names.append(name) }
                        }
                    }
                    author = names.isEmpty ? nil : names.joined(separator: ", ")
                case .map:
                    error(f, "`author` must be text or a list of names, not a mapping")
                default:
                    let a = f.value.text?.trimmingCharacters(in: .whitespaces) ?? ""
                    author = a.isEmpty ? nil : a
                }
            }

            // Summary.
            var summary: String?
            if let (s, _) = text("summary") {
                summary = s.isEmpty ? nil : s
            }

            // Status and draft.
            var status = PostStatus.published
            if let (s, f) = text("status") {
                let word = s.trimmingCharacters(in: .whitespaces).lowercased()
                if let known = PostStatus(rawValue: word) {
                    status = known
                } else {
                    error(f, "unknown status \"\(s)\": use published, draft or hidden")
                }
            }
            if let f = field("draft") {
                switch f.value {
                case .bool(let b):
                    if b { status = .draft }
                case .string(let s) where ["true", "false"].contains(s.trimmingCharacters(in: .whitespaces).lowercased()):
                    if s.trimmingCharacters(in: .whitespaces).lowercased() == "true" { status = .draft }
                default:
                    error(f, "`draft` must be true or false")
                }
            }

            var meta: [String: MetaValue] = [:]
            for (key, f) in header.fields { meta[key] = f.value }

            guard !diagnostics.hasErrors, let date else { return nil }
            return Post(source: source, title: title, date: date, modified: modified, tags: tags, category: category,
                        slug: slug, author: author, summary: summary, status: status, meta: meta,
                        body: header.body, bodyLine: header.bodyLine)
        }

        mutating func resolveDate(_ key: String, required: Bool) -> Date? {
            guard let f = field(key) else {
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
                error(nil, "missing date: add a `date: YYYY-MM-DD` header line")
                return nil
            }
            switch f.value {
            case .date(let d):
                return d
            case .string, .int, .double:
                let text = f.value.text ?? ""
                do {
                    let parsed = try DateParser.parse(text, timeZone: timeZone)
                    if parsed.ambiguous { warning(f, DateParser.ambiguityMessage(text)) }
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

        /// Tags: a list, or text split on `;` when it has one, else on `,`. Items trimmed, empty
        /// ones dropped, repeats (same slug) dropped, order kept.
        mutating func resolveTags() -> [Tag] {
            guard let f = field("tags") else { return [] }
            var names: [String] = []
            switch f.value {
            case .list(let items):
                for item in items {
                    switch item {
                    case .list, .map:
                        error(f, "`tags` must be text or a list of tag names; an item is \(kind(item))")
                    case .null:
                        continue
                    default:
                        names.append(item.text ?? "")
                    }
                }
            case .map:
                error(f, "`tags` must be text or a list of tag names, not a mapping")
            default:
                let text = f.value.text ?? ""
                let separator: Character = text.contains(";") ? ";" : ","
                names = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            }
            var tags: [Tag] = []
            for raw in names {
                let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                if name.isEmpty { continue }
                let tag = Tag(name: name)
                if tag.slug.isEmpty {
                    warning(f, "tag \"\(name)\" has no letter or digit to make its URL: ignored")
                    continue
                }
                if !tags.contains(tag) { tags.append(tag) }
            }
            return tags
        }
    }
}

extension DateParser {
    /// `ambiguous date "03/04/2017": read as day/month (3 April 2017); write 2017-04-03 to be explicit`.
    static func ambiguityMessage(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let numbers = trimmed.split(whereSeparator: { !$0.isNumber }).prefix(3).compactMap { Int($0) }
        guard numbers.count == 3 else { return "ambiguous date \"\(trimmed)\": read as day/month" }
        let (day, month, year) = (numbers[0], numbers[1], numbers[2])
        let iso = String(format: "%04d-%02d-%02d", year, month, day)
        return "ambiguous date \"\(trimmed)\": read as day/month (\(day) \(monthNames[month - 1]) \(year)); write \(iso) to be explicit"
    }
}
