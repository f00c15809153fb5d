import Foundation
import XCTest

/// The GitHub Action's script (scripts/action, which action.yml's steps run), against an archive that
/// `scripts/release` made, given by a local folder or a file:// URL instead of a download.
final class ActionScriptTests: XCTestCase {
    /// `scripts/action command` with `environment`.
    func action(_ command: String, in directory: URL? = nil, environment: [String: String]) throws -> BlogCLI.Result {
        try BlogCLI.run([ReleaseTests.repository.appendingPathComponent("scripts/action").path, command],
                        in: directory ?? FileManager.default.temporaryDirectory, environment: environment,
                        program: URL(fileURLWithPath: "/bin/bash"))
    }

    func testInstallsTheArchiveCheckedAgainstItsSumAndRunsBuildAndCheck() throws {
        let folder = try releaseFolder()
        let work = try TempSite()
        defer { work.remove() }
        let githubPath = work.root.appendingPathComponent("github-path")
        try Data().write(to: githubPath)
        let version = try blogVersionForTests()
        // By file:// URL, the latest release.
        let environment = ["BLOG_RELEASE_URL": "file://" + folder.path, "BLOG_VERSION": "latest",
                           "RUNNER_TOOL_CACHE": work.root.appendingPathComponent("tools").path, "GITHUB_PATH": githubPath.path]
        let installed = try action("install", environment: environment)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let tools = installed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(tools.hasPrefix(work.root.appendingPathComponent("tools/blog/\(version)/linux-").path), tools)
        XCTAssertEqual(try String(contentsOf: githubPath, encoding: .utf8), tools + "\n", "the folder goes on the job's PATH")
        XCTAssertTrue(installed.stderr.contains("SHA-256 checked"), installed.stderr)
        // By local folder, a named version; another version is refused.
        let named = try action("install", environment: environment.merging(["BLOG_RELEASE_URL": folder.path, "BLOG_VERSION": "v" + version]) { $1 })
        XCTAssertEqual(named.status, 0, named.stderr)
        let other = try action("install", environment: environment.merging(["BLOG_VERSION": "99.0.0"]) { $1 })
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("error: the release at file://\(folder.path) is not version 99.0.0"), other.stderr)

        // The run step on a new blog: blog build --strict with GitHub Pages' address, then blog check.
        let blog = work.root.appendingPathComponent("site")
        XCTAssertEqual(try BlogCLI.run(["init", blog.path], in: work.root).status, 0)
        let path = tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try action("run", in: blog, environment: ["PATH": path, "BLOG_ARGS": "build --strict --base-url https://ann.github.io/notes/", "BLOG_CHECK": "true"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(try String(contentsOf: blog.appendingPathComponent("public/feed.xml"), encoding: .utf8).contains("https://ann.github.io/notes/"))
        // The default arguments: build --strict, which refuses the placeholder base_url.
        let refused = try action("run", in: blog, environment: ["PATH": path, "BLOG_CHECK": "true"])
        XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("placeholder"), refused.stderr)
    }

    func testRefusesAnArchiveWhoseSumDiffers() throws {
        let folder = try releaseFolder()
        let work = try TempSite()
        defer { work.remove() }
        let copy = work.root.appendingPathComponent("release")
        try FileManager.default.copyItem(at: folder, to: copy)
        let tarball = try file(in: copy, prefix: "blog-", suffix: ".tar.gz")
        var data = try Data(contentsOf: tarball)
        data[data.count / 2] ^= 0xFF
        try data.write(to: tarball)
        let tools = work.root.appendingPathComponent("tools")
        let refused = try action("install", environment: ["BLOG_RELEASE_URL": copy.path, "RUNNER_TOOL_CACHE": tools.path])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("error: \(tarball.lastPathComponent): SHA-256 "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not installing it"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tools.path), "nothing unpacked")
    }
}
