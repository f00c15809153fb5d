import BlogCore
import BlogOutput
import Foundation

/// The folder `cache_dir` of `blog.yml`, where builds keep what the next build needs:
///
/// - `state`: a header (magic, format version, `blog` version, body length, body digest), then the
///   ``SiteState`` of the last build, for a build in place. Any mismatch means there is no state.
///   Its magic is cleared before the published site changes, so that a build stopped half way never
///   leaves a state that describes another site; the next state is written over it, its header last.
/// - `lock`: held by the running build, so that two builds never share the staging folder, the
///   spare copy of the site and the state (see BlogOutput's `BuildLock`, which every build takes).
struct StateFolder {
    static let magic = Array("BLOGCACHE".utf8)
    /// Bump when the layout of the state changes, or what the output it describes may hold: a build in
    /// place keeps that output's unchanged files (10: an output of 9 may hold symbolic links; 13: the
    /// file may hold bytes after the state, left of a longer one it was written over; 14: the theme's body facts).
    static let formatVersion: UInt32 = 14
    static let stateName = "state"
    /// Files of the build cache of earlier versions, removed when a state is saved.
    static let formerFiles = ["index", "data.pack"]

    let folder: URL
    /// How the folder is named in messages.
    let display: String
    /// The `blog` version the state belongs to.
    let version: String

    var stateURL: URL { folder.appendingPathComponent(Self.stateName) }

    /// The folder of `request`'s blog. Throws when `cache_dir` is a folder the build must not
    /// write into.
    static func of(_ request: IncrementalRequest) throws -> StateFolder {
        let config = request.config
        let (named, display) = BlogFolder(url: request.source, display: request.sourceDisplay).resolve(config.cacheDir)
        // The folder that holds it resolved once, and the folder itself never a link: a build writes and deletes
        // files in it.
        let folder = URL(fileURLWithPath: PathSafety.resolved(named.deletingLastPathComponent()), isDirectory: true)
            .appendingPathComponent(named.lastPathComponent)
        try FileKind.refuseLink(folder.path, display: display, what: "`cache_dir: \(config.cacheDir)`",
                                fix: "remove the link (what it points to is left as it is), or set `cache_dir` to a folder of its own")
        let resolved = PathSafety.resolved, inside = PathSafety.isInside
        let target = resolved(folder)
        var problem: String?
        if inside(target, resolved(request.output)) {
            problem = "it is inside the output folder, which every build replaces"
        } else if case let content = resolved(request.content),
                  inside(target, content), !target.dropFirst(content.count + 1).split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            // A hidden folder is never read as content.
            problem = "it is inside the content folder (\(config.content)), where its files would be read as content"
        } else if inside(target, resolved(request.source.appendingPathComponent("themes"))) {
            problem = "it is inside themes/"
        } else if target == resolved(request.source) || inside(resolved(request.source), target) {
            problem = "it holds the blog folder"
        }
        if let problem {
            throw BuildFailure([.error(request.sourceDisplay + "blog.yml", "refusing `cache_dir: \(config.cacheDir)`: \(problem); choose a folder of its own such as .blog-cache")])
        }
        return StateFolder(folder: folder, display: display, version: request.version)
    }

    // MARK: - The state

    /// The last build's state; nil when there is none or it can't be used.
    func loadState() -> SiteState? {
        load()?.state
    }

    /// The last build's state, and whether this process saved it (the state file is as it left it). A process
    /// that builds again and again (`blog serve`) gets the state it saved itself back without reading it.
    /// With `keepingBytes`, the state file's bytes as read, for a build in place to write its changes over
    /// (``saveState(_:over:posts:outputs:)``); nil for a state this process saved.
    func load(keepingBytes: Bool = false) -> (state: SiteState, savedHere: Bool, bytes: LoadedBytes?)? {
        if let file = FileStat.of(stateURL.path, followingLinks: false), let kept = Self.kept.state(at: stateURL.path),
           kept.file == file, kept.version == version {
            return (kept.state, true, nil)
        }
        var layout: StateLayout?
        guard let data = stateBytes(),
              let state = try? unwrap(data, { try SiteState(decoding: $0, recording: keepingBytes, layout: &layout) }) else { return nil }
        return (state, false, layout.map { LoadedBytes(file: data, layout: $0) })
    }

    /// A state file's bytes as a build read them, and where the sections and records of its body are.
    struct LoadedBytes {
        var file: Data
        var layout: StateLayout
    }

    /// The bytes of the state file: a regular file, never read through a link (one to `/dev/zero`
    /// would never end).
    private func stateBytes() -> Data? {
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        return FileStat.read(Self.stateName, in: directory, followingLinks: false)?.0
    }

    /// The state this process last saved in each folder, with the state file it saved it as.
    private static let kept = KeptStates()

    /// Writes the state for the next build; a failure only costs the next build time. It is written
    /// over the last state's file when that is the folder's own (``ownStateFile()``): its blocks are
    /// reused. Removing the file and making a new one freed its blocks (4 MB at 10,000 posts), which a
    /// file system mounted with `discard` passes on to the disk before the call returns: 17-70 ms of a
    /// build in place on the benchmark machine. Else it is made anew beside it and renamed over it.
    func saveState(_ state: SiteState) {
        stage(state)?.publish()
    }

    /// Saves `state`, which a build in place made of the state whose file it read as `loaded`, writing over that
    /// file only what it changed: the records of posts `posts` and output files `outputs` (indices), the fields
    /// before and between the records, each where it was, and the fields after them. The file then holds what
    /// ``saveState(_:)`` writes; re-encoding the whole state and writing it (4 MB at 10,000 posts) was half of a
    /// body edit's instructions. Saved as ``saveState(_:)`` does when a part would not keep its length (a warning
    /// more or less), or the file is not one a build may write over. Whether it wrote over the file's parts.
    @discardableResult
    func saveState(_ state: SiteState, over loaded: LoadedBytes, posts: [Int], outputs: [Int]) -> Bool {
        let start = header(length: 0, digest: .zero).count
        let layout = loaded.layout
        guard loaded.file.count >= start + layout.length, layout.posts.count == state.posts.count,
              layout.outputs.count == state.outputs.count else {
            saveState(state)
            return false
        }
        // Each part as `saveState(_:)` would write it, at its place in the body.
        var parts: [(at: Int, bytes: [UInt8])] = []
        func part(at place: Int, _ encode: (inout StateWriter) -> Void) -> Int {
            var bytes: [UInt8] = []
            var out = StateWriter(chunk: 256) { bytes.append(contentsOf: $0) }
            encode(&out)
            out.flush()
            parts.append((place, bytes))
            return bytes.count
        }
        var same = part(at: layout.head.lowerBound, state.encodeHead) == layout.head.count
            && part(at: layout.warnings.lowerBound, state.encodeWarnings) == layout.warnings.count
            && part(at: layout.folders.lowerBound, state.encodeFolders) == layout.folders.count
        for number in Set(posts) where same {
            same = part(at: layout.posts[number]) { state.encodePostChanges(number, into: &$0) } == layout.postChangesLength
        }
        for number in Set(outputs) where same {
            same = part(at: layout.outputs[number].lowerBound) { state.encodeOutputChanges(number, into: &$0) } == layout.outputs[number].count
        }
        let tailLength = part(at: layout.tail, state.encodeTail)
        guard same, let (fd, size) = ownStateFile() else {
            saveState(state)
            return false
        }
        defer { close(fd) }
        // No state while it is written over: the header, written last, makes it one again.
        guard Self.clearMagic(fd) else { return false }
        var body = loaded.file.subdata(in: start..<start + layout.tail)
        for (at, bytes) in parts where at < layout.tail {
            body.replaceSubrange(at..<at + bytes.count, with: bytes)
        }
        body.append(contentsOf: parts.last!.bytes)
        let length = layout.tail + tailLength
        do {
            for (at, bytes) in parts { try Self.put(bytes, at: off_t(start + at), in: fd) }
            try Self.put(header(length: length, digest: Digest.of(body)), at: 0, in: fd)
        } catch {
            return false
        }
        if start + length < size / 2 { ftruncate(fd, off_t(start + length)) }
        if let file = FileStat.of(stateURL.path, followingLinks: false) {
            Self.kept.keep(state, version: version, as: file, at: stateURL.path)
        }
        return true
    }

    /// Writes `state` as ``saveState(_:)`` does, all but what makes it the folder's state: the header over
    /// the last state's file (whose magic stays cleared until then), or the rename of the new file over it.
    /// A full build does this while its site is flushed to disk, and ``StagedState/publish()`` once the site
    /// it describes is published: the state is never newer than the site. Nil when it can't be written.
    func stage(_ state: SiteState) -> StagedState? {
        let temporary = folder.appendingPathComponent(Self.stateName + ".new")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let (fd, size) = ownStateFile() {
                // No state while it is written over: the header, written last, makes it one again.
                if Self.clearMagic(fd) {
                    let body = Result { try writeBody(state, into: fd) }
                    guard case .success(let (length, digest)) = body else {
                        close(fd)
                        return nil
                    }
                    let header = header(length: length, digest: digest)
                    return StagedState(folder: self, state: state, place: .over(fd: fd, size: size, used: header.count + length, header: header))
                }
                close(fd)
            }
            // Made anew: a file (or link) left there is never written through.
            unlink(temporary.path)
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let written = Result { () throws -> Void in
                let (length, digest) = try writeBody(state, into: fd)
                try Self.put(header(length: length, digest: digest), at: 0, in: fd)
            }
            if close(fd) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            try written.get()
            return StagedState(folder: self, state: state, place: .beside(temporary: temporary))
        } catch {
            unlink(temporary.path)
            return nil
        }
    }

    /// A state written by ``StateFolder/stage(_:)`` that is not the folder's state yet.
    final class StagedState {
        enum Place {
            /// Written over the last state's file, open as `fd`, `size` bytes long before and `used` bytes of it
            /// the state's; `header` is still to write.
            case over(fd: Int32, size: Int, used: Int, header: [UInt8])
            /// Written whole at `temporary`, beside the state's file.
            case beside(temporary: URL)
        }
        private let folder: StateFolder
        private let state: SiteState
        private var place: Place?

        fileprivate init(folder: StateFolder, state: SiteState, place: Place) {
            self.folder = folder
            self.state = state
            self.place = place
        }

        /// Makes it the folder's state.
        func publish() {
            guard let place else { return }
            self.place = nil
            let stateURL = folder.stateURL
            switch place {
            case let .over(fd, size, used, header):
                defer { close(fd) }
                guard (try? StateFolder.put(header, at: 0, in: fd)) != nil else { return }
                // A shorter state leaves the end of the longer one after it (the header has its length),
                // unless that would be most of the file: cutting it off frees blocks.
                if used < size / 2 { ftruncate(fd, off_t(used)) }
            case .beside(let temporary):
                if rename(temporary.path, stateURL.path) != 0 {
                    unlink(temporary.path)
                    return
                }
            }
            if let file = FileStat.of(stateURL.path, followingLinks: false) {
                // Under the build lock: no other build writes the file in between.
                StateFolder.kept.keep(state, version: folder.version, as: file, at: stateURL.path)
            }
            for name in StateFolder.formerFiles { unlink(folder.folder.appendingPathComponent(name).path) }
        }

        /// Leaves the folder without a state: the build that staged it failed before its site was published.
        func abandon() {
            guard let place else { return }
            self.place = nil
            switch place {
            case .over(let fd, _, _, _): close(fd)
            case .beside(let temporary): unlink(temporary.path)
            }
        }

        deinit { abandon() }
    }

    /// Makes the state no state, before the output changes: its magic is cleared in place (removing the
    /// file would free its blocks, see ``saveState(_:)``), or, when the file is not the folder's own,
    /// it is removed.
    func dropState() {
        Self.kept.forget(at: stateURL.path)
        guard let (fd, _) = ownStateFile() else {
            unlink(stateURL.path)
            return
        }
        defer { close(fd) }
        if !Self.clearMagic(fd) { unlink(stateURL.path) }
    }

    /// Zeroes the magic at the start of the open state file `fd`, which makes it no state; whether it did.
    private static func clearMagic(_ fd: Int32) -> Bool {
        let cleared = [UInt8](repeating: 0, count: magic.count)
        return cleared.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == cleared.count
    }

    /// The state file open for writing, with its size, when it is one a build may write over (see
    /// ``SiteWriter/openOwnFile(_:in:)``): a regular file linked from this folder alone.
    private func ownStateFile() -> (fd: Int32, size: Int)? {
        SiteWriter.openOwnFile(stateURL.path)
    }

    /// Writes the body of `state`'s file into the open file `fd` (``SiteState/encode(into:)``), written and
    /// digested a part at a time, never held whole, after room for the header, which is written last (see
    /// ``put(_:at:in:)``) so that a file written over is a state only once whole. Returns the body's length and digest.
    private func writeBody(_ state: SiteState, into fd: Int32) throws -> (length: Int, digest: Digest) {
        let start = header(length: 0, digest: .zero).count
        var failure: Int32 = 0
        var digest = Digest.Running()
        var length = 0
        if lseek(fd, off_t(start), SEEK_SET) != off_t(start) { failure = errno }
        var body = StateWriter { part in
            digest.add(part)
            length += part.count
            if failure == 0 { failure = SiteWriter.write(part, to: fd) }
        }
        state.encode(into: &body)
        body.flush()
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
        return (length, digest.digest)
    }

    /// Writes `bytes` at `offset` of the open file `fd`.
    fileprivate static func put(_ bytes: [UInt8], at offset: off_t, in fd: Int32) throws {
        var failure: Int32 = 0
        if lseek(fd, offset, SEEK_SET) != offset { failure = errno }
        if failure == 0 { failure = bytes.withUnsafeBytes { SiteWriter.write($0, to: fd) } }
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
    }

    /// The header of a state file whose body has `length` bytes of digest `digest`: magic, format,
    /// `blog` version, length and checksum.
    private func header(length: Int, digest: Digest) -> [UInt8] {
        var out = Self.magic
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        u32(Self.formatVersion)
        let versionBytes = Array(version.utf8)
        u32(UInt32(versionBytes.count))
        out += versionBytes
        u64(UInt64(length))
        u64(digest.high)
        u64(digest.low)
        return out
    }

    /// `read` given the body of bytes made by ``write(_:to:)``, checked: the format, the `blog`
    /// version, the length and the checksum.
    func unwrap<T>(_ data: Data, _ read: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> T in
            var reader = StateReader(raw: raw)
            let (length, digest) = try header(&reader)
            // What follows is what is left of a longer state the file held before (see ``saveState(_:)``).
            let body = try reader.take(length)
            guard Digest.of(body) == digest else { throw StateError("the checksum does not match") }
            return try read(body)
        }
    }

    /// The header's length and checksum of the body, `reader` moved past the header; throws when the header is not
    /// one of a state of this format and `blog` version.
    private func header(_ reader: inout StateReader) throws -> (length: Int, digest: Digest) {
        guard Array(try reader.take(Self.magic.count)) == Self.magic else { throw StateError("not a state") }
        guard try reader.u32() == Self.formatVersion else { throw StateError("another format") }
        let versionLength = Int(try reader.u32())
        guard versionLength <= 256,
              String(decoding: try reader.take(versionLength), as: UTF8.self) == version else { throw StateError("another version") }
        return (try reader.int(), try reader.digest())
    }

    /// The first two fields of the last build's state, read from the start of its file without the rest and unchecked:
    /// the output folder it describes (``SiteState/output``: a build with `--no-cache` needs no more) and its inputs
    /// digest (``SiteState/inputs``: a hint, taken before the build lock, of whether the build may be done in place).
    /// Nil when there is no state. A state cut short after these is still read as one here: one about the output a
    /// `--no-cache` build replaces is dropped, as a whole one is; it was no state anyway.
    func stateHead() -> (output: String, inputs: Digest)? {
        let fd = open(stateURL.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The header and the body's first two fields: the output folder's path (under PATH_MAX) and the digest.
        var head = [UInt8](repeating: 0, count: 8192)
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard got > 0 else { return nil }
        return head.withUnsafeBytes { raw in
            var reader = StateReader(raw: UnsafeRawBufferPointer(rebasing: raw[..<got]))
            guard (try? header(&reader)) != nil, let output = try? reader.string(), let inputs = try? reader.digest() else { return nil }
            return (output, inputs)
        }
    }
}

/// The states a process saved, by the path of their file (see ``StateFolder/loadState()``).
private final class KeptStates: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [String: (file: FileStat, version: String, state: SiteState)] = [:]

    func state(at path: String) -> (file: FileStat, version: String, state: SiteState)? {
        lock.withLock { states[path] }
    }

    func keep(_ state: SiteState, version: String, as file: FileStat, at path: String) {
        lock.withLock { states[path] = (file, version, state) }
    }

    func forget(at path: String) {
        _ = lock.withLock { states.removeValue(forKey: path) }
    }
}
