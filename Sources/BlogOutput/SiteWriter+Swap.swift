#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BlogCore
import CSystem
import Foundation

extension SiteWriter {
    /// Puts `staging` in the place of the output folder in one step where the system allows it.
    /// The previous site is kept as the spare (hidden, beside the output) for the next build to
    /// update, rather than deleted: deleting 13,000 files costs as much as writing them. An output
    /// folder that is a mount point has its entries replaced instead (``replaceEntries(of:with:)``).
    static func swap(_ staging: URL, into folder: OutputFolder) throws {
        if folder.isMountPoint { return try replaceEntries(of: folder, with: staging) }
        let output = folder.url
        func fail(_ what: String) -> BuildFailure {
            let busy = errno == EBUSY ? " (a mount point, or a folder the system holds: build into a folder inside it instead)" : ""
            return BuildFailure([.error("\(folder.display): \(what): \(String(cString: strerror(errno)))\(busy); the previous output is unchanged")])
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
            throw BuildFailure([.error("\(folder.display): \(what): \(reason); the previous output is unchanged")])
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
}
