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
    /// The name of a post's series from its header fields `meta` (not the post: one passed as an argument
    /// is copied): its `series` header, a text or the first of a list (Hugo's `series` taxonomy is a
    /// list); nil without one.
    static func seriesName(in meta: [String: MetaValue]) -> String? {
        let value: MetaValue?
        switch meta["series"] {
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
            guard let name = seriesName(in: posts[index].post.meta) else { continue }
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
        // shared by every thread, made the first version ten times slower). Tags and categories get ids
        // of one range from two tables (a category's key was its slug with a prefix: a new string per post).
        var tagIDs: [String: Int] = [:], categoryIDs: [String: Int] = [:]
        var termCount = 0
        func id(_ slug: String, in table: inout [String: Int]) -> Int {
            if let id = table[slug] { return id }
            table[slug] = termCount
            termCount += 1
            return termCount - 1
        }
        // Each post's tags (`tagStart[i]..<tagStart[i + 1]` in `tagItems`), category (-1: none), date.
        var tagStart = [0], tagItems: [Int] = [], categoryOf: [Int] = [], dates: [Double] = []
        var isPost: [Bool] = []
        tagStart.reserveCapacity(posts.count + 1)
        categoryOf.reserveCapacity(posts.count)
        dates.reserveCapacity(posts.count)
        isPost.reserveCapacity(posts.count)
        for index in posts.indices {
            // Each field read in place: `let post = posts[index].post` retained and released every string of the post.
            for tag in posts[index].post.tags { tagItems.append(id(tag.slug, in: &tagIDs)) }
            tagStart.append(tagItems.count)
            if let category = posts[index].post.categories.first {
                categoryOf.append(id(category.slug, in: &categoryIDs))
            } else {
                categoryOf.append(-1)
            }
            dates.append(posts[index].post.date.timeIntervalSince1970)
            isPost.append(posts[index].post.kind == .post)
        }
        // Each tag's and category's listed posts, ascending (the site's order, newest first).
        var members = Array(repeating: [Int](), count: termCount)
        for index in listed where isPost[index] {
            for item in tagStart[index]..<tagStart[index + 1] { members[tagItems[item]].append(index) }
            if categoryOf[index] >= 0 { members[categoryOf[index]].append(index) }
        }
        var memberStart = [0], memberItems: [Int] = []
        for list in members {
            memberItems += list
            memberStart.append(memberItems.count)
        }
        // Contiguous runs of posts, sixteen per core, each with its own counters: one allocation per run, not
        // a handful per post. Two runs per core left the stage's end to one core (a run's cost is not its
        // length: the posts' tags and windows vary), and this stage shares the cores with the URLs' check.
        let runs = min(posts.count, ProcessInfo.processInfo.activeProcessorCount * 16)
        let perRun = (posts.count + runs - 1) / max(runs, 1)
        let parts = Parallel.map(runs) { run -> [[Int]] in
            let range = min(posts.count, run * perRun)..<min(posts.count, (run + 1) * perRun)
            guard !range.isEmpty else { return [] }
            // For each candidate, by index: the post it was last counted for (`seenFor`), and in how many of
            // that post's tag windows it is (`shared`); `touched`: the candidates of the post being weighed.
            var seenFor = [Int32](repeating: -1, count: posts.count)
            var shared = [Int32](repeating: 0, count: posts.count)
            // Each candidate is touched once per post, so room for every post is room enough: no append's
            // checks of capacity and uniqueness (~240 appends a post).
            var touched = [Int32](repeating: 0, count: posts.count)
            typealias Candidate = (index: Int, tags: Int, category: Bool, distance: Double)
            var best: [Candidate] = []
            best.reserveCapacity(limit + 1)
            var result: [[Int]] = []
            result.reserveCapacity(range.count)
            tagItems.withUnsafeBufferPointer { tagItems in
            memberItems.withUnsafeBufferPointer { memberItems in
            categoryOf.withUnsafeBufferPointer { categoryOf in
            dates.withUnsafeBufferPointer { dates in
            seenFor.withUnsafeMutableBufferPointer { seenFor in
            shared.withUnsafeMutableBufferPointer { shared in
            touched.withUnsafeMutableBufferPointer { touched in
                for index in range {
                    let tags = tagStart[index]..<tagStart[index + 1]
                    let category = categoryOf[index]
                    guard isPost[index], !tags.isEmpty || category >= 0 else {
                        result.append([])
                        continue
                    }
                    var touchedCount = 0
                    let mark = Int32(truncatingIfNeeded: index)
                    // The window of each tag and of the category: the ``relatedWindow`` posts of its list
                    // on each side of the place the post has, or would have, in it.
                    func window(_ term: Int, counts: Int32) {
                        let list = memberStart[term]..<memberStart[term + 1]
                        var low = list.lowerBound, high = list.upperBound
                        while low < high {
                            let middle = (low + high) / 2
                            if memberItems[middle] < index { low = middle + 1 } else { high = middle }
                        }
                        // A post that lists a tag twice is in its list twice, and counted twice.
                        for item in max(list.lowerBound, low - relatedWindow)..<min(list.upperBound, low + relatedWindow + 1) {
                            let other = memberItems[item]
                            if seenFor[other] != mark {
                                seenFor[other] = mark
                                shared[other] = counts
                                touched[touchedCount] = Int32(truncatingIfNeeded: other)
                                touchedCount += 1
                            } else {
                                shared[other] += counts
                            }
                        }
                    }
                    for item in tags { window(tagItems[item], counts: 1) }
                    if category >= 0 { window(category, counts: 0) }
                    // The best `limit`, kept in order: most shared tags, the category, nearest date, newer
                    // (a total order: the order the candidates come in does not matter).
                    let date = dates[index]
                    func better(_ a: Candidate, _ b: Candidate) -> Bool {
                        if a.tags != b.tags { return a.tags > b.tags }
                        if a.category != b.category { return a.category }
                        if a.distance != b.distance { return a.distance < b.distance }
                        return a.index < b.index
                    }
                    best.removeAll(keepingCapacity: true)
                    for place in 0..<touchedCount {
                        let other = Int(touched[place])
                        let count = Int(shared[other])
                        // Fewer shared tags than the last of a full list: out, before the rest is looked at.
                        if best.count == limit, count < best[limit - 1].tags { continue }
                        guard other != index else { continue }
                        let candidate: Candidate = (other, count, category >= 0 && categoryOf[other] == category,
                                                    abs(dates[other] - date))
                        if best.count == limit, !better(candidate, best[limit - 1]) { continue }
                        var at = best.count
                        while at > 0, better(candidate, best[at - 1]) { at -= 1 }
                        best.insert(candidate, at: at)
                        if best.count > limit { best.removeLast() }
                    }
                    result.append(best.map(\.index))
                }
            }
            }
            }
            }
            }
            }
            }
            return result
        }
        var related: [[Int]] = []
        related.reserveCapacity(posts.count)
        for part in parts { related += part }
        return related
    }
}
