import BlogConfig
import BlogContent
import BlogCore
import Foundation

// URL patterns told by a blog's own links, for a blog without a settings file.

extension ExistingBlog {
    /// The `post` and `page` patterns that the links of `posts` (every post and page of the blog) point
    /// at, where they differ from `preset`'s (``PermalinkInference``), with a note for blog.yml saying
    /// where each came from. Empty when the links agree with the preset or are too few to tell.
    static func inferredPermalinks(_ posts: [Post], preset: PermalinkPreset) -> (permalinks: [(key: String, value: String)], notes: [String]) {
        let utc = TimeZone(identifier: "UTC")!
        var inference = PermalinkInference(posts.map { post in
            PermalinkInference.Target(page: post.kind == .page, slugs: [preset.permalinks.asciiSlugs ? post.asciiSlug : post.slug, post.slug],
                                      date: post.dated ? post.date : nil, timeZone: utc)
        })
        for post in posts {
            for link in siteLinks(in: post.body) { inference.add(link) }
        }
        let patterns = preset.permalinks
        var permalinks: [(key: String, value: String)] = []
        var notes: [String] = []
        for proposal in inference.proposals() {
            let current = proposal.key == "page" ? patterns.page : patterns.post
            guard proposal.pattern != current else { continue }
            permalinks.append((proposal.key, proposal.pattern))
            notes.append("permalinks.\(proposal.key) \"\(proposal.pattern)\" is told by the blog's own links (\(proposal.links) like \(proposal.example)), not by a settings file")
        }
        return (permalinks, notes)
    }

    /// The destinations from the site's root (`/…`) of the links in markdown `body`: inline links
    /// `](/x)`, reference definitions `]: /x` and HTML `href="/x"` / `href='/x'`.
    static func siteLinks(in body: String) -> [String] {
        var links: [String] = []
        let bytes = Array(body.utf8)
        let openers: [(marker: [UInt8], ends: Set<UInt8>)] = [
            (Array("](".utf8), [UInt8(ascii: ")"), UInt8(ascii: " "), UInt8(ascii: "\n")]),
            (Array("]: ".utf8), [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r")]),
            (Array("href=\"".utf8), [UInt8(ascii: "\"")]),
            (Array("href='".utf8), [UInt8(ascii: "'")]),
        ]
        var index = 0
        while index < bytes.count {
            var matched = false
            for (marker, ends) in openers where bytes[index] == marker[0] && index + marker.count < bytes.count
                && bytes[index..<index + marker.count].elementsEqual(marker) {
                let start = index + marker.count
                guard bytes[start] == UInt8(ascii: "/") else { continue }
                var end = start
                while end < bytes.count, !ends.contains(bytes[end]), end - start < 2048 { end += 1 }
                links.append(String(decoding: bytes[start..<end], as: UTF8.self))
                index = end
                matched = true
                break
            }
            if !matched { index += 1 }
        }
        return links
    }
}
