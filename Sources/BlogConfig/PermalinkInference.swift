import BlogCore
import Foundation

/// The URL patterns a blog's own internal links tell: a link whose last segment is a post's or a
/// page's slug (`/blog/flask.html`, the post `flask`) votes for the pattern it was written with
/// (`post: "blog/{slug}.html"`), a segment that is the post's year, month or day written as
/// `{year}`, `{month}`, `{day}`. The pattern most links vote for wins, for posts and pages apart.
/// `blog init --from` asks it about a blog without a settings file; `blog check` about the links
/// it found broken.
package struct PermalinkInference {
    /// A post or page a link can point at.
    package struct Target: Sendable {
        /// `post` or `page`: the `permalinks` key that places it.
        package var key: String
        /// The slugs its URL can be written with (as placed, and as written in its header).
        package var slugs: [String]
        /// Its date's year (4 digits), month and day (2 digits each); empty when it has none.
        package var year: String
        package var month: String
        package var day: String

        package init(key: String, slugs: [String], year: String = "", month: String = "", day: String = "") {
            self.key = key
            self.slugs = slugs
            self.year = year
            self.month = month
            self.day = day
        }

        /// A post (`page` false) or page with its date's day in `timeZone` (none for nil).
        package init(page: Bool, slugs: [String], date: Date?, timeZone: TimeZone) {
            self.init(key: page ? "page" : "post", slugs: slugs)
            guard let date else { return }
            let civil = CivilTime(date, timeZone: timeZone)
            (year, month, day) = (DateText.padded(civil.year, 4), DateText.padded(civil.month, 2), DateText.padded(civil.day, 2))
        }
    }

    /// The pattern most links voted for, for one key.
    package struct Proposal: Sendable, Equatable {
        /// `post` or `page`.
        package var key: String
        /// As blog.yml writes it (`blog/{slug}.html`).
        package var pattern: String
        /// How many links it explains.
        package var links: Int
        /// One of them, as written.
        package var example: String
    }

    /// Targets by slug (lower-cased).
    private var targets: [String: [Target]] = [:]
    /// Key -> pattern -> (votes, first link).
    private var votes: [String: [String: (count: Int, example: String)]] = [:]

    package init(_ targets: [Target]) {
        for target in targets {
            for slug in Set(target.slugs.map { $0.lowercased() }) where !slug.isEmpty {
                self.targets[slug, default: []].append(target)
            }
        }
    }

    /// Counts the link `link` (as written; only a path from the site's root, `/…`, is read), with
    /// `path` its site path without the base path when it was resolved (`blog/flask.html`).
    package mutating func add(_ link: String, path: String? = nil) {
        var path = path ?? ""
        if path.isEmpty {
            // A relative link says nothing without its page's URL, which is what is looked for.
            guard link.hasPrefix("/"), !link.hasPrefix("//") else { return }
            path = String(link.dropFirst())
        }
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        path = WebText.decodePath(path)
        guard let (prefix, stem, suffix) = Self.split(path) else { return }
        guard let found = targets[stem.lowercased()] else { return }
        // A slug that is both a post's and a page's says nothing of which pattern is whose.
        guard Set(found.map(\.key)).count == 1, let target = found.first else { return }
        var segments: [String] = []
        var dates = [("{year}", target.year), ("{month}", target.month), ("{day}", target.day)][...]
        for segment in prefix {
            if let next = dates.first, !next.1.isEmpty, segment == next.1 {
                segments.append(next.0)
                dates = dates.dropFirst()
            } else {
                guard PathSafety.isSafeSegment(segment), !segment.contains("{"), !segment.contains("}") else { return }
                segments.append(segment)
            }
        }
        let pattern = Permalinks.normalize((segments + ["{slug}" + suffix]).joined(separator: "/"))
        guard Permalinks.problem(in: pattern, allowed: ["slug", "year", "month", "day"]) == nil else { return }
        var tally = votes[target.key, default: [:]][pattern] ?? (0, link)
        tally.count += 1
        votes[target.key, default: [:]][pattern] = tally
    }

    /// The pattern with the most votes for each key (at least two), `page` before `post`; a tie
    /// goes to the shorter pattern, then the first in order.
    package func proposals() -> [Proposal] {
        votes.keys.sorted().compactMap { key in
            let best = votes[key]!.max { a, b in
                a.value.count != b.value.count ? a.value.count < b.value.count
                    : a.key.count != b.key.count ? a.key.count > b.key.count : a.key > b.key
            }
            guard let best, best.value.count >= 2 else { return nil }
            return Proposal(key: key, pattern: best.key, links: best.value.count, example: best.value.example)
        }
    }

    /// `blog/flask.html` -> (["blog"], "flask", ".html"); `x/flask/`, `x/flask/index.html` and `x/flask`
    /// -> (["x"], "flask", "/"). Nil for an empty path or an empty segment.
    static func split(_ path: String) -> (prefix: [String], stem: String, suffix: String)? {
        var path = path
        var suffix = ""
        if path.hasSuffix("/index.html") || path == "index.html" {
            path.removeLast("index.html".count)
        }
        if path.hasSuffix("/") {
            path.removeLast()
            suffix = "/"
        }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard var last = segments.popLast(), !last.isEmpty, !segments.contains(where: \.isEmpty) else { return nil }
        if suffix.isEmpty {
            if last.hasSuffix(".html") {
                last.removeLast(".html".count)
                suffix = ".html"
            } else {
                suffix = "/"  // servers answer `/x` with the folder's `/x/`
            }
        }
        return last.isEmpty ? nil : (segments, last, suffix)
    }
}
