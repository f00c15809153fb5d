import Foundation

/// The cache key of a page: a digest of everything its bytes depend on, which is the text of the
/// theme's templates and the values of the page's template context (``TemplateContext``) that
/// those templates can read.
///
/// "Can read" is decided by the names the templates use: a page template and every partial and
/// parent it reaches, transitively, name a set of keys (`{{post.title}}` names `post` and
/// `title`; `{{#empty(tags)}}` names `empty` and `tags`). A key of the context, at any depth,
/// that is not in the set can't change what the template writes, so it is left out of the digest:
/// the home page does not depend on the bodies of its posts, which only post pages show. Each
/// dictionary's count of keys is digested too, so that emptiness never hides. A template with
/// a set-delimiter tag (`{{=<% %>=}}`) or a dynamic partial is not analysed: its pages depend on
/// their whole context.
///
/// A context value of a type the digest doesn't know (anything but strings, numbers, booleans,
/// arrays and string-keyed dictionaries) makes the page uncacheable: it is rendered every time.
final class PageKeys: @unchecked Sendable {
    private let version: String
    private let themeDigest: Digest
    /// Names each page template can read; nil: any name.
    private let names: [String: Set<String>?]
    /// Digests of long strings and big arrays shared by many pages, computed once.
    private let memo = Memo()

    init(theme: Theme, version: String) {
        self.version = version
        var input = DigestInput()
        for (name, text) in theme.templateTexts.sorted(by: { $0.key < $1.key }) {
            input.add(name)
            input.add(text)
        }
        themeDigest = input.digest
        let scanned = theme.templateTexts.mapValues(TemplateNames.init)
        var names: [String: Set<String>?] = [:]
        for template in scanned.keys {
            var seen: Set<String> = [template]
            var pending = [template]
            var all: Set<String>? = []
            while let next = pending.popLast() {
                guard let found = scanned[next], found.analysable else { all = nil; break }
                all?.formUnion(found.names)
                for reference in found.references where seen.insert(reference).inserted {
                    pending.append(reference)
                }
            }
            names[template] = all
        }
        self.names = names
    }

    /// The key of a page rendered with `template` and `values`; nil when it can't be computed.
    func key(template: String, values: [String: Any]) -> Digest? {
        guard let names = names[template] else { return nil }
        var hasher = ValueDigest(names: names, memo: memo, namesID: template)
        hasher.input.add(version)
        hasher.input.add(themeDigest)
        hasher.input.add(template)
        guard hasher.add(values) else { return nil }
        return hasher.input.digest
    }

    /// Shared digests, keyed by the storage they were computed from, which the memo keeps alive
    /// so that no other value can take its address during the build.
    final class Memo: @unchecked Sendable {
        struct Key: Hashable {
            let address: UInt
            let count: Int
            let namesID: String
        }
        private var digests: [Key: (Digest, Any)] = [:]
        private let lock = NSLock()

        func get(_ key: Key) -> Digest? {
            lock.lock()
            defer { lock.unlock() }
            return digests[key]?.0
        }

        func set(_ key: Key, _ digest: Digest, keeping value: Any) {
            lock.lock()
            digests[key] = (digest, value)
            lock.unlock()
        }
    }
}

/// Digests a context value, keeping only the keys in `names`.
private struct ValueDigest {
    let names: Set<String>?
    let memo: PageKeys.Memo
    let namesID: String
    var input = DigestInput()

    init(names: Set<String>?, memo: PageKeys.Memo, namesID: String) {
        self.names = names
        self.memo = memo
        self.namesID = namesID
    }

    /// Adds `value`; false for a type it doesn't know.
    mutating func add(_ value: Any) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(String.self) {
            addString(value as! String)
        } else if type == ObjectIdentifier(Bool.self) {
            input.add(2 as UInt8)
            input.add((value as! Bool) ? 1 as UInt8 : 0)
        } else if type == ObjectIdentifier(Int.self) {
            input.add(3 as UInt8)
            input.add(value as! Int)
        } else if type == ObjectIdentifier(Double.self) {
            input.add(4 as UInt8)
            input.add((value as! Double).bitPattern)
        } else if type == ObjectIdentifier([String: Any].self) {
            return addDictionary(value as! [String: Any])
        } else if type == ObjectIdentifier([[String: Any]].self) {
            return addArray(value as! [[String: Any]])
        } else if type == ObjectIdentifier([Any].self) {
            return addArray(value as! [Any])
        } else if type == ObjectIdentifier([String].self) {
            return addArray(value as! [String])
        } else if type == ObjectIdentifier(BodyMarker.self) {
            // What the page shows is the body, wherever the marker stands.
            addString((value as! BodyMarker).html)
        } else {
            return false
        }
        return true
    }

    private mutating func addString(_ text: String) {
        input.add(1 as UInt8)
        let count = text.utf8.count
        if count >= 1024, let address = text.utf8.withContiguousStorageIfAvailable({ UInt(bitPattern: $0.baseAddress) }) {
            let key = PageKeys.Memo.Key(address: address, count: count, namesID: "")
            if let digest = memo.get(key) {
                input.add(digest)
            } else {
                let digest = Digest.of(text)
                memo.set(key, digest, keeping: text)
                input.add(digest)
            }
        } else {
            input.add(text)
        }
    }

    private mutating func addDictionary(_ dictionary: [String: Any]) -> Bool {
        input.add(5 as UInt8)
        input.add(dictionary.count)
        var kept: [(String, Any)] = []
        kept.reserveCapacity(dictionary.count)
        for (key, value) in dictionary where names?.contains(key) ?? true {
            kept.append((key, value))
        }
        kept.sort { $0.0 < $1.0 }
        input.add(kept.count)
        for (key, value) in kept {
            input.add(key)
            guard add(value) else { return false }
        }
        return true
    }

    private mutating func addArray<T>(_ array: [T]) -> Bool {
        input.add(6 as UInt8)
        input.add(array.count)
        guard array.count >= 16 else {
            for item in array { guard add(item) else { return false } }
            return true
        }
        // A big array (the tags, the archives) is often the same storage on every page: digest it once.
        let address = array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let key = PageKeys.Memo.Key(address: address, count: array.count, namesID: namesID)
        if let digest = memo.get(key) {
            input.add(digest)
            return true
        }
        var inner = ValueDigest(names: names, memo: memo, namesID: namesID)
        for item in array { guard inner.add(item) else { return false } }
        let digest = inner.input.digest
        memo.set(key, digest, keeping: array)
        input.add(digest)
        return true
    }
}

/// The names a template's tags use, and the templates it includes (partials) or extends (parents).
struct TemplateNames {
    var names: Set<String> = []
    var references: Set<String> = []
    /// False when the template changes its delimiters or names a partial dynamically.
    var analysable = true

    init(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        let open = Array("{{".utf8)
        func starts(_ pattern: [UInt8], at index: Int) -> Bool {
            index + pattern.count <= bytes.count && Array(bytes[index..<index + pattern.count]) == pattern
        }
        while i + 1 < bytes.count {
            guard bytes[i] == open[0], bytes[i + 1] == open[1] else { i += 1; continue }
            var start = i + 2
            var close = Array("}}".utf8)
            if start < bytes.count, bytes[start] == UInt8(ascii: "{") {
                start += 1
                close = Array("}}}".utf8)
            }
            var end = start
            while end < bytes.count, !starts(close, at: end) { end += 1 }
            guard end < bytes.count else { analysable = false; return }
            let tag = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            i = end + close.count
            guard let sigil = tag.first else { continue }
            switch sigil {
            case "!": continue
            case "=": analysable = false; return
            case ">", "<":
                let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("*") { analysable = false; return }
                references.insert(name)
            case "#", "^", "/", "&", "$":
                addNames(String(tag.dropFirst()))
            default:
                addNames(tag)
            }
        }
    }

    /// Every identifier of an expression such as `post.title` or `empty(tags)`.
    private mutating func addNames(_ expression: String) {
        for part in expression.split(whereSeparator: { "().,| \t\n".contains($0) }) where part != "." {
            names.insert(String(part))
        }
    }
}

/// Pages through the build cache: a page whose key was rendered before is not rendered again.
final class PageCache: @unchecked Sendable {
    let keys: PageKeys
    let cache: BuildCache
    /// Each post's path under the content folder, by index into ``Site/posts``, and back.
    private let paths: [String]
    private let indices: [String: Int]

    init(theme: Theme, cache: BuildCache, site: Site) {
        keys = PageKeys(theme: theme, version: cache.store.version)
        self.cache = cache
        paths = site.posts.map(\.post.contentPath)
        indices = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The page's contents and body holes: the cached ones when its key is known, else
    /// `render`'s (then kept); nil when `render` fails.
    func contents(template: String, values: [String: Any],
                  render: () -> (bytes: [UInt8], holes: [BodyHole])?) -> (contents: OutputFile.Contents, holes: [BodyHole])? {
        guard let key = keys.key(template: template, values: values) else {
            return render().map { (.bytes(Data($0.bytes)), $0.holes) }
        }
        if let (stored, storedHoles) = cache.page(key) {
            let holes = storedHoles.compactMap { hole in
                indices[hole.post].map { BodyHole(post: $0, offset: hole.offset, length: hole.length, form: hole.form) }
            }
            if holes.count == storedHoles.count { return (.stored(stored), holes) }
        }
        guard let made = render() else { return nil }
        cache.storePage(key, made.bytes, holes: made.holes.map {
            StoredHole(post: paths[$0.post], offset: $0.offset, length: $0.length, form: $0.form)
        })
        return (.bytes(Data(made.bytes)), made.holes)
    }
}
