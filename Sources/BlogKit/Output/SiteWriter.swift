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
            try? fm.removeItem(at: staging)
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw BuildFailure([.error(displayPath, "cannot create the staging folder \(staging.path): \(error.localizedDescription)")])
        }

        let report: WriteReport
        do {
            report = try writeAll(files, into: staging, previous: outputExists ? output : nil)
        } catch {
            try? fm.removeItem(at: staging)
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
    static func writeAll(_ files: [OutputFile], into root: URL, previous: URL?) throws -> WriteReport {
        let fm = FileManager.default
        var folders = Set<String>()
        for file in files {
            var folder = (file.path as NSString).deletingLastPathComponent
            while !folder.isEmpty, folders.insert(folder).inserted {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        for folder in folders.sorted() {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }

        let lock = NSLock()
        var failures: [Diagnostic] = []
        var unchanged = 0
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let target = root.appendingPathComponent(file.path)
            do {
                if let previous, linkIfUnchanged(file, previous: previous.appendingPathComponent(file.path), target: target) {
                    lock.lock(); unchanged += 1; lock.unlock()
                    return
                }
                switch file.contents {
                case .bytes(let data):
                    try data.write(to: target)
                case .copy(let source):
                    try fm.copyItem(at: source, to: target)
                case .stored(let stored):
                    try stored.data().write(to: target)
                }
            } catch {
                lock.lock()
                failures.append(.error(file.path, "cannot write this output file: \(error.localizedDescription)"))
                lock.unlock()
            }
        }
        if !failures.isEmpty { throw BuildFailure(failures.sortedForDisplay()) }
        return WriteReport(written: files.count - unchanged, unchanged: unchanged)
    }

    /// Hard-links `previous` to `target` when it holds exactly the bytes `file` would write.
    static func linkIfUnchanged(_ file: OutputFile, previous: URL, target: URL) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: previous.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int else { return false }
        let same: Bool
        switch file.contents {
        case .bytes(let data):
            same = data.count == size && (try? Data(contentsOf: previous)) == data
        case .stored(let stored):
            same = stored.count == size && (try? Data(contentsOf: previous)) == (try? stored.data())
        case .copy(let source):
            guard let sourceSize = (try? FileManager.default.attributesOfItem(atPath: source.path))?[.size] as? Int,
                  sourceSize == size else { return false }
            same = (try? Data(contentsOf: previous, options: .alwaysMapped)) == (try? Data(contentsOf: source, options: .alwaysMapped))
        }
        guard same else { return false }
        return link(previous.path, target.path) == 0
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
        try? fm.removeItem(at: staging)
    }
}
