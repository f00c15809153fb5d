import BlogCore
import Foundation
import XCTest

/// A blog folder in a temporary directory, deleted at the end of the test.
struct TempSite {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("blog-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Writes `text` at `path` (relative to the blog folder), creating folders.
    @discardableResult
    func write(_ path: String, _ text: String) throws -> URL {
        try write(path, data: Data(text.utf8))
    }

    @discardableResult
    func write(_ path: String, data: Data) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }

    /// The text of a file under the blog folder, or nil.
    func read(_ path: String) -> String? {
        (try? Data(contentsOf: root.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// Every file under `folder`, relative, sorted.
    func files(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var out: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            out.append(String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1)))
        }
        return out.sorted()
    }

    /// Path -> bytes of every file under `folder`.
    func snapshot(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for path in files(under: folder) {
            out[path] = try? Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(path))
        }
        return out
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// Fails when two snapshots (``TempSite/snapshot(_:)``) differ, in their paths or in any file's bytes; `what` says
/// between which builds.
func assertSameFiles(_ expected: [String: Data], _ actual: [String: Data], differ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.keys.sorted(), expected.keys.sorted(), file: file, line: line)
    for (path, data) in expected where actual[path] != data {
        XCTFail("\(path) differs \(what)", file: file, line: line)
    }
}

/// Tests that build a small site in a ``TempSite`` with the `blog` binary and read its pages back.
class BuiltSiteTestCase: XCTestCase {
    var site: TempSite!

    override func setUpWithError() throws {
        site = try TempSite()
    }

    override func tearDown() {
        site.remove()
    }

    /// `blog build arguments…` in the site, which must succeed; most callers read only the site.
    @discardableResult
    func build(_ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> BlogCLI.Result {
        let result = try BlogCLI.run(["build"] + arguments, in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result
    }

    /// The built file `public/path`.
    func page(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try XCTUnwrap(site.read("public/" + path), "no public/\(path) in \(site.files(under: "public"))", file: file, line: line)
    }

    /// The text between `open` and `close` in the built file `path`.
    func between(_ open: String, _ close: String, in path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let html = try page(path, file: file, line: line)
        guard let start = html.range(of: open), let end = html.range(of: close, range: start.upperBound..<html.endIndex) else {
            XCTFail("no \(open)…\(close) in \(html)", file: file, line: line)
            return ""
        }
        return String(html[start.upperBound..<end.lowerBound])
    }
}

/// Runs the `blog` executable built beside the tests.
enum BlogCLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the run was stopped at its time limit, and whether it ended on a signal (a crash, or that stop).
        var timedOut = false
        var signaled = false
    }

    /// The built `blog` binary: in the same folder as the test bundle.
    static var executable: URL {
        var folder = Bundle(for: Marker.self).bundleURL
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("blog")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        fatalError("the blog executable was not built next to the tests")
    }

    private final class Marker {}

    /// Runs `blog arguments…` (or another `program`) in `directory` with extra environment variables; with a
    /// `timeLimit` (seconds), a run still going then is stopped (``Result/timedOut``).
    @discardableResult
    static func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
                    program: URL? = nil, timeLimit: Double? = nil) throws -> Result {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Output goes to files, so a child that prints a lot can never block on a full pipe.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blog-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var timedOut = false
        if let timeLimit {
            let deadline = Date().addingTimeInterval(timeLimit)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            timedOut = process.isRunning
            if timedOut { process.terminate() }
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), timedOut: timedOut,
                      signaled: process.terminationReason == .uncaughtSignal)
    }
}

/// The diagnostics of the ``BuildFailure`` that `body` throws; a test failure (and no diagnostics)
/// when it returns or throws anything else.
func buildFailure<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
    do {
        let value = try body()
        XCTFail("expected a BuildFailure, got \(value)", file: file, line: line)
        return []
    } catch let failure as BuildFailure {
        return failure.diagnostics
    } catch {
        XCTFail("expected a BuildFailure, got \(error)", file: file, line: line)
        return []
    }
}
