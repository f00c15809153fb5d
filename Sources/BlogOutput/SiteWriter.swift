#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
///
/// One job a file: this one writes a whole site; `SiteWriter+Patch` replaces a few files of the
/// published one; `+Paths` checks the output paths; `+Folders` makes, prunes and removes folders;
/// `+Files` creates, links and compares files; `+Swap` publishes the staging folder; ``DiskFull``
/// says how much space a site needs when the disk fills.
package enum SiteWriter {
    /// Writes `files` as the whole new content of `output`.
    /// - Parameters:
    ///   - files: every file of the site; paths relative, `/`-separated, unique.
    ///   - output: the output folder (created when missing); see ``OutputFolder`` for the folders
    ///     refused, and where the staging folder and the spare copy are.
    ///   - displayPath: how to name the output folder in messages.
    ///   - origins: who asks for an output path (see ``OutputOrigin``), to name them in messages
    ///     about it; asked only when there is a problem.
    ///   - paths: the check and plan of `files`' paths, made earlier (``PathPlan``); made here when nil.
    ///   - whileFlushing: work to do, given the folder that holds the new site, once every file
    ///     is written and while they are flushed to disk (which leaves the cores idle); the site
    ///     is published only after it returns.
    package static func write(_ files: [OutputFile], to output: URL, displayPath: String,
                              origins: OriginLookup = .none, paths: PathPlan? = nil,
                              whileFlushing: (URL) -> Void = { _ in }) throws -> WriteReport {
        let folder = try OutputFolder.locate(output, display: displayPath)
        let rootLength = folder.staging.path.utf8.count
        let plan = try paths?.plan(for: files, rootLength: rootLength)
            ?? checkedPlan(files.map(\.path), displayPath: displayPath, rootLength: rootLength, origins: origins)
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
            throw BuildFailure([.error("cannot create the staging folder \(staging.path): \(error.localizedDescription)")])
        }

        let report: WriteReport
        do {
            report = try writeAll(files, into: staging, previous: folder.exists ? folder.url : nil, reuse: reuse, plan: plan, origins: origins)
            try OutputFolder.mark(staging, previous: folder.exists ? folder.url : nil)
            // The new site reaches the disk before it replaces the old one: a crash can't publish
            // empty files.
            let flush = Flush(staging.path)
            // The pages' bytes are let go: memory the work below does not reuse goes back to the system.
            blog_give_back_memory()
            whileFlushing(staging)
            if let failure = flush.wait() {
                throw BuildFailure([.error("\(displayPath): cannot write the new site to disk: \(failure); the previous output is unchanged")])
            }
        } catch {
            removeTree(staging)
            throw error
        }
        try swap(staging, into: folder)
        return report
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
    /// `plan` is the folders of `files`' paths (``FolderPlan``).
    static func writeAll(_ files: [OutputFile], into root: URL, previous: URL?, reuse: Bool = false, plan folders: FolderPlan,
                         origins: OriginLookup = .none) throws -> WriteReport {
        let rootPath = root.path
        // The folders the spare already has are not made again.
        let there = reuse ? prune(root: rootPath, keeping: files.map(\.path), folders: folders.folders) : []
        // Every folder and file is made relative to the staging root, open once: a path given from
        // `/` costs a walk of the root's own folders in each of the 29,000 calls of a 10,000-post site.
        let rootFolder = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFolder >= 0 else {
            throw BuildFailure([.error("cannot open the output folder \(rootPath): \(String(cString: strerror(errno)))")])
        }
        defer { close(rootFolder) }
        // The previous site's files are looked up from its folder, open once, as the new site's are.
        let previousFolder = previous.map { open($0.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) } ?? -1
        defer { if previousFolder >= 0 { close(previousFolder) } }
        try makeFolders(there.isEmpty ? folders.shared : folders.shared.filter { !there.contains($0) }, in: rootFolder, existing: reuse)
        let own = OwnFolders(files, alone: folders.alone, in: rootFolder, existing: reuse, there: there)

        let lock = NSLock()
        var failures: [Diagnostic] = []
        var unchanged = 0
        let full = DiskFull()
        DispatchQueue.concurrentPerform(iterations: files.count) { step in
            // Once the disk is full, the files left are not tried: one message says so, not thousands.
            if full.happened { return }
            // Last file first: the site's own files (the sitemap's buffer, the search shards, the
            // feeds) are made and let go while the heap is smallest, before the pages' texts that
            // are kept once made (a post's list entry) have grown it.
            let index = files.count - 1 - step
            let file = files[index]
            let target = file.path
            let previousFile = previousFolder >= 0 ? Previous(folder: previousFolder, path: target) : nil
            // A folder that holds this file alone is made by `own`'s thread while the page is
            // rendered, and waited for here.
            func makeOwnFolder() throws {
                guard folders.alone[index] else { return }
                let failure = own.wait(for: index)
                if failure != 0 {
                    if DiskFull.isFull(failure) { full.record(file.path) }
                    let folder = file.path[..<file.path.lastSlash!]
                    throw BuildFailure([.error("cannot create the output folder \(folder): \(String(cString: strerror(failure)))")])
                }
            }
            do {
                let data: Data
                switch file.contents {
                case .bytes(let bytes):
                    try makeOwnFolder()
                    data = bytes
                case .made(let maker):
                    data = try maker.make()
                    try makeOwnFolder()
                case .copy(let source):
                    try makeOwnFolder()
                    // The bytes, never the link `copyItem` would copy: its text means another file here.
                    data = try Data(contentsOf: source, options: .alwaysMapped)
                }
                if try place(data, at: target, in: rootFolder, previous: previousFile, reuse: reuse) {
                    lock.lock(); unchanged += 1; lock.unlock()
                }
                full.done(bytes: data.count)
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
        own.finish()
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
