import BlogCore
import Foundation

// Tags, categories and authors.

extension PostReader.Resolver {
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
        tags.reserveCapacity(names.count)
        // A post's few tags are compared with each other; a set only for many (hashing each cost 1.3 k instructions).
        var seen: Set<Tag>? = names.count > 16 ? [] : nil
        for raw in names {
            let name = raw.trimmingWhitespacesAndNewlines()
            if name.isEmpty { continue }
            let tag = Tag(name: name)
            if tag.slug.isEmpty {
                warning(f, "\(what) \"\(name)\" has no letter or digit to make its URL: ignored")
                continue
            }
            if seen?.insert(tag).inserted ?? !tags.contains(tag) { tags.append(tag) }
        }
        if tags.count > PostReader.maxTags {
            error(f, "\(tags.count) \(what == "tag" ? "tags" : "categories"): a post may have at most \(PostReader.maxTags) (each one's page lists the post with all of them, so a site's size grows with the square of their number)")
            return Array(tags.prefix(PostReader.maxTags))
        }
        return tags
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
            // A text whose characters are its bytes (nearly all) is split on its bytes.
            let plain = text.charactersAreBytes
            if plain {
                let separator = text.utf8.contains(UInt8(ascii: ";")) ? UInt8(ascii: ";") : UInt8(ascii: ",")
                names = SourceText.split(text, at: separator)
            } else {
                let separator: Character = text.contains(";") ? ";" : ","
                names = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            }
        }
        return tagList(names, field: f, what: "tag")
    }
}
