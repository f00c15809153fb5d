import BlogContent
import BlogCore
import BlogRender
import BlogSite
import Foundation
import Synchronization

/// The state a full build leaves (see ``SiteState``), made while its files are flushed to disk.
extension QuickBuild {
    /// The state of each post file of `built`: its file as the build read it (see ``PostFileReads``; a file the build
    /// did not read, such as one `blog serve` kept from its last build, is read again: its bytes are digested, not kept),
    /// and what other pages show of its post. A post is patchable when its body links nowhere else and no template
    /// transformed it (`opaque`). Nil when a post file changed since `changedSince` (nanoseconds since 1970), while the
    /// build ran: what the build read of it is then unknown. A file in `known` (the last build's states by path) that
    /// is as it was then, and whose body links nowhere else, keeps its state, with the post's place in this site.
    static func postStates(_ built: BuiltSite, contentDir: URL, readerKey: Digest, headings: BodyFacts, opaque: Set<Int>,
                           changedSince: Int64, known: [String: PostState] = [:], reads: PostFileReads? = nil,
                           statRead: (String) -> FileStat? = { _ in nil }) -> [PostState]? {
        let site = built.site
        let paths = built.inventory.posts
        // By index: `enumerated()` gave each post copied, every string retained.
        let placed = Dictionary(site.posts.indices.map { (site.posts[$0].post.contentPath, $0) }, uniquingKeysWith: { a, _ in a })
        let directory = open(contentDir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        let made = Parallel.map(paths.count) { number -> PostState? in
            let path = paths[number]
            if var state = known[path], state.patchable {
                // As the build found the file before reading it (`blog serve`), else looked at now.
                var info = stat()
                if let now = statRead(path) ?? (fstatat(directory, path, &info, 0) == 0 ? FileStat(info) : nil),
                   now == state.stat, now.ctime < changedSince {
                    state.index = placed[path]
                    state.patchable = state.index.map { !opaque.contains($0) } ?? true
                    return state
                }
            }
            guard let file = reads?.facts(number)
                    ?? FileStat.read(path, in: directory).map({ PostFileFacts($0.0, stat: $0.1, post: built.posts[number], readerKey: readerKey) }),
                  file.stat.ctime < changedSince else { return nil }
            guard let bare = file.bare else {
                return PostState(path: path, stat: file.stat, content: file.content, skeleton: .zero, index: nil, patchable: true)
            }
            guard let index = placed[path] else {
                return PostState(path: path, stat: file.stat, content: file.content, skeleton: SiteState.digest(unplaced: bare),
                                 index: nil, patchable: true)
            }
            let rendered = site.posts[index].rendered
            return PostState(path: path, stat: file.stat, content: file.content,
                             skeleton: SiteState.digest(post: bare, rendered: rendered, headings: headings, wordsPerMinute: site.config.wordsPerMinute), index: index,
                             patchable: !opaque.contains(index) && !file.bodyLinks && !SiteState.renderedLinksElsewhere(rendered))
        }
        var posts: [PostState] = []
        posts.reserveCapacity(made.count)
        for post in made {
            guard let post else { return nil }
            posts.append(post)
        }
        return posts
    }

    /// The state of the full build `built`, whose files are now written in `folder` and soon in
    /// the output folder, with `posts` from ``postStates(_:contentDir:readerKey:headings:opaque:changedSince:)``;
    /// nil when a file of the content folder changed since `changedSince`, or a file is missing.
    static func state(after built: BuiltSite, in folder: URL, pageHoles: [[BodyHole]], feedHoles: [String: [BodyHole]],
                      posts: [PostState], request: IncrementalRequest, inputs: Digest, previousPaths: Digest?, changedSince: Int64) -> SiteState? {
        let files = built.files
        let filePaths = files.map(\.path)
        let identities = FileStat.of(filePaths, in: folder.path, followingLinks: false)
        var outputs: [OutputState] = []
        outputs.reserveCapacity(files.count)
        for (number, file) in files.enumerated() {
            guard let identity = identities[number] else { return nil }
            let holes = number < pageHoles.count ? pageHoles[number] : feedHoles[file.path] ?? []
            let inputs = built.pageInputs.flatMap { number < $0.count ? $0[number] : nil } ?? .zero
            outputs.append(OutputState(path: file.path, identity: identity, holes: holes, inputs: inputs))
        }
        guard var state = state(after: built, outputs: outputs, posts: posts, request: request, inputs: inputs, changedSince: changedSince)
        else { return nil }
        state.spareSamePaths = previousPaths == state.pathsDigest
        // The published site becomes the spare copy once this one is swapped in: the files this
        // build linked from it are shared, the files it wrote are not.
        if state.spareSamePaths {
            let published = FileStat.of(filePaths, in: request.output.path, followingLinks: false)
            state.spareDiffers = files.indices.filter { number in published[number].map { !$0.sameFile(as: outputs[number].identity) } ?? true }
        }
        return state
    }

    /// The state of the site `built` whose published files are `outputs` (in the order of
    /// `built.files`), with `posts` from ``postStates(_:contentDir:readerKey:headings:opaque:changedSince:)``
    /// and no spare copy known, and `inputs` (``RequestDigests/inputs``); nil when a file of the content folder changed
    /// since `changedSince`.
    static func state(after built: BuiltSite, outputs: [OutputState], posts: [PostState], request: IncrementalRequest, inputs: Digest,
                      changedSince: Int64) -> SiteState? {
        let site = built.site
        var assets: [FileState] = []
        for (path, stat) in zip(built.inventory.assets, FileStat.of(built.inventory.assets, in: request.content.path)) {
            guard let stat, stat.ctime < changedSince else { return nil }
            assets.append(FileState(path: path, stat: stat))
        }
        // The folders, when the scan skipped nothing (a link that leads nowhere may lead somewhere
        // later, with no folder of the content changed).
        var folders: [FileState]?
        if built.inventory.warnings.isEmpty {
            folders = []
            for path in built.inventory.folders {
                guard let stat = FileStat.of(path), stat.ctime < changedSince else { folders = nil; break }
                folders?.append(FileState(path: path, stat: stat))
            }
        }
        // Counted, not filtered: a filtered copy of 50,000 posts is 40 MB at the build's peak of memory.
        let postCount = site.posts.reduce(0) { $0 + ($1.post.kind == .post ? 1 : 0) }
        return SiteState(inputs: inputs, dueAt: built.dueAt,
                         postCount: postCount, contentPageCount: site.posts.count - postCount, leftOut: site.leftOut, tagCount: site.tags.count,
                         pageCount: site.pages.count,
                         warnings: built.warnings,
                         posts: posts, assets: assets, folders: folders, outputs: outputs,
                         spareSamePaths: false, spareDiffers: nil, pathsDigest: SiteState.digest(paths: built.files.map(\.path)),
                         headings: QuickBuild.showsHeadings(request.theme), output: PathSafety.resolved(request.output))
    }
}

/// What the state of a post file takes from the bytes its post was read from (see ``QuickBuild/postStates(_:contentDir:readerKey:headings:opaque:changedSince:known:reads:statRead:)``).
struct PostFileFacts: Sendable {
    /// The file's state, taken after its bytes were read.
    var stat: FileStat
    /// Digest of its bytes.
    var content: Digest
    /// Digest of its post without the body (``SiteState/digest(of:file:readerKey:)``, with the post's
    /// ``SiteState/postKey(_:bundle:)``); nil when the file gave no post.
    var bare: Digest?
    /// Whether the body as written links elsewhere (``SiteState/bodyLinksElsewhere(_:bodyBytes:)``).
    var bodyLinks: Bool

    /// The facts of a file whose bytes are `data`, its state `stat`, which gave `post` (nil for none).
    init(_ data: Data, stat: FileStat, post: Post?, readerKey: Digest) {
        self.stat = stat
        content = Digest.of(data)
        guard let post else {
            bare = nil
            bodyLinks = false
            return
        }
        // Whether the file is its folder's post, as it was read (see PageBundle).
        bare = SiteState.digest(of: post, file: data, readerKey: SiteState.postKey(readerKey, bundle: post.isBundle))
        let start = SiteState.bodyStart(in: data, bodyLine: post.bodyLine)
        bodyLinks = data.withUnsafeBytes { raw in
            SiteState.bodyLinksElsewhere(post, bodyBytes: UnsafeRawBufferPointer(rebasing: raw[start...]).bindMemory(to: UInt8.self))
        }
    }
}

/// The facts of each post file (``PostFileFacts``) taken as a full build reads it, by its number in the content folder's
/// inventory: the state made while the site is flushed then needs no file read again (at 10,000 posts, 60,000
/// system calls: an `openat`, two `fstat`s, two `read`s and a `close` each). A file changed after it was read shows
/// as changed to the next build, as its state is the one taken when it was read.
package final class PostFileReads: Sendable {
    private let readerKey: Digest
    private let facts = Mutex<[PostFileFacts?]>([])

    init(readerKey: Digest) {
        self.readerKey = readerKey
    }

    /// Room for the facts of `count` post files, none known yet.
    package func start(count: Int) {
        facts.withLock { $0 = Array(repeating: nil, count: count) }
    }

    /// Post file `number`, at `path`, was read as `data` and gave `post` (nil when it gave none that the build uses):
    /// its state is `status`, taken from the open file after the read (``PostReader/contentsAndStatus(ofPath:source:)``),
    /// else taken now from the path. Looking the path up again from `/` for it was 0.8% of a clean build's CPU time at
    /// 10,000 posts, and could find another file put in its place since.
    package func read(_ number: Int, path: String, data: Data, status: stat?, post: Post?) {
        guard let stat = status.map(FileStat.init) ?? FileStat.of(path) else { return }
        let made = PostFileFacts(data, stat: stat, post: post, readerKey: readerKey)
        facts.withLock { if $0.indices.contains(number) { $0[number] = made } }
    }

    /// The facts of post file `number`, when the build read it.
    func facts(_ number: Int) -> PostFileFacts? {
        facts.withLock { $0.indices.contains(number) ? $0[number] : nil }
    }
}
