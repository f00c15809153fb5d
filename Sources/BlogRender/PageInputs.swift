import BlogCore
import BlogSite
import Foundation

/// What each page is rendered from, as a digest: with the same theme, two builds that give a page
/// the same digest give it the same bytes. A layer on top of the pipeline (the incremental build)
/// compares them with the last build's to render only the pages whose values changed: a title
/// edit changes the post's page, its neighbours', the lists that show it and the archives, not the
/// other thirteen thousand pages of a 10,000-post blog.
///
/// A page's digest covers its template's name, its address, and each top-level value that its
/// template or a partial it includes names (``TemplateReads``); every value when that can't be
/// known. A post's values count with its real body, not the marker a ``RenderHook`` shows templates.
enum PageInputs {
    /// Adds `value`, one of the plain values templates see (texts, numbers, booleans, arrays and
    /// dictionaries of them), to `input`; a dictionary by the sum of its entries' digests. Any
    /// other value counts by its type and description.
    static func add(_ value: Any, to input: inout DigestInput) {
        // The value's type is compared first: a cast that fails costs swift's runtime a search of
        // conformances, and a walk tried five of them per value (a seventh of a build).
        switch ObjectIdentifier(type(of: value)) {
        case Kind.string:
            input.add(1 as UInt8)
            input.add(value as! String)
        case Kind.bool:
            input.add(value as! Bool ? 2 : 3 as UInt8)
        case Kind.int:
            input.add(4 as UInt8)
            input.add(value as! Int)
        case Kind.double:
            input.add(5 as UInt8)
            input.add((value as! Double).bitPattern)
        case Kind.dictionary:
            add(value as! [String: Any], to: &input)
        case Kind.dictionaries:
            let array = value as! [[String: Any]]
            input.add(7 as UInt8)
            input.add(array.count)
            for item in array { add(item, to: &input) }
        case Kind.record:
            // As the dictionary it stands for.
            add(record: value as! TemplateRecord, to: &input)
        case Kind.records:
            let array = value as! [TemplateRecord]
            input.add(7 as UInt8)
            input.add(array.count)
            for item in array { add(record: item, to: &input) }
        case Kind.values:
            let array = value as! [Any]
            input.add(8 as UInt8)
            input.add(array.count)
            for item in array { add(item, to: &input) }
        case Kind.strings:
            let array = value as! [String]
            input.add(10 as UInt8)
            input.add(array.count)
            for item in array { input.add(item) }
        case Kind.lazy:
            // As the value it makes: what templates read.
            add((value as! LazyValue).value, to: &input)
        default:
            input.add(9 as UInt8)
            input.add(String(reflecting: type(of: value)))
            input.add(String(describing: value))
        }
    }

    /// The types of the values templates see.
    private enum Kind {
        static let string = ObjectIdentifier(String.self), bool = ObjectIdentifier(Bool.self), int = ObjectIdentifier(Int.self),
                   double = ObjectIdentifier(Double.self), dictionary = ObjectIdentifier([String: Any].self),
                   dictionaries = ObjectIdentifier([[String: Any]].self), values = ObjectIdentifier([Any].self),
                   strings = ObjectIdentifier([String].self), lazy = ObjectIdentifier(LazyValue.self),
                   record = ObjectIdentifier(TemplateRecord.self), records = ObjectIdentifier([TemplateRecord].self)
    }

    /// Adds a dictionary: the sum of its entries' digests, which needs neither sorting its keys
    /// nor looking them up (a dictionary's order differs from one process to the next).
    /// `replacing` gives the digest that stands for one key's value (a post's real body for its `html`).
    static func add(_ dictionary: [String: Any], to input: inout DigestInput, replacing: (key: String, digest: Digest)? = nil) {
        input.add(6 as UInt8)
        input.add(dictionary.count)
        input.add(entries(of: dictionary, replacing: replacing))
    }

    /// What ``add(_:to:replacing:)`` adds of `dictionary` after its count: the sum of its entries' digests. A
    /// dictionary many values hold (a post's entry in other posts' `related`) is summed once, then added as
    /// ``add(_:entries:to:)``.
    static func entries(of dictionary: [String: Any], replacing: (key: String, digest: Digest)? = nil) -> Digest {
        var high: UInt64 = 0, low: UInt64 = 0
        var entry = DigestInput(capacity: 256)
        for (key, value) in dictionary {
            entry.removeAll()
            entry.add(key)
            if let replacing, key == replacing.key {
                entry.add(replacing.digest)
            } else {
                add(value, to: &entry)
            }
            let digest = entry.digest
            high &+= digest.high
            low &+= digest.low
        }
        return Digest(high: high, low: low)
    }

    /// Adds a record (``TemplateRecord``) as ``add(_:to:replacing:)`` adds the dictionary it stands for: its count of
    /// values and the sum of their entries' digests.
    static func add(record: TemplateRecord, to input: inout DigestInput) {
        let (count, sum) = entries(of: record)
        add(count: count, entries: sum, to: &input)
    }

    /// What ``add(record:to:)`` adds of `record`: its count of values and the sum of their entries' digests.
    static func entries(of record: TemplateRecord) -> (count: Int, entries: Digest) {
        var high: UInt64 = 0, low: UInt64 = 0, count = 0
        var entry = DigestInput(capacity: 256)
        record.forEach { key, value in
            entry.removeAll()
            entry.add(key)
            add(value, to: &entry)
            let digest = entry.digest
            high &+= digest.high
            low &+= digest.low
            count += 1
        }
        return (count, Digest(high: high, low: low))
    }

    /// Adds a dictionary of `count` entries whose sum (``entries(of:replacing:)``) is `entries`, as
    /// ``add(_:to:replacing:)`` adds it.
    static func add(count: Int, entries: Digest, to input: inout DigestInput) {
        input.add(6 as UInt8)
        input.add(count)
        input.add(entries)
    }

    /// The digest of a value.
    static func digest(_ value: Any) -> Digest {
        var input = DigestInput()
        add(value, to: &input)
        return input.digest
    }
}

/// The top-level values each page template can read: the names its tags look up, and those of
/// every partial and parent it includes, all the way down. Nil for a template whose names can't
/// all be known (a dynamic partial, changed delimiters) or that prints its whole values (`{{.}}`
/// outside any section): it reads everything.
struct TemplateReads {
    private let reads: [String: Set<String>?]

    /// The reads of every template of `sources` (texts by name).
    init(sources: [String: String]) {
        var reads: [String: Set<String>?] = [:]
        for name in sources.keys {
            reads[name] = Self.names(from: name, sources: sources)
        }
        self.reads = reads
    }

    /// What `template` reads; nil for everything.
    func names(of template: String) -> Set<String>? {
        reads[template] ?? nil
    }

    private static func names(from template: String, sources: [String: String]) -> Set<String>? {
        var names: Set<String> = []
        var seen: Set<String> = []
        var queue = [template]
        while let name = queue.popLast() {
            guard seen.insert(name).inserted else { continue }
            // A partial the theme does not have prints nothing.
            guard let text = sources[name] else { continue }
            guard let tags = TemplateTags.scan(text), let looked = TemplateTags.names(in: text) else { return nil }
            for tag in tags {
                if tag.kind == ">" || tag.kind == "<" { queue.append(tag.name) }
                if tag.kind == nil || tag.kind == "&" || tag.kind == "{", tag.name == ".", tag.depth == 0 { return nil }
            }
            names.formUnion(looked)
        }
        return names
    }
}

extension TemplateContext {
    /// The digest of what `page` is rendered from: its `template`, its `values` (``page(_:)``'s record) of which the
    /// template reads `reads` (nil: every value); see ``PageInputs``. The values count by their keys, whatever their
    /// slots. The context must have been made with digests.
    func inputs(of page: Page, template: String, values: TemplateRecord, reads: Set<String>?) -> Digest {
        var input = DigestInput()
        input.add(template)
        input.add(page.outputPath)
        let posts = postDigests
        // Each value read, by the sum of their digests (see ``PageInputs/add(_:to:replacing:)``).
        var high: UInt64 = 0, low: UInt64 = 0
        var entry = DigestInput(capacity: 256)
        values.forEach { key, value in
            guard reads?.contains(key) ?? true else { return }
            entry.removeAll()
            entry.add(key)
            // Posts count by their digests, values the same on every page by theirs; the rest is walked.
            switch (key, page.kind) {
            case ("post", .post(let index)):
                entry.add(posts[index])
            case ("neighbours", .post(let index)):
                let (older, newer) = site.neighbours(of: index)
                entry.add(older.map { posts[$0] } ?? .zero)
                entry.add(newer.map { posts[$0] } ?? .zero)
            case ("posts", .home(let list)), ("posts", .term(_, _, let list)):
                entry.add(list.posts.count)
                for index in list.posts { entry.add(posts[index]) }
            default:
                if let shared = sharedDigests.digest(of: value) {
                    entry.add(shared)
                } else {
                    PageInputs.add(value, to: &entry)
                }
            }
            let digest = entry.digest
            high &+= digest.high
            low &+= digest.low
        }
        input.add(Digest(high: high, low: low))
        return input.digest
    }
}

extension TemplateContext {
    /// The digest of what `page`'s values (``page(_:)``) and its digest (``inputs(of:template:values:reads:)``) are made
    /// from, without making them: its address and file, its `template` (after the theme's fallbacks) and what it
    /// reads (`reads`), the values every page shows (``SharedDigests/values``; the archives only when the
    /// template may read them), and its own: a post's digest and its neighbours', what its page takes from the post
    /// itself (title, kind, image, the generated page it stands for), a list's page and the digests of its posts.
    /// The theme and `blog.yml` are not in it: `blog serve` keeps these (``PostDigestMemo/lastPages()``)
    /// only while they are as they were. The context must have been made with digests.
    func source(of page: Page, template: String, reads: Set<String>?) -> Digest {
        var input = DigestInput(capacity: 256)
        input.add(sharedDigests.values)
        if reads?.contains("archives") ?? true { input.add(sharedDigests.archives) }
        input.add(template)
        input.add(reads == nil ? 0 : 1 as UInt8)
        input.add(page.outputPath)
        input.add(page.url)
        input.add(site.isNotFound(page) ? 1 : 0 as UInt8)
        let posts = postDigests
        func add(_ pagination: Pagination) {
            input.add(pagination.number)
            input.add(pagination.count)
            input.add(pagination.newerURL ?? "\u{0}")
            input.add(pagination.olderURL ?? "\u{0}")
            input.add(pagination.posts.count)
            for index in pagination.posts { input.add(posts[index]) }
        }
        switch page.kind {
        case .post(let index):
            input.add(1 as UInt8)
            input.add(posts[index])
            let (older, newer) = site.neighbours(of: index)
            input.add(older.map { posts[$0] } ?? .zero)
            input.add(newer.map { posts[$0] } ?? .zero)
            let sitePost = site.posts[index]
            input.add(sitePost.post.kind.rawValue)
            input.add(sitePost.post.title)
            input.add(sitePost.post.image ?? "\u{0}")
            input.add(sitePost.post.isBundle ? 1 : 0 as UInt8)
            input.add(sitePost.post.contentPath)
            input.add(sitePost.url)
            input.add(site.replaced(by: index)?.rawValue ?? "\u{0}")
        case .home(let pagination):
            input.add(2 as UInt8)
            add(pagination)
        case .term(let taxonomy, let index, let pagination):
            input.add(3 as UInt8)
            input.add(taxonomy.rawValue)
            input.add(index)
            add(pagination)
        case .termIndex(let taxonomy):
            input.add(4 as UInt8)
            input.add(taxonomy.rawValue)
        case .archives:
            input.add(5 as UInt8)
        case .notFound:
            input.add(6 as UInt8)
        }
        return input.digest
    }

    /// Whether every page's source (``source(of:template:reads:)``) reads of the site what it read in `last`'s build,
    /// but for the posts' digests and the archives': the same pages in the same order, the same listed posts (a post
    /// page's neighbours), the same generated pages posts stand for, the same values every page shows.
    func readsAsBefore(_ last: PostDigestMemo.LastPages) -> Bool {
        sharedDigests.values == last.values && site.pages == last.pages && site.listed == last.listed && site.replacements == last.replacements
    }

    /// Whether the source of `page` is the one its build made, known without making it, in a site that reads as that
    /// build's (``readsAsBefore(_:)``): none of the posts the source adds (the page's post and its neighbours, a
    /// list's posts) changed since (`changed`, by index into ``Site/posts``: ``PostDigestMemo/changedPosts(_:since:)``),
    /// and the archives' digest is as it was (`archivesKept`) or the page's template does not read them. A title edit
    /// at 10,000 posts changes the sources of a few dozen of 14,600 pages: the others are not made.
    func sourceIsKept(_ page: Page, changed: [Bool], readsArchives: Bool, archivesKept: Bool) -> Bool {
        if readsArchives, !archivesKept { return false }
        switch page.kind {
        case .post(let index):
            let (older, newer) = site.neighbours(of: index)
            return !changed[index] && !(older.map { changed[$0] } ?? false) && !(newer.map { changed[$0] } ?? false)
        case .home(let pagination), .term(_, _, let pagination):
            return !pagination.posts.contains { changed[$0] }
        case .termIndex, .archives, .notFound:
            return true
        }
    }
}

/// The digests of the values many pages show as they are, the same array or dictionary (`config`, `links`, `tags`,
/// `archives`, each menu place's `nav`, the site's and each term's `feeds`, each taxonomy's terms), each made once in a
/// build rather than once per page (at 10,000 posts, 14,600 pages), and found by its identity whatever its key (a
/// theme without a taxonomy's index shows its terms as `tags`). Each is held, so that no other value can take its
/// storage while these digests are in use. Made before the pages' digests, then only read.
struct SharedDigests: @unchecked Sendable {
    private struct Identity: Hashable {
        let type: ObjectIdentifier
        let storage: UnsafeRawPointer
    }

    private var known: [Identity: (value: Any, digest: Digest)] = [:]
    /// The digest of the digests of the values added but `archives`, in their order: what a page's values are made
    /// from besides its own (``TemplateContext/source(of:template:reads:)``).
    var values = Digest.zero
    /// The digest of `archives`, which shows every listed post: apart, since only the pages that read it change
    /// with each post.
    var archives = Digest.zero

    /// Adds `value`, whose digest is `digest` (``PageInputs/digest(_:)``, or one that stands for it).
    mutating func add(_ value: Any, digest: Digest) {
        if let identity = Self.identity(of: value) { known[identity] = (value, digest) }
    }

    /// The digest of `value` when it is one of those added (the same storage), else nil.
    func digest(of value: Any) -> Digest? {
        guard !known.isEmpty, let identity = Self.identity(of: value) else { return nil }
        return known[identity]?.digest
    }

    /// An array of dictionaries or records by its elements' storage, a dictionary by its own (its one stored reference), a
    /// record by itself; nil for any other value.
    private static func identity(of value: Any) -> Identity? {
        let type = ObjectIdentifier(Swift.type(of: value))
        // An empty array or dictionary is one storage for all: never known.
        if type == ObjectIdentifier([[String: Any]].self) {
            let array = value as! [[String: Any]]
            guard !array.isEmpty else { return nil }
            return array.withUnsafeBufferPointer { $0.baseAddress.map { Identity(type: type, storage: UnsafeRawPointer($0)) } }
        }
        if type == ObjectIdentifier(TemplateRecord.self) {
            return Identity(type: type, storage: UnsafeRawPointer(Unmanaged.passUnretained(value as! TemplateRecord).toOpaque()))
        }
        if type == ObjectIdentifier([TemplateRecord].self) {
            let array = value as! [TemplateRecord]
            guard !array.isEmpty else { return nil }
            return array.withUnsafeBufferPointer { $0.baseAddress.map { Identity(type: type, storage: UnsafeRawPointer($0)) } }
        }
        if type == ObjectIdentifier([String: Any].self), MemoryLayout<[String: Any]>.size == MemoryLayout<UnsafeRawPointer>.size {
            let dictionary = value as! [String: Any]
            guard !dictionary.isEmpty else { return nil }
            return withUnsafeBytes(of: dictionary) { $0.load(as: UnsafeRawPointer?.self) }.map { Identity(type: type, storage: $0) }
        }
        return nil
    }
}
