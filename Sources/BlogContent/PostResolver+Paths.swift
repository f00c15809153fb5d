import BlogCore
import Foundation

// The post's own URL and output file (`url`, `save_as`, `permalink`), and its old URLs.

extension PostReader.Resolver {
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
}
