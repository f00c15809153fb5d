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
/// (compared without case for ASCII letters), in order of first use, cut at ``wordBytes`` bytes:
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
    /// The most bytes of words kept of one post.
    static let wordBytes = 4000
    /// The most characters of a post's summary shown with a result.
    static let summaryCharacters = 160

    /// The manifest and the shards; none with `search: false`.
    package static func render(_ site: Site, hook: RenderHook? = nil) -> [OutputFile] {
        guard site.config.search else { return [] }
        let marks = BodyMarks(site: site, hook: hook)
        let indices = entries(site)
        let shards = stride(from: 0, to: indices.count, by: postsPerShard).map { Array(indices[$0..<min($0 + postsPerShard, indices.count)]) }
        let names = shards.indices.map { "posts-\($0 + 1).json" }
        let manifest = "{\"version\":1,\"posts\":\(indices.count),\"shards\":[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
        var files = [OutputFile(path: path, contents: .bytes(Data(manifest.utf8)))]
        for (name, shard) in zip(names, shards) {
            let shardPath = path.folderPart + "/" + name
            files.append(OutputFile(path: shardPath, contents: .made(by: OutputFile.Maker {
                let text = shardText(shard, site: site, marks: marks)
                guard let marks else { return Data(text.utf8) }
                return marks.generatedBytes(path: shardPath, text: text) { _ in .searchText }
            })))
        }
        return files
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

    /// A shard's JSON text; each post's words are its feed marker when `marks` is given.
    private static func shardText(_ shard: [Int], site: Site, marks: BodyMarks?) -> String {
        var text = "["
        for (number, index) in shard.enumerated() {
            let item = site.posts[index]
            let post = item.post
            if number > 0 { text += ",\n" }
            text += "{\"t\":\"" + Feeds.jsonContent(post.title) + "\",\"u\":\"" + Feeds.jsonContent(WebText.encodePath(item.url)) + "\""
            if post.dated, post.kind == .post { text += ",\"d\":\"" + DateText.day(post.date, in: site.config.timeZone(of: post)) + "\"" }
            text += ",\"g\":[" + post.tags.map { "\"" + Feeds.jsonContent($0.name) + "\"" }.joined(separator: ",") + "]"
            text += ",\"s\":\"" + Feeds.jsonContent(WebText.plainText(fromHTML: item.rendered.summaryHTML, limit: summaryCharacters)) + "\""
            text += ",\"w\":\"" + (marks?.feedMarker(index) ?? Feeds.jsonContent(words(ofHTML: item.rendered.html))) + "\"}"
        }
        return text + "]\n"
    }

    // MARK: Words

    /// The words of `html`'s text, each once, separated by spaces, in order of first use, cut at
    /// ``wordBytes`` bytes. A word is a run of letters and digits: ASCII ones, and any character
    /// beyond ASCII except spaces and punctuation of Unicode's General Punctuation block and
    /// Latin-1 (curly quotes, dashes, `…`, `«»`), so accented words and runs of CJK text stay whole.
    /// ASCII letters are compared without case (and kept lower-case); words of one ASCII letter or
    /// digit are left out.
    package static func words(ofHTML html: String) -> String {
        let text = Array(WebText.plainText(fromHTML: html, limit: Int.max).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(min(text.count, wordBytes))
        // Open addressing over the words kept: each slot is a word's start in `out` + 1, 0 for none.
        var slots = [Int32](repeating: 0, count: 1024)
        var kept = 0
        var position = 0
        var word: [UInt8] = []
        func keep() {
            defer { word.removeAll(keepingCapacity: true) }
            guard word.count > 1 || word.first.map({ $0 >= 0x80 }) == true else { return }
            guard out.count + word.count + 1 <= wordBytes else { position = text.count; return }
            var hash: UInt64 = 0xcbf29ce484222325
            for byte in word { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
            if kept * 2 >= slots.count { grow() }
            var slot = Int(hash & UInt64(slots.count - 1))
            while slots[slot] != 0 {
                if equals(Int(slots[slot]) - 1) { return }
                slot = (slot + 1) & (slots.count - 1)
            }
            if !out.isEmpty { out.append(UInt8(ascii: " ")) }
            slots[slot] = Int32(out.count + 1)
            out += word
            kept += 1
        }
        func equals(_ start: Int) -> Bool {
            guard start + word.count <= out.count, start + word.count == out.count || out[start + word.count] == UInt8(ascii: " ") else { return false }
            for offset in 0..<word.count where out[start + offset] != word[offset] { return false }
            return true
        }
        func grow() {
            var larger = [Int32](repeating: 0, count: slots.count * 2)
            for start in slots where start != 0 {
                var end = Int(start) - 1
                var hash: UInt64 = 0xcbf29ce484222325
                while end < out.count, out[end] != UInt8(ascii: " ") { hash = (hash ^ UInt64(out[end])) &* 0x100000001b3; end += 1 }
                var slot = Int(hash & UInt64(larger.count - 1))
                while larger[slot] != 0 { slot = (slot + 1) & (larger.count - 1) }
                larger[slot] = start
            }
            slots = larger
        }
        while position < text.count {
            let byte = text[position]
            var length = 1
            var isWord: Bool
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                isWord = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                word.append(byte | 0x20)
                position += 1
                continue
            case 0xC2 where position + 1 < text.count:
                // Latin-1's no-break space, punctuation and symbols (U+00A0–U+00BF) separate words.
                length = 2
                isWord = text[position + 1] >= 0xC0
            case 0xE2 where position + 2 < text.count && text[position + 1] == 0x80:
                // General Punctuation, U+2000–U+203F: spaces, dashes, quotes, `…`.
                length = 3
                isWord = false
            case 0x80...:
                length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                isWord = true
            default:
                isWord = false
            }
            let end = min(position + length, text.count)
            if isWord { word += text[position..<end] } else if !word.isEmpty { keep() }
            position = max(position, end)
        }
        if !word.isEmpty { keep() }
        return String(decoding: out, as: UTF8.self)
    }
}
