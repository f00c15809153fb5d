import BlogContent
import BlogCore
import Foundation

/// The posts of a site as `blog list` shows them: a table for people, JSON for programs.
public struct PostListing: Sendable {
    /// One post.
    package struct Entry: Sendable, Equatable {
        /// `post` or `page`.
        var kind: String
        var title: String
        /// ISO 8601 with the site's offset; nil for an undated post or page.
        var date: String?
        /// Display names.
        var tags: [String]
        /// The first category.
        var category: String?
        /// Every category.
        var categories: [String]
        /// The language the header names.
        var lang: String?
        var slug: String
        /// Site-relative URL with the base path (`/posts/x/`).
        package var url: String
        /// The file it came from.
        var source: String
        var draft: Bool
    }

    /// Newest first.
    var entries: [Entry]
    /// The drafts and future posts the site leaves out.
    var leftOut: LeftOut

    /// The listing of every post with a page in `site`.
    package init(site: Site) {
        let base = site.config.basePath
        leftOut = site.leftOut
        entries = site.posts.map { item in
            Entry(kind: item.post.kind.rawValue, title: item.post.title,
                  date: item.post.dated ? DateText.iso8601(item.post.date, timeZone: site.config.timeZone(writtenOffset: item.post.writtenOffset)) : nil,
                  tags: item.post.tags.map(\.name), category: item.post.category?.name,
                  categories: item.post.categories.map(\.name), lang: item.post.lang, slug: item.post.slug,
                  url: base + item.url, source: item.post.source, draft: item.post.status == .draft)
        }
    }

    /// A JSON array of objects with `kind`, `title`, `date` (null when undated), `tags`,
    /// `category`, `categories`, `lang`, `slug`, `url`, `source`, `draft`.
    public func json() -> String {
        func orNull(_ value: String?) -> Any { value.map { $0 as Any } ?? NSNull() }
        let objects: [[String: Any]] = entries.map { entry in
            ["kind": entry.kind, "title": entry.title, "date": orNull(entry.date), "tags": entry.tags,
             "category": orNull(entry.category), "categories": entry.categories, "lang": orNull(entry.lang),
             "slug": entry.slug, "url": entry.url, "source": entry.source, "draft": entry.draft]
        }
        let data = try! JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// Aligned columns: date, title, tags, URL; drafts marked; a last line counting posts and pages apart,
    /// and the drafts and future posts left out (`2 posts (1 draft not shown: --drafts), 1 page`).
    public func table() -> String {
        let rows = entries.map { entry in
            [entry.date.map { String($0.prefix(10)) } ?? (entry.kind == "page" ? "page" : "undated"),
             (entry.draft ? "[draft] " : "") + entry.title, entry.tags.joined(separator: ", "), entry.url]
        }
        let header = ["DATE", "TITLE", "TAGS", "URL"]
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }
        let pages = entries.filter { $0.kind == "page" }.count
        return ([header] + rows).map(line).joined() + Count.of(entries.count - pages, "post")
            + (leftOut.note().map { " (\($0))" } ?? "") + ", " + Count.of(pages, "page") + "\n"
    }
}
