#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BlogCore
import CSystem
import Foundation

extension SiteWriter {
    /// Every path must stay inside the output folder, be there once, and have names a file system
    /// takes (`NAME_MAX` bytes a name, `PATH_MAX` in all below a root path of `rootLength` bytes).
    /// Each problem is an error at the file that asks for the path (see ``OutputOrigin``), else at
    /// the output folder.
    /// `folders` are the folders above the paths (``folders(holding:)``), made here when not given; a
    /// caller that knows no path is also a folder gives none (see ``checkedPlan(_:displayPath:rootLength:origins:)``).
    static func checkPaths(_ paths: [String], displayPath: String, rootLength: Int = 0,
                           origins: OriginLookup = .none, folders: Set<Substring>? = nil) throws {
        var seen = Set<String>()
        var problems = Set<Diagnostic>()
        // A path that is also another's folder (`archives` and `archives/index.html`).
        let folders = folders ?? self.folders(holding: paths)
        for path in paths {
            if !PathSafety.isPlainOutputPath(path) {
                problems.insert(OutputOrigin.blame(origins(path), or: displayPath, "refusing to write \"\(path)\": it is not a plain path inside the output folder"))
            } else if !seen.insert(path).inserted {
                problems.insert(OutputOrigin.collision(path, origins: origins(path), or: displayPath))
            } else if folders.contains(path[...]), let inner = paths.first(where: { $0.hasPrefix(path + "/") }) {
                problems.insert(OutputOrigin.collision(path, origins: origins(path), inner: inner, innerOrigins: origins(inner), or: displayPath))
            } else if let long = longName(path) {
                problems.insert(OutputOrigin.blame(origins(path), or: displayPath, "the output path \"\(shortened(path))\" has a name of \(long) bytes, and a file system takes at most \(NAME_MAX): shorten the slug, title or path that makes it"))
            } else if rootLength + 1 + path.utf8.count >= Int(PATH_MAX) {
                problems.insert(OutputOrigin.blame(origins(path), or: displayPath, "the output path \"\(shortened(path))\" is \(path.utf8.count) bytes long, and in the output folder over the \(PATH_MAX) bytes a path may have: shorten it"))
            }
        }
        if !problems.isEmpty { throw BuildFailure(Array(problems).sortedForDisplay()) }
    }

    /// The folders' plan of `files`' paths, once ``checkPaths(_:displayPath:rootLength:origins:folders:)`` found them
    /// fine. Both need only the paths, and run one on each core (~70 ms on one at 10,000 posts, before any file is
    /// written): the check without folders, which leaves out a path that is also a folder, while the plan finds the
    /// folders above the paths. When the plan found a path that is also a folder (`archives` and `archives/index.html`),
    /// the check's answer is the whole check's, with the plan's folders: the messages are always the whole check's.
    static func checkedPlan(_ paths: [String], displayPath: String, rootLength: Int, origins: OriginLookup) throws -> FolderPlan {
        let (checked, plan) = Parallel.both({
            Result { try checkPaths(paths, displayPath: displayPath, rootLength: rootLength, origins: origins, folders: []) }
        }, { FolderPlan(paths) })
        try (plan.fileAtFolder
            ? Result { try checkPaths(paths, displayPath: displayPath, rootLength: rootLength, origins: origins, folders: plan.folders) }
            : checked).get()
        return plan
    }

    /// The check and the folders' plan of a site's output paths, made before the output folder is known (beside the
    /// pages' values, where both cores are busy, instead of alone on one core after them: ~46 ms at 10,000 posts).
    /// ``write(_:to:displayPath:origins:paths:whileFlushing:)`` takes the plan only when the check found nothing and
    /// the longest path fits below its staging folder; else it checks the files again once the folder is located, as
    /// without it, so its messages, their order and the exit are those of the plain order.
    package struct PathPlan: Sendable {
        /// The paths planned, in order: the write takes the plan only for files at these paths (a plan made for
        /// other paths checked none of the files').
        let paths: [String]
        /// The bytes of the longest path (the one check that needs the staging folder's path).
        let longest: Int
        /// The plan, when the check found no problem.
        let plan: FolderPlan?

        /// The plan of `paths`: every file's path, in the order of the files the write is given.
        package init(_ paths: [String]) {
            self.paths = paths
            longest = paths.reduce(0) { max($0, $1.utf8.count) }
            plan = try? checkedPlan(paths, displayPath: "", rootLength: 0, origins: .none)
        }

        /// The plan, if it is the one the write of `files` below a staging folder of `rootLength` bytes would make.
        func plan(for files: [OutputFile], rootLength: Int) -> FolderPlan? {
            guard let plan, rootLength + 1 + longest < Int(PATH_MAX), files.count == paths.count,
                  zip(files, paths).allSatisfy({ $0.path == $1 }) else { return nil }
            return plan
        }
    }

    /// The length in bytes of the first name of `path` longer than a file system takes, if any (one
    /// pass over the bytes: the paths of every page are checked).
    static func longName(_ path: String) -> Int? {
        // The string's contiguous bytes: its UTF-8 view's iterator cost ~30 instructions a byte.
        var path = path
        return path.withUTF8 { bytes in
            var length = 0
            for byte in bytes {
                if byte == UInt8(ascii: "/") {
                    if length > Int(NAME_MAX) { return length }
                    length = 0
                } else {
                    length += 1
                }
            }
            return length > Int(NAME_MAX) ? length : nil
        }
    }

    /// `path` with each name over 40 characters cut short (`posts/xxxxxxxxxxxxxxxxxxxxxxxx…/index.html`), for messages.
    static func shortened(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { $0.count > 40 ? $0.prefix(24) + "…" : String($0) }.joined(separator: "/")
    }
}
