import BlogCore
import Foundation

/// The build lock of a blog, held by every build (with the incremental layer or `--no-cache`) until
/// ``release()``: two builds of one blog would share the staging folder, the spare copy of the site
/// and the state in `cache_dir`.
package struct BuildLock {
    /// The lock files held open.
    var fds: [Int32]

    /// Lets go of the lock.
    package func release() {
        for fd in fds { close(fd) }
    }

    /// Holds the build lock of the blog in `blog`, and returns it with the warnings it gives; throws
    /// when another build holds it. The lock is `lock` in `folder` (`cache_dir`, resolved, and how
    /// messages name it), opened without following a link, and made with the folder when `create`
    /// (a build that keeps a state). A build that finds no folder there (one with `--no-cache`, or
    /// the first build) takes the lock in the temporary folder, keyed by the blog folder, before it
    /// makes the folder, so that two builds of one blog never run at once, with the cache or
    /// without. When the folder is there but its lock can't be taken (`cache_dir` a file, read-only,
    /// `lock` a folder), the lock is taken in the temporary folder, and a build that keeps a state warns.
    package static func hold(blog: URL, folder: (url: URL, display: String)?, create: Bool) throws -> (BuildLock, [Diagnostic]) {
        var held = BuildLock(fds: [])
        let fallback = FileManager.default.temporaryDirectory
            .appendingPathComponent("blog-\(getuid())-\(Digest.of(PathSafety.resolved(blog)).description).lock").path
        /// Holds the lock file `path` (named `shown`; an error is at `display`); nil once held, else why it can't be.
        func hold(_ path: String, shown: String, display: String) throws -> String? {
            let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return String(cString: strerror(errno)) }
            var status = stat()
            guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid() else {
                close(fd)
                return "it is not a file of this user"
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let busy = errno == EWOULDBLOCK, reason = String(cString: strerror(errno))
                close(fd)
                if busy {
                    held.release()
                    throw BuildFailure([.error("another `blog build` of this blog is running (it holds \(shown)); wait for it to finish")])
                }
                return reason
            }
            held.fds.append(fd)
            return nil
        }
        let isFolder = folder.map { FileKind.of($0.url.path) == S_IFDIR } ?? false
        let fallbackFailure = isFolder ? nil : try hold(fallback, shown: fallback, display: folder?.display ?? fallback)
        guard let folder, isFolder || create else { return (held, []) }
        if !isFolder { try? FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true) }
        let lockPath = folder.url.appendingPathComponent("lock").path
        guard let failure = try hold(lockPath, shown: folder.display + "/lock", display: folder.display) else { return (held, []) }
        let fallbackHeld = isFolder ? try hold(fallback, shown: fallback, display: folder.display) == nil : fallbackFailure == nil
        guard create else { return (held, []) }
        let instead = fallbackHeld ? "the build holds \(fallback) instead" : "and \(fallback) can't be held either: builds of this blog are not kept apart"
        return (held, [.warning("cannot hold the build lock \(folder.display)/lock (\(failure)); \(instead), and its state for the next build may not be kept: make \(folder.display) a folder that blog can write, or remove it")])
    }
}
