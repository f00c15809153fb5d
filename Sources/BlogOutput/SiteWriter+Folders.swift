#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BlogCore
import CSystem
import Foundation

extension SiteWriter {
    /// Removes from the tree at `root` every file and folder that `paths` (the new site's files)
    /// don't need: files not in the list, folders that hold none of them, and anything whose
    /// kind (file or folder) is not the one needed. A symbolic link is never a folder here: it is
    /// removed, or kept as a file to be replaced, and never followed.
    /// `folders` are the folders above `paths` (``folders(holding:)``), made here when not given.
    /// Returns the folders of `folders` that are there, kept: the folders the new site needs that
    /// need not be made (in a build into the spare, all but a new post's; a `mkdir` of each failed
    /// with `EEXIST`, 14,600 of them at 10,000 posts).
    @discardableResult
    static func prune(root: String, keeping paths: [String], folders: Set<Substring>? = nil) -> Set<Substring> {
        let wantedFiles = Set(paths)
        let wantedFolders = folders ?? self.folders(holding: paths)
        var kept = Set<Substring>(minimumCapacity: wantedFolders.count)
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            guard let entries = FolderEntries.of(folder) else { continue }
            for child in entries {
                let path = relative.isEmpty ? child.name : relative + "/" + child.name
                if child.type == S_IFDIR {
                    // The plan's own substring is kept, not the path made here.
                    if let wanted = wantedFolders.firstIndex(of: path[...]) {
                        kept.insert(wantedFolders[wanted])
                        pending.append(path)
                    } else {
                        blog_remove_tree(root + "/" + path)
                    }
                } else if !wantedFiles.contains(path) {
                    unlink(root + "/" + path)
                }
            }
        }
        return kept
    }

    /// The folders that hold a site's files, split by who makes them.
    struct FolderPlan {
        /// Folders that hold more than one file, or a folder: made before any file, parents first.
        var shared: [Substring]
        /// By file: whether its folder holds it alone (a post's `posts/<slug>/`), and is made
        /// with it.
        var alone: [Bool]
        /// Every folder above a path (``SiteWriter/folders(holding:)``).
        var folders: Set<Substring>
        /// Whether a path is also another's folder (`archives` and `archives/index.html`): a path
        /// ``SiteWriter/checkPaths(_:displayPath:rootLength:origins:folders:)`` refuses.
        var fileAtFolder: Bool

        init(_ paths: [String]) {
            var files: [Substring: Int] = .init(minimumCapacity: paths.count)
            for path in paths {
                if let slash = path.lastSlash { files[path[..<slash], default: 0] += 1 }
            }
            // The folders that hold a folder.
            let parents = SiteWriter.folders(holding: Array(files.keys))
            // All made in one pass over the folders that hold files, each hashed once: a folder already among the
            // parents is shared as one of them. (Filtering the folders, looking each up again, and two unions of copies
            // of `parents` made this the longer of the two pieces beside the check of the paths.) Each folder's count
            // becomes 1 when it holds its one file alone, else 0, set through the dictionary's index (no hash): a path's
            // folder is then looked up once, not also among the parents.
            var folders = parents
            folders.reserveCapacity(parents.count + files.count)
            var shared = Array(parents)
            var index = files.startIndex
            while index != files.endIndex {
                let (folder, count) = files[index]
                let notParent = folders.insert(folder).inserted
                if notParent && count > 1 { shared.append(folder) }
                files.values[index] = notParent && count == 1 ? 1 : 0
                files.formIndex(after: &index)
            }
            alone = paths.map { path in
                guard let slash = path.lastSlash else { return false }
                return files[path[..<slash]] == 1
            }
            self.shared = shared.sorted()
            self.folders = folders
            fileAtFolder = paths.contains { folders.contains($0[...]) }
        }
    }

    /// Every folder above `paths` (`a/b/c.html` -> `a` and `a/b`).
    static func folders<Path: StringProtocol>(holding paths: [Path]) -> Set<Substring> where Path.SubSequence == Substring {
        var folders = Set<Substring>()
        // The folder above the last path's: met again (the posts' `posts/<slug>` are all in `posts`), it and the folders
        // above it are in already, and it is compared, not hashed.
        var last: Substring?
        for path in paths {
            var folder = path[...]
            var first = true
            while let slash = folder.lastSlash {
                folder = folder[..<slash]
                if first {
                    first = false
                    if folder == last { break }
                    last = folder
                }
                guard folders.insert(folder).inserted else { break }
            }
        }
        return folders
    }

    /// Creates `folders` (sorted, so parents come first) under `root`; with `existing`, one that
    /// is already there is fine.
    static func makeFolders(_ folders: [Substring], under root: String, existing: Bool) throws {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw BuildFailure([.error("cannot open the output folder \(root): \(String(cString: strerror(errno)))")])
        }
        defer { close(fd) }
        try makeFolders(folders, in: fd, existing: existing)
    }

    /// ``makeFolders(_:under:existing:)`` under the open folder `root`.
    static func makeFolders(_ folders: [Substring], in root: Int32, existing: Bool) throws {
        // One thread: mkdir in a folder takes the folder's lock, and a second thread would spin on it.
        var errors: [Diagnostic] = []
        for folder in folders where mkdirat(root, String(folder), 0o777) != 0 && !(existing && errno == EEXIST) {
            errors.append(.error("cannot create the output folder \(folder): \(String(cString: strerror(errno)))"))
        }
        if !errors.isEmpty { throw BuildFailure(errors) }
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
