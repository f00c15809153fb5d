#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BlogCore
import CSystem
import Foundation

extension SiteWriter {
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
        let hasSpare = folder.hasSpare
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
            let wanted = folders(holding: paths)
            let there = hasSpare ? prune(root: root, keeping: paths, folders: wanted) : []
            guard (try? makeFolders(wanted.subtracting(there).sorted(), under: root, existing: hasSpare)) != nil else {
                removeTree(staging)
                return nil
            }
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
            if let data = changed[path] { return (try? overwrite(path, in: into, with: data)) == nil }
            return !relink(path, in: from, path, in: into, reuse: true)
        }
        let marked = (try? OutputFolder.mark(staging, previous: folder.url)) != nil
        let flushed = known == nil ? blog_sync_filesystem(root) == 0 : sync(Array(changed.keys), foldersOf: touched, in: into)
        guard !failed.contains(true), marked, flushed, (try? swap(staging, into: folder)) != nil else {
            removeTree(staging)
            return nil
        }
        return WriteReport(written: changed.count, unchanged: paths.count - changed.count)
    }

    /// Whether a spare copy of the site is beside the output folder `output` (see
    /// ``patch(output:paths:changed:spareSamePaths:spareDiffers:)``); nil when none can be (a mount point).
    package static func hasSpare(output: URL) -> Bool? {
        guard let folder = try? OutputFolder.locate(output, display: ""), folder.spare != nil else { return nil }
        return folder.hasSpare
    }

    /// Flushes to disk the files `written` and the entries of the folders that hold `paths` (all under
    /// the folder open as `root`), and of the folder itself; whether every flush succeeded. The flushes
    /// run at once, each on a thread of its own: one after the other, each waited for the disk's cache
    /// to be flushed in turn (five such waits for a body edit, 5-15 ms each on a busy disk).
    private static func sync(_ written: [String], foldersOf paths: [String], in root: Int32) -> Bool {
        var folders = Set<Substring>([""])
        for path in paths { folders.insert(path.lastSlash.map { path[..<$0] } ?? "") }
        let entries = written.map { ($0, false) } + folders.map { (String($0), true) }
        return !Parallel.waiting(entries.count) { number -> Bool in
            let (path, isFolder) = entries[number]
            let fd = path.isEmpty ? dup(root) : openat(root, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (isFolder ? O_DIRECTORY : 0))
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return fsync(fd) == 0
        }.contains(false)
    }
}
