import BlogCore
import Foundation

/// A write that ran out of space (`ENOSPC`, `EDQUOT`): the first file it hit, and what was written before, to say
/// how much space the site needs. Shared by the writing cores.
final class DiskFull: @unchecked Sendable {
    private let lock = NSLock()
    private var first: String?
    private var files = 0
    private var bytes = 0

    /// Whether a write ran out of space.
    var happened: Bool {
        lock.lock()
        defer { lock.unlock() }
        return first != nil
    }

    /// The output path of the first file that could not be written for want of space.
    var firstPath: String? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    /// A file of `size` bytes was written (or linked). The writer knows the size: a `stat` of
    /// every file cost a path walk each (14,600 at 10,000 posts).
    func done(bytes size: Int) {
        lock.lock()
        files += 1
        bytes += size
        lock.unlock()
    }

    /// Writing `path` ran out of space.
    func record(_ path: String) {
        lock.lock()
        if first == nil { first = path }
        lock.unlock()
    }

    /// The one message for a write that ran out of space, with the space free in `folder` and the space the
    /// `files` files need, estimated from those written.
    func message(files total: Int, folder: String) -> String {
        lock.lock()
        let (written, size) = (files, bytes)
        lock.unlock()
        var message = "the disk is full (no space left on device): \(written) of \(total) files were written"
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            message += "; \(ByteSize.text(Int(info.f_bavail) * Int(info.f_frsize))) are free"
        }
        if written > 0 {
            message += ", and the site needs about \(ByteSize.text(size / written * total))"
        }
        return message + "; the published site was not changed: free some space and build again"
    }

    /// Whether `code` (an `errno`) means the disk or the quota is full.
    static func isFull(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// Whether `error` (POSIX, or Foundation's with a POSIX cause) means the disk or the quota is full.
    static func isFull(_ error: Error) -> Bool {
        if let posix = error as? POSIXError { return isFull(posix.code.rawValue) }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return isFull(Int32(ns.code)) }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileWriteOutOfSpaceError { return true }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? Error { return isFull(underlying) }
        return false
    }
}
