import Foundation

/// What is at a path, looked up without following a symbolic link there (`lstat`): how a build checks
/// the folders it replaces, prunes or deletes (the output folder, the folders beside it, `cache_dir`)
/// before it touches them.
package enum FileKind {
    /// The type of what is at `path` (`S_IFDIR`, `S_IFREG`, `S_IFLNK`, ...); nil when nothing is.
    package static func of(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    /// Throws an error at `display` when `path` is a symbolic link: `what` names what the build keeps
    /// there (`the output folder`), `fix` what to do instead. A build never follows such a link: it
    /// would replace or delete what the link points to.
    package static func refuseLink(_ path: String, display: String, what: String, fix: String) throws {
        guard of(path) == S_IFLNK else { return }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " (to \($0))" } ?? ""
        throw BuildFailure([.error("\(display): \(what) is a symbolic link\(target); a build never reaches the folders it replaces or deletes through a link: \(fix)")])
    }
}
