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
        let shards = shards(site)
        let names = shards.map { String($0.path.dropFirst(path.folderPart.count + 1)) }
        let count = shards.reduce(0) { $0 + $1.posts.count }
        let manifest = "{\"version\":1,\"posts\":\(count),\"shards\":[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
        var files = [OutputFile(path: path, contents: .bytes(Data(manifest.utf8)))]
        for (shardPath, shard) in shards {
            files.append(OutputFile(path: shardPath, contents: .made(by: OutputFile.Maker {
                let text = shardText(shard, site: site, marks: marks)
                guard let marks else { return Data(text.utf8) }
                return marks.generatedBytes(path: shardPath, text: text) { _ in .searchText }
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
            text += ",\"w\":\"" + (marks?.feedMarker(index) ?? words(ofHTML: item.rendered.html)) + "\"}"
        }
        return text + "]\n"
    }

    // MARK: Words

    /// The words of `html`'s text, each once, separated by spaces, in order of first use, cut at
    /// ``wordBytes`` bytes. A word is a run of letters and digits: ASCII ones, and any character
    /// beyond ASCII except spaces and punctuation of Unicode's General Punctuation block and
    /// Latin-1 (curly quotes, dashes, `…`, `«»`), so accented words and runs of CJK text stay whole.
    /// Tags and character references part words. ASCII letters are compared without case (and kept
    /// lower-case); words of one ASCII letter or digit are left out. The result holds letters,
    /// digits and spaces only: it is a JSON string's content as it is.
    package static func words(ofHTML html: String) -> String {
        var html = html
        return html.withUTF8 { words(inHTML: $0) }
    }

    /// What each byte is to ``words(inHTML:)``: 0 parts words, 1 is an ASCII letter or digit,
    /// 2 starts or continues a character beyond ASCII, 3 is `<`, 4 is `&`.
    private static let byteKinds: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return 1
        case 0x80...: return 2
        case 0x3C: return 3
        case 0x26: return 4
        default: return 0
        }
    }

    /// One pass over the HTML's bytes into a ``WordList``.
    private static func words(inHTML text: UnsafeBufferPointer<UInt8>) -> String {
        var bytes = [UInt8](repeating: 0, count: wordBytes)
        // 4,000 bytes hold at most 1,334 words, so 4,096 slots are never more than a third full.
        var slots = [UInt64](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBufferPointer { out in
            slots.withUnsafeMutableBufferPointer { slots in
                byteKinds.withUnsafeBufferPointer { kinds in
                    var words = WordList(out: out, slots: slots)
                    var position = 0
                    let total = text.count
                    scan: while position < total {
                        let byte = text[position]
                        switch kinds[Int(byte)] {
                        case 1:
                            // A run of ASCII letters and digits.
                            guard words.begin() else { break scan }
                            repeat {
                                guard words.append(text[position]) else { break scan }
                                position += 1
                            } while position < total && kinds[Int(text[position])] == 1
                        case 2:
                            var length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                            length = min(length, total - position)
                            // Latin-1's no-break space, punctuation and symbols (U+00A0–U+00BF), and
                            // General Punctuation (U+2000–U+206F: spaces, dashes, quotes, `…`) part words.
                            let parts = (byte == 0xC2 && length == 2 && text[position + 1] < 0xC0)
                                || (byte == 0xE2 && length == 3 && (text[position + 1] == 0x80 || text[position + 1] == 0x81))
                            if parts {
                                words.end()
                            } else {
                                guard words.begin() else { break scan }
                                for offset in 0..<length {
                                    guard words.append(text[position + offset]) else { break scan }
                                }
                            }
                            position += length
                        case 3:
                            // A tag, a comment or a declaration: skipped to its `>`.
                            words.end()
                            guard let close = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: text, from: position) else { break scan }
                            position = close + 1
                        case 4:
                            // A character reference (`&amp;`, `&#39;`): skipped to its `;`.
                            words.end()
                            var next = position + 1
                            while next < min(total, position + 12), kinds[Int(text[next])] == 1 || text[next] == UInt8(ascii: "#") {
                                next += 1
                            }
                            position = next < total && text[next] == UInt8(ascii: ";") ? next + 1 : position + 1
                        default:
                            words.end()
                            position += 1
                        }
                    }
                    words.end()
                    return words.used
                }
            }
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}

/// The words kept so far, in a buffer of ``SearchIndex/wordBytes`` bytes: each word is written
/// lower-cased where it would go, hashed as it is written (FNV-1a, 64 bits), then kept, or taken
/// back when a word of the same hash was kept before. Two different words of one post with the same
/// 64-bit hash (about one chance in 10^13 for a post's thousand words) would lose the second.
private struct WordList {
    static let basis: UInt64 = 0xcbf29ce484222325, prime: UInt64 = 0x100000001b3
    let out: UnsafeMutableBufferPointer<UInt8>
    /// The hashes of the kept words (with their lowest bit set: 0 is an empty slot).
    let slots: UnsafeMutableBufferPointer<UInt64>
    /// Bytes written; the start of the word being written (-1: none) and its hash so far.
    var used = 0, start = -1, hash = basis

    init(out: UnsafeMutableBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<UInt64>) {
        self.out = out
        self.slots = slots
    }

    /// Starts a word (after a space) unless one is being written; false when the buffer is full.
    @inline(__always)
    mutating func begin() -> Bool {
        guard start < 0 else { return true }
        if used > 0 {
            guard used < out.count else { return false }
            out[used] = UInt8(ascii: " ")
            used += 1
        }
        start = used
        hash = Self.basis
        return true
    }

    /// Adds a byte to the word, lower-cased; false when it does not fit, which takes the word back.
    @inline(__always)
    mutating func append(_ byte: UInt8) -> Bool {
        guard used < out.count else {
            used = max(0, start - 1)
            start = -1
            return false
        }
        let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
        out[used] = lower
        used += 1
        hash = (hash ^ UInt64(lower)) &* Self.prime
        return true
    }

    /// Ends the word being written, if any: kept, or taken back with the space before it.
    @inline(__always)
    mutating func end() {
        guard start >= 0 else { return }
        defer { start = -1 }
        // One ASCII letter or digit is no word.
        if used - start == 1, out[start] < 0x80 { used = max(0, start - 1); return }
        let key = hash | 1
        var slot = Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
        while slots[slot] != 0 {
            if slots[slot] == key {
                used = max(0, start - 1)
                return
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = key
    }
}
