import BlogConfig
import BlogContent
import BlogCore
import Foundation

// Where each post goes: its URL and output file, from its header or a permalink pattern.

extension SiteBuilder {
    /// A post's URL and output file: the header's `save_as` and `permalink`/`url` when given; a
    /// Hugo section page (`news/_index.md`) at its folder's URL; a page from `permalinks.page`; a
    /// post from `permalinks.post`. A post in another language than the site's goes under `<lang>/`.
    static func placement(of post: Post, config: SiteConfig) -> (url: String, outputPath: String) {
        if let saveAs = post.saveAs {
            return (post.permalink ?? saveAs, outputPath(for: saveAs))
        }
        if let permalink = post.permalink { return (permalink, outputPath(for: permalink)) }
        let permalinks = config.permalinks
        var url: String
        let otherLanguage = post.lang.flatMap { sameLanguage($0, config.language) ? nil : Slug.make($0) }
        let sectionIndex = post.kind == .page && isSectionIndex(post.contentPath)
        // Pelican's `{slug}-{lang}.html`; else the usual URL under `<lang>/`.
        let languagePattern = otherLanguage == nil || sectionIndex ? nil : post.kind == .page ? permalinks.pageInLanguage : permalinks.postInLanguage
        if sectionIndex {
            url = post.contentPath.folderPart + "/"
        } else if post.status == .draft, let draft = post.kind == .page ? permalinks.draftPage : permalinks.draft {
            url = fill(draft, post, config: config)
        } else if let languagePattern, let otherLanguage {
            url = fill(languagePattern, post, config: config).replacingOccurrences(of: "{lang}", with: otherLanguage)
        } else {
            url = fill(post.kind == .page ? permalinks.page : permalinks.post, post, config: config)
        }
        if permalinks.lowercase { url = url.lowercased() }
        if let otherLanguage, languagePattern == nil { url = otherLanguage + "/" + url }
        return (url, outputPath(for: url))
    }

    /// The post's folder under content/ for `{folder}` (Hugo's section path): the folder of its
    /// file, or of its bundle's folder; `""` at the top.
    static func folder(of post: Post) -> String {
        folder(contentPath: post.contentPath, isBundle: post.isBundle)
    }

    /// ``folder(of:)`` of a post with these fields.
    static func folder(contentPath: String, isBundle: Bool) -> String {
        var folder = contentPath.folderPart
        if isBundle { folder = folder.folderPart }
        return folder
    }

    /// Whether `path` (under content/) is a Hugo section page, `_index.md`.
    package static func isSectionIndex(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return name.hasPrefix("_index.")
    }

    /// A permalink pattern filled in for `post` (`posts/{slug}/`). A placeholder that is empty
    /// (`{folder}` at the top of content/, `{categories}` of a post without any) takes its `/` with
    /// it, as Jekyll and Hugo leave no empty segment.
    static func fill(_ pattern: String, _ post: Post, config: SiteConfig) -> String {
        guard ByteSearch.contains(pattern, "{") else { return pattern }
        // Each value made only when its placeholder is there (all of them where a value could make another); no
        // closure passed on (each held a copy of the post and of the configuration: 20 k instructions a post).
        var values = [String](repeating: "", count: placeholders.count)
        var made = 0
        var fields: CivilTime?
        func make(_ wanted: Int) {
            for index in values.indices where wanted & 1 << index != 0 && made & 1 << index == 0 {
                if index < 3, fields == nil { fields = CivilTime(post.date, timeZone: config.timeZone(writtenOffset: post.writtenOffset)) }
                switch index {
                case 0: values[0] = DateText.padded(fields!.year, 4)
                case 1: values[1] = DateText.padded(fields!.month, 2)
                case 2: values[2] = DateText.padded(fields!.day, 2)
                case 3: values[3] = config.permalinks.asciiSlugs ? post.asciiSlug : post.slug
                case 4: values[4] = terms(.category, of: post, config: config).first?.slug.nilIfEmpty ?? "uncategorized"
                case 5: values[5] = jekyllCategories(post)
                default: values[6] = folder(of: post)
                }
            }
            made |= wanted
        }
        if let found = placeholdersOf(pattern) {
            make(found)
            if let filled = filledInOnePass(pattern, values) { return filled }
        }
        make(1 << placeholders.count - 1)
        return filledInTurn(pattern, values)
    }

    /// The placeholders `pattern` has, a bit each (`1 << i` for ``placeholders```[i]`); nil when a `{` of it starts
    /// none.
    static func placeholdersOf(_ pattern: String) -> Int? {
        var pattern = pattern
        return pattern.withUTF8 { bytes -> Int? in
            var found = 0
            for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "{") {
                let rest = UnsafeBufferPointer(rebasing: bytes[offset...])
                guard let index = placeholderBytes.firstIndex(where: { rest.starts(with: $0) }) else { return nil }
                found |= 1 << index
            }
            return found
        }
    }

    /// `pattern` with each placeholder replaced by its value (`values[i]` for ``placeholders```[i]`), in one walk
    /// over its bytes: seven searches of the pattern and a new string per placeholder cost 5 k instructions a post.
    /// Nil when a `{` of the pattern starts no placeholder or a value it takes has a `{`: there replacing each
    /// placeholder in turn (``filledInTurn(_:_:)``) could make another one.
    static func filledInOnePass(_ pattern: String, _ values: [String]) -> String? {
        var pattern = pattern
        return pattern.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 64)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "{") else {
                    out.append(bytes[index])
                    index += 1
                    continue
                }
                let rest = UnsafeBufferPointer(rebasing: bytes[index...])
                guard let placeholder = placeholderBytes.firstIndex(where: { rest.starts(with: $0) }) else { return nil }
                var text = values[placeholder]
                let taken = text.withUTF8 { value -> Bool in
                    guard !value.contains(UInt8(ascii: "{")) else { return false }
                    out.append(contentsOf: value)
                    return true
                }
                guard taken else { return nil }
                index += placeholderBytes[placeholder].count
                if text.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `pattern` with each placeholder (``placeholders``, in their order) replaced in turn by its value, when its
    /// placeholder is there: what ``filledInOnePass(_:_:)`` gives when it can. A placeholder that is empty takes its
    /// `/` with it.
    static func filledInTurn(_ pattern: String, _ values: [String]) -> String {
        var url = pattern
        for (index, placeholder) in placeholders.enumerated() where ByteSearch.contains(url, placeholder) {
            if values[index].isEmpty { url = ByteSearch.replacing(placeholder + "/", with: "", in: url) }
            url = ByteSearch.replacing(placeholder, with: values[index], in: url)
        }
        return url
    }

    /// The placeholders of a post's permalink pattern, in the order ``fill(_:_:config:)`` fills them.
    static let placeholders = ["{year}", "{month}", "{day}", "{slug}", "{category}", "{categories}", "{folder}"]

    /// ``placeholders``' bytes.
    private static let placeholderBytes = placeholders.map { Array($0.utf8) }

    /// Jekyll's `:categories`: the post's categories, lower-cased, repeats dropped, joined by `/`.
    /// A name that is not one safe URL segment (a `/`, `..`) is slugged instead; spaces are kept, as Jekyll keeps them.
    static func jekyllCategories(_ post: Post) -> String {
        var seen = Set<String>()
        return post.categories.compactMap { category -> String? in
            var name = category.name.lowercased()
            if !PathSafety.isSafeSegment(name) { name = category.slug }
            return name.isEmpty || !seen.insert(name).inserted ? nil : name
        }.joined(separator: "/")
    }

    /// `posts/x/` -> `posts/x/index.html`; a URL ending in `.html` is its own file.
    static func outputPath(for url: String) -> String {
        if url.isEmpty { return "index.html" }
        return url.hasSuffix("/") ? url + "index.html" : url
    }
}
