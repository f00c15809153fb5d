import Foundation
import XCTest

/// `output_sources` (Pelican's `OUTPUT_SOURCES`): each published post's and page's own file copied
/// beside its page, carried by `blog init --from` and compared with what Pelican copies.
final class OutputSourcesTests: XCTestCase {
    /// The files of `folder` whose names end with `ending`, with their bytes.
    func copies(_ site: TempSite, under folder: String, ending: String) -> [String: Data] {
        site.snapshot(folder).filter { $0.key.hasSuffix(ending) }
    }

    func testTheSameSourcesAsPelicanCopiesForArticlesPagesAndTranslations() throws {
        let site = try TempSite()
        defer { site.remove() }
        let files = [
            "pelicanconf.py": "SITENAME = 'Sources'\nPATH = 'content'\nTIMEZONE = 'UTC'\nOUTPUT_SOURCES = True\n",
            "content/first.md": "Title: First post\nDate: 2021-01-01 10:00\nTags: swift\n\nIt's *first*.\n",
            "content/notes/second.md": "Title: Second\nDate: 2021-02-01\nSlug: second-one\nLang: en\n\nSecond, in a folder.\r\n",
            "content/notes/second-fr.md": "Title: Deuxième\nDate: 2021-02-01\nSlug: second-one\nLang: fr\n\nLe deuxième.\n",
            "content/draft.md": "Title: Not yet\nDate: 2021-03-01\nStatus: draft\n\nDraft.\n",
            "content/pages/about.md": "Title: About me\n\nAbout.\n",
            "content/pages/secret.md": "Title: Secret\nStatus: hidden\n\nHidden page.\n",
        ]
        for (path, text) in files { try site.write(path, text) }
        let initialized = try BlogCLI.run(["init", "--from", "."], in: site.root)
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        let yml = try XCTUnwrap(site.read("blog.yml"))
        XCTAssertTrue(yml.contains("\noutput_sources: true\n"), yml)
        XCTAssertFalse(yml.contains("output_sources_extension"), yml)
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let ours = copies(site, under: "public", ending: ".text")
        XCTAssertEqual(ours["first-post.text"], Data(files["content/first.md"]!.utf8))
        XCTAssertEqual(ours["second-one-fr.text"], Data(files["content/notes/second-fr.md"]!.utf8))
        XCTAssertEqual(ours["pages/about-me.text"], Data(files["content/pages/about.md"]!.utf8))

        _ = try pelicanOutput(of: site, into: "pelican-output")
        let theirs = copies(site, under: "pelican-output", ending: ".text")
        XCTAssertFalse(theirs.isEmpty, "Pelican copied no source")
        XCTAssertEqual(ours.keys.sorted(), theirs.keys.sorted())
        for (path, data) in theirs { XCTAssertEqual(ours[path], data, path) }
    }

    func testAnotherEndingIsCarriedAndABlogWithoutTheKeyCopiesNothing() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("pelicanconf.py", "SITENAME = 'S'\nOUTPUT_SOURCES = True\nOUTPUT_SOURCES_EXTENSION = '.md'\nARTICLE_SAVE_AS = 'posts/{slug}/index.html'\nARTICLE_URL = 'posts/{slug}/'\n")
        try site.write("content/a.md", "Title: A\nDate: 2021-01-01\n\nA.\n")
        let initialized = try BlogCLI.run(["init", "--from", "."], in: site.root)
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        XCTAssertTrue(site.read("blog.yml")?.contains("\noutput_sources_extension: \".md\"\n") == true, site.read("blog.yml") ?? "")
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        XCTAssertEqual(site.read("public/posts/a/index.md"), "Title: A\nDate: 2021-01-01\n\nA.\n")

        _ = try pelicanOutput(of: site, into: "pelican-output")
        XCTAssertEqual(site.read("pelican-output/posts/a/index.md"), site.read("public/posts/a/index.md"))

        try site.write("blog.yml", (site.read("blog.yml") ?? "").replacingOccurrences(of: "output_sources: true", with: "output_sources: false"))
        XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0)
        XCTAssertFalse(site.exists("public/posts/a/index.md"))
        XCTAssertTrue(site.exists("public/posts/a/index.html"))
    }

    func testAnEditedPostIsCopiedAgainAndARemovedOnesCopyIsGone() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("blog.yml", "title: T\npermalinks: pelican\noutput_sources: true\n")
        try site.write("content/a.md", "Title: A\nDate: 2021-01-01\nSummary: Fixed.\n\nFirst words.\n")
        try site.write("content/b.md", "Title: B\nDate: 2021-01-02\n\nB.\n")
        // Twice: a first build makes no digests of pages, which the partial builds below need.
        for _ in 0..<2 { XCTAssertEqual(try BlogCLI.run(["build"], in: site.root).status, 0) }
        XCTAssertEqual(site.read("public/a.text"), "Title: A\nDate: 2021-01-01\nSummary: Fixed.\n\nFirst words.\n")

        // The body only (what a quick build patches), then the summary (what a partial build renders).
        for edited in ["Title: A\nDate: 2021-01-01\nSummary: Fixed.\n\nOther words.\n", "Title: A\nDate: 2021-01-01\nSummary: Another summary.\n\nOther words.\n"] {
            try site.write("content/a.md", edited)
            let build = try BlogCLI.run(["build", "--timings"], in: site.root)
            XCTAssertEqual(build.status, 0, build.stderr)
            XCTAssertTrue((build.stdout + build.stderr).contains("cache: partial build: `output_sources`"), build.stdout + build.stderr)
            XCTAssertEqual(site.read("public/a.text"), edited)
            XCTAssertTrue(site.read("public/a.html")?.contains("Other words.") == true)
        }

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/a.md"))
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertFalse(site.exists("public/a.text"))
        XCTAssertFalse(site.exists("public/a.html"))
        XCTAssertEqual(site.read("public/b.text"), "Title: B\nDate: 2021-01-02\n\nB.\n")
    }

    func testABadEndingIsAnErrorAtItsLineAndACollisionNamesBoth() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("content/a.md", "Title: A\nDate: 2021-01-01\n\nA.\n")
        try site.write("blog.yml", "title: T\noutput_sources: true\noutput_sources_extension: /x\n")
        let bad = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("blog.yml:3:27: error: `output_sources_extension` must end a file's name"), bad.stderr)

        // A file of the content folder at the copy's path: both are named, nothing is written.
        try site.write("blog.yml", "title: T\npermalinks: pelican\noutput_sources: true\n")
        try site.write("content/a.text", "mine\n")
        let collided = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(collided.status, 1, collided.stderr)
        XCTAssertTrue(collided.stderr.contains("URL /a.text is also wanted by"), collided.stderr)
        XCTAssertTrue(collided.stderr.contains("(`output_sources`)"), collided.stderr)
    }
}
