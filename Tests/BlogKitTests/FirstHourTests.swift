import Foundation
import XCTest

/// Issue 30, items 4–6: what a newcomer meets in the first hour, through the real `blog` binary: the commands'
/// names, the wrong folder, and messages that are about no place in a file.
final class FirstHourTests: BuiltSiteTestCase {
    /// `blog arguments…` fails with exit 1 and prints exactly `stderr`.
    func assertFails(_ arguments: [String], _ stderr: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try BlogCLI.run(arguments, in: site.root)
        XCTAssertEqual(result.status, 1, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr, stderr, file: file, line: line)
    }

    /// Every entry of the folder, files and folders, hidden ones too.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted()
    }

    // MARK: 4. Commands

    func testVersionIsACommandAsWellAsAnOption() throws {
        let option = try BlogCLI.run(["--version"], in: site.root)
        let command = try BlogCLI.run(["version"], in: site.root)
        XCTAssertEqual(command.status, 0, command.stderr)
        XCTAssertEqual(command.stdout, option.stdout)
        XCTAssertFalse(command.stdout.isEmpty)
        XCTAssertEqual(command.stderr, "")
        XCTAssertTrue(try BlogCLI.run(["--help"], in: site.root).stdout.contains("version"))
    }

    func testAMistypedCommandSuggestsTheNearestOne() throws {
        for (typed, meant) in [("biuld", "build"), ("serv", "serve"), ("lsit", "list"), ("chekc", "check"), ("inti", "init"), ("verison", "version")] {
            let result = try BlogCLI.run([typed], in: site.root)
            XCTAssertEqual(result.status, 2, typed)
            XCTAssertEqual(result.stderr, "error: unknown command `\(typed)`; did you mean `\(meant)`?\nSee 'blog --help' for more information.\n")
            XCTAssertEqual(result.stdout, "")
        }
        let far = try BlogCLI.run(["publish", "--drafts"], in: site.root)
        XCTAssertEqual(far.status, 2)
        XCTAssertEqual(far.stderr, "error: unknown command `publish`; the commands are `init`, `new`, `build`, `serve`, `list`, `check`, `version`\n"
                       + "See 'blog --help' for more information.\n")
        XCTAssertEqual(try entries(), [], "a mistyped command writes nothing")
        // `help` stays argument-parser's.
        XCTAssertEqual(try BlogCLI.run(["help", "build"], in: site.root).status, 0)
    }

    // MARK: 5. The wrong folder

    func testCommandsInAFolderThatIsNoBlogSaySoAndWriteNothing() throws {
        try site.write("notes.txt", "not a blog\n")
        let here = URL(fileURLWithPath: site.root.path).resolvingSymlinksInPath().path
        let message = "error: this folder (\(here)) is not a blog folder: it has no blog.yml and no content/; "
            + "start a blog with `blog init`, or name the blog's folder with --source DIR\n"
        let runs: [[String]] = [["build"], ["build", "--no-cache"], ["list"], ["list", "--format", "json"], ["check"], ["serve", "--port", "0"]]
        for arguments in runs {
            let result = try BlogCLI.run(arguments, in: site.root, timeLimit: 30)
            XCTAssertFalse(result.timedOut, "\(arguments)")
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("still serving"), result.stderr)
            XCTAssertFalse(result.stderr.contains(":1:1:"), result.stderr)
            XCTAssertEqual(try entries(), ["notes.txt"], "\(arguments) wrote into the folder")
        }
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).stderr,
                       message + "blog: error: build failed; the output folder was not changed\n")
    }

    func testASourceFolderThatIsNoBlogIsNamed() throws {
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        let result = try BlogCLI.run(["list", "--source", "drafts"], in: site.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "error: drafts is not a blog folder: it has no blog.yml and no content/; "
                       + "start a blog with `blog init drafts`, or name the blog's folder with --source DIR\n")
        XCTAssertEqual(try entries(), ["drafts"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site.root.appendingPathComponent("drafts").path), [])
    }

    func testServeWhoseFirstBuildFailsHasNoLastGoodSite() throws {
        try site.write("blog.yml", "title: Broken\n")
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-02-31\n\nA.\n")
        let server = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        try ServeEndToEndTests.eventually(20, "the failed first build is told") {
            server.errorOutput.contains("build failed; nothing to serve until a build succeeds\n")
        }
        XCTAssertTrue(server.errorOutput.hasPrefix("content/posts/a.md:2:7: error:"), server.errorOutput)
        XCTAssertFalse(server.errorOutput.contains("still serving the last good site"), server.errorOutput)
        // Fixed, then broken again: now there is a last good site.
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-02-03\n\nA.\n")
        try ServeEndToEndTests.eventually(20, "the fixed build") { server.output.contains("Rebuilt") }
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-02-30\n\nA.\n")
        try ServeEndToEndTests.eventually(20, "the second failure") { server.errorOutput.contains("build failed; still serving the last good site\n") }
    }

    // MARK: 6. Messages about no place in a file

    func testAPortInUseIsNoPlaceInAFile() throws {
        try site.write("blog.yml", "title: T\n")
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-02-03\n\nA.\n")
        let first = try ServeEndToEndTests.Server(["--port", "0"], in: site.root)
        defer { first.stop() }
        try first.waitUntilServing()
        let port = try XCTUnwrap(URL(string: first.url)?.port)
        let second = try BlogCLI.run(["serve", "--port", String(port)], in: site.root)
        XCTAssertEqual(second.status, 1)
        XCTAssertEqual(second.stderr, "error: cannot listen on 127.0.0.1 port \(port): it is in use; choose another with --port\n")
        let bind = try BlogCLI.run(["serve", "--bind", "evil", "--port", "0"], in: site.root)
        XCTAssertEqual(bind.status, 1)
        XCTAssertTrue(bind.stderr.hasPrefix("error: cannot listen on evil: no such address;"), bind.stderr)
    }

    func testInitAndOptionsPrintErrorWithoutAPlace() throws {
        try site.write("blog.yml", "title: T\n")
        try assertFails(["init"], "error: the folder . is not empty (blog.yml); choose an empty or new folder, "
                        + "or use --force to add the files that are missing (no file is overwritten)\n")
        try assertFails(["init", "blog.yml"], "error: blog.yml is a file: expected a folder for the new blog\n")
        try assertFails(["init", "--from", "elsewhere"], "error: elsewhere is not a folder: expected the folder of an existing blog\n")
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-02-03\n\nA.\n")
        try assertFails(["build", "--base-url", "ftp://x"],
                        "error: --base-url: expected a URL such as https://example.org/ or a path such as /blog/, got \"ftp://x\"\n"
                        + "blog: error: build failed; the output folder was not changed\n")
        try assertFails(["new", "!!!"], "error: blog new: the title \"!!!\" has no letter or digit to make the post's file name from\n")
        let tags = try BlogCLI.run(["new", "T", "--tags", "a\nb"], in: site.root)
        XCTAssertTrue(tags.stderr.hasPrefix("error: --tags: a tag \"a\\u{A}b\" holds a line break"), tags.stderr)
        XCTAssertEqual(site.files(under: "content"), ["posts/a.md"])
    }

    func testContentFolderMessagesNameTheFolder() throws {
        try site.write("blog.yml", "title: T\nbase_url: https://example.org/\n")
        let missing = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("error: content folder content/ not found\n"), missing.stderr)
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("content"), withIntermediateDirectories: true)
        let empty = try BlogCLI.run(["build"], in: site.root)
        XCTAssertTrue(empty.stderr.hasPrefix("error: no posts found in content/: expected *.md or *.markdown files under content/\n"), empty.stderr)
        // Folders of the output are no place in a file either.
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-02-03\n\nA.\n")
        try site.write("public", "a file\n")
        try assertFails(["build"], "error: public: the output path is a file; expected a folder (or nothing) there\n"
                        + "blog: error: build failed; the output folder was not changed\n")
    }
}
