#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import BlogCore
import CSystem
import Foundation

/// What a write did.
public struct WriteReport: Sendable, Equatable {
    /// Files whose bytes are new or changed.
    public var written: Int
    /// Files identical to the previous output: kept as they were, modification time included.
    public var unchanged: Int

    package init(written: Int, unchanged: Int) {
        self.written = written
        self.unchanged = unchanged
    }
}

/// Writes a generated site so that a reader of the output folder only ever sees the old site or
/// the new one, whole: files go into a staging folder beside the output, which is then swapped
/// in with one `rename`. When anything fails before the swap, the previous output is exactly as
/// it was.
///
/// Files whose bytes equal the previous output's are hard links to the previous file, so their
/// modification time does not change and `rsync`-style deploys upload only what changed.
/// Top-level hidden entries of the previous output (a `.git` folder of a deploy branch, say) are
/// carried over to the new one.
package enum SiteWriter {
    /// Writes `files` as the whole new content of `output`.
    /// - Parameters:
    ///   - files: every file of the site; paths relative, `/`-separated, unique.
    ///   - output: the output folder (created when missing); see ``OutputFolder`` for the folders
    ///     refused, and where the staging folder and the spare copy are.
    ///   - displayPath: how to name the output folder in messages.
    ///   - origins: who asks for an output path (see ``OutputOrigin``), to name them in messages
    ///     about it; asked only when there is a problem.
    ///   - whileFlushing: work to do, given the folder that holds the new site, once every file
    ///     is written and while they are flushed to disk (which leaves the cores idle); the site
    ///     is published only after it returns.
    package static func write(_ files: [OutputFile], to output: URL, displayPath: String,
                              origins: OriginLookup = .none,
                              whileFlushing: (URL) -> Void = { _ in }) throws -> WriteReport {
        let folder = try OutputFolder.locate(output, display: displayPath)
        try checkPaths(files, displayPath: displayPath, rootLength: folder.staging.path.utf8.count, origins: origins)
        let staging = folder.staging
        // The site before the published one, kept by the last build: updating it costs what
        // changed, where building a whole new tree costs a folder and a link per page.
        var reuse = false
        do {
            try FileManager.default.createDirectory(at: folder.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            removeTree(staging)
            if folder.exists, let spare = folder.spare, FileKind.of(spare.path) == S_IFDIR, rename(spare.path, staging.path) == 0 {
                reuse = true
            } else {
                if let spare = folder.spare { removeTree(spare) }
                guard mkdir(staging.path, 0o777) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
        } catch {
            throw BuildFailure([.error(displayPath, "cannot create the staging folder \(staging.path): \(error.localizedDescription)")])
        }

        let report: WriteReport
        do {
            report = try writeAll(files, into: staging, previous: folder.exists ? folder.url : nil, reuse: reuse, origins: origins)
            try OutputFolder.mark(staging, previous: folder.exists ? folder.url : nil)
            // The new site reaches the disk before it replaces the old one: a crash can't publish
            // empty files.
            let flush = Flush(staging.path)
            whileFlushing(staging)
            if let failure = flush.wait() {
                throw BuildFailure([.error(displayPath, "cannot write the new site to disk: \(failure); the previous output is unchanged")])
            }
        } catch {
            removeTree(staging)
            throw error
        }
        try swap(staging, into: folder)
        return report
    }

    /// Publishes the site in `output` with the files of `changed` replaced, all others as they
    /// are: the spare copy of the site before (see ``write(_:to:displayPath:origins:whileFlushing:)``)
    /// becomes the staging folder, gets a link to each unchanged file and the changed files' new
    /// bytes, and is swapped in. `paths` are every file of the site; with `spareSamePaths` the
    /// spare holds exactly those, else it is pruned first. `spareDiffers`, when known, are the
    /// paths where the spare is not a hard link to the published file: only those and `changed`
    /// are then touched, and only they are flushed to disk; else every path is checked and the
    /// whole file system flushed. Without a spare, the staging folder is made anew and linked.
    /// Returns nil, leaving the output as it was, when the staging folder can't be made (the
    /// caller then builds in full).
    package static func patch(output: URL, paths: [String], changed: [String: Data], spareSamePaths: Bool,
                              spareDiffers: [String]? = nil) -> WriteReport? {
        guard let folder = try? OutputFolder.locate(output, display: ""), folder.exists else { return nil }
        let staging = folder.staging
        removeTree(staging)
        let hasSpare = folder.spare.map { FileKind.of($0.path) == S_IFDIR } ?? false
        // Without a spare (the first build into this output made none), a new staging folder is
        // linked whole: a tenth of the time of building the site again.
        guard hasSpare ? rename(folder.spare!.path, staging.path) == 0 : mkdir(staging.path, 0o777) == 0 else { return nil }
        let root = staging.path
        let published = folder.url.path
        // A spare taken as the last build left it is looked into only where its folders are
        // folders: a link where one belongs (no build makes one) would be followed. Else it is pruned.
        let looked = spareDiffers.map { Array(Set($0).union(changed.keys)) } ?? paths
        let trusted = hasSpare && spareSamePaths && folders(holding: looked).allSatisfy { FileKind.of(root + "/" + $0) == S_IFDIR }
        if !trusted {
            if hasSpare { prune(root: root, keeping: paths) }
            guard (try? makeFolders(for: paths, under: root, existing: hasSpare)) != nil else { removeTree(staging); return nil }
        }
        // Paths are looked up from the two folders' descriptors: walking each full path again
        // was most of a build in place.
        let from = open(published, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), into = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        defer { if from >= 0 { close(from) }; if into >= 0 { close(into) } }
        guard from >= 0, into >= 0 else { removeTree(staging); return nil }
        let known = trusted ? spareDiffers : nil
        let touched = known.map { Array(Set($0).union(changed.keys)) } ?? paths
        let failed = Parallel.map(touched.count) { number -> Bool in
            let path = touched[number]
            if let data = changed[path] {
                unlinkat(into, path, 0)
                return (try? create(root + "/" + path, with: data, durably: known != nil)) == nil
            }
            return !relink(path, in: from, path, in: into, reuse: true)
        }
        let marked = (try? OutputFolder.mark(staging, previous: folder.url)) != nil
        let flushed = known == nil ? blog_sync_filesystem(root) == 0 : syncFolders(of: touched, in: into)
        guard !failed.contains(true), marked, flushed, (try? swap(staging, into: folder)) != nil else {
            removeTree(staging)
            return nil
        }
        return WriteReport(written: changed.count, unchanged: paths.count - changed.count)
    }

    /// Flushes to disk the entries of the folders (under the folder open as `root`) that hold
    /// `paths`, and the folder itself; whether every flush succeeded.
    private static func syncFolders(of paths: [String], in root: Int32) -> Bool {
        var folders = Set<Substring>([""])
        for path in paths { folders.insert(path.lastSlash.map { path[..<$0] } ?? "") }
        return folders.allSatisfy { folder in
            let fd = folder.isEmpty ? dup(root) : openat(root, String(folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return fsync(fd) == 0
        }
    }

    /// Every path must stay inside the output folder, be there once, and have names a file system
    /// takes (`NAME_MAX` bytes a name, `PATH_MAX` in all below a root path of `rootLength` bytes).
    /// Each problem is an error at the file that asks for the path (see ``OutputOrigin``), else at
    /// the output folder.
    static func checkPaths(_ files: [OutputFile], displayPath: String, rootLength: Int = 0,
                           origins: OriginLookup = .none) throws {
        var seen = Set<String>()
        var problems = Set<Diagnostic>()
        // A path that is also another's folder (`archives` and `archives/index.html`).
        let folders = folders(holding: files.map(\.path))
        for file in files {
            let path = file.path
            if !PathSafety.isPlainOutputPath(path) {
                problems.insert(OutputOrigin.blame(origins(path), or: displayPath, "refusing to write \"\(path)\": it is not a plain path inside the output folder"))
            } else if !seen.insert(path).inserted {
                problems.insert(OutputOrigin.collision(path, origins: origins(path), or: displayPath))
            } else if folders.contains(path[...]), let inner = files.first(where: { $0.path.hasPrefix(path + "/") })?.path {
                problems.insert(OutputOrigin.collision(path, origins: origins(path), inner: inner, innerOrigins: origins(inner), or: displayPath))
            } else if let long = path.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
                problems.insert(OutputOrigin.blame(origins(path), or: displayPath, "the output path \"\(shortened(path))\" has a name of \(long.utf8.count) bytes, and a file system takes at most \(NAME_MAX): shorten the slug, title or path that makes it"))
            } else if rootLength + 1 + path.utf8.count >= Int(PATH_MAX) {
                problems.insert(OutputOrigin.blame(origins(path), or: displayPath, "the output path \"\(shortened(path))\" is \(path.utf8.count) bytes long, and in the output folder over the \(PATH_MAX) bytes a path may have: shorten it"))
            }
        }
        if !problems.isEmpty { throw BuildFailure(Array(problems).sortedForDisplay()) }
    }

    /// `path` with each name over 40 characters cut short (`posts/xxxxxxxxxxxxxxxxxxxxxxxx…/index.html`), for messages.
    static func shortened(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { $0.count > 40 ? $0.prefix(24) + "…" : String($0) }.joined(separator: "/")
    }

    /// Writes every file under `root`, linking unchanged ones from `previous`, on all cores.
    ///
    /// Files are written with plain `open`/`write`/`close`: Foundation's `Data.write` calls `fsync`
    /// on every file, which commits the file system's journal 13,000 times for a 10,000-post blog.
    /// ``write(_:to:displayPath:whileFlushing:)`` makes the whole staging folder durable with one
    /// flush instead.
    ///
    /// With `reuse`, `root` already holds an older site (the spare): what the new site doesn't
    /// have is removed first, and each file is checked before it is kept, linked or written.
    /// A file there is never written through (it may be a link to a published file): it is
    /// unlinked and made anew.
    /// A file that can't be written is an error at the file that asks for it (`origins`, see
    /// ``OutputOrigin``), else at its path.
    static func writeAll(_ files: [OutputFile], into root: URL, previous: URL?, reuse: Bool = false,
                         origins: OriginLookup = .none) throws -> WriteReport {
        let rootPath = root.path
        let paths = files.map(\.path)
        if reuse { prune(root: rootPath, keeping: paths) }
        let folders = FolderPlan(paths)
        try makeFolders(folders.shared, under: rootPath, existing: reuse)

        let lock = NSLock()
        var failures: [Diagnostic] = []
        var unchanged = 0
        let full = DiskFull()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            // Once the disk is full, the files left are not tried: one message says so, not thousands.
            if full.happened { return }
            let file = files[index]
            let target = rootPath + "/" + file.path
            let previousFile = previous.map { $0.path + "/" + file.path }
            // A folder that holds this file alone is made here, after the page is rendered: made
            // up front, 10,000 post folders would keep one core busy while the other waits.
            func makeOwnFolder() throws {
                guard folders.alone[index] else { return }
                let folder = String(file.path[..<file.path.lastSlash!])
                if mkdir(rootPath + "/" + folder, 0o777) != 0 && !(reuse && errno == EEXIST) {
                    if DiskFull.isFull(errno) { full.record(file.path) }
                    throw BuildFailure([.error(folder, "cannot create this output folder: \(String(cString: strerror(errno)))")])
                }
            }
            do {
                let linked: Bool
                switch file.contents {
                case .bytes(let data):
                    try makeOwnFolder()
                    linked = try place(data, at: target, previous: previousFile, reuse: reuse)
                case .made(let maker):
                    let data = try maker.make()
                    try makeOwnFolder()
                    linked = try place(data, at: target, previous: previousFile, reuse: reuse)
                case .copy(let source):
                    try makeOwnFolder()
                    linked = previousFile.map { linkIfUnchanged(copyOf: source, previous: $0, target: target, reuse: reuse) } ?? false
                    if !linked {
                        if reuse { unlink(target) }
                        // The bytes, never the link `copyItem` would copy: its text means another file here.
                        try create(target, with: Data(contentsOf: source, options: .alwaysMapped))
                    }
                }
                if linked { lock.lock(); unchanged += 1; lock.unlock() }
                full.done(file, at: target)
            } catch let failure as BuildFailure {
                lock.lock()
                failures += failure.diagnostics
                lock.unlock()
            } catch {
                if DiskFull.isFull(error) { full.record(file.path) }
                lock.lock()
                failures.append(.error(file.path, "cannot write this output file: \(error.localizedDescription)"))
                lock.unlock()
            }
        }
        if let first = full.firstPath {
            throw BuildFailure([.error(first, full.message(files: files.count, folder: rootPath))])
        }
        if !failures.isEmpty {
            // Named by the file that asks for them, when one does (a post whose slug is too long for the file system).
            throw BuildFailure(failures.map { failure in
                let asking = origins(failure.path).filter { $0.file != nil }
                return asking.isEmpty ? failure : OutputOrigin.blame(asking, or: failure.path, "\(failure.message) (its output \(failure.path))")
            }.sortedForDisplay())
        }
        return WriteReport(written: files.count - unchanged, unchanged: unchanged)
    }

    /// Removes from the tree at `root` every file and folder that `paths` (the new site's files)
    /// don't need: files not in the list, folders that hold none of them, and anything whose
    /// kind (file or folder) is not the one needed. A symbolic link is never a folder here: it is
    /// removed, or kept as a file to be replaced, and never followed.
    static func prune(root: String, keeping paths: [String]) {
        let wantedFiles = Set(paths)
        let wantedFolders = folders(holding: paths)
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            guard let entries = FolderEntries.of(folder) else { continue }
            for child in entries {
                let path = relative.isEmpty ? child.name : relative + "/" + child.name
                if child.type == S_IFDIR {
                    if wantedFolders.contains(path[...]) { pending.append(path) } else { blog_remove_tree(root + "/" + path) }
                } else if !wantedFiles.contains(path) {
                    unlink(root + "/" + path)
                }
            }
        }
    }

    /// The folders that hold a site's files, split by who makes them.
    struct FolderPlan {
        /// Folders that hold more than one file, or a folder: made before any file, parents first.
        var shared: [Substring]
        /// By file: whether its folder holds it alone (a post's `posts/<slug>/`), and is made
        /// with it.
        var alone: [Bool]

        init(_ paths: [String]) {
            var files: [Substring: Int] = [:]
            for path in paths {
                if let slash = path.lastSlash { files[path[..<slash], default: 0] += 1 }
            }
            // The folders that hold a folder.
            let parents = SiteWriter.folders(holding: Array(files.keys))
            alone = paths.map { path in
                guard let slash = path.lastSlash else { return false }
                let folder = path[..<slash]
                return files[folder] == 1 && !parents.contains(folder)
            }
            shared = parents.union(files.keys.filter { files[$0]! > 1 }).sorted()
        }
    }


    /// Every folder above `paths` (`a/b/c.html` -> `a` and `a/b`).
    static func folders<Path: StringProtocol>(holding paths: [Path]) -> Set<Substring> where Path.SubSequence == Substring {
        var folders = Set<Substring>()
        for path in paths {
            var folder = path[...]
            while let slash = folder.lastSlash {
                folder = folder[..<slash]
                guard folders.insert(folder).inserted else { break }
            }
        }
        return folders
    }

    /// Creates the folders that hold `paths` under `root` (which exists), parents first.
    static func makeFolders(for paths: [String], under root: String, existing: Bool = false) throws {
        try makeFolders(folders(holding: paths).sorted(), under: root, existing: existing)
    }

    /// Creates `folders` (sorted, so parents come first) under `root`; with `existing`, one that
    /// is already there is fine.
    static func makeFolders(_ folders: [Substring], under root: String, existing: Bool) throws {
        // One thread: mkdir in a folder takes the folder's lock, and a second thread would spin on it.
        var errors: [Diagnostic] = []
        for folder in folders where mkdir(root + "/" + folder, 0o777) != 0 && !(existing && errno == EEXIST) {
            errors.append(.error(String(folder), "cannot create this output folder: \(String(cString: strerror(errno)))"))
        }
        if !errors.isEmpty { throw BuildFailure(errors) }
    }

    /// Creates the file `path`, which must not exist yet, holding `data`; `durably`: on disk
    /// (`fsync`) before it returns.
    package static func create(_ path: String, with data: Data, durably: Bool = false) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure = data.withUnsafeBytes { buffer -> Int32 in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return 0
        }
        if durably, failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
    }

    /// Hard-links `previous` to `target` when it holds exactly `data`, else writes `data` there.
    /// Returns whether it linked.
    static func place(_ data: Data, at target: String, previous: String?, reuse: Bool = false) throws -> Bool {
        if let previous, size(ofRegularFile: previous) == data.count,
           (try? Data(contentsOf: URL(fileURLWithPath: previous))) == data, relink(previous, target, reuse: reuse) {
            return true
        }
        if reuse { unlink(target) }
        try create(target, with: data)
        return false
    }

    /// Makes `target` a link to `previous`; with `reuse`, a target that already is one is kept
    /// as it is, and another file there is replaced.
    static func relink(_ previous: String, _ target: String, reuse: Bool) -> Bool {
        relink(previous, in: AT_FDCWD, target, in: AT_FDCWD, reuse: reuse)
    }

    /// ``relink(_:_:reuse:)`` with each path relative to a folder's descriptor (`AT_FDCWD` for
    /// the working folder, or an absolute path). Only a regular file is linked: a hard link to a
    /// symbolic link (an older build's) is one, and the output never holds one.
    static func relink(_ previous: String, in from: Int32, _ target: String, in into: Int32, reuse: Bool) -> Bool {
        var a = stat()
        guard fstatat(from, previous, &a, AT_SYMLINK_NOFOLLOW) == 0, (a.st_mode & S_IFMT) == S_IFREG else { return false }
        if reuse {
            var b = stat()
            if fstatat(into, target, &b, AT_SYMLINK_NOFOLLOW) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino { return true }
            unlinkat(into, target, 0)
        }
        return linkat(from, previous, into, target, 0) == 0
    }

    /// Hard-links `previous` to `target` when it holds exactly the bytes of the file `source`.
    static func linkIfUnchanged(copyOf source: URL, previous: String, target: String, reuse: Bool = false) -> Bool {
        guard let size = size(ofRegularFile: previous) else { return false }
        var sourceStatus = stat()
        guard stat(source.path, &sourceStatus) == 0, Int(sourceStatus.st_size) == size,
              (try? Data(contentsOf: URL(fileURLWithPath: previous), options: .alwaysMapped))
                == (try? Data(contentsOf: source, options: .alwaysMapped)) else { return false }
        return relink(previous, target, reuse: reuse)
    }

    /// The size of `path` when it is a regular file (not following a symbolic link).
    private static func size(ofRegularFile path: String) -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Puts `staging` in the place of the output folder in one step where the system allows it.
    /// The previous site is kept as the spare (hidden, beside the output) for the next build to
    /// update, rather than deleted: deleting 13,000 files costs as much as writing them. An output
    /// folder that is a mount point has its entries replaced instead (``replaceEntries(of:with:)``).
    static func swap(_ staging: URL, into folder: OutputFolder) throws {
        if folder.isMountPoint { return try replaceEntries(of: folder, with: staging) }
        let output = folder.url
        func fail(_ what: String) -> BuildFailure {
            let busy = errno == EBUSY ? " (a mount point, or a folder the system holds: build into a folder inside it instead)" : ""
            return BuildFailure([.error(folder.display, "\(what): \(String(cString: strerror(errno)))\(busy); the previous output is unchanged")])
        }
        guard folder.exists else {
            if rename(staging.path, output.path) != 0 {
                let failure = fail("cannot move the new site into place")
                removeTree(staging)
                throw failure
            }
            return
        }
        if blog_exchange_paths(staging.path, output.path) != 0 {
            // No atomic exchange on this system or file system: two renames, undone on failure.
            let old = OutputFolder.beside(output, "blog-previous")
            removeTree(old)
            guard rename(output.path, old.path) == 0 else {
                let failure = fail("cannot move the previous output aside")
                removeTree(staging)
                throw failure
            }
            guard rename(staging.path, output.path) == 0 else {
                let failure = fail("cannot move the new site into place")
                _ = rename(old.path, output.path)
                removeTree(staging)
                throw failure
            }
            _ = rename(old.path, staging.path)
        }
        // `staging` now holds the previous site: keep its top-level hidden entries, drop the rest.
        for name in (FolderEntries.of(staging.path) ?? []).map(\.name).sorted() where name.hasPrefix(".") {
            let destination = output.appendingPathComponent(name).path
            if FileKind.of(destination) == nil {
                _ = rename(staging.appendingPathComponent(name).path, destination)
            }
        }
        if let spare = folder.spare, rename(staging.path, spare.path) == 0 { return }
        removeTree(staging)
    }

    /// Publishes the new site in `staging`, a folder inside `folder`, a mount point (which can't be
    /// renamed): each top-level entry of the new site takes the place of the published entry of its
    /// name (an atomic exchange where the system has one, else the old entry moves aside first),
    /// and the published entries the new site lacks move into `staging`, which is then removed.
    /// Hidden entries, and a file system's `lost+found`, stay. A reader sees each entry whole, old
    /// or new, but for that moment some entries of each site; a failure puts back what was moved.
    static func replaceEntries(of folder: OutputFolder, with staging: URL) throws {
        let output = folder.url.path, stage = staging.path
        let hold = stage + "/.blog-previous"
        enum Step { case added(String), exchanged(String), held(String), removed(String) }
        var done: [Step] = []
        func fail(_ what: String) throws -> Never {
            let reason = String(cString: strerror(errno))
            for step in done.reversed() {
                switch step {
                case .added(let name): _ = rename(output + "/" + name, stage + "/" + name)
                case .exchanged(let name): _ = blog_exchange_paths(stage + "/" + name, output + "/" + name)
                case .held(let name):
                    _ = rename(output + "/" + name, stage + "/" + name)
                    _ = rename(hold + "/" + name, output + "/" + name)
                case .removed(let name): _ = rename(stage + "/" + name, output + "/" + name)
                }
            }
            removeTree(staging)
            throw BuildFailure([.error(folder.display, "\(what): \(reason); the previous output is unchanged")])
        }
        guard let new = FolderEntries.of(stage)?.map(\.name).sorted(), let old = FolderEntries.of(output)?.map(\.name).sorted() else {
            try fail("cannot read the output folder")
        }
        for name in new {
            let from = stage + "/" + name, to = output + "/" + name
            if FileKind.of(to) == nil {
                guard rename(from, to) == 0 else { try fail("cannot move \(name) of the new site into place") }
                done.append(.added(name))
            } else if blog_exchange_paths(from, to) == 0 {
                done.append(.exchanged(name))
            } else {
                if FileKind.of(hold) == nil { mkdir(hold, 0o777) }
                guard rename(to, hold + "/" + name) == 0 else { try fail("cannot move \(name) of the previous output aside") }
                guard rename(from, to) == 0 else {
                    _ = rename(hold + "/" + name, to)
                    try fail("cannot move \(name) of the new site into place")
                }
                done.append(.held(name))
            }
        }
        let kept = Set(new)
        for name in old where !OutputFolder.staysInMountPoint(name) && !kept.contains(name) {
            guard rename(output + "/" + name, stage + "/" + name) == 0 else { try fail("cannot move \(name) of the previous output away") }
            done.append(.removed(name))
        }
        removeTree(staging)
    }

    /// Removes a folder and everything in it, the subfolders of its subfolders on all cores (a
    /// 10,000-post site has 10,000 folders under `posts/`). Never through a symbolic link: a link in
    /// the folder's place, or anywhere under it, is removed itself, and what it points to is left.
    static func removeTree(_ folder: URL) {
        let path = folder.path
        var parts: [String] = []
        if FileKind.of(path) == S_IFDIR {
            for entry in FolderEntries.of(path) ?? [] where entry.type == S_IFDIR {
                let child = path + "/" + entry.name
                parts += (FolderEntries.of(child) ?? []).map { child + "/" + $0.name }
            }
        }
        _ = Parallel.map(parts.count) { blog_remove_tree(parts[$0]) }
        blog_remove_tree(path)
    }
}

/// `syncfs` of a folder's file system, on another thread.
private final class Flush: @unchecked Sendable {
    private let done = DispatchGroup()
    private var failure: String?

    /// Starts flushing the file system that holds `path`.
    init(_ path: String) {
        DispatchQueue.global().async(group: done) { [self] in
            if blog_sync_filesystem(path) != 0 { failure = String(cString: strerror(errno)) }
        }
    }

    /// Waits for the flush; returns why it failed, if it did.
    func wait() -> String? {
        done.wait()
        return failure
    }
}

/// A write that ran out of space (`ENOSPC`, `EDQUOT`): the first file it hit, and what was written before, to say
/// how much space the site needs. Shared by the writing cores.
final class DiskFull: @unchecked Sendable {
    private let lock = NSLock()
    private var first: String?
    private var files = 0
    private var bytes = 0

    /// Whether a write ran out of space.
    var happened: Bool {
        lock.lock()
        defer { lock.unlock() }
        return first != nil
    }

    /// The output path of the first file that could not be written for want of space.
    var firstPath: String? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    /// `file` was written (or linked) at `target`.
    func done(_ file: OutputFile, at target: String) {
        var status = stat()
        let size = stat(target, &status) == 0 ? Int(status.st_size) : 0
        lock.lock()
        files += 1
        bytes += size
        lock.unlock()
    }

    /// Writing `path` ran out of space.
    func record(_ path: String) {
        lock.lock()
        if first == nil { first = path }
        lock.unlock()
    }

    /// The one message for a write that ran out of space, with the space free in `folder` and the space the
    /// `files` files need, estimated from those written.
    func message(files total: Int, folder: String) -> String {
        lock.lock()
        let (written, size) = (files, bytes)
        lock.unlock()
        var message = "the disk is full (no space left on device): \(written) of \(total) files were written"
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            message += "; \(Self.megabytes(Int(info.f_bavail) * Int(info.f_frsize))) are free"
        }
        if written > 0 {
            message += ", and the site needs about \(Self.megabytes(size / written * total))"
        }
        return message + "; the published site was not changed: free some space and build again"
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes >= 10_000_000 ? "\(bytes / 1_000_000) MB" : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    /// Whether `code` (an `errno`) means the disk or the quota is full.
    static func isFull(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// Whether `error` (POSIX, or Foundation's with a POSIX cause) means the disk or the quota is full.
    static func isFull(_ error: Error) -> Bool {
        if let posix = error as? POSIXError { return isFull(posix.code.rawValue) }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return isFull(Int32(ns.code)) }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileWriteOutOfSpaceError { return true }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? Error { return isFull(underlying) }
        return false
    }
}
