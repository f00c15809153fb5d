#if os(Linux)
import Foundation
import Glibc
import XCTest
@testable import BlogServe

/// The watcher's reading of inotify's events, on events the kernel itself queued.
final class FileWatcherTests: XCTestCase {
    /// A folder watched by a fresh inotify descriptor, with `make` run in it before the events are read.
    private func events(_ make: (URL) throws -> Void) throws -> [(wd: Int32, mask: UInt32, name: String)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let wd = inotify_add_watch(fd, folder.path, UInt32(IN_CREATE | IN_CLOSE_WRITE))
        XCTAssertGreaterThanOrEqual(wd, 0)
        try make(folder)
        var all: [(wd: Int32, mask: UInt32, name: String)] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            all += FileWatcher.inotifyEvents(buffer.prefix(count))
        }
        return all
    }

    func testEventsAreReadWithTheirNamesWhateverTheirPadding() throws {
        // Names of 1 to 40 bytes, so the kernel pads them to different lengths; one not ASCII.
        let names = (1...40).map { String(repeating: "p", count: $0) + ".md" } + ["été.md"]
        let read = try events { folder in
            for name in names { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        }
        let created = read.filter { $0.mask & UInt32(IN_CREATE) != 0 }.map(\.name)
        let written = read.filter { $0.mask & UInt32(IN_CLOSE_WRITE) != 0 }.map(\.name)
        XCTAssertEqual(created, names)
        XCTAssertEqual(written, names)
        XCTAssertTrue(read.allSatisfy { $0.wd >= 0 })
    }

    /// More events than the kernel queues: the last one read is the overflow (watch descriptor -1, no name), which
    /// the watcher answers with a rebuild and a new walk of its folders; it was dropped before, as a watch it did
    /// not know, and the preview stayed stale.
    func testAnOverflowOfTheQueueIsReadAsOne() throws {
        guard let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), limit <= 65_536 else {
            throw XCTSkip("the queue's limit is not known or too large to fill here")
        }
        let read = try events { folder in
            // Each file makes two events (created, closed after writing).
            for index in 0...(limit / 2 + 8) {
                let fd = open(folder.appendingPathComponent("\(index)").path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
                XCTAssertGreaterThanOrEqual(fd, 0)
                close(fd)
            }
        }
        XCTAssertEqual(read.count, limit + 1)
        XCTAssertEqual(read.last?.wd, -1)
        XCTAssertEqual(read.last.map { $0.mask & UInt32(IN_Q_OVERFLOW) }, UInt32(IN_Q_OVERFLOW))
        XCTAssertEqual(read.last?.name, "")
        XCTAssertEqual(read.filter { $0.wd == -1 }.count, 1)
    }
}
#endif
