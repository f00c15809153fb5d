import Foundation
import XCTest

/// What `scripts/release` makes: the archive whose binary runs without the Swift toolchain and cmark-gfm's shared
/// libraries, and the .deb that installs, runs and removes cleanly.
///
/// The static release build takes about ten minutes on two cores, too long to run inside the test suite: `.ci/run`
/// runs `scripts/release` once and gives its folder to the tests in `BLOG_RELEASE_DIR`. Without it these tests skip.
final class ReleaseTests: XCTestCase {
    /// The repository (the sample blog: blog.yml, content/, themes/ at its root).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift toolchain's library folder (`/opt/swift/usr/lib`) and cmark-gfm's shared libraries, as the debug
    /// build of `blog` loads them.
    func sharedLibrariesToHide() throws -> (toolchain: String, cmark: [String]) {
        let ldd = try shell("ldd \"$1\"", [BlogCLI.executable.path])
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        let paths = ldd.stdout.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ")
            guard let arrow = parts.firstIndex(of: "=>"), arrow + 1 < parts.count else { return nil }
            return String(parts[arrow + 1])
        }
        guard let core = paths.first(where: { $0.hasSuffix("/libswiftCore.so") }), let range = core.range(of: "/lib/swift/") else {
            throw XCTSkip("the debug build does not load libswiftCore.so from a toolchain folder: \(ldd.stdout)")
        }
        let cmark = paths.filter { $0.contains("libcmark-gfm") }.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        XCTAssertEqual(cmark.count, 2, "the debug build loads libcmark-gfm and libcmark-gfm-extensions: \(ldd.stdout)")
        return (String(core[..<range.lowerBound]) + "/lib", cmark)
    }

    /// Runs `script` in a user and mount namespace where an empty folder hides the toolchain's libraries and
    /// /dev/null each cmark-gfm shared library.
    func withLibrariesHidden(_ script: String, _ arguments: [String], in directory: URL? = nil,
                             environment: [String: String] = [:]) throws -> BlogCLI.Result {
        // A container without user namespaces (Docker's default seccomp profile) cannot: say so.
        guard try shell("unshare -rm true").status == 0 else {
            throw XCTSkip("unshare -rm is not permitted here (user and mount namespaces), so the libraries cannot be hidden")
        }
        let hidden = try sharedLibrariesToHide()
        let empty = try TempSite()
        defer { empty.remove() }
        let hide = """
        mount --bind "$HIDE_EMPTY" "$HIDE_TOOLCHAIN" || exit 99
        for f in $HIDE_CMARK; do mount --bind /dev/null "$f" || exit 99; done
        """
        let environment = environment.merging(["HIDE_EMPTY": empty.root.path, "HIDE_TOOLCHAIN": hidden.toolchain,
                                               "HIDE_CMARK": hidden.cmark.joined(separator: " ")]) { $1 }
        return try BlogCLI.run(["-rm", "/bin/bash", "-c", hide + "\n" + script, "bash"] + arguments,
                               in: directory ?? FileManager.default.temporaryDirectory, environment: environment,
                               program: URL(fileURLWithPath: "/usr/bin/unshare"))
    }

    func testArchiveBinaryBuildsTheSampleBlogAsTheDebugBuildDoesWithTheToolchainAndCmarkHidden() throws {
        let folder = try releaseFolder()
        let sums = try shell("sha256sum -c SHA256SUMS", in: folder)
        XCTAssertEqual(sums.status, 0, sums.stdout + sums.stderr)
        let tarball = try file(in: folder, prefix: "blog-", suffix: ".tar.gz")
        XCTAssertTrue(sums.stdout.contains("\(tarball.lastPathComponent): OK"), sums.stdout)

        let work = try TempSite()
        defer { work.remove() }
        let untar = try shell("tar -xzf \"$1\" && ls -R", [tarball.path], in: work.root)
        XCTAssertEqual(untar.status, 0, untar.stderr)
        let name = String(tarball.lastPathComponent.dropLast(".tar.gz".count))
        let version = try blogVersionForTests()
        XCTAssertTrue(name.hasPrefix("blog-\(version)-linux-"), name)
        for path in ["blog", "README.md", "completions/blog.bash", "completions/_blog", "completions/blog.fish", "man/blog.1"] {
            XCTAssertTrue(work.exists("\(name)/\(path)"), "\(path) missing from \(tarball.lastPathComponent): \(untar.stdout)")
        }
        let blog = work.root.appendingPathComponent("\(name)/blog").path
        let ldd = try shell("ldd \"$1\"", [blog])
        for library in ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "libcmark", "libcurl", "libicu", "libxml2"] {
            XCTAssertFalse(ldd.stdout.contains(library), "the release binary loads \(library): \(ldd.stdout)")
        }
        let man = try shell("man -l \"$1\" 2>/dev/null || cat \"$1\"", [work.root.appendingPathComponent("\(name)/man/blog.1").path],
                            environment: ["MANWIDTH": "100"])
        XCTAssertTrue(man.stdout.contains("--base-url"), "the man page has the --help texts of the commands: \(man.stdout.prefix(500))")

        // The same sample blog, by the debug build as usual and by the archive's binary with the libraries hidden.
        let environment = ["SOURCE_DATE_EPOCH": "1700000000", "TZ": "UTC"]
        let repo = Self.repository.path
        let debug = try BlogCLI.run(["build", "--source", repo, "--output", work.root.appendingPathComponent("debug").path, "--no-cache", "--quiet"],
                                    in: work.root, environment: environment)
        XCTAssertEqual(debug.status, 0, debug.stderr)
        let script = """
        if "$3" --version >/dev/null 2>&1; then echo "the debug build still starts: nothing is hidden"; exit 98; fi
        exec "$1" build --source "$2" --output "$4" --no-cache --quiet
        """
        let release = try withLibrariesHidden(script, [blog, repo, BlogCLI.executable.path, work.root.appendingPathComponent("release").path],
                                              in: work.root, environment: environment)
        XCTAssertEqual(release.status, 0, release.stdout + release.stderr)
        let expected = work.snapshot("debug"), actual = work.snapshot("release")
        XCTAssertGreaterThan(expected.count, 10)
        assertSameFiles(expected, actual, differ: "between the debug build and the release binary")
    }

    func testDebInstallsRunsWithoutTheToolchainAndRemovesCleanly() throws {
        let folder = try releaseFolder()
        let deb = try file(in: folder, prefix: "blog_", suffix: ".deb")
        guard getuid() == 0 else { throw XCTSkip("installing a .deb needs root") }
        if try shell("dpkg -s blog >/dev/null 2>&1").status == 0 {
            throw XCTSkip("a package named blog is installed already; not replacing it")
        }
        let home = try TempSite()
        defer { home.remove() }
        let depends = try shell("dpkg-deb -f \"$1\" Depends", [deb.path])
        XCTAssertEqual(depends.status, 0, depends.stderr)
        XCTAssertTrue(depends.stdout.contains("libc6 (>= "), depends.stdout)
        for library in ["swift", "cmark", "curl", "icu", "xml"] {
            XCTAssertFalse(depends.stdout.contains(library), depends.stdout)
        }
        // README's line, verbatim but for the release's address: here, the folder scripts/release wrote.
        let line = try readmeInstallLines()[1]
        XCTAssertTrue(line.contains("apt-get install"), line)
        let started = Date()
        let install = try shell(readmeLine(line, releaseFolder: folder), in: home.root,
                                environment: ["DEBIAN_FRONTEND": "noninteractive"])
        print("README's .deb line: installed in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        defer { _ = try? shell("DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq blog") }
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        let listed = try shell("dpkg -L blog")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let files = listed.stdout.split(separator: "\n").map(String.init).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        for path in ["/usr/bin/blog", "/usr/share/bash-completion/completions/blog", "/usr/share/zsh/vendor-completions/_blog",
                     "/usr/share/fish/vendor_completions.d/blog.fish", "/usr/share/man/man1/blog.1.gz"] {
            XCTAssertTrue(files.contains(path), "\(path) not installed: \(listed.stdout)")
        }

        // A fresh login shell, with the Swift toolchain and cmark-gfm's shared libraries hidden.
        let script = """
        exec env -i HOME="$1" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -lc 'cd "$HOME" && blog init x && cd x && blog build && blog check'
        """
        let run = try withLibrariesHidden(script, [home.root.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(home.exists("x/public/index.html"), run.stdout + run.stderr)

        let remove = try shell("DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq blog")
        XCTAssertEqual(remove.status, 0, remove.stdout + remove.stderr)
        for path in files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(path) left behind by apt-get remove")
        }
        XCTAssertNotEqual(try shell("dpkg -s blog 2>/dev/null | grep -q '^Status: install ok installed'").status, 0)
    }

    /// release.yml's last step: each platform's files, checked against their sums, in one SHA256SUMS; a file of
    /// another version than the tag is refused.
    func testPublishReleaseMergesThePartsIntoOneChecksumFile() throws {
        let folder = try releaseFolder()
        let work = try TempSite()
        defer { work.remove() }
        let part = work.root.appendingPathComponent("parts/linux-x86_64")
        try FileManager.default.createDirectory(at: part.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder, to: part)
        let script = Self.repository.appendingPathComponent("scripts/publish-release").path
        let version = try blogVersionForTests()
        let merged = try shell("bash \"$1\" --dry-run \"$2\" parts", [script, "v" + version], in: work.root)
        XCTAssertEqual(merged.status, 0, merged.stderr)
        // The merged folder: a temporary folder the script made, removed here (never a path read otherwise).
        let printed = merged.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let temporary = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        guard printed.hasPrefix(temporary + "/tmp."), !printed.contains("..") else {
            return XCTFail("expected a temporary folder, got \"\(printed)\"")
        }
        let out = URL(fileURLWithPath: printed)
        defer { try? FileManager.default.removeItem(at: out) }
        let sums = try String(contentsOf: out.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        XCTAssertEqual(sums, try String(contentsOf: folder.appendingPathComponent("SHA256SUMS"), encoding: .utf8))
        let wrongTag = try shell("bash \"$1\" --dry-run v99.0.0 parts", [script], in: work.root)
        XCTAssertEqual(wrongTag.status, 1)
        XCTAssertTrue(wrongTag.stderr.contains("is not of version 99.0.0 (tag v99.0.0)"), wrongTag.stderr)
        // A file changed on the way fails its part's sums.
        let tarball = try file(in: part, prefix: "blog-", suffix: ".tar.gz")
        try Data("changed".utf8).write(to: tarball)
        let changed = try shell("bash \"$1\" --dry-run \"$2\" parts", [script, "v" + version], in: work.root)
        XCTAssertNotEqual(changed.status, 0, changed.stdout)
    }

    /// The command lines of README's Install section, in order (comments left out).
    func readmeInstallLines() throws -> [String] {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "\n## Install\n"), let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex) else {
            XCTFail("README has no Install section"); return []
        }
        var lines: [String] = [], inBlock = false
        for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            if inBlock, !line.hasPrefix("#") { lines.append(String(line)) }
        }
        XCTAssertEqual(lines.count, 3, "README's Install section: from source, the .deb, the archive")
        return lines
    }

    /// `line` with the GitHub release's address replaced by `releaseFolder` (file://), after checking that
    /// README names the version being built.
    func readmeLine(_ line: String, releaseFolder: URL) throws -> String {
        let version = try blogVersionForTests()
        let address = "https://github.com/blog-swift/blog/releases/download/v\(version)/"
        XCTAssertTrue(line.contains(address), "README's install line names release v\(version): \(line)")
        return line.replacingOccurrences(of: address, with: "file://" + releaseFolder.path + "/")
    }

    /// README's archive line in a fresh shell (new HOME without ~/.local/bin, PATH without it), the toolchain hidden.
    func testReadmeArchiveLineInstallsIntoLocalBinInAFreshShell() throws {
        let folder = try releaseFolder()
        let line = try readmeLine(try readmeInstallLines()[2], releaseFolder: folder)
        let home = try TempSite()
        defer { home.remove() }
        let script = """
        exec env -i HOME="$1" PATH=/usr/local/bin:/usr/bin:/bin bash -c "$2"' && command -v blog && blog --version'
        """
        let run = try withLibrariesHidden(script, [home.root.path, line], in: home.root)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stdout, home.root.path + "/.local/bin/blog\n" + (try blogVersionForTests()) + "\n")
    }

    /// README's from-source line in a fresh shell: scripts/install builds (the static build scripts/release made
    /// is reused), creates ~/.local/bin, says how to put it on PATH, and the line's export finds it.
    func testReadmeSourceLineInstallsIntoLocalBinInAFreshShell() throws {
        _ = try releaseFolder()
        let line = try readmeInstallLines()[0]
        XCTAssertEqual(line, "bash scripts/install && export PATH=\"$HOME/.local/bin:$PATH\"")
        let home = try TempSite()
        defer { home.remove() }
        let swift = try shell("dirname \"$(command -v swift)\"").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try shell("exec env -i HOME=\"$1\" PATH=\"$2\":/usr/local/bin:/usr/bin:/bin bash -c \"$3\"' && command -v blog && blog --version'",
                            [home.root.path, swift, line], in: Self.repository)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let version = try blogVersionForTests()
        XCTAssertTrue(run.stdout.contains("installed \(home.root.path)/.local/bin/blog (\(version))"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\(home.root.path)/.local/bin is not on PATH: run   export PATH=\"\(home.root.path)/.local/bin:$PATH\""), run.stdout)
        XCTAssertTrue(run.stdout.contains(home.root.path + "/.local/bin/blog\n" + version + "\n"), run.stdout)
        XCTAssertTrue(home.exists(".local/share/man/man1/blog.1"))
    }


}

// Shared by the release tests and the action script tests.

/// The folder `scripts/release` wrote.
func releaseFolder() throws -> URL {
    guard let path = ProcessInfo.processInfo.environment["BLOG_RELEASE_DIR"], !path.isEmpty else {
        throw XCTSkip("BLOG_RELEASE_DIR is not set: .ci/run runs scripts/release into a folder and sets it (locally: scripts/release /tmp/r && BLOG_RELEASE_DIR=/tmp/r scripts/test --filter ReleaseTests)")
    }
    return URL(fileURLWithPath: path)
}

/// The one file of `folder` whose name starts with `prefix` and ends with `suffix`.
func file(in folder: URL, prefix: String, suffix: String) throws -> URL {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
    XCTAssertEqual(names.count, 1, "expected one \(prefix)…\(suffix) in \(folder.path), found \(names)")
    guard let name = names.first else { throw XCTSkip("no \(prefix)…\(suffix)") }
    return folder.appendingPathComponent(name)
}

/// `bash -c script` with positional arguments, in `directory`.
@discardableResult
func shell(_ script: String, _ arguments: [String] = [], in directory: URL? = nil,
           environment: [String: String] = [:]) throws -> BlogCLI.Result {
    try BlogCLI.run(["-c", script, "bash"] + arguments, in: directory ?? FileManager.default.temporaryDirectory,
                    environment: environment, program: URL(fileURLWithPath: "/bin/bash"))
}

/// `blog --version` of the debug build.
func blogVersionForTests() throws -> String {
    try BlogCLI.run(["--version"], in: FileManager.default.temporaryDirectory).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
