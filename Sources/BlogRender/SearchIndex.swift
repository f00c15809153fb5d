import BlogConfig
import BlogContent
import BlogCore
import BlogSite
import Foundation

/// The search index that a build writes for a search box in the browser (`search: true`, the
/// default), with no service behind it: `search/index.json` names the shards, and each shard
/// (`search/posts-1.json`, …) is a JSON array of up to ``postsPerShard`` entries, newest first:
///
///     {"t": "Title", "u": "posts/a-post/", "d": "2024-03-01", "g": ["swift", "ios"],
///      "s": "The summary's text, cut at 160 characters…", "w": "words of the post each once …"}
///
/// `u` is relative to the site's root (the folder above `search/`), so the index reads the same under
/// any base path and in a site built with relative links. `w` is the post's text as words, each once
/// (compared without case for ASCII letters), in order of first use, cut at ``BodyText/searchBytes`` bytes:
/// enough to find a post by any word it uses, at a fraction of its text's size.
///
/// Every listed post is in it, and every page (not the 404 page); hidden posts are not. A shard's
/// words are a post's body in the form ``BodyForm/searchText``, so an edit of a post's body patches
/// the shard in place, as it does the feeds (see ``RenderHook``).
package enum SearchIndex {
    /// The index's manifest, relative to the output folder.
    package static let path = "search/index.json"
    /// Entries per shard: a browser fetches the shards at once and searches each as it arrives.
    static let postsPerShard = 1000

    /// The manifest and the shards; none with `search: false`.
    package static func render(_ site: Site, hook: RenderHook? = nil) -> [OutputFile] {
        guard site.config.search else { return [] }
        let shards = shards(site)
        let names = shards.map { String($0.path.dropFirst(path.folderPart.count + 1)) }
        let count = shards.reduce(0) { $0 + $1.posts.count }
        let manifest = "{\"version\":1,\"posts\":\(count),\"shards\":[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
        var files = [OutputFile(path: path, contents: .bytes(Data(manifest.utf8)))]
        for (shardPath, shard) in shards {
            files.append(OutputFile(path: shardPath, contents: .made(by: OutputFile.Maker {
                let (bytes, holes) = shardBytes(shard, site: site, hook: hook)
                if let hook, !holes.isEmpty { hook.feed(shardPath, holds: holes) }
                return bytes
            })))
        }
        return files
    }

    /// Each shard's path and its posts, by index into ``Site/posts``, in order: a shard's text depends on nothing
    /// else of the site (the incremental layer leaves a shard whose posts did not change as it is).
    package static func shards(_ site: Site) -> [(path: String, posts: [Int])] {
        let indices = entries(site)
        return stride(from: 0, to: indices.count, by: postsPerShard).enumerated().map { number, start in
            (path.folderPart + "/posts-\(number + 1).json", Array(indices[start..<min(start + postsPerShard, indices.count)]))
        }
    }

    /// The posts in the index, by index into ``Site/posts``: listed posts newest first, then pages.
    static func entries(_ site: Site) -> [Int] {
        let listed = Set(site.listed)
        var pages: [Int] = []
        for page in site.pages where !site.isNotFound(page) {
            guard case .post(let index) = page.kind, !listed.contains(index) else { continue }
            let post = site.posts[index].post
            if post.kind == .page, post.status != .hidden { pages.append(index) }
        }
        return site.listed + pages
    }

    /// A shard's JSON text, and with `hook` where each post's words are in it (``BodyForm/searchText``). Its parts are
    /// measured, then written once into a buffer of their exact size.
    static func shardBytes(_ shard: [Int], site: Site, hook: RenderHook?) -> (data: Data, holes: [BodyHole]) {
        // `blog serve` keeps each post's words between builds: a shard made again reads the words of the changed posts only.
        let memo = hook?.postDigests
        // Each post's words written one after another into this buffer (``BodyText/searchWords(html:into:table:)``), not
        // a `String` each: no allocation, no UTF-8 check and no copy of a post's words before the shard's own.
        let words = UnsafeMutablePointer<UInt8>.allocate(capacity: shard.count * BodyText.searchRoom)
        defer { words.deallocate() }
        // One table of words seen for the shard's posts, read one after another.
        let table = BodyText.SearchWordTable()
        var used = 0
        // Each post's fields read in place: `let item = site.posts[index]` copied the placed post and its post, every
        // string of them retained and released again.
        let entries = site.posts.withUnsafeBufferPointer { posts in shard.map { index -> Entry in
            let item = posts.baseAddress! + index
            let start = used
            if let memo {
                var kept = memo.searchWords(path: item.pointee.post.contentPath, html: item.pointee.rendered.html) {
                    BodyForm.searchText.apply(item.pointee.rendered.html)
                }
                used += kept.withUTF8 { bytes in
                    bytes.baseAddress.map { (words + used).update(from: $0, count: bytes.count) }
                    return bytes.count
                }
            } else {
                used += BodyText.searchWords(html: item.pointee.rendered.html, into: words + used, table: table)
            }
            return Entry(title: Feeds.jsonContent(item.pointee.post.title), url: Feeds.jsonContent(WebText.encodePath(item.pointee.url)),
                         day: item.pointee.post.dated && item.pointee.post.kind == .post
                            ? DateText.day(item.pointee.post.date, in: site.config.timeZone(writtenOffset: item.pointee.post.writtenOffset)) : nil,
                         tags: item.pointee.post.tags.map { Feeds.jsonContent($0.name) },
                         summary: Feeds.jsonContent(item.pointee.rendered.summaryText),
                         words: UnsafeBufferPointer(start: words + start, count: used - start))
        } }
        var size = ByteCount()
        write(entries, to: &size)
        var data = Data(count: size.count)
        data.withUnsafeMutableBytes { bytes in
            var out = ByteWriter(next: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            write(entries, to: &out)
        }
        guard hook != nil else { return (data, []) }
        return (data, zip(shard, zip(size.words, entries)).map { index, found in
            BodyHole(post: index, offset: found.0, length: found.1.words.count, form: .searchText)
        })
    }

    /// What a shard shows of a post, each part as a JSON string's content; the words in the buffer of
    /// ``shardBytes(_:site:hook:)``, valid while it makes the shard.
    private struct Entry {
        var title: String, url: String, day: String?, tags: [String], summary: String, words: UnsafeBufferPointer<UInt8>
    }

    private static func write<Out: ByteOutput>(_ entries: [Entry], to out: inout Out) {
        out.put("[")
        for (number, entry) in entries.enumerated() {
            if number > 0 { out.put(",\n") }
            out.put("{\"t\":\"")
            out.put(entry.title)
            out.put("\",\"u\":\"")
            out.put(entry.url)
            out.put("\"")
            if let day = entry.day {
                out.put(",\"d\":\"")
                out.put(day)
                out.put("\"")
            }
            out.put(",\"g\":[")
            for (number, tag) in entry.tags.enumerated() {
                out.put(number > 0 ? ",\"" : "\"")
                out.put(tag)
                out.put("\"")
            }
            out.put("],\"s\":\"")
            out.put(entry.summary)
            out.put("\",\"w\":\"")
            out.put(words: entry.words)
            out.put("\"}")
        }
        out.put("]\n")
    }
}

/// Where ``SearchIndex`` writes a shard: measured first, then written.
private protocol ByteOutput {
    mutating func put(_ text: StaticString)
    mutating func put(_ text: String)
    /// A post's words.
    mutating func put(words: UnsafeBufferPointer<UInt8>)
}

/// Counts the bytes, and where each post's words start.
private struct ByteCount: ByteOutput {
    var count = 0
    var words: [Int] = []
    mutating func put(_ text: StaticString) { count += text.utf8CodeUnitCount }
    mutating func put(_ text: String) { count += text.utf8.count }
    mutating func put(words bytes: UnsafeBufferPointer<UInt8>) {
        words.append(count)
        count += bytes.count
    }
}

/// Writes the bytes from `next` on, into a buffer as big as ``ByteCount`` counted.
private struct ByteWriter: ByteOutput {
    var next: UnsafeMutablePointer<UInt8>
    mutating func put(_ text: StaticString) {
        next.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        next += text.utf8CodeUnitCount
    }
    mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put(words: $0) }
    }
    /// A post's words, or a string's bytes.
    mutating func put(words bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        next.update(from: base, count: bytes.count)
        next += bytes.count
    }
}
