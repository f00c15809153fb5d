import Foundation
import XCTest

/// `blog init --from` on a Pelican blog with its own `pelicanconf.py`: the settings it carries,
/// built end to end and read back.
final class InitFromSettingsTests: XCTestCase {
    /// A blog of `files`, `blog init --from .` run in it; the folder is removed by the caller.
    func migrated(_ files: [String: String]) throws -> (TempSite, BlogCLI.Result) {
        let site = try TempSite()
        for (path, text) in files { try site.write(path, text) }
        return (site, try BlogCLI.run(["init", "--from", "."], in: site.root))
    }

    func testPython2EraLiteralsAreCarriedAndWhatCantBeReadIsNamedAtItsLine() throws {
        let (site, result) = try migrated([
            "pelicanconf.py": """
            #!/usr/bin/env python
            # -*- coding: utf-8 -*- #
            from __future__ import unicode_literals

            AUTHOR = u'Ashley Quill'
            SITENAME = (u'Ashley'
                        u"'s notebook")  # two literals, one name
            SITEURL = ''
            TIMEZONE = u'Europe/London'
            DEFAULT_PAGINATION = 5
            ARTICLE_URL = u'posts/{date:%Y}/{slug}.html'
            ARTICLE_SAVE_AS = ARTICLE_URL
            """,
            "publishconf.py": "from pelicanconf import *\nimport os\nSITEURL = os.environ.get('URL', 'https://ashley.example')\n",
            "content/first.md": "Title: First\nDate: 2021-03-04 10:00\n\nHello.\n",
        ])
        defer { site.remove() }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("publishconf.py:3:11: warning: SITEURL can't be read without running Python (`os…`, a call or attribute); set `base_url` in blog.yml yourself"),
                      result.stderr)
        let yml = try XCTUnwrap(site.read("blog.yml"))
        XCTAssertTrue(yml.contains("title: \"Ashley's notebook\"\n"), yml)
        XCTAssertTrue(yml.contains("author: \"Ashley Quill\"\n"), yml)
        XCTAssertTrue(yml.contains("timezone: \"Europe/London\"\n"), yml)
        XCTAssertTrue(yml.contains("paginate: 5\n"), yml)
        XCTAssertFalse(yml.contains("base_url"), yml)

        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let post = try XCTUnwrap(site.read("public/posts/2021/first.html"), "ARTICLE_URL is followed")
        XCTAssertTrue(post.contains("Ashley&#39;s notebook") || post.contains("Ashley's notebook") || post.contains("Ashley&#x27;s notebook"), post)
    }
}
