import BlogContent
import BlogCore
import Foundation

/// Posts of one `series:` header, oldest first.
package struct SeriesGroup: Sendable {
    /// The name as first written.
    package var name: String
    /// Indices into ``Site/posts``, oldest first (ties: the site's order reversed).
    package var posts: [Int]
}

extension Site {
    /// The series a post belongs to, and its 1-based place in it; nil for a post in none.
    package func series(of index: Int) -> (group: SeriesGroup, number: Int)? {
        guard let group = seriesOf[index] else { return nil }
        let series = self.series[group]
        return (series, series.posts.firstIndex(of: index)! + 1)
    }
}

extension SiteBuilder {
    /// The name of `post`'s series: its `series` header, a text or the first of a list (Hugo's
    /// `series` taxonomy is a list); nil without one.
    static func seriesName(of post: Post) -> String? {
        let value: MetaValue?
        switch post.meta["series"] {
        case .list(let items): value = items.first
        case let other: value = other
        }
        guard let name = value?.text?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        return name
    }

    /// The series of the listed posts (a series' name compared by its slug, spelled as its oldest
    /// post does), in the order of their oldest post, and the series of each post in one.
    static func series(posts: [SitePost], listed: [Int]) -> (series: [SeriesGroup], of: [Int: Int]) {
        var groups: [SeriesGroup] = []
        var bySlug: [String: Int] = [:]
        var of: [Int: Int] = [:]
        // Oldest first: a series reads in that order, and its first part's spelling names it.
        for index in listed.reversed() where posts[index].post.kind == .post {
            guard let name = seriesName(of: posts[index].post) else { continue }
            let slug = Slug.make(name)
            let group = bySlug[slug] ?? {
                groups.append(SeriesGroup(name: name, posts: []))
                bySlug[slug] = groups.count - 1
                return groups.count - 1
            }()
            groups[group].posts.append(index)
            of[index] = group
        }
        return (groups, of)
    }

    /// How many posts of each shared tag nearest in date to a post are weighed as related to it, on
    /// each side: a tag on every post of a 10,000-post blog then costs `2 × relatedWindow` posts per post, not 10,000.
    static let relatedWindow = 50

    /// Up to `limit` related posts of each post of `posts`, as indices into it: the listed posts
    /// (never the post itself) that share the most of its tags, then its category, then are
    /// nearest to it in date, then newer. Only posts that share a tag or the category are related; they
    /// are found through an index of the listed posts by tag and by category, in each of which
    /// only the ``relatedWindow`` nearest in date on each side are weighed: the cost grows with
    /// the number of posts, not with its square.
    static func related(posts: [SitePost], listed: [Int], limit: Int) -> [[Int]] {
        guard limit > 0 else { return Array(repeating: [], count: posts.count) }
        // Plain numbers, read by every core without touching the posts' strings (whose reference counts,
        // shared by every thread, made the first version ten times slower).
        var termIDs: [String: Int] = [:]
        func id(_ slug: String) -> Int {
            if let id = termIDs[slug] { return id }
            termIDs[slug] = termIDs.count
            return termIDs.count - 1
        }
        // Each post's tags (`tagStart[i]..<tagStart[i + 1]` in `tagItems`), category (-1: none), date.
        var tagStart = [0], tagItems: [Int] = [], categoryOf: [Int] = [], dates: [Double] = []
        var isPost: [Bool] = []
        for sitePost in posts {
            let post = sitePost.post
            for tag in post.tags { tagItems.append(id(tag.slug)) }
            tagStart.append(tagItems.count)
            categoryOf.append(post.category.map { id("\u{1}" + $0.slug) } ?? -1)
            dates.append(post.date.timeIntervalSince1970)
            isPost.append(post.kind == .post)
        }
        // Each tag's and category's listed posts, ascending (the site's order, newest first).
        var members = Array(repeating: [Int](), count: termIDs.count)
        for index in listed where isPost[index] {
            for item in tagStart[index]..<tagStart[index + 1] { members[tagItems[item]].append(index) }
            if categoryOf[index] >= 0 { members[categoryOf[index]].append(index) }
        }
        var memberStart = [0], memberItems: [Int] = []
        for list in members {
            memberItems += list
            memberStart.append(memberItems.count)
        }
        return tagItems.withUnsafeBufferPointer { tagItems in
            memberItems.withUnsafeBufferPointer { memberItems in
                Parallel.map(posts.count) { index -> [Int] in
                    let tags = tagStart[index]..<tagStart[index + 1]
                    let category = categoryOf[index]
                    guard isPost[index], !tags.isEmpty || category >= 0 else { return [] }
                    // The window of each tag and of the category, ascending runs of `memberItems`, merged:
                    // each candidate once, in ascending order, with the number of tag windows it is in.
                    var runs: [(next: Int, end: Int, counts: Bool)] = []
                    runs.reserveCapacity(tags.count + 1)
                    func window(_ term: Int, counts: Bool) {
                        let list = memberStart[term]..<memberStart[term + 1]
                        // The place the post has, or would have, in the list (ascending indices).
                        var low = list.lowerBound, high = list.upperBound
                        while low < high {
                            let middle = (low + high) / 2
                            if memberItems[middle] < index { low = middle + 1 } else { high = middle }
                        }
                        runs.append((max(list.lowerBound, low - relatedWindow), min(list.upperBound, low + relatedWindow + 1), counts))
                    }
                    for item in tags { window(tagItems[item], counts: true) }
                    if category >= 0 { window(category, counts: false) }
                    // The best `limit`, kept in order: most shared tags, the category, nearest date, newer.
                    let date = dates[index]
                    typealias Candidate = (index: Int, tags: Int, category: Bool, distance: Double)
                    func better(_ a: Candidate, _ b: Candidate) -> Bool {
                        if a.tags != b.tags { return a.tags > b.tags }
                        if a.category != b.category { return a.category }
                        if a.distance != b.distance { return a.distance < b.distance }
                        return a.index < b.index
                    }
                    var best: [Candidate] = []
                    best.reserveCapacity(limit + 1)
                    while true {
                        var other = Int.max
                        for run in runs where run.next < run.end { other = min(other, memberItems[run.next]) }
                        guard other != Int.max else { break }
                        var shared = 0
                        for run in runs.indices {
                            // A post that lists a tag twice is in its list twice.
                            while runs[run].next < runs[run].end, memberItems[runs[run].next] == other {
                                if runs[run].counts { shared += 1 }
                                runs[run].next += 1
                            }
                        }
                        guard other != index else { continue }
                        let candidate: Candidate = (other, shared, category >= 0 && categoryOf[other] == category, abs(dates[other] - date))
                        if best.count == limit, !better(candidate, best[limit - 1]) { continue }
                        let at = best.firstIndex { better(candidate, $0) } ?? best.count
                        best.insert(candidate, at: at)
                        if best.count > limit { best.removeLast() }
                    }
                    return best.map(\.index)
                }
            }
        }
    }
}
