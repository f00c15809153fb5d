import Foundation
import XCTest

/// `permalinks: pelican | jekyll | jekyll-pretty | hugo` against the generators themselves: small
/// Pelican-, Jekyll- and Hugo-form blogs (`Fixtures/presets/<form>/`, of our own writing) were
/// built once with the real Pelican, Jekyll and Hugo by `Fixtures/presets/make_expected.sh`, which
/// wrote every file each wrote to `Fixtures/presets/expected/<preset>.txt`. Each blog is built
/// here with `blog` and its preset: every one of those URLs must exist (category, author and
/// section lists and their feeds included), and `blog check` must be clean.
final class PresetEndToEndTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/presets")

    /// Copies the fixture blog `form` into a temporary blog folder with `blogYML` (none when nil).
    func site(_ form: String, blogYML: String?) throws -> TempSite {
        let site = try TempSite()
        let source = Self.fixtures.appendingPathComponent(form)
        for path in FileManager.default.subpaths(atPath: source.path) ?? [] {
            var isFolder: ObjCBool = false
            let url = source.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            try site.write(path, data: Data(contentsOf: url))
        }
        if let blogYML { try site.write("blog.yml", blogYML) }
        return site
    }

    /// The files the real generator wrote for the fixture.
    func expected(_ preset: String) throws -> [String] {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("expected/\(preset).txt"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    /// Builds the fixture `form` with `blogYML` and `permalinks: preset` (or, without `blogYML`,
    /// with the blog.yml that `blog init --from` writes for it), and checks its URLs and links.
    func checkPreset(_ preset: String, form: String, blogYML: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        let site = try self.site(form, blogYML: blogYML.map { $0 + "permalinks: \(preset)\n" })
        defer { site.remove() }
        if blogYML == nil {
            let initialize = try BlogCLI.run(["init", "--from", "."], in: site.root)
            XCTAssertEqual(initialize.status, 0, initialize.stderr, file: file, line: line)
            XCTAssertTrue(site.read("blog.yml")?.contains("permalinks: \(preset)\n") ?? false, site.read("blog.yml") ?? "no blog.yml", file: file, line: line)
        }
        let build = try BlogCLI.run(["build", "--no-cache", "--output", "out"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr, file: file, line: line)
        let made = Set(site.files(under: "out"))
        let wanted = try expected(preset)
        let missing = wanted.filter { !made.contains($0) }
        XCTAssertEqual(missing, [], "\(preset): URLs of the real generator that blog did not write", file: file, line: line)
        let check = try BlogCLI.run(["check", "--output", "out"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr, file: file, line: line)
    }

    func testPelicanPresetMakesPelicansURLs() throws {
        try checkPreset("pelican", form: "pelican", blogYML: "title: Preset fixture\nauthor: Ada\npaginate: 2\n")
    }

    func testJekyllPresetMakesJekyllsURLs() throws {
        try checkPreset("jekyll", form: "jekyll", blogYML: "title: Preset fixture\nbase_url: https://example.org/\ncontent: _posts\npaginate: 2\n")
    }

    func testJekyllPrettyPresetMakesJekyllsPrettyURLs() throws {
        try checkPreset("jekyll-pretty", form: "jekyll", blogYML: "title: Preset fixture\nbase_url: https://example.org/\ncontent: _posts\npaginate: 2\n")
    }

    func testHugoPresetMakesHugosURLs() throws {
        try checkPreset("hugo", form: "hugo", blogYML: "title: Preset fixture\nbase_url: https://example.org/\npaginate: 2\n")
    }

    /// `blog init --from` tells each fixture's generator from its settings file and carries over its
    /// pagination and address: the blog.yml it writes builds every URL the generator made.
    func testInitFromWritesTheBlogYMLThatKeepsEachGeneratorsURLs() throws {
        try checkPreset("pelican", form: "pelican", blogYML: nil)
        try checkPreset("jekyll", form: "jekyll", blogYML: nil)
        try checkPreset("hugo", form: "hugo", blogYML: nil)
    }

    /// `blog check` of a Pelican-form blog without the preset: the posts' `/x.html` links are
    /// broken, and one note (not one per link) says that the `pelican` preset would mend them.
    func testCheckSuggestsThePresetThatMendsBrokenLinksOnce() throws {
        let site = try self.site("pelican", blogYML: "title: Preset fixture\npaginate: 2\n")
        defer { site.remove() }
        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 1)
        let output = check.stdout + check.stderr
        let notes = output.split(separator: "\n").filter { $0.contains("preset: with `permalinks:") }
        XCTAssertEqual(notes.count, 1, output)
        XCTAssertTrue(notes.first?.hasPrefix("blog.yml:1:1: note: links like /") ?? false, output)
        XCTAssertTrue(notes.first?.contains(".html match the `pelican` preset: with `permalinks: pelican` in blog.yml") ?? false, output)
        let broken = output.split(separator: "\n").filter { $0.contains(": error: link to ") }.count
        XCTAssertTrue(notes.first?.contains(", \(broken) broken links of this check would work") ?? false, "every broken link is Pelican's: \(output)")
        // With the preset, nothing is broken and nothing is suggested (also in testPelicanPresetMakesPelicansURLs).
        try site.write("blog.yml", "title: Preset fixture\npaginate: 2\npermalinks: pelican\n")
        let clean = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertFalse((clean.stdout + clean.stderr).contains("preset"))
    }

    /// Without a preset the same blogs get blog's own URLs: the lists above are not met by chance.
    func testWithoutPresetTheGeneratorsURLsAreMissing() throws {
        let site = try self.site("pelican", blogYML: "title: Preset fixture\npaginate: 2\n")
        defer { site.remove() }
        let build = try BlogCLI.run(["build", "--no-cache", "--output", "out"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertFalse(site.exists("out/hello-world.html"))
        XCTAssertTrue(site.exists("out/posts/hello-world/index.html"))
    }
}
