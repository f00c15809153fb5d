import BlogContent
import BlogCore
import Foundation

/// Where a blob is in the pack, and its digest (checked every time it is read).
struct BlobRef: Codable, Sendable {
    var offset: Int
    var length: Int
    var digest: Digest
}

/// A blob under a key: a rendered markdown body.
struct BlobEntry: Codable, Sendable {
    var key: Digest
    var ref: BlobRef
}

/// What the cache knows about one post file: how it looked on disk, its content's digest, and
/// where its parsed ``Post`` and warnings are.
struct PostEntry: Codable, Sendable {
    /// The file, relative to `content/`.
    var path: String
    /// Everything besides the file's bytes that the parsed post depends on (see ``BuildCache``).
    var readerKey: Digest
    var stat: FileStat
    var content: Digest
    var ref: BlobRef
    /// ``SiteState/digest(of:file:readerKey:)`` of the post.
    var skeleton: Digest
}

/// A file's identity and the times that change with its content: a fast check that it is untouched.
struct FileStat: Codable, Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mtime: Int64
    var ctime: Int64

    /// The state of the file at `path`, not following a final symbolic link when `link` is true.
    static func of(_ path: String, followingLinks: Bool = true) -> FileStat? {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return nil }
        return FileStat(info)
    }

    /// The states of `paths`, relative to `folder`, on all cores. The folder is opened once and
    /// each path looked up from it (`fstatat`), which walks only the path's own components:
    /// looking every component up again took most of a build in place.
    static func of(_ paths: [String], in folder: String, followingLinks: Bool = true) -> [FileStat?] {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return paths.map { of(folder + "/" + $0, followingLinks: followingLinks) } }
        defer { close(directory) }
        let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
        return Parallel.map(paths.count) { number in
            var info = stat()
            return fstatat(directory, paths[number], &info, flags) == 0 ? FileStat(info) : nil
        }
    }

    init(device: UInt64, inode: UInt64, size: Int64, mtime: Int64, ctime: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtime = mtime
        self.ctime = ctime
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}

/// The parsed post as the cache stores it.
struct CachedPost: Codable {
    /// The post; its body is empty when ``bodyBytes`` is set.
    var post: Post
    var warnings: [Diagnostic]
    /// When the body is the file's last bytes as they are (a UTF-8 file without CR line ends,
    /// nearly all), their count: the body is read from the file rather than kept twice.
    var bodyBytes: Int?

    /// `post` as kept for the file `data` it was read from.
    init(post: Post, warnings: [Diagnostic], file data: Data) {
        var body = post.body
        let count = body.utf8.count
        let isTail = count <= data.count && body.withUTF8 { bytes in
            data.withUnsafeBytes { file in
                count == 0 || memcmp(file.baseAddress! + (file.count - count), bytes.baseAddress!, count) == 0
            }
        }
        self.post = post
        self.warnings = warnings
        if isTail {
            self.post.body = ""
            bodyBytes = count
        }
    }

    /// The post, its body taken from `data` (the file's bytes) where it was left there; nil
    /// when `data` can't hold it.
    func post(file data: Data) -> Post? {
        guard let count = bodyBytes else { return post }
        guard count <= data.count, let body = String(validating: data.suffix(count), as: UTF8.self) else { return nil }
        var post = post
        post.body = body
        return post
    }
}

/// The cache's table of contents, rewritten by every build that uses the cache.
struct CacheIndex: Codable {
    /// Names the pack this index belongs to; a pack of another index is not read.
    var packID: Digest
    /// The pack's valid length: anything after it is a write that did not finish.
    var packLength: Int
    var posts: [PostEntry]
    var markdown: [BlobEntry]
}

/// The cache's files in its folder:
///
/// - `index`: a header (magic, format version, `blog` version, body length, body digest) and the
///   ``CacheIndex``. Any mismatch means the whole cache is ignored.
/// - `data.pack`: blobs appended one after the other (parsed posts, rendered markdown),
///   each found through the index and checked against its digest when read. A build appends only
///   what it made; the pack is rewritten without dead blobs when they outweigh the live ones.
///
/// Both are replaced by renames, so a build that stops half way leaves the previous cache whole.
/// Beside them: `state` (the same header, then a ``SiteState``, for builds in place) and `lock`
/// (held by the running build).
struct CacheStore {
    static let magic = Array("BLOGCACHE".utf8)
    /// Bump when the index or blob layout changes.
    static let formatVersion: UInt32 = 6
    static let indexName = "index"
    static let packName = "data.pack"
    static let packMagic = Array("BLOGPACK".utf8)

    let folder: URL
    /// How the folder is named in messages.
    let display: String
    /// The `blog` version the cache belongs to.
    let version: String

    var indexURL: URL { folder.appendingPathComponent(Self.indexName) }
    var packURL: URL { folder.appendingPathComponent(Self.packName) }

    /// The previous build's index and its pack (memory-mapped); nil when there is no cache (the
    /// first build). Throws when there is one that can't be used (``CacheProblem`` says why).
    func load() throws -> (index: CacheIndex, pack: Data)? {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return nil }
        let data = try Data(contentsOf: indexURL)
        let index = try Self.decodeIndex(data, version: version)
        let pack: Data
        do {
            pack = try Data(contentsOf: packURL, options: .alwaysMapped)
        } catch {
            throw CacheProblem.damaged("\(Self.packName) can't be read")
        }
        guard pack.count >= index.packLength, pack.count >= Self.packMagic.count + 16,
              Array(pack.prefix(Self.packMagic.count)) == Self.packMagic else {
            throw CacheProblem.damaged("\(Self.packName) is shorter than the index says")
        }
        guard pack.subdata(in: Self.packMagic.count..<Self.packMagic.count + 16) == Self.bytes(of: index.packID) else {
            throw CacheProblem.damaged("\(Self.packName) belongs to another index")
        }
        return (index, pack)
    }

    /// Why a cache could not be used; the text ends a warning.
    /// Why the cache could not be written, in words for the warning.
    struct WriteError: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }

        /// `what`, with the system's reason (`errno`).
        static func system(_ what: String) -> WriteError {
            WriteError("\(what): \(String(cString: strerror(errno)))")
        }
    }

    enum CacheProblem: Error, CustomStringConvertible {
        case otherVersion(String)
        case otherFormat
        case damaged(String)

        var description: String {
            switch self {
            case .otherVersion(let version): return "it was made by blog \(version)"
            case .otherFormat: return "it has another format"
            case .damaged(let why): return "it is damaged: \(why)"
            }
        }
    }

    static func decodeIndex(_ data: Data, version: String) throws -> CacheIndex {
        try decodeRecord(CacheIndex.self, data, version: version)
    }

    /// A value written by ``encodeRecord(_:version:)``, checked: the format, the `blog` version, the length and the checksum.
    static func decodeRecord<T: Decodable>(_ type: T.Type, _ data: Data, version: String) throws -> T {
        try unwrapRecord(data, version: version) { try BinaryDecoder.decode(T.self, from: $0) }
    }

    /// `read` given the body of a record, checked as ``decodeRecord(_:_:version:)`` says.
    static func unwrapRecord<T>(_ data: Data, version: String, _ read: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> T in
            var position = 0
            func take(_ count: Int) throws -> UnsafeRawBufferPointer {
                guard count >= 0, raw.count - position >= count else { throw CacheProblem.damaged("the index ends too early") }
                defer { position += count }
                return UnsafeRawBufferPointer(rebasing: raw[position..<position + count])
            }
            func u32() throws -> UInt32 {
                let b = try take(4)
                return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
            }
            func u64() throws -> UInt64 { UInt64(try u32()) | UInt64(try u32()) << 32 }
            guard Array(try take(magic.count)) == magic else { throw CacheProblem.damaged("not a blog cache index") }
            guard try u32() == formatVersion else { throw CacheProblem.otherFormat }
            let versionLength = Int(try u32())
            guard versionLength <= 256 else { throw CacheProblem.damaged("not a blog cache index") }
            let madeBy = String(decoding: try take(versionLength), as: UTF8.self)
            guard madeBy == version else { throw CacheProblem.otherVersion(madeBy) }
            let length = Int(truncatingIfNeeded: try u64())
            let digest = Digest(high: try u64(), low: try u64())
            guard length >= 0, raw.count - position == length else { throw CacheProblem.damaged("the index is \(raw.count - position < length ? "truncated" : "too long")") }
            let body = try take(length)
            guard Digest.of(body) == digest else { throw CacheProblem.damaged("the index's checksum does not match") }
            return try read(body)
        }
    }

    static func encodeIndex(_ index: CacheIndex, version: String) throws -> [UInt8] {
        try encodeRecord(index, version: version)
    }

    /// `value` behind a header: magic, format, `blog` version, length and checksum.
    static func encodeRecord<T: Encodable>(_ value: T, version: String) throws -> [UInt8] {
        wrapRecord(try BinaryEncoder.encode(value), version: version)
    }

    /// `body` behind the header of a record.
    static func wrapRecord(_ body: [UInt8], version: String) -> [UInt8] {
        var out = magic
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        u32(formatVersion)
        let versionBytes = Array(version.utf8)
        u32(UInt32(versionBytes.count))
        out += versionBytes
        u64(UInt64(body.count))
        let digest = Digest.of(body)
        u64(digest.high)
        u64(digest.low)
        out += body
        return out
    }

    static func bytes(of digest: Digest) -> Data {
        var data = Data()
        withUnsafeBytes(of: digest.high.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: digest.low.littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes the cache: `blobs` appended to the pack (or a new pack holding only the live blobs
    /// of `index` when `rewrite`), then the index. The index is written last and by rename, so
    /// a failure at any point leaves a cache that is either the old one or detected as damaged.
    /// The pack is not flushed to disk: after a crash, blobs that did not reach it fail their
    /// digest when read, and the cache is ignored as damaged, so waiting for the disk buys nothing.
    /// Blob refs in `index` with `offset < 0` point into `blobs` (`-1 - i`) and are fixed here.
    func save(_ index: CacheIndex, blobs: [[UInt8]], oldPack: Data?, rewrite: Bool) throws {
        let fm = FileManager.default
        var index = index
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw WriteError("\(display) is a file, where the cache folder should be")
        }
        do {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError("cannot create the folder \(display): \(PostReader.reason(error))")
        }
        let handle: FileHandle
        var length: Int
        var blobOffsets: [Int] = []
        if rewrite || oldPack == nil {
            // A fresh pack: live old blobs copied over, then the new ones.
            index.packID = Digest.of(Array(UUID().uuidString.utf8) + withUnsafeBytes(of: DispatchTime.now().uptimeNanoseconds) { Array($0) })
            let temporary = folder.appendingPathComponent(Self.packName + ".new")
            try? fm.removeItem(at: temporary)
            guard fm.createFile(atPath: temporary.path, contents: nil) else { throw WriteError("cannot create \(display)/\(temporary.lastPathComponent)") }
            handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            var header = Data(Self.packMagic)
            header += Self.bytes(of: index.packID)
            var buffer = header
            length = buffer.count
            var moved: [Int: Int] = [:]  // old offset -> new offset
            func relocate(_ ref: inout BlobRef) {
                guard ref.offset >= 0, let oldPack else { return }
                if let done = moved[ref.offset] { ref.offset = done; return }
                buffer += oldPack[ref.offset..<ref.offset + ref.length]
                moved[ref.offset] = length
                ref.offset = length
                length += ref.length
                if buffer.count > 8 << 20 { handle.write(buffer); buffer.removeAll(keepingCapacity: true) }
            }
            for i in index.posts.indices { relocate(&index.posts[i].ref) }
            for i in index.markdown.indices { relocate(&index.markdown[i].ref) }
                for blob in blobs {
                blobOffsets.append(length)
                buffer.append(contentsOf: blob)
                length += blob.count
                if buffer.count > 8 << 20 { handle.write(buffer); buffer.removeAll(keepingCapacity: true) }
            }
            handle.write(buffer)
            try handle.close()
            guard rename(temporary.path, packURL.path) == 0 else { throw WriteError.system("cannot replace \(display)/\(Self.packName)") }
        } else {
            handle = try FileHandle(forWritingTo: packURL)
            defer { try? handle.close() }
            length = index.packLength
            try handle.truncate(atOffset: UInt64(length))
            try handle.seek(toOffset: UInt64(length))
            var buffer = Data()
            for blob in blobs {
                blobOffsets.append(length)
                buffer.append(contentsOf: blob)
                length += blob.count
            }
            handle.write(buffer)
            try handle.close()
        }
        func fix(_ ref: inout BlobRef) {
            if ref.offset < 0 { ref.offset = blobOffsets[-1 - ref.offset] }
        }
        for i in index.posts.indices { fix(&index.posts[i].ref) }
        for i in index.markdown.indices { fix(&index.markdown[i].ref) }
        index.packLength = length
        let bytes = try Self.encodeIndex(index, version: version)
        let temporary = folder.appendingPathComponent(Self.indexName + ".new")
        try Data(bytes).write(to: temporary)
        guard rename(temporary.path, indexURL.path) == 0 else { throw WriteError.system("cannot replace \(display)/\(Self.indexName)") }
    }
}
