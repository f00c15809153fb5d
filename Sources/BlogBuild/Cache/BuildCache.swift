import BlogConfig
import BlogContent
import BlogCore
import BlogMarkdown
import Foundation

/// The build cache of one build: what the previous build left in `cache_dir`, and what this build
/// adds, saved by ``save()`` once the site is written.
///
/// What is kept, and under which key (a key holds everything the value depends on, so a value
/// is reused only where computing it again would give the same result):
/// - a post file's parsed ``Post`` and warnings: under its path and a *reader key* (the whole
///   configuration, the path shown in messages, the `blog` version), checked by the file's
///   size and times, else by the digest of its bytes (a checkout on another machine has new times);
/// - a post's rendered markdown: under the digest of the body and summary handed to the
///   renderer and the ``MarkdownOptions``.
///
/// Pages are not kept: rendering one costs less than digesting what it depends on, and a build
/// that changes only bodies doesn't render pages at all (see ``QuickBuild``).
///
/// A cache of another `blog` version or format, or one that is damaged, is ignored with a warning
/// and the build is a clean one; a cache that can't be written is a warning too. Neither ever
/// fails the build, and warnings about the cache don't count for `--strict`.
final class BuildCache: @unchecked Sendable {
    let store: CacheStore
    /// Warnings about the cache itself.
    package private(set) var warnings: [Diagnostic] = []

    private let oldIndex: CacheIndex?
    private let pack: Data?
    private let oldPosts: [String: PostEntry]
    private let oldMarkdown: [Digest: BlobRef]

    private let lock = NSLock()
    private var newPosts: [String: PostEntry] = [:]
    private var newMarkdown: [Digest: BlobRef] = [:]
    /// What this build adds, encoded by ``encode()``: until then their refs have no length or digest.
    private var pending: [PendingBlob] = []
    private var encoded: [[UInt8]?]?
    private var damaged = false
    /// Counts for `--timings`-style reports and tests.
    private(set) var stats = (postsReused: 0, postsRead: 0, markdownReused: 0, markdownRendered: 0)

    /// Opens the cache of `store`; never throws: an unusable cache is a warning and an empty cache.
    init(store: CacheStore) {
        self.store = store
        let display = store.display
        var loaded: (index: CacheIndex, pack: Data)?
        do {
            loaded = try store.load()
        } catch {
            let why: String
            switch error {
            case let problem as CacheStore.CacheProblem: why = problem.description
            case let coder as BinaryCoderError: why = "it is damaged: \(coder)"
            default: why = "it can't be read: \(PostReader.reason(error))"
            }
            warnings.append(.warning(display, "ignoring the build cache: \(why); building everything"))
        }
        oldIndex = loaded?.index
        pack = loaded?.pack
        oldPosts = Dictionary((loaded?.index.posts ?? []).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        oldMarkdown = Dictionary((loaded?.index.markdown ?? []).map { ($0.key, $0.ref) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: - Blobs

    /// The bytes of `ref`, checked against its digest; nil (and the cache marked damaged, with a
    /// warning) when they don't match.
    private func withBlob<T>(_ ref: BlobRef, _ body: (UnsafeRawBufferPointer) throws -> T) -> T? {
        guard let pack, ref.offset >= 0, ref.length >= 0, ref.offset + ref.length <= pack.count else {
            markDamaged("a blob lies outside \(CacheStore.packName)")
            return nil
        }
        return pack.withUnsafeBytes { raw -> T? in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[ref.offset..<ref.offset + ref.length])
            guard Digest.of(bytes) == ref.digest else {
                markDamaged("a blob's checksum does not match")
                return nil
            }
            do {
                return try body(bytes)
            } catch {
                markDamaged("a blob can't be decoded (\(error))")
                return nil
            }
        }
    }

    private func markDamaged(_ why: String) {
        lock.lock()
        defer { lock.unlock() }
        if !damaged {
            damaged = true
            warnings.append(.warning(store.display, "the build cache is damaged: \(why); what it holds is not used"))
        }
    }

    /// A value to keep, encoded when the build has time for it (see ``encode()``).
    private enum PendingBlob {
        case post(CachedPost)
        case markdown(RenderedMarkdown)
    }

    /// Keeps `blob` for the save; returns a ref to it, completed by ``encode()``.
    private func add(_ blob: PendingBlob) -> BlobRef {
        lock.lock()
        defer { lock.unlock() }
        pending.append(blob)
        return BlobRef(offset: -pending.count, length: 0, digest: .zero)
    }

    // MARK: - Posts

    /// The post in the file at `url` (`path` relative to `content/`), from the cache when the
    /// file and `readerKey` are as before, else from `read` (given the file's bytes), then kept.
    /// Errors are not kept: a post that fails is read again by the next build.
    func post(at url: URL, path: String, readerKey: Digest, source: String,
              read: (Data) throws -> (Post, [Diagnostic])) throws -> (Post, [Diagnostic]) {
        let stat = FileStat.of(url.path)
        let old = oldPosts[path].flatMap { $0.readerKey == readerKey ? $0 : nil }
        // Decoded only when the file looks unchanged, by its times or by its bytes.
        lazy var cached = old.flatMap { old in damaged ? nil : withBlob(old.ref) { try BinaryDecoder.decode(CachedPost.self, from: $0) } }
        // An untouched file whose post is kept whole is not read at all.
        if let old, let stat, stat == old.stat, let cached, cached.bodyBytes == nil {
            record(path, old)
            return (cached.post, cached.warnings)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BuildFailure([.error(source, "cannot read the file: \(PostReader.reason(error))")])
        }
        if let old, let stat, stat == old.stat, let cached, let post = cached.post(file: data) {
            record(path, old)
            return (post, cached.warnings)
        }
        let content = Digest.of(data)
        if let old, old.content == content, let cached, let post = cached.post(file: data) {
            var entry = old
            entry.stat = stat ?? old.stat
            record(path, entry)
            return (post, cached.warnings)
        }
        let (post, warnings) = try read(data)
        if let stat {
            let entry = PostEntry(path: path, readerKey: readerKey, stat: stat, content: content,
                                  ref: add(.post(CachedPost(post: post, warnings: warnings, file: data))),
                                  skeleton: SiteState.digest(of: post, file: data, readerKey: readerKey))
            lock.lock()
            newPosts[path] = entry
            stats.postsRead += 1
            lock.unlock()
        }
        return (post, warnings)
    }

    /// The post files this build read, by path under the content folder.
    var postEntries: [String: PostEntry] {
        lock.lock()
        defer { lock.unlock() }
        return newPosts
    }

    private func record(_ path: String, _ entry: PostEntry) {
        lock.lock()
        newPosts[path] = entry
        stats.postsReused += 1
        lock.unlock()
    }

    // MARK: - Markdown

    /// The rendered body and summary: from the cache when the same body, summary and options were
    /// rendered before, else from `render`, then kept.
    func rendered(body: String, summary: String?, options: MarkdownOptions,
                  render: () -> RenderedMarkdown) -> RenderedMarkdown {
        var input = DigestInput()
        input.add(store.version)
        input.add((try? BinaryEncoder.encode(options)) ?? [])
        input.add(body)
        if let summary { input.add(1 as UInt8); input.add(summary) } else { input.add(0 as UInt8) }
        let key = input.digest
        if let ref = oldMarkdown[key], !damaged,
           let cached = withBlob(ref, { try BinaryDecoder.decode(RenderedMarkdown.self, from: $0) }) {
            lock.lock()
            newMarkdown[key] = ref
            stats.markdownReused += 1
            lock.unlock()
            return cached
        }
        let rendered = render()
        let ref = add(.markdown(rendered))
        lock.lock()
        newMarkdown[key] = ref
        stats.markdownRendered += 1
        lock.unlock()
        return rendered
    }

    // MARK: - Saving

    /// Encodes what this build adds, on all cores, and completes the refs to it. A clean build
    /// calls it while the new site is flushed to disk, which leaves the cores idle; ``save()``
    /// calls it when no one did.
    func encode() {
        lock.lock()
        defer { lock.unlock() }
        guard encoded == nil else { return }
        let blobs = pending
        let bytes = Parallel.map(blobs.count) { number -> ([UInt8], Digest)? in
            let made: [UInt8]?
            switch blobs[number] {
            case .post(let post): made = try? BinaryEncoder.encode(post)
            case .markdown(let rendered): made = try? BinaryEncoder.encode(rendered)
            }
            return made.map { ($0, Digest.of($0)) }
        }
        func complete(_ ref: BlobRef) -> BlobRef? {
            guard ref.offset < 0 else { return ref }
            guard let (blob, digest) = bytes[-1 - ref.offset] else { return nil }
            return BlobRef(offset: ref.offset, length: blob.count, digest: digest)
        }
        // A value that can't be encoded is not kept: its post is read, or its markdown rendered, again.
        newPosts = newPosts.compactMapValues { entry in complete(entry.ref).map { var entry = entry; entry.ref = $0; return entry } }
        newMarkdown = newMarkdown.compactMapValues(complete)
        encoded = bytes.map { $0?.0 }
        pending = []
    }

    /// Writes the cache for the next build; a failure is a warning, never a failed build.
    func save() {
        encode()
        var index = CacheIndex(packID: damaged ? .zero : (oldIndex?.packID ?? .zero), packLength: damaged ? 0 : (oldIndex?.packLength ?? 0),
                               posts: newPosts.values.sorted { $0.path < $1.path },
                               markdown: newMarkdown.map { BlobEntry(key: $0.key, ref: $0.value) }.sorted { $0.key.high < $1.key.high })
        // Rewrite the pack without dead blobs when they are more than half of it.
        let live = (index.posts.map(\.ref) + index.markdown.map(\.ref))
            .filter { $0.offset >= 0 }.reduce(0) { $0 + $1.length }
        let dead = (oldIndex?.packLength ?? 0) - live
        let rewrite = damaged || oldIndex == nil || pack == nil || dead > max(live, 16 << 20)
        if damaged { // nothing of the old pack is trusted
            index.posts.removeAll { $0.ref.offset >= 0 }
            index.markdown.removeAll { $0.ref.offset >= 0 }
        }
        do {
            try store.save(index, blobs: (encoded ?? []).map { $0 ?? [] }, oldPack: rewrite && !damaged ? pack : (rewrite ? nil : pack), rewrite: rewrite)
        } catch {
            let why = (error as? CacheStore.WriteError)?.description ?? PostReader.reason(error)
            warnings.append(.warning(store.display, "cannot write the build cache: \(why); the site was built, but the next build can't reuse this one"))
        }
    }
}


extension BuildCache {
    /// Where the cache of a build is, also with `--no-cache` (whose build makes the state of the
    /// last cached one stale). Throws when `cache_dir` is a folder the build must not write into.
    static func store(_ options: BuildOptions, config: SiteConfig, output: URL) throws -> CacheStore? {
        let folder = URL(fileURLWithPath: config.cacheDir, relativeTo: options.source).standardizedFileURL
        let display = config.cacheDir.hasPrefix("/") ? config.cacheDir : options.sourceDisplay + config.cacheDir
        let target = Pipeline.resolved(folder)
        func inside(_ path: String, _ folder: String) -> Bool {
            path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
        }
        var problem: String?
        if inside(target, Pipeline.resolved(output)) {
            problem = "it is inside the output folder, which every build replaces"
        } else if case let content = Pipeline.resolved(Pipeline.contentFolder(options, config: config).url),
                  inside(target, content), !target.dropFirst(content.count + 1).split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            // A hidden folder is never read as content.
            problem = "it is inside the content folder (\(config.content)), where its files would be read as content"
        } else if inside(target, Pipeline.resolved(options.source.appendingPathComponent("themes"))) {
            problem = "it is inside themes/"
        } else if target == Pipeline.resolved(options.source) || inside(Pipeline.resolved(options.source), target) {
            problem = "it holds the blog folder"
        }
        if let problem {
            throw BuildFailure([.error(options.sourceDisplay + "blog.yml", "refusing `cache_dir: \(config.cacheDir)`: \(problem); choose a folder of its own such as .blog-cache")])
        }
        return CacheStore(folder: folder, display: display, version: options.version)
    }

    /// What a parsed post depends on besides its file: the whole configuration (whatever of it
    /// the reader uses, now or later), the `blog` version and the reader's rules.
    static func readerKey(config: SiteConfig, version: String) -> Digest {
        var input = DigestInput()
        input.add(version)
        input.add(PostReader.rulesRevision)
        input.add(String(reflecting: config))
        return input.digest
    }

    /// The reader key of one post file: `readerKey`, and whether the file is its folder's post,
    /// which for a README depends on the other files (see ``PageBundle``), not on its own.
    static func postKey(_ readerKey: Digest, bundle: Bool) -> Digest {
        guard bundle else { return readerKey }
        var input = DigestInput()
        input.add(readerKey)
        input.add("bundle")
        return input.digest
    }
}

extension BuildCache {
    /// `posts 9999 reused, 1 read; markdown 9999 reused, 1 rendered`.
    var summary: String {
        let s = stats
        return "posts \(s.postsReused) reused, \(s.postsRead) read; markdown \(s.markdownReused) reused, \(s.markdownRendered) rendered"
    }
}
