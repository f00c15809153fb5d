#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import CSystem
import Foundation

/// What a write did.
public struct WriteReport: Sendable, Equatable {
    /// Files whose bytes are new or changed.
    public var written: Int
    /// Files identical to the previous output: kept as they were, modification time included.
    public var unchanged: Int
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
public enum SiteWriter {
    /// Writes `files` as the whole new content of `output`.
    /// - Parameters:
    ///   - files: every file of the site; paths relative, `/`-separated, unique.
    ///   - output: the output folder (created when missing).
    ///   - displayPath: how to name the output folder in messages.
    public static func write(_ files: [OutputFile], to output: URL, displayPath: String) throws -> WriteReport {
        let fm = FileManager.default
        try checkPaths(files, displayPath: displayPath)

        var isDirectory: ObjCBool = false
        let outputExists = fm.fileExists(atPath: output.path, isDirectory: &isDirectory)
        if outputExists && !isDirectory.boolValue {
            throw BuildFailure([.error(displayPath, "the output path is a file; expected a folder (or nothing) there")])
        }
        let parent = output.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).blog-staging")
        do {
            removeTree(staging)
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw BuildFailure([.error(displayPath, "cannot create the staging folder \(staging.path): \(error.localizedDescription)")])
        }

        let report: WriteReport
        do {
            report = try writeAll(files, into: staging, previous: outputExists ? output : nil)
            // The new site reaches the disk before it replaces the old one: a crash can't publish
            // empty files.
            if blog_sync_filesystem(staging.path) != 0 {
                throw BuildFailure([.error(displayPath, "cannot write the new site to disk: \(String(cString: strerror(errno))); the previous output is unchanged")])
            }
        } catch {
            removeTree(staging)
            throw error
        }
        try swap(staging, into: output, exists: outputExists, displayPath: displayPath)
        return report
    }

    /// Every path must stay inside the output folder, and be there once.
    static func checkPaths(_ files: [OutputFile], displayPath: String) throws {
        var seen = Set<String>()
        var problems: [Diagnostic] = []
        for file in files {
            let segments = file.path.split(separator: "/", omittingEmptySubsequences: false)
            if file.path.isEmpty || file.path.hasPrefix("/") || file.path.contains("\\")
                || segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
                problems.append(.error(displayPath, "refusing to write \"\(file.path)\": it is not a plain path inside the output folder"))
            } else if !seen.insert(file.path).inserted {
                problems.append(.error(displayPath, "two files want the same output path \"\(file.path)\""))
            }
        }
        if !problems.isEmpty { throw BuildFailure(problems) }
    }

    /// Writes every file under `root`, linking unchanged ones from `previous`, on all cores.
    ///
    /// Files are written with plain `open`/`write`/`close`: Foundation's `Data.write` calls `fsync`
    /// on every file, which commits the file system's journal 13,000 times for a 10,000-post blog.
    /// ``write(_:to:displayPath:)`` makes the whole staging folder durable with one flush instead.
    static func writeAll(_ files: [OutputFile], into root: URL, previous: URL?) throws -> WriteReport {
        let rootPath = root.path
        try makeFolders(for: files.map(\.path), under: rootPath)

        let lock = NSLock()
        var failures: [Diagnostic] = []
        var unchanged = 0
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let target = rootPath + "/" + file.path
            let previousFile = previous.map { $0.path + "/" + file.path }
            do {
                let linked: Bool
                switch file.contents {
                case .bytes(let data):
                    linked = try place(data, at: target, previous: previousFile)
                case .made(let maker):
                    linked = try place(maker.make(), at: target, previous: previousFile)
                case .copy(let source):
                    linked = previousFile.map { linkIfUnchanged(copyOf: source, previous: $0, target: target) } ?? false
                    if !linked { try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: target)) }
                case .stored(let stored):
                    linked = try place(stored.data(), at: target, previous: previousFile)
                }
                if linked { lock.lock(); unchanged += 1; lock.unlock() }
            } catch let failure as BuildFailure {
                lock.lock()
                failures += failure.diagnostics
                lock.unlock()
            } catch {
                lock.lock()
                failures.append(.error(file.path, "cannot write this output file: \(error.localizedDescription)"))
                lock.unlock()
            }
        }
        if !failures.isEmpty { throw BuildFailure(failures.sortedForDisplay()) }
        return WriteReport(written: files.count - unchanged, unchanged: unchanged)
    }

    /// Creates the folders that hold `paths` under `root` (which exists), parents before their
    /// children, each level on all cores.
    static func makeFolders(for paths: [String], under root: String) throws {
        var folders = Set<Substring>()
        for path in paths {
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard folders.insert(folder).inserted else { break }
            }
        }
        // One thread: mkdir in a folder takes the folder's lock, and a second thread would spin on it.
        var errors: [Diagnostic] = []
        for folder in folders.sorted() where mkdir(root + "/" + folder, 0o777) != 0 {
            errors.append(.error(String(folder), "cannot create this output folder: \(String(cString: strerror(errno)))"))
        }
        if !errors.isEmpty { throw BuildFailure(errors) }
    }

    /// Creates the file `path`, which must not exist yet, holding `data`.
    static func create(_ path: String, with data: Data) throws {
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
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
    }

    /// Hard-links `previous` to `target` when it holds exactly `data`, else writes `data` there.
    /// Returns whether it linked.
    static func place(_ data: Data, at target: String, previous: String?) throws -> Bool {
        if let previous, size(ofRegularFile: previous) == data.count,
           (try? Data(contentsOf: URL(fileURLWithPath: previous))) == data, link(previous, target) == 0 {
            return true
        }
        try create(target, with: data)
        return false
    }

    /// Hard-links `previous` to `target` when it holds exactly the bytes of the file `source`.
    static func linkIfUnchanged(copyOf source: URL, previous: String, target: String) -> Bool {
        guard let size = size(ofRegularFile: previous) else { return false }
        var sourceStatus = stat()
        guard stat(source.path, &sourceStatus) == 0, Int(sourceStatus.st_size) == size,
              (try? Data(contentsOf: URL(fileURLWithPath: previous), options: .alwaysMapped))
                == (try? Data(contentsOf: source, options: .alwaysMapped)) else { return false }
        return link(previous, target) == 0
    }

    /// The size of `path` when it is a regular file (not following a symbolic link).
    private static func size(ofRegularFile path: String) -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Puts `staging` in the place of `output` in one step where the system allows it.
    static func swap(_ staging: URL, into output: URL, exists: Bool, displayPath: String) throws {
        let fm = FileManager.default
        func fail(_ what: String) -> BuildFailure {
            BuildFailure([.error(displayPath, "\(what): \(String(cString: strerror(errno))); the previous output is unchanged")])
        }
        guard exists else {
            if rename(staging.path, output.path) != 0 {
                let failure = fail("cannot move the new site into place")
                try? fm.removeItem(at: staging)
                throw failure
            }
            return
        }
        if blog_exchange_paths(staging.path, output.path) != 0 {
            // No atomic exchange on this system or file system: two renames, undone on failure.
            let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).blog-previous")
            try? fm.removeItem(at: old)
            guard rename(output.path, old.path) == 0 else {
                let failure = fail("cannot move the previous output aside")
                try? fm.removeItem(at: staging)
                throw failure
            }
            guard rename(staging.path, output.path) == 0 else {
                let failure = fail("cannot move the new site into place")
                _ = rename(old.path, output.path)
                try? fm.removeItem(at: staging)
                throw failure
            }
            _ = rename(old.path, staging.path)
        }
        // `staging` now holds the previous site: keep its top-level hidden entries, drop the rest.
        if let entries = try? fm.contentsOfDirectory(atPath: staging.path) {
            for name in entries.sorted() where name.hasPrefix(".") {
                let destination = output.appendingPathComponent(name)
                if !fm.fileExists(atPath: destination.path) {
                    _ = rename(staging.appendingPathComponent(name).path, destination.path)
                }
            }
        }
        removeTree(staging)
    }

    /// Removes a folder and everything in it, the subfolders of its subfolders on all cores (a
    /// 10,000-post site has 10,000 folders under `posts/`).
    static func removeTree(_ folder: URL) {
        let fm = FileManager.default
        var parts: [String] = []
        for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let path = folder.path + "/" + name
            parts += ((try? fm.contentsOfDirectory(atPath: path)) ?? []).map { path + "/" + $0 }
        }
        _ = Parallel.map(parts.count) { blog_remove_tree(parts[$0]) }
        blog_remove_tree(folder.path)
    }
}
