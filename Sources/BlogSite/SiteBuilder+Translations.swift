import BlogConfig
import BlogContent
import BlogCore
import Foundation

// Languages: which posts are translations of one another, and which of them are listed.

extension SiteBuilder {
    /// `en` and `en-GB`, `EN`: the same language for URLs.
    static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func primary(_ s: String) -> String { String(s.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "") }
        return primary(a) == primary(b)
    }

    /// Pelican's translations. Posts of the same kind, status and slug (Pelican's
    /// `translation_id`) are one post in several languages. In each such group the originals are
    /// the posts not marked `translation: true` (every post, when all are marked) in the site's
    /// language, else all of those: the others are `unlisted`, with a page under `<lang>/` but in
    /// no list. `versions` gives, for each post of a group, the others in another language, by
    /// language then URL, so every translation links every other.
    static func translations(_ posts: [SitePost], config: SiteConfig) -> (unlisted: Set<Int>, versions: [Int: [Int]]) {
        // Versions of a post share its kind, status and slug. (A key made by interpolating the two
        // enums cost a third of the site model: String(describing:) reflects on them.)
        struct Version: Hashable {
            var kind: PostKind, status: PostStatus, slug: String
        }
        // Each version's first post, and a group only for a version met again (nearly none: an array for each post was
        // most of the cost, on one core).
        var first: [Version: Int] = .init(minimumCapacity: posts.count)
        var groups: [Int: [Int]] = [:]
        for index in posts.indices {
            let version = Version(kind: posts[index].post.kind, status: posts[index].post.status, slug: posts[index].post.slug)
            guard let earlier = first.updateValue(index, forKey: version) else { continue }
            first[version] = earlier
            groups[earlier, default: [earlier]].append(index)
        }
        func language(_ index: Int) -> String { (posts[index].post.lang ?? config.language).lowercased() }
        var unlisted = Set<Int>()
        var versions: [Int: [Int]] = [:]
        for group in groups.values {
            let unmarked = group.filter { !isMarkedTranslation(posts[$0].post) }
            let candidates = unmarked.isEmpty ? group : unmarked
            let inSiteLanguage = candidates.filter { posts[$0].post.lang.map { sameLanguage($0, config.language) } ?? true }
            let originals = Set(inSiteLanguage.isEmpty ? candidates : inSiteLanguage)
            unlisted.formUnion(group.filter { !originals.contains($0) })
            let ordered = group.sorted { (language($0), posts[$0].url) < (language($1), posts[$1].url) }
            for index in group {
                let others = ordered.filter { language($0) != language(index) }
                if !others.isEmpty { versions[index] = others }
            }
        }
        return (unlisted, versions)
    }

    /// Pelican's `translation` header: any value but `false` marks a post as a translation.
    static func isMarkedTranslation(_ post: Post) -> Bool {
        guard let value = post.meta["translation"]?.text else { return false }
        return value.trimmingWhitespaces().lowercased() != "false"
    }
}
