import BlogCore
import Foundation

/// A file's identity and the times that change with its content: a fast check that it is untouched.
struct FileStat: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mtime: Int64
    var ctime: Int64

    /// The state of the file at `path`, not following a final symbolic link when `link` is true.
    static func of(_ path: String, followingLinks: Bool = true) -> FileStat? {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return nil }
        return FileStat(info)
    }

    /// The states of `paths`, relative to `folder`, on all cores. The folder is opened once and
    /// each path looked up from it (`fstatat`), which walks only the path's own components:
    /// looking every component up again took most of a build in place.
    static func of(_ paths: [String], in folder: String, followingLinks: Bool = true) -> [FileStat?] {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return paths.map { of(folder + "/" + $0, followingLinks: followingLinks) } }
        defer { close(directory) }
        let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
        return Parallel.map(paths.count) { number in
            var info = stat()
            return fstatat(directory, paths[number], &info, flags) == 0 ? FileStat(info) : nil
        }
    }

    /// A state no file has: a file recorded with it is read again by the next build.
    static let unknown = FileStat(device: 0, inode: 0, size: -1, mtime: 0, ctime: 0)

    init(device: UInt64, inode: UInt64, size: Int64, mtime: Int64, ctime: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtime = mtime
        self.ctime = ctime
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        mtime = FileTimes.modified(info)
        ctime = FileTimes.changed(info)
    }
}

extension FileStat {
    /// Same device, inode, size and modification time.
    func sameFile(as other: FileStat) -> Bool {
        device == other.device && inode == other.inode && size == other.size && mtime == other.mtime
    }
}

extension FileStat {
    /// The bytes of the file at `path` (relative to the folder open as `directory`), and its state
    /// taken after they were read: a change during the read shows in its change time. Without
    /// `followingLinks`, a final symbolic link is not followed, and only a regular file is read.
    static func read(_ path: String, in directory: Int32, followingLinks: Bool = true) -> (Data, FileStat)? {
        let fd = openat(directory, path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW | O_NONBLOCK))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, followingLinks || (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        // Into memory of its own, not zeroed first (`Data(count:)` zeroed every post file of a full build's state,
        // and the 4,096 bytes more it grew by to see the end): a byte more than the file, where a read sees the end.
        var capacity = max(Int(info.st_size), 0) + 1
        guard var base = malloc(capacity) else { return nil }
        var filled = 0
        while true {
            if filled == capacity {
                capacity *= 2
                guard let grown = realloc(base, capacity) else { Foundation.free(base); return nil }
                base = grown
            }
            let got = Foundation.read(fd, base + filled, capacity - filled)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { Foundation.free(base); return nil }
            if got == 0 { break }
            filled += got
        }
        let data = Data(bytesNoCopy: base, count: filled, deallocator: .free)
        guard fstat(fd, &info) == 0 else { return nil }
        return (data, FileStat(info))
    }
}
