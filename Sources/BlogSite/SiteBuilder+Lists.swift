import BlogConfig
import BlogContent
import BlogCore
import Foundation

// The lists of posts: archives by year and month, and pages of a list.

extension SiteBuilder {
    /// Listed posts by year and month in the site's time zone, newest first.
    static func archiveYears(_ posts: [SitePost], listed: [Int], timeZone: TimeZone) -> [ArchiveYear] {
        var years: [ArchiveYear] = []
        for index in listed {  // newest first already
            let fields = CivilTime(posts[index].post.date, timeZone: timeZone)
            if years.last?.year != fields.year {
                years.append(ArchiveYear(year: fields.year, months: []))
            }
            if years[years.count - 1].months.last?.month != fields.month {
                years[years.count - 1].months.append(ArchiveMonth(month: fields.month, posts: []))
            }
            let y = years.count - 1, m = years[y].months.count - 1
            years[y].months[m].posts.append(index)
        }
        return years
    }

    /// The URL of page `number` of a list whose first page is at `first`: `first` itself for page 1;
    /// then `page/N/` in its folder (`.folders`), `pageN/` (`.numberedFolders`), or its file
    /// with the number before the extension, `index2.html`, `tag/swift2.html` (`.numberedFiles`).
    static func listPageURL(_ first: String, _ number: Int, style: ListPages) -> String {
        guard number > 1 else { return first }
        switch style {
        case .folders: return "\(first)page/\(number)/"
        case .numberedFolders: return "\(first)page\(number)/"
        case .numberedFiles:
            if first.isEmpty || first.hasSuffix("/") { return "\(first)index\(number).html" }
            // Substrings share `first`'s indices: the last `.` of the last segment.
            let name = first.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            guard let dot = name.lastIndex(of: ".") else { return "\(first)\(number)" }
            return "\(first[..<dot])\(number)\(first[dot...])"
        }
    }

    /// Splits a list into pages; page 1 lives at `firstURL`, page N at ``listPageURL(_:_:style:)``.
    /// An empty list still has one (empty) page.
    static func paginate(_ items: [Int], perPage: Int, firstURL: String, style: ListPages = .folders) -> [Pagination] {
        let size = max(1, perPage)
        let count = max(1, (items.count + size - 1) / size)
        func url(_ n: Int) -> String { listPageURL(firstURL, n, style: style) }
        return (1...count).map { n in
            let start = (n - 1) * size
            let slice = Array(items[min(start, items.count)..<min(start + size, items.count)])
            return Pagination(number: n, count: count, posts: slice,
                              newerURL: n > 1 ? url(n - 1) : nil,
                              olderURL: n < count ? url(n + 1) : nil)
        }
    }
}
