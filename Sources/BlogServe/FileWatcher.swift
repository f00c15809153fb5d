#if os(macOS)
import CoreServices
#endif
import BlogCore
import Foundation

/// Watches folders (recursively) and single files, and reports the paths that changed, once they have been quiet
/// for a moment: an editor's save (write a temporary file, rename it over the post) is one change. Hidden files
/// and editors' scratch files (`.x.swp`, `x~`, `4913`) are not reported.
///
/// On Linux it uses inotify, on macOS FSEvents (no polling: a change is seen at once); elsewhere, or when those
/// fail, it compares the files' times and sizes four times a second.
final class FileWatcher: @unchecked Sendable {
    private let folders: [String]
    private let files: Set<String>
    private let quiet: TimeInterval

    /// - Parameters:
    ///   - folders: watched with everything in them, also what is added later.
    ///   - files: single files (watched through their folder).
    ///   - quiet: how long no change must come before the changes are reported.
    init(folders: [URL], files: [URL], quiet: TimeInterval = 0.04) {
        self.folders = folders.map(\.path)
        self.files = Set(files.map(\.path))
        self.quiet = quiet
    }

    /// Whether a change of the file named `name` is worth a rebuild.
    static func matters(_ name: String) -> Bool {
        !(name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name == "4913"
            || name.hasPrefix("#"))
    }

    /// One report of the watcher.
    struct Batch: Sendable {
        /// The paths whose change is worth a rebuild, sorted.
        var changed: [String]
        /// Every path under the watched folders (or a watched file) that changed since the last report, the names
        /// ``matters(_:)`` filters included when they are not hidden (the content's scanner lists `x~` and `4913`),
        /// and those that came while no report was due; nil when the watcher cannot tell them all: it polls, or
        /// uses FSEvents (which coalesces and may drop paths), its queue overflowed, or a folder could not be watched.
        var seen: [String]?
        /// A change made before this time (nanoseconds since 1970, by the clock that dates file changes, see
        /// ``FileTimes``) is in this report or an earlier one.
        var before: Int64 = 0
    }

    /// Starts watching on a thread of its own; `changed` gets each batch of changed paths, on that thread.
    /// Returns once the watching has begun: a change made after it returns is reported (one made before, while the
    /// watches were being set up, would have been lost: a save just after `serve` said it was serving, or during its
    /// first build, never rebuilt the site).
    func start(_ changed: @escaping @Sendable (Batch) -> Void) {
        let watching = DispatchSemaphore(value: 0)
        let ready: @Sendable () -> Void = { watching.signal() }
        let thread = Thread { [self] in
            #if os(Linux)
            if watchWithInotify(changed, ready: ready) { return }
            #elseif os(macOS)
            if watchWithFSEvents(changed, ready: ready) { return }
            #endif
            watchByPolling(changed, ready: ready)
        }
        thread.name = "blog serve: watcher"
        thread.start()
        watching.wait()
    }

    #if os(Linux)
    /// Watches with inotify until the process ends, calling `ready` once every watch is set; false (`ready` not
    /// called) when inotify is not available.
    private func watchWithInotify(_ changed: @escaping @Sendable (Batch) -> Void, ready: () -> Void) -> Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF)
        var watched: [Int32: String] = [:]
        // Whether a folder could not be watched (the limit of watches): changes in it are never seen, so no batch
        // is exact from then on. A folder gone before its watch was set is not one.
        var lost = false
        func add(_ folder: String) {
            let wd = inotify_add_watch(fd, folder, mask)
            if wd >= 0 { watched[wd] = folder } else if errno != ENOENT, errno != ENOTDIR { lost = true }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                if FileManager.default.fileExists(atPath: folder) { lost = true }
                return
            }
            for name in names where !name.hasPrefix(".") {
                var isFolder: ObjCBool = false
                let path = folder + "/" + name
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { add(path) }
            }
        }
        for folder in folders { add(folder) }
        // The parents of the single files and of the folders, so that a folder made later is seen.
        for parent in Set((Array(files) + folders).map { ($0 as NSString).deletingLastPathComponent }) {
            let wd = inotify_add_watch(fd, parent, mask)
            if wd >= 0, watched[wd] == nil { watched[wd] = parent }
        }
        let underFolders = { (path: String) in self.folders.contains { path == $0 || path.hasPrefix($0 + "/") } }
        ready()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: [String] = []
        // Every path seen since the last batch, and whether they are all (no overflow of the queue since).
        var seen: Set<String> = []
        var exact = true
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let waited = poll(&poller, 1, pending.isEmpty ? -1 : Int32(quiet * 1000))
            if waited == 0 {
                // A change made before this time waits in the queue, or was read: looked for once more after it. (Taken
                // before the wait, it fell in the clock's tick of the last change, which the build then counted as
                // made while it ran, and kept no state.)
                let before = FileTimes.now()
                if poll(&poller, 1, 0) > 0 { continue }
                changed(Batch(changed: Array(Set(pending)).sorted(), seen: exact && !lost ? Array(seen) : nil, before: before))
                pending = []
                seen = []
                exact = true
                continue
            }
            guard waited > 0 else { if errno == EINTR { continue } else { return true } }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { continue }
            for event in Self.inotifyEvents(buffer.prefix(count)) {
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // The kernel's queue overflowed and events were dropped: which files changed, and which folders
                    // were made, is unknown. Every folder is walked again for watches (a folder made meanwhile) and
                    // a rebuild is asked for; dropping the event, as before, left the preview stale until the next
                    // save.
                    for folder in folders { add(folder) }
                    pending.append(contentsOf: folders)
                    exact = false
                    continue
                }
                guard let folder = watched[event.wd] else { continue }
                let path = event.name.isEmpty ? folder : folder + "/" + event.name
                if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, underFolders(path) {
                    add(path)
                }
                if event.mask & UInt32(IN_IGNORED) != 0 { watched[event.wd] = nil }
                // Hidden names are never read (nor what is in a hidden folder, which is not watched).
                guard event.name.isEmpty || !event.name.hasPrefix("."), underFolders(path) || files.contains(path) else { continue }
                seen.insert(path)
                // A name that is not UTF-8 reads with U+FFFD: not the file's path.
                if event.name.contains("\u{FFFD}") { exact = false }
                if event.name.isEmpty || Self.matters(event.name) { pending.append(path) }
            }
        }
    }

    /// The events in bytes read from an inotify descriptor: each a watch descriptor (-1 for the queue's overflow),
    /// a mask and a name (empty for the watched item itself), as `struct inotify_event` lays them out.
    static func inotifyEvents(_ bytes: ArraySlice<UInt8>) -> [(wd: Int32, mask: UInt32, name: String)] {
        var events: [(wd: Int32, mask: UInt32, name: String)] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 16 <= raw.count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                guard offset + 16 + length <= raw.count else { break }
                let name = raw[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                events.append((wd, mask, String(decoding: name, as: UTF8.self)))
                offset += 16 + length
            }
        }
        return events
    }
    #endif

    #if os(macOS)
    /// Watches with FSEvents (file events, coalesced over `quiet`) until the process ends; false when the stream
    /// does not start. Tested only by the macOS CI job.
    private func watchWithFSEvents(_ changed: @escaping @Sendable (Batch) -> Void, ready: () -> Void) -> Bool {
        // FSEvents reports real paths (/private/var/… for /var/…): each watched path's real form maps back to it.
        let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let folderPairs = folders.map { (real: real($0), given: $0) }
        let filePairs = Dictionary(files.map { (real($0), $0) }, uniquingKeysWith: { first, _ in first })
        let report = FSEventsReport { events in
            var paths: Set<String> = []
            for event in events {
                if let file = filePairs[event] {
                    if Self.matters((event as NSString).lastPathComponent) { paths.insert(file) }
                    continue
                }
                guard let folder = folderPairs.first(where: { event == $0.real || event.hasPrefix($0.real + "/") }) else { continue }
                let relative = event.dropFirst(folder.real.count)
                // Nothing in a hidden folder or an editor's scratch file, as with inotify.
                guard relative.split(separator: "/").allSatisfy({ Self.matters(String($0)) }) else { continue }
                paths.insert(folder.given + relative)
            }
            if !paths.isEmpty { changed(Batch(changed: paths.sorted(), seen: nil)) }
        }
        var context = FSEventStreamContext(version: 0, info: Unmanaged.passRetained(report).toOpaque(),
                                           retain: nil, release: nil, copyDescription: nil)
        let callback: FSEventStreamCallback = { _, info, _, eventPaths, _, _ in
            guard let info else { return }
            let paths = unsafeBitCast(eventPaths, to: NSArray.self).compactMap { $0 as? String }
            Unmanaged<FSEventsReport>.fromOpaque(info).takeUnretainedValue().body(paths)
        }
        let watched = Array(Set(folderPairs.map(\.real) + filePairs.keys.map { ($0 as NSString).deletingLastPathComponent }))
        let flags = FSEventStreamCreateFlags(kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer | kFSEventStreamCreateFlagUseCFTypes)
        guard let stream = FSEventStreamCreate(nil, callback, &context, watched as CFArray,
                                               FSEventStreamEventId(kFSEventStreamEventIdSinceNow), quiet, flags) else { return false }
        FSEventStreamSetDispatchQueue(stream, DispatchQueue(label: "blog serve: FSEvents"))
        guard FSEventStreamStart(stream) else { return false }
        ready()
        // The stream reports on its queue for as long as the process runs, as the inotify watcher does.
        while true { Thread.sleep(forTimeInterval: 3600) }
    }
    #endif

    /// Watches by comparing the files' modification times and sizes every quarter second, calling `ready` once the
    /// first look is taken.
    private func watchByPolling(_ changed: @escaping @Sendable (Batch) -> Void, ready: () -> Void) {
        func snapshot() -> [String: [Int]] {
            var out: [String: [Int]] = [:]
            let manager = FileManager.default
            var paths = Array(files)
            for folder in folders {
                guard let walker = manager.enumerator(atPath: folder) else { continue }
                for case let relative as String in walker where Self.matters((relative as NSString).lastPathComponent) {
                    paths.append(folder + "/" + relative)
                }
            }
            for path in paths {
                guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
                let time = (attributes[.modificationDate] as? Date).map { Int($0.timeIntervalSince1970 * 1e6) } ?? 0
                out[path] = [time, (attributes[.size] as? Int) ?? 0]
            }
            return out
        }
        var last = snapshot()
        ready()
        while true {
            Thread.sleep(forTimeInterval: 0.25)
            let now = snapshot()
            let changes = Set(now.keys).union(last.keys).filter { now[$0] != last[$0] }
            if !changes.isEmpty { changed(Batch(changed: changes.sorted(), seen: nil)) }
            last = now
        }
    }
}

#if os(macOS)
/// What FSEvents' C callback reaches through its context pointer.
private final class FSEventsReport {
    let body: ([String]) -> Void
    init(_ body: @escaping ([String]) -> Void) { self.body = body }
}
#endif
