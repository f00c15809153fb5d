import BlogContent
import BlogCore
import BlogMarkdown
import BlogRender
import BlogSite
import Foundation

/// What a finished build leaves for the next one, in the file `state` of `cache_dir`: enough to
/// tell from the files' sizes and times that only post bodies changed, and to put the new bodies
/// into the published pages and feeds without building the rest (see ``QuickBuild``).
struct SiteState {
    /// Everything besides the content folder that the site depends on (see ``QuickBuild/inputs``).
    var inputs: Digest
    /// When the first post now in the future falls due (seconds since 1970): from then on the
    /// site differs with no file changed.
    var dueAt: Double?
    /// Posts, tags and pages of the report.
    var postCount: Int
    var tagCount: Int
    var pageCount: Int
    /// Every warning of the build, in display order.
    var warnings: [Diagnostic]
    /// Every post file of the content folder, in the scanner's order.
    var posts: [PostState]
    /// Every other file of the content folder, in the scanner's order.
    var assets: [FileState]
    /// Every file of the published site.
    var outputs: [OutputState]
    /// Whether the spare copy beside the output folder (the site before) has the same files.
    var spareSamePaths: Bool
    /// Digest of the published site's paths, in order.
    var pathsDigest: Digest
    /// The output folder, resolved.
    var output: String
}

/// A post file as the last build saw it.
struct PostState {
    var path: String
    var stat: FileStat
    var content: Digest
    /// Everything of the post but its body's rendered HTML (see ``SiteState/digest(post:rendered:headings:)``).
    var skeleton: Digest
    /// Index into ``Site/posts``; nil for a post with no page (a draft, say).
    var index: Int?
    /// Whether a new body can be put into the site in place: false when the body has links that
    /// depend on other posts (Liquid, Pelican's `{filename}`) or a template transforms it.
    var patchable: Bool
}

/// A file of the content folder that is not a post.
struct FileState {
    var path: String
    var stat: FileStat
}

/// A file of the published site.
struct OutputState {
    var path: String
    /// Device, inode, size and modification time of the published file (its change time moves
    /// when the spare copy links to it, so it is not compared).
    var identity: FileStat
    /// Where post bodies are in it.
    var holes: [BodyHole]
}

extension FileStat {
    /// Same device, inode, size and modification time.
    func sameFile(as other: FileStat) -> Bool {
        device == other.device && inode == other.inode && size == other.size && mtime == other.mtime
    }
}

extension SiteState {
    static let fileName = "state"

    /// Digest of a post as read, without its body: of what it is read from besides the body.
    /// A post is its header's lines, its path and the reader's settings (`readerKey`); of the
    /// body, the reader only takes the summary (Jekyll's `excerpt_separator`).
    static func digest(of post: Post, file data: Data, readerKey: Digest) -> Digest {
        var input = DigestInput()
        input.add(readerKey)
        input.add(post.source)
        input.add(post.contentPath)
        input.add(post.bodyLine)
        if let summary = post.summary { input.add(1 as UInt8); input.add(summary) } else { input.add(0 as UInt8) }
        // The lines before the body.
        let header = data.withUnsafeBytes { raw -> Digest in
            var lines = post.bodyLine - 1
            var end = 0
            while lines > 0, end < raw.count {
                if raw[end] == UInt8(ascii: "\n") { lines -= 1 }
                end += 1
            }
            return Digest.of(UnsafeRawBufferPointer(rebasing: raw[0..<end]))
        }
        input.add(header)
        return input.digest
    }

    /// What other pages can show of a post with a page: the post without its body, its summary,
    /// whether the summary is the whole post, and (when a template names `headings`) its headings.
    static func digest(post: Digest, rendered: RenderedMarkdown, headings: Bool) -> Digest {
        var input = DigestInput()
        input.add(post)
        input.add(rendered.summaryHTML)
        input.add(rendered.summaryHTML == rendered.html ? 1 as UInt8 : 0)
        if headings { input.add((try? BinaryEncoder.encode(rendered.headings)) ?? []) }
        return input.digest
    }

    /// The same for a post without a page.
    static func digest(unplaced post: Digest) -> Digest {
        var input = DigestInput()
        input.add(post)
        input.add(0xFF as UInt8)
        return input.digest
    }

    /// Whether a post's body has anything whose output depends on other posts: Liquid tags in a
    /// YAML or TOML post, Pelican's `{filename}`, `{static}` and `{attach}` links.
    static func linksElsewhere(_ post: Post, _ rendered: RenderedMarkdown?) -> Bool {
        if post.headerFormat == .yaml || post.headerFormat == .toml {
            if Liquid.needsProcessing(post.body) || post.summary.map(Liquid.needsProcessing) == true { return true }
        }
        if ContentLinks.mayHoldAttachments(post.body) { return true }
        guard let rendered else { return false }
        return ContentLinks.mayHoldReferences(rendered.html) || ContentLinks.mayHoldReferences(rendered.summaryHTML)
    }

    /// Digest of output paths, in order.
    static func digest(paths: [String]) -> Digest {
        var input = DigestInput()
        for path in paths { input.add(path) }
        return input.digest
    }
}

extension CacheStore {
    var stateURL: URL { folder.appendingPathComponent(SiteState.fileName) }

    /// The last build's state; nil when there is none or it can't be used.
    func loadState() -> SiteState? {
        guard let data = try? Data(contentsOf: stateURL) else { return nil }
        return try? Self.unwrapRecord(data, version: version) { try SiteState(decoding: $0) }
    }

    /// Writes the state for the next build (atomically); a failure only costs the next build time.
    func saveState(_ state: SiteState) {
        guard let body = try? state.encoded() else { return }
        let bytes = Self.wrapRecord(body, version: version)
        let temporary = folder.appendingPathComponent(SiteState.fileName + ".new")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, stateURL.path) != 0 { unlink(temporary.path) }
        } catch {
            unlink(temporary.path)
        }
    }

    /// Holds `lock` in the cache folder for the build; throws when another build holds it.
    /// Without `create`, a missing cache folder is left missing and nothing is held.
    func lock(create: Bool) throws -> BuildLock {
        let path = folder.appendingPathComponent("lock").path
        if create { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        // A cache folder that can't be written is a warning of the build, not an error here.
        guard fd >= 0 else { return BuildLock(fd: -1) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            close(fd)
            if busy {
                throw BuildFailure([.error(display, "another `blog build` of this blog is running (it holds \(display)/lock); wait for it to finish")])
            }
            return BuildLock(fd: -1)
        }
        return BuildLock(fd: fd)
    }

    /// Removes the state: done before the output changes, so that a build stopped half way never
    /// leaves a state that describes another site.
    func dropState() {
        unlink(stateURL.path)
    }
}

// MARK: - Bytes

/// The state in bytes, written field by field: through the generic coder, the state of a big
/// site took most of an in-place build.
extension SiteState {
    func encoded() throws -> [UInt8] {
        var out = StateWriter()
        out.digest(inputs)
        out.bool(dueAt != nil)
        out.int(Int((dueAt ?? 0).bitPattern))
        out.int(postCount)
        out.int(tagCount)
        out.int(pageCount)
        out.bytes(try BinaryEncoder.encode(warnings))
        out.int(posts.count)
        for post in posts {
            out.string(post.path)
            out.stat(post.stat)
            out.digest(post.content)
            out.digest(post.skeleton)
            out.int(post.index ?? -1)
            out.bool(post.patchable)
        }
        out.int(assets.count)
        for asset in assets {
            out.string(asset.path)
            out.stat(asset.stat)
        }
        out.int(outputs.count)
        for file in outputs {
            out.string(file.path)
            out.stat(file.identity)
            out.int(file.holes.count)
            for hole in file.holes {
                out.int(hole.post)
                out.int(hole.offset)
                out.int(hole.length)
                switch hole.form {
                case .html: out.int(0)
                case .escaped: out.int(1)
                case .feedXML(let base): out.int(2); out.string(base)
                case .feedJSON(let base): out.int(3); out.string(base)
                }
            }
        }
        out.bool(spareSamePaths)
        out.digest(pathsDigest)
        out.string(output)
        return out.bytes
    }

    init(decoding raw: UnsafeRawBufferPointer) throws {
        var reader = StateReader(raw: raw)
        inputs = try reader.digest()
        let hasDue = try reader.bool()
        let due = Double(bitPattern: UInt64(bitPattern: Int64(try reader.int())))
        dueAt = hasDue ? due : nil
        postCount = try reader.int()
        tagCount = try reader.int()
        pageCount = try reader.int()
        warnings = try BinaryDecoder.decode([Diagnostic].self, from: try reader.bytes())
        posts = []
        for _ in 0..<(try reader.count()) {
            let path = try reader.string()
            let stat = try reader.stat()
            let content = try reader.digest()
            let skeleton = try reader.digest()
            let index = try reader.int()
            posts.append(PostState(path: path, stat: stat, content: content, skeleton: skeleton,
                                   index: index < 0 ? nil : index, patchable: try reader.bool()))
        }
        assets = []
        for _ in 0..<(try reader.count()) {
            assets.append(FileState(path: try reader.string(), stat: try reader.stat()))
        }
        outputs = []
        for _ in 0..<(try reader.count()) {
            let path = try reader.string()
            let identity = try reader.stat()
            var holes: [BodyHole] = []
            for _ in 0..<(try reader.count()) {
                let post = try reader.int(), offset = try reader.int(), length = try reader.int()
                let form: BodyForm
                switch try reader.int() {
                case 0: form = .html
                case 1: form = .escaped
                case 2: form = .feedXML(base: try reader.string())
                case 3: form = .feedJSON(base: try reader.string())
                default: throw BinaryCoderError.unsupported("unknown body form")
                }
                holes.append(BodyHole(post: post, offset: offset, length: length, form: form))
            }
            outputs.append(OutputState(path: path, identity: identity, holes: holes))
        }
        spareSamePaths = try reader.bool()
        pathsDigest = try reader.digest()
        output = try reader.string()
        guard reader.atEnd else { throw BinaryCoderError.unsupported("bytes after the state") }
    }
}

private struct StateWriter {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(value)).littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func digest(_ value: Digest) { u64(value.high); u64(value.low) }
    mutating func bytes(_ value: [UInt8]) { int(value.count); bytes.append(contentsOf: value) }
    mutating func string(_ value: String) { bytes(Array(value.utf8)) }
    mutating func stat(_ value: FileStat) {
        u64(value.device); u64(value.inode)
        int(Int(value.size)); int(Int(value.mtime)); int(Int(value.ctime))
    }
}

private struct StateReader {
    let raw: UnsafeRawBufferPointer
    var position = 0

    var atEnd: Bool { position == raw.count }

    mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, raw.count - position >= count else { throw BinaryCoderError.truncated }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: raw[position..<position + count])
    }
    mutating func u64() throws -> UInt64 {
        let b = try take(8)
        var value: UInt64 = 0
        for i in (0..<8).reversed() { value = value << 8 | UInt64(b[i]) }
        return value
    }
    mutating func int() throws -> Int { Int(truncatingIfNeeded: Int64(bitPattern: try u64())) }
    /// A count of items that each take at least a byte.
    mutating func count() throws -> Int {
        let value = try int()
        guard value >= 0, value <= raw.count - position else { throw BinaryCoderError.unsupported("a count is too big") }
        return value
    }
    mutating func bool() throws -> Bool { try take(1)[0] != 0 }
    mutating func digest() throws -> Digest { Digest(high: try u64(), low: try u64()) }
    mutating func bytes() throws -> [UInt8] { Array(try take(try count())) }
    mutating func string() throws -> String { String(decoding: try take(try count()), as: UTF8.self) }
    mutating func stat() throws -> FileStat {
        FileStat(device: try u64(), inode: try u64(), size: Int64(try int()), mtime: Int64(try int()), ctime: Int64(try int()))
    }
}

/// The cache folder's lock, held until ``release()``.
struct BuildLock {
    let fd: Int32

    func release() {
        if fd >= 0 { close(fd) }
    }
}
