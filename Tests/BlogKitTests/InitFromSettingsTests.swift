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

/// Pelican's own output for a blog folder (`pelican content -s pelicanconf.py -o …`), or a skip when
/// Pelican is not installed (`python3 -m pip install pelican`). Returns the output's file paths.
func pelicanOutput(of site: TempSite, into folder: String) throws -> Set<String> {
    let python = URL(fileURLWithPath: "/usr/bin/env")
    let probe = try BlogCLI.run(["python3", "-c", "import pelican"], in: URL(fileURLWithPath: "/"), program: python)
    guard probe.status == 0 else { throw XCTSkip("Pelican is needed to compare with: python3 -m pip install pelican") }
    let run = try BlogCLI.run(["python3", "-m", "pelican", "content", "-s", "pelicanconf.py", "-o", folder, "-q"],
                              in: site.root, program: python)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    return Set(site.files(under: folder))
}

extension InitFromSettingsTests {
    func testDefaultCategoryIsCarriedAndPlacesPostsAsPelicanDoes() throws {
        let (site, result) = try migrated([
            "pelicanconf.py": """
            AUTHOR = 'Ada'
            SITENAME = 'Ada'
            PATH = 'content'
            TIMEZONE = 'UTC'
            DEFAULT_CATEGORY = 'Tech'
            ARTICLE_URL = '{category}/{slug}.html'
            ARTICLE_SAVE_AS = '{category}/{slug}.html'
            """,
            "content/root.md": "Title: At the root\nDate: 2021-01-01\n\nNo category, no folder.\n",
            "content/posts/in-folder.md": "Title: In a folder\nDate: 2021-01-02\n\nNo category, a folder.\n",
            "content/named.md": "Title: Named\nDate: 2021-01-03\nCategory: Notes\n\nA category.\n",
        ])
        defer { site.remove() }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(site.read("blog.yml")?.contains("default_category: \"Tech\"\n") == true, site.read("blog.yml") ?? "")
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let ours = Set(site.files(under: "public"))
        for path in ["tech/at-the-root.html", "posts/in-a-folder.html", "notes/named.html", "category/tech.html", "category/posts.html", "category/notes.html"] {
            XCTAssertTrue(ours.contains(path), "\(path) missing from \(ours.sorted())")
        }
        XCTAssertFalse(ours.contains("category/misc.html"))
        XCTAssertTrue(site.read("public/category/tech.html")?.contains("tech/at-the-root.html") == true)

        // Pelican's own output has the same posts and category pages.
        let theirs = try pelicanOutput(of: site, into: "pelican-output")
        let pages = { (files: Set<String>) in
            files.filter { $0.hasSuffix(".html") && $0.contains("/") && !["theme", "author", "tag", "feeds", "drafts"].contains(String($0.prefix { $0 != "/" })) }
        }
        XCTAssertEqual(pages(ours), pages(theirs))
    }
}

extension InitFromSettingsTests {
    func testDefaultCategoryWithoutAPresetAndItsBadValue() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("blog.yml", "title: T\ndefault_category: Field notes\n")
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2021-01-01\n---\nA.\n")
        try site.write("content/posts/b.md", "---\ntitle: B\ndate: 2021-01-02\ncategory: Named\n---\nB.\n")
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(site.read("public/categories/field-notes/index.html")?.contains("/posts/a/") == true)
        XCTAssertFalse(site.read("public/categories/field-notes/index.html")?.contains("/posts/b/") == true)

        try site.write("blog.yml", "title: T\ndefault_category: \"--\"\n")
        let bad = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("blog.yml:2:19: error: `default_category` must be a name with letters or digits, got \"--\""), bad.stderr)
    }
}

extension InitFromSettingsTests {
    func testOutputPathIsCarriedAndTheOldSiteThereIsReplacedOnceWithANote() throws {
        let (site, result) = try migrated([
            "pelicanconf.py": "SITENAME = 'A'\nPATH = 'content'\nOUTPUT_PATH = 'docs/'\n",
            "content/a.md": "Title: A post\nDate: 2021-01-01\n\nA.\n",
            // What Pelican left there (its own output, as a GitHub Pages branch folder holds it).
            "docs/index.html": "<p>Pelican's home</p>\n",
            "docs/old-post.html": "<p>old</p>\n",
            "docs/theme/css/main.css": "body {}\n",
        ])
        defer { site.remove() }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(site.read("blog.yml")?.contains("\noutput: \"docs\"\n") == true, site.read("blog.yml") ?? "")
        XCTAssertTrue(result.stderr.contains("note: docs/ holds the Pelican site (3 entries), which blog did not write"), result.stderr)

        let first = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("note: docs holds the Pelican site (3 entries: \"index.html\", \"old-post.html\", \"theme\"), which `blog init --from` recorded that a build may replace: this build replaces it"), first.stderr)
        XCTAssertTrue(site.exists("docs/a-post.html"))
        XCTAssertFalse(site.exists("docs/old-post.html"))
        XCTAssertFalse(site.read("docs/index.html")?.contains("Pelican's home") ?? true)
        XCTAssertFalse(site.read("docs/.blog-output")?.hasPrefix("blog init --from") ?? true, "the build leaves its own mark")

        let second = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertFalse(second.stderr.contains("note:"), second.stderr)
    }

    func testAnOutputPathOutsideTheBlogIsNotCarriedAndNothingThereIsTouched() throws {
        let outside = try TempSite()
        defer { outside.remove() }
        try outside.write("site/index.html", "<p>someone else's</p>\n")
        for path in ["../elsewhere", outside.root.appendingPathComponent("site").path, "docs/../../x", "."] {
            let (site, result) = try migrated([
                "pelicanconf.py": "SITENAME = 'A'\n\nOUTPUT_PATH = '\(path)'\n",
                "content/a.md": "Title: A post\nDate: 2021-01-01\n\nA.\n",
            ])
            defer { site.remove() }
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("pelicanconf.py:3:1: warning: OUTPUT_PATH \"\(path)\" is not a folder inside the blog's folder: not carried"), result.stderr)
            XCTAssertFalse(site.read("blog.yml")?.contains("output:") ?? true)
            XCTAssertEqual(outside.files(under: "site"), ["index.html"])
        }
    }

    func testAHugoSitesPublicFolderIsReplaceableAfterInitFrom() throws {
        let (site, result) = try migrated([
            "hugo.toml": "title = 'H'\nbaseURL = 'https://h.example/'\n",
            "content/posts/a.md": "---\ntitle: A\ndate: 2021-01-01\n---\nA.\n",
            "public/index.html": "<p>Hugo's home</p>\n",
        ])
        defer { site.remove() }
        XCTAssertEqual(result.status, 0, result.stderr)
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("public holds the Hugo site (1 entry: \"index.html\")"), build.stderr)
        XCTAssertTrue(site.exists("public/posts/a/index.html"))
    }
}

extension InitFromSettingsTests {
    /// Hugo's `publishDir` is the output folder, as Hugo itself writes there (checked with `hugo` where
    /// installed; its site there is replaced by the first build); one outside the blog is not carried, with a note.
    func testHugosPublishDirIsTheOutputFolderAsHugoWritesIt() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("hugo.toml", "title = 'H'\nbaseURL = 'https://h.example/'\npublishDir = 'docs/'\n")
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2021-01-01\n---\nA.\n")
        try site.write("layouts/single.html", "{{ .Content }}\n")
        try site.write("layouts/list.html", "list\n")
        let env = URL(fileURLWithPath: "/usr/bin/env")
        if try BlogCLI.run(["hugo", "version"], in: site.root, program: env).status == 0 {
            let hugo = try BlogCLI.run(["hugo", "--quiet"], in: site.root, program: env)
            XCTAssertEqual(hugo.status, 0, hugo.stderr)
            XCTAssertTrue(site.exists("docs/posts/a/index.html"), "Hugo writes into its publishDir")
            XCTAssertFalse(site.exists("public"))
        }
        let result = try BlogCLI.run(["init", "--from", "."], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(site.read("blog.yml")?.contains("\noutput: \"docs\"\n") == true, site.read("blog.yml") ?? "")
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(site.read("docs/posts/a/index.html")?.contains("post-body") == true, "blog writes there too, in place of Hugo's site")
        XCTAssertFalse(site.exists("public"))

        let (outside, note) = try migrated([
            "config.toml": "title = 'H'\npublishDir = '../elsewhere'\n",
            "content/posts/a.md": "---\ntitle: A\ndate: 2021-01-01\n---\nA.\n",
        ])
        defer { outside.remove() }
        XCTAssertEqual(note.status, 0, note.stderr)
        let yml = outside.read("blog.yml") ?? ""
        XCTAssertTrue(yml.contains("# config.toml's publishDir \"../elsewhere\" is not a folder inside the blog's folder: not carried"), yml)
        XCTAssertFalse(yml.contains("\noutput:"), yml)
    }

    func testExtraPathMetadataPublishesTheAuthorsCNAMEAndRobotsAsPelicanDoes() throws {
        let robots = "User-agent: *\nDisallow: /drafts/\n"
        let (site, result) = try migrated([
            "pelicanconf.py": """
            SITENAME = 'A'
            PATH = 'content'
            TIMEZONE = 'UTC'
            STATIC_PATHS = [
                'images',
                'extra/CNAME',
                'extra/robots.txt',
            ]
            EXTRA_PATH_METADATA = {
                'extra/CNAME': {'path': 'CNAME'},
                'extra/robots.txt': {'path': 'robots.txt'},
                'unlisted/keybase.txt': {'path': 'keybase.txt'},  # not under STATIC_PATHS: Pelican leaves it
            }
            """,
            "publishconf.py": "from pelicanconf import *\nSITEURL = 'https://a.example'\n",
            "content/a.md": "Title: A post\nDate: 2021-01-01\n\n![pic]({static}/images/pic.png)\n",
            "content/images/pic.png": "png",
            "content/extra/CNAME": "a.example\n",
            "content/extra/robots.txt": robots,
        ])
        defer { site.remove() }
        XCTAssertEqual(result.status, 0, result.stderr)
        let yml = try XCTUnwrap(site.read("blog.yml"))
        XCTAssertTrue(yml.contains("\nfile_paths:\n  \"extra/CNAME\": \"CNAME\"\n  \"extra/robots.txt\": \"robots.txt\"\n"), yml)
        XCTAssertTrue(yml.contains("# EXTRA_PATH_METADATA: unlisted/keybase.txt is not under STATIC_PATHS"), yml)

        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("content/extra/robots.txt:1:1: note: replaces the robots.txt that blog makes"), build.stderr)
        XCTAssertEqual(site.read("public/CNAME"), "a.example\n")
        XCTAssertEqual(site.read("public/robots.txt"), robots)
        XCTAssertFalse(site.exists("public/extra/CNAME"))

        let theirs = try pelicanOutput(of: site, into: "pelican-output")
        for path in ["CNAME", "robots.txt", "images/pic.png"] {
            XCTAssertTrue(theirs.contains(path), "Pelican has no \(path): \(theirs.sorted())")
            XCTAssertEqual(site.read("public/\(path)"), site.read("pelican-output/\(path)"), path)
        }
        XCTAssertFalse(theirs.contains("extra/CNAME"))
    }

    func testFilePathsThatNameNoFileOrLeaveTheSite() throws {
        let site = try TempSite()
        defer { site.remove() }
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2021-01-01\n---\nA.\n")
        try site.write("blog.yml", "title: T\nfile_paths:\n  extra/missing.txt: missing.txt\n")
        let warned = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("blog.yml:3:3: warning: `file_paths`: \"extra/missing.txt\" is no file of the content folder"), warned.stderr)
        for (entry, column) in [("extra/x: ../outside", 12), ("../x: y", 3), ("x: /", 6)] {
            try site.write("blog.yml", "title: T\nfile_paths:\n  \(entry)\n")
            let bad = try BlogCLI.run(["build"], in: site.root)
            XCTAssertEqual(bad.status, 1, entry)
            XCTAssertTrue(bad.stderr.contains("blog.yml:3:\(column): error: `file_paths`:"), bad.stderr)
        }
    }

    func testJekyllRootFilesAndHugoStaticAreNamedInBlogYML() throws {
        let (jekyll, j) = try migrated(["_config.yml": "title: J\n", "_posts/2021-01-01-a.md": "---\ntitle: A\n---\nA.\n",
                                        "CNAME": "j.example\n", "favicon.ico": "ico"])
        defer { jekyll.remove() }
        XCTAssertEqual(j.status, 0, j.stderr)
        XCTAssertTrue(jekyll.read("blog.yml")?.contains("# CNAME, favicon.ico: Jekyll publishes them at the site's root, blog only the files of `content` (_posts)") == true,
                      jekyll.read("blog.yml") ?? "")
        let (hugo, h) = try migrated(["hugo.toml": "title = 'H'\n", "content/posts/a.md": "---\ntitle: A\ndate: 2021-01-01\n---\nA.\n",
                                      "static/CNAME": "h.example\n"])
        defer { hugo.remove() }
        XCTAssertEqual(h.status, 0, h.stderr)
        XCTAssertTrue(hugo.read("blog.yml")?.contains("# static/: Hugo publishes its files at the site's root") == true, hugo.read("blog.yml") ?? "")
    }
}

extension InitFromSettingsTests {
    func testPelicanDraftsArePublishedUnlistedWhereDraftSaveAsSaysAsPelicanDoes() throws {
        let (site, result) = try migrated([
            "pelicanconf.py": "SITENAME = 'A'\nPATH = 'content'\nTIMEZONE = 'UTC'\nFEED_ALL_ATOM = 'feeds/all.atom.xml'\n",
            "publishconf.py": "from pelicanconf import *\nSITEURL = 'https://a.example'\n",
            "content/a.md": "Title: Published\nDate: 2021-01-01\n\nA.\n",
            "content/b.md": "Title: Not yet\nDate: 2021-01-02\nStatus: draft\nTags: soon\n\nB.\n",
            "content/pages/c.md": "Title: Page draft\nStatus: draft\n\nC.\n",
        ])
        defer { site.remove() }
        XCTAssertEqual(result.status, 0, result.stderr)
        let build = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("note: 2 drafts are published unlisted (in no list, feed or sitemap) at `permalinks.draft` (drafts/{slug}.html)"), build.stderr)
        XCTAssertTrue(site.read("public/drafts/not-yet.html")?.contains("B.") == true)
        XCTAssertTrue(site.exists("public/drafts/pages/page-draft.html"))
        for path in ["public/index.html", "public/archives.html", "public/feeds/all.atom.xml", "public/sitemap.xml", "public/tags.html"] {
            XCTAssertFalse(site.read(path)?.contains("not-yet") ?? true, path)
        }
        XCTAssertFalse(site.exists("public/tag/soon.html"), "a draft's tags have no page")

        let theirs = try pelicanOutput(of: site, into: "pelican-output")
        XCTAssertTrue(theirs.contains("drafts/not-yet.html"), "\(theirs.sorted())")
        XCTAssertTrue(theirs.contains("drafts/pages/page-draft.html"), "\(theirs.sorted())")
        XCTAssertFalse(theirs.contains("tag/soon.html"))

        // DRAFT_SAVE_AS is carried; `none` leaves drafts out.
        let (other, carried) = try migrated(["pelicanconf.py": "SITENAME = 'A'\nDRAFT_URL = 'unpublished/{slug}.html'\n", "content/a.md": "Title: A\nDate: 2021-01-01\n\nA.\n"])
        defer { other.remove() }
        XCTAssertEqual(carried.status, 0, carried.stderr)
        XCTAssertTrue(other.read("blog.yml")?.contains("  draft: \"unpublished/{slug}.html\"\n") == true, other.read("blog.yml") ?? "")
        try site.write("blog.yml", (site.read("blog.yml") ?? "").replacingOccurrences(of: "permalinks: pelican", with: "permalinks:\n  preset: pelican\n  draft: none\n  draft_page: none"))
        let without = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(without.status, 0, without.stderr)
        XCTAssertFalse(site.exists("public/drafts/not-yet.html"))
        XCTAssertFalse(without.stderr.contains("drafts are published"), without.stderr)
    }
}
