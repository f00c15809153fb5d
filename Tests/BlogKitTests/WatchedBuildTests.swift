#if os(Linux)
@testable import BlogBuild
import BlogCore
@testable import BlogIncremental
@testable import BlogServe
import Foundation
import Glibc
import XCTest

/// The reports of a real watcher, in order; with `hold`, the watcher's thread waits in its report (it reads no
/// event meanwhile, so its queue fills) until the hold is released.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [FileWatcher.Batch] = []
    private var holding: DispatchSemaphore?

    func add(_ batch: FileWatcher.Batch) {
        let hold = lock.withLock {
            batches.append(batch)
            return holding
        }
        hold?.wait()
    }

    func take() -> [FileWatcher.Batch] {
        lock.withLock {
            defer { batches = [] }
            return batches
        }
    }

    func hold() { lock.withLock { holding = DispatchSemaphore(value: 0) } }

    func release() {
        let hold = lock.withLock {
            defer { holding = nil }
            return holding
        }
        hold?.signal()
    }
}

/// `blog serve`'s builds with what its inotify watcher reports: the last list of the content folder is kept, and
/// only the post files reported are looked at, when the reports say every change; else the content folder is
/// scanned and every post file looked at. After each step the site is a clean build's.
extension IncrementalBuildTests {
    /// A watcher of the content folder, `themes/` and blog.yml, as serve starts it, and the content folder's path.
    private func watch() -> (Reports, String) {
        let content = BlogFolder(site.root.path).resolve("content").url
        let reports = Reports()
        FileWatcher(folders: [content, site.root.appendingPathComponent("themes")], files: [site.root.appendingPathComponent("blog.yml")])
            .start { reports.add($0) }
        return (reports, content.path)
    }

    /// The reports that come until none has come for 0.3 s (at least one).
    private func reported(_ reports: Reports) -> [FileWatcher.Batch] {
        var batches: [FileWatcher.Batch] = []
        var last = Date()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let new = reports.take()
            if !new.isEmpty {
                batches += new
                last = Date()
            } else if !batches.isEmpty, Date().timeIntervalSince(last) > 0.3 {
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertFalse(batches.isEmpty, "the watcher reported nothing")
        return batches
    }

    /// A build as serve makes it for `batch` (nil: its first build).
    @discardableResult
    private func watchedBuild(_ batch: FileWatcher.Batch?, content: String) throws -> BuildReport {
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
        options.buildsAgain = true
        options.quick = true
        options.changes = batch.flatMap { batch in batch.seen.map { WatchedChanges(paths: $0, content: content, before: batch.before) } }
        return try Pipeline.build(options)
    }

    /// `change`, then a build per report of the watcher, as serve makes them; then the site is compared with a
    /// clean build's, and the number of builds that kept the content folder's list with `kept`.
    private func step(_ reports: Reports, _ content: String, kept: Int, _ what: String, line: UInt = #line,
                      _ change: () throws -> Void) throws {
        let before = BuildMemo.shared.listsKept
        try change()
        for batch in reported(reports) { try watchedBuild(batch, content: content) }
        XCTAssertEqual(BuildMemo.shared.listsKept - before, kept, what, line: line)
        try assertSameAsCleanBuild(line: line)
    }

    private func retitle(_ path: String, _ title: String) throws {
        try edit(path) { text in
            text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("title: ") ? "title: \(title)" : String($0) }
                .joined(separator: "\n")
        }
    }

    func testServeBuildsWithTheWatchersReportsWriteWhatACleanBuildWrites() throws {
        let (reports, content) = watch()
        try watchedBuild(nil, content: content)
        let posts = site.root.appendingPathComponent("content/posts")
        try step(reports, content, kept: 1, "a post edited in place") { try retitle("content/posts/post-2.md", "Two") }
        try step(reports, content, kept: 1, "a save by rename: the scratch file is gone") {
            let text = try XCTUnwrap(site.read("content/posts/post-3.md")).replacingOccurrences(of: "title: Post number 3", with: "title: Three")
            try site.write("content/posts/post-3.md.tmp-1234", text)
            XCTAssertEqual(rename(posts.appendingPathComponent("post-3.md.tmp-1234").path, posts.appendingPathComponent("post-3.md").path), 0)
        }
        try step(reports, content, kept: 1, "sed -i") {
            let sed = Process()
            sed.executableURL = URL(fileURLWithPath: "/bin/sed")
            sed.arguments = ["-i", "s/^title: Post number 4$/title: Four, by sed/", posts.appendingPathComponent("post-4.md").path]
            try sed.run()
            sed.waitUntilExit()
            XCTAssertEqual(sed.terminationStatus, 0)
        }
        try step(reports, content, kept: 1, "vim's test of the folder (4913, made and removed) and a save") {
            try site.write("content/posts/4913", "")
            try FileManager.default.removeItem(at: posts.appendingPathComponent("4913"))
            try retitle("content/posts/post-5.md", "Five")
        }
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/four-by-sed/index.html")).contains("Four, by sed"))
        try step(reports, content, kept: 0, "a new post") {
            try site.write("content/posts/post-8.md", "title: Eight\ndate: 2020-08-18 10:00\n\nThe body of post 8.\n")
        }
        XCTAssertTrue(site.exists("public/posts/eight/index.html"))
        try step(reports, content, kept: 0, "a post removed") {
            try FileManager.default.removeItem(at: posts.appendingPathComponent("post-8.md"))
        }
        try step(reports, content, kept: 0, "a post renamed") {
            XCTAssertEqual(rename(posts.appendingPathComponent("post-7.md").path, posts.appendingPathComponent("post-seven.md").path), 0)
        }
        // A scratch name the watcher does not build for, but the scanner lists (an asset): it comes with the next save.
        try step(reports, content, kept: 0, "an editor's backup file (x~) and a save") {
            try site.write("content/posts/post-1.md~", "A backup.")
            Thread.sleep(forTimeInterval: 0.2)
            try retitle("content/posts/post-1.md", "One")
        }
        XCTAssertTrue(site.exists("public/posts/post-1.md~"))
        try step(reports, content, kept: 0, "a new folder") { try site.write("content/notes/a.txt", "A note.") }
        try step(reports, content, kept: 1, "a post edited in place, again") { try retitle("content/posts/post-2.md", "Two, again") }
        // That build left a state (it did not count its own post as changed while it ran): a body edit is built in place.
        try edit("content/posts/post-2.md") { $0 + "\nA new paragraph.\n" }
        let summaries = try reported(reports).map { try watchedBuild($0, content: content).cacheSummary ?? "" }
        XCTAssertTrue(summaries.last?.hasPrefix("quick build") ?? false, "\(summaries)")
        try assertSameAsCleanBuild()

        // Changes while a build runs: made after the report it builds was closed, they are the next report's. A post
        // edited then is looked at by the next build.
        try retitle("content/posts/post-5.md", "Five, again")
        var first = reported(reports)
        try retitle("content/posts/post-2.md", "Two, while a build runs")
        Thread.sleep(forTimeInterval: 0.2)
        for batch in first { try watchedBuild(batch, content: content) }
        try step(reports, content, kept: 1, "a post edited while a build ran") {}
        XCTAssertTrue(site.exists("public/posts/two-while-a-build-runs/index.html"))
        // A post added then changed its folder before the build started, after the report: the build's state must
        // not say the folder is as the list (the next build in place would not scan it).
        try retitle("content/posts/post-6.md", "Six")
        first = reported(reports)
        try site.write("content/posts/post-9.md", "title: Nine\ndate: 2020-09-19 10:00\n\nThe body of post 9.\n")
        Thread.sleep(forTimeInterval: 0.2)
        for batch in first { try watchedBuild(batch, content: content) }
        try step(reports, content, kept: 0, "a post added while a build ran") {}
        XCTAssertTrue(site.exists("public/posts/nine/index.html"))

        // The queue overflows while the watcher waits: the changes it dropped (a new post) are unknown.
        if let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), limit <= 65_536 {
            reports.hold()
            try retitle("content/posts/post-3.md", "Three, once more")
            var held = reported(reports)
            let flood = site.root.appendingPathComponent("content/notes")
            for index in 0...(limit / 2 + 8) {
                let fd = open(flood.appendingPathComponent("\(index)").path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
                XCTAssertGreaterThanOrEqual(fd, 0)
                close(fd)
            }
            for index in 0...(limit / 2 + 8) { unlink(flood.appendingPathComponent("\(index)").path) }
            try site.write("content/posts/post-10.md", "title: Ten\ndate: 2020-10-10 10:00\n\nThe body of post 10.\n")
            reports.release()
            held += reported(reports)
            for batch in held { try watchedBuild(batch, content: content) }
            XCTAssertTrue(held.dropFirst().contains { $0.seen == nil }, "a report after the overflow")
            try assertSameAsCleanBuild()
            XCTAssertTrue(site.exists("public/posts/ten/index.html"))
        }
    }

    /// A post file reached through a symbolic link changes with no report (its folder is not watched): while the
    /// content folder has a link, every post file is looked at.
    func testAPostReachedThroughALinkIsLookedAtOnEveryBuild() throws {
        try site.write("shared/guest.md", "title: A guest\ndate: 2020-02-02 10:00\n\nA guest post.\n")
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("content/posts/guest.md").path,
                                                   withDestinationPath: "../../shared/guest.md")
        let (reports, content) = watch()
        try watchedBuild(nil, content: content)
        try site.write("shared/guest.md", "title: A guest, renamed\ndate: 2020-02-02 10:00\n\nA guest post.\n")
        try step(reports, content, kept: 0, "a post edited, with a link in the content folder") {
            try retitle("content/posts/post-2.md", "Two")
        }
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/a-guest-renamed/index.html")).contains("A guest, renamed"))
    }
}
#endif
