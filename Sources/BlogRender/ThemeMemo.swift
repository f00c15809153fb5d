import BlogCore
import Foundation

/// The theme `blog serve` loaded, kept for its next build while none of the theme's files changed: loading parses and
/// compiles every template again (6% of the instructions of a title edit at 1,000 posts), and a post edited changes no
/// template. What the theme is made of is its folders' listing (``Theme/listing(name:siteRoot:)``: the theme's
/// `templates/`, `static/` and `shortcodes/`, and the blog's `shortcodes/`, listed once a build and loaded from when
/// the theme is not the one kept) with each file's identity, size and times; the default theme's files in the binary
/// do not change.
package final class ThemeMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: (key: [String], theme: Theme)?
    /// How many times a theme was loaded rather than kept.
    private(set) var loads = 0

    package init() {}

    /// The theme `name` of the blog at `siteRoot`: the one kept when its files are as they were, else loaded (and
    /// kept when no file of it changed in the clock's last tick, which the files' times could not tell apart).
    package func theme(name: String, siteRoot: URL) throws -> Theme {
        let started = FileTimes.now()
        // Listed once: for the key, and for loading when the key is not the one kept.
        let listing = try Theme.listing(name: name, siteRoot: siteRoot)
        let key = Self.key(name: name, siteRoot: siteRoot, listing: listing, before: started)
        if let key, let kept = lock.withLock({ kept }), kept.key == key { return kept.theme }
        let theme = try Theme.load(name: name, siteRoot: siteRoot, listing: listing)
        lock.withLock {
            kept = key.map { ($0, theme) }
            loads += 1
        }
        return theme
    }

    /// What the theme is loaded from, as text: each folder ``Theme/load(name:siteRoot:)`` lists (`listing`), whether
    /// it is there, its files (as named, where they really are, and their state) and the walk's messages; nil when a
    /// file changed at or after `before` (nanoseconds since 1970, the coarse clock that dates changes).
    static func key(name: String, siteRoot: URL, listing: Theme.Listing, before: Int64) -> [String]? {
        var key = [name, siteRoot.path]
        for found in listing {
            key.append(found.files == nil ? found.part + ": none" : found.part)
            key += found.warnings.map(\.description)
            for (path, real) in (found.files ?? [:]).sorted(by: { $0.key < $1.key }) {
                var info = stat()
                guard stat(real.path, &info) == 0 else { return nil }
                let ctime = FileTimes.changed(info), mtime = FileTimes.modified(info)
                guard ctime < before, mtime < before else { return nil }
                key.append("\(path)\t\(real.path)\t\(info.st_dev) \(info.st_ino) \(info.st_size) \(mtime) \(ctime)")
            }
        }
        return key
    }
}
