#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BlogCore
import Foundation

extension SiteWriter {
    /// Makes the folders that hold one file each (a post's `posts/<slug>/`, a tag's `tags/<tag>/`)
    /// on a thread of its own, in the order the writer's cores reach their files, while those
    /// cores render: a core that has its page's bytes waits, rarely, until its folder is made.
    ///
    /// One thread makes them all because `mkdir` holds its parent folder's lock: two cores making
    /// `posts/a` and `posts/b` at once spin on it (1.1% of a 10,000-post build's CPU). Made up
    /// front instead, before any page, they would keep one core busy while the other waited.
    /// A real thread, not a dispatch queue's: the writer's cores may be all of the queue's threads,
    /// and they wait for this one.
    final class OwnFolders: @unchecked Sendable {
        private let condition = NSCondition()
        /// The lowest index of `files` whose folder was tried (they go last file first), and the
        /// `errno` of each that failed, by index.
        private var lowest: Int
        private var failures: [Int: Int32] = [:]
        private var waiting = 0
        private var stopped = false
        private let finished = DispatchSemaphore(value: 0)

        /// Starts making the folder of each of `files` that `alone` says holds it alone, last file
        /// first, relative to the open folder `root` (which must stay open until ``finish()``);
        /// with `existing`, one already there is fine, and the folders of `there` (found there by
        /// ``SiteWriter/prune(root:keeping:folders:)``) are not made. Nothing is copied: the
        /// folders' paths are made one at a time from the files' (at 50,000 posts a list of them
        /// would take 6 MB at the build's peak).
        init(_ files: [OutputFile], alone: [Bool], in root: Int32, existing: Bool, there: Set<Substring> = []) {
            lowest = files.count
            let thread = Thread { [self] in
                // Each folder's path is put in this one buffer: no allocation on this thread, whose
                // heap would otherwise be one more that the pages' memory can't go back to.
                var name = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                for index in files.indices.reversed() where alone[index] {
                    let path = files[index].path
                    let folder = path[..<path.lastSlash!]
                    var failure: Int32 = 0
                    if there.isEmpty || !there.contains(folder) {
                        var length = 0
                        for byte in folder.utf8 where length < Int(PATH_MAX) {
                            name[length] = CChar(bitPattern: byte)
                            length += 1
                        }
                        name[length] = 0
                        failure = mkdirat(root, name, 0o777) != 0 && !(existing && errno == EEXIST) ? errno : 0
                    }
                    condition.lock()
                    if failure != 0 { failures[index] = failure }
                    lowest = index
                    if waiting > 0 { condition.broadcast() }
                    let stop = stopped
                    condition.unlock()
                    if stop { break }
                }
                finished.signal()
            }
            thread.start()
        }

        /// Waits until the folder of the file at `index` (one that holds it alone) is made;
        /// returns 0, or the `errno` of its `mkdir`.
        func wait(for index: Int) -> Int32 {
            condition.lock()
            defer { condition.unlock() }
            if lowest > index {
                waiting += 1
                while lowest > index && !stopped { condition.wait() }
                waiting -= 1
            }
            return lowest <= index ? failures[index] ?? 0 : ECANCELED
        }

        /// Stops making folders (the disk is full, say) and waits for the thread to end.
        func finish() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
            finished.wait()
        }
    }
}
