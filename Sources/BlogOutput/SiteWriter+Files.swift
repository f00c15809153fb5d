#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import BlogCore
import CSystem
import Foundation

extension SiteWriter {
    /// Creates the file `path`, which must not exist yet, holding `data`.
    package static func create(_ path: String, with data: Data) throws {
        try create(path, in: AT_FDCWD, with: data)
    }

    /// ``create(_:with:)`` with `path` relative to the open folder `folder` (or
    /// `AT_FDCWD`): the system then walks the file's own path only, not the folder's from `/`.
    static func create(_ path: String, in folder: Int32, with data: Data) throws {
        let fd = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure = data.withUnsafeBytes { write($0, to: fd) }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
    }

    /// Writes `data` at `path` (relative to the open folder `folder`), a file of a staging folder, over
    /// the file there when it is a regular file that no other path links to, which keeps its blocks;
    /// else as a new file in its place. Removing a file frees its blocks, which a file system mounted
    /// with `discard` passes on to the disk before the call returns (a few ms to tens of ms each on the
    /// benchmark machine); a file cut shorter frees those past its new end.
    static func overwrite(_ path: String, in folder: Int32, with data: Data) throws {
        if let (fd, size) = openOwnFile(path, in: folder) {
            var failure = data.withUnsafeBytes { write($0, to: fd) }
            if failure == 0, size > data.count, ftruncate(fd, off_t(data.count)) != 0 { failure = errno }
            if close(fd) != 0, failure == 0 { failure = errno }
            if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
            return
        }
        unlinkat(folder, path, 0)
        try create(path, in: folder, with: data)
    }

    /// The file `path` (relative to the open folder `folder`, or `AT_FDCWD`) open for writing over,
    /// with its size, when it is one a build may write over: a regular file (opened without following
    /// a link, and without waiting on a pipe) that no other path links to. Nil when there is none or it
    /// is another kind of file (the caller then replaces it, or leaves it).
    package static func openOwnFile(_ path: String, in folder: Int32 = AT_FDCWD) -> (fd: Int32, size: Int)? {
        let fd = openat(folder, path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 else {
            close(fd)
            return nil
        }
        return (fd, Int(info.st_size))
    }

    /// Writes all of `buffer` to the open file `fd`; returns 0, or the `errno` of the write that failed.
    package static func write(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
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

    /// A file of the previous site: `path` relative to the open folder `folder` (`AT_FDCWD` for a
    /// path from the working folder, or an absolute one).
    struct Previous {
        var folder: Int32
        var path: String
    }

    /// Hard-links `previous` to `target` (relative to the open folder `folder`, or `AT_FDCWD`)
    /// when it holds exactly `data`, else writes `data` there. Returns whether it linked.
    static func place(_ data: Data, at target: String, in folder: Int32 = AT_FDCWD, previous: Previous?,
                      reuse: Bool = false) throws -> Bool {
        if let previous, let identity = identity(of: previous, holding: data),
           link(previous, identity: identity, target, in: folder, reuse: reuse) {
            return true
        }
        if reuse { unlinkat(folder, target, 0) }
        try create(target, in: folder, with: data)
        return false
    }

    /// The status of `previous` when it is a regular file (not reached through a final symbolic link)
    /// that holds exactly `data`; else nil. One `open`, one `fstat` and, for a file of the same size,
    /// its bytes read and compared a piece at a time, up to the first difference (a stat for the size,
    /// a read into memory of its own and a stat for the link took seven calls, four of them walking the
    /// whole path from `/`). `O_NONBLOCK`: opening a pipe there does not wait for a writer.
    static func identity(of previous: Previous, holding data: Data) -> stat? {
        let fd = openat(previous.folder, previous.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else { return nil }
        // A byte more than the file's size: a file grown since the fstat shows in the last read.
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: min(data.count, 1 << 16) + 1, alignment: 16)
        defer { piece.deallocate() }
        let same = data.withUnsafeBytes { expected -> Bool in
            var offset = 0
            while true {
                let got = Foundation.read(fd, piece.baseAddress!, piece.count)
                if got < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if got == 0 { return offset == expected.count }
                guard got <= expected.count - offset, memcmp(piece.baseAddress!, expected.baseAddress! + offset, got) == 0 else { return false }
                offset += got
                // A read of a regular file that returns less than it asked for has reached the end.
                if offset == expected.count && got < piece.count { return true }
            }
        }
        return same ? info : nil
    }

    /// Makes `target` a link to `previous`; with `reuse`, a target that already is one is kept
    /// as it is, and another file there is replaced.
    static func relink(_ previous: String, _ target: String, reuse: Bool) -> Bool {
        relink(previous, in: AT_FDCWD, target, in: AT_FDCWD, reuse: reuse)
    }

    /// ``relink(_:_:reuse:)`` with each path relative to a folder's descriptor (`AT_FDCWD` for
    /// the working folder, or an absolute path). Only a regular file is linked: a hard link to a
    /// symbolic link (an older build's) is one, and the output never holds one.
    static func relink(_ previous: String, in from: Int32, _ target: String, in into: Int32, reuse: Bool) -> Bool {
        var a = stat()
        guard fstatat(from, previous, &a, AT_SYMLINK_NOFOLLOW) == 0, (a.st_mode & S_IFMT) == S_IFREG else { return false }
        return link(Previous(folder: from, path: previous), identity: a, target, in: into, reuse: reuse)
    }

    /// ``relink(_:in:_:in:reuse:)`` of a file whose status (`identity`) was taken.
    private static func link(_ previous: Previous, identity a: stat, _ target: String, in into: Int32, reuse: Bool) -> Bool {
        if reuse {
            var b = stat()
            if fstatat(into, target, &b, AT_SYMLINK_NOFOLLOW) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino { return true }
            unlinkat(into, target, 0)
        }
        return linkat(previous.folder, previous.path, into, target, 0) == 0
    }
}
