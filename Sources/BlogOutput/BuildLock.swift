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
    /// the first build) locks the blog folder itself (`flock` of the folder, no file made), before it
    /// makes the folder, so that two builds of one blog never run at once, with the cache or
    /// without, and nothing is written outside the blog. When the folder is there but its lock can't
    /// be taken (`cache_dir` a file, read-only, `lock` a folder), the blog folder is locked, and a
    /// build that keeps a state warns.
    package static func hold(blog: URL, folder: (url: URL, display: String)?, create: Bool) throws -> (BuildLock, [Diagnostic]) {
        var held = BuildLock(fds: [])
        /// Takes the lock of the open `fd` (named `shown`); nil once held, else why it can't be.
        func lock(_ fd: Int32, shown: String) throws -> String? {
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
        /// Holds the lock file `path` (named `shown`); nil once held, else why it can't be.
        func hold(_ path: String, shown: String) throws -> String? {
            let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return String(cString: strerror(errno)) }
            var status = stat()
            guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid() else {
                close(fd)
                return "it is not a file of this user"
            }
            return try lock(fd, shown: shown)
        }
        /// Locks the blog folder itself: nil once held, else why it can't be.
        func holdBlogFolder() throws -> String? {
            let fd = open(PathSafety.resolved(blog), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return String(cString: strerror(errno)) }
            return try lock(fd, shown: "the lock of the blog folder")
        }
        let isFolder = folder.map { FileKind.of($0.url.path) == S_IFDIR } ?? false
        let fallbackFailure = isFolder ? nil : try holdBlogFolder()
        guard let folder, isFolder || create else { return (held, []) }
        if !isFolder { try? FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true) }
        let lockPath = folder.url.appendingPathComponent("lock").path
        guard let failure = try hold(lockPath, shown: folder.display + "/lock") else { return (held, []) }
        let fallbackHeld = isFolder ? try holdBlogFolder() == nil : fallbackFailure == nil
        guard create else { return (held, []) }
        let instead = fallbackHeld ? "the build locks the blog folder instead" : "and the blog folder can't be locked either: builds of this blog are not kept apart"
        return (held, [.warning("cannot hold the build lock \(folder.display)/lock (\(failure)); \(instead), and its state for the next build may not be kept: make \(folder.display) a folder that blog can write, or remove it")])
    }
}
