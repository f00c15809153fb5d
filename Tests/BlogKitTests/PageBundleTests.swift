@testable import BlogContent
@testable import BlogCore
import XCTest

/// Posts that are their folder's (Hugo's `index.md`, a TextBundle's `text.md`, a README alone in its
/// folder): which files they are, how the scanner lists a TextBundle, and how such a post is named.
final class PageBundleTests: XCTestCase {
    /// A name's extension in any case, read from the string's bytes, is what the UTF-8 views say: every name of up to
    /// four pieces among letters of both cases, a dot, a non-ASCII letter and a post's extensions, against each
    /// extension, a longer suffix and an empty one; and a post's stem.
    func testSuffixInAnyCaseIsTheViewsAnswer() {
        let pieces = ["m", "D", ".", "é", ".MD", ".markdown", "É", "x"]
        var names = [""]
        for _ in 1...4 { names = names.flatMap { name in pieces.map { name + $0 } } + names }
        var found = 0
        for name in names {
            for suffix in ["md", ".md", "markdown", ".markdown", ".textpack", "", "xmdé"] {
                let bytes = name.hasSuffixIgnoringCase(suffix)
                XCTAssertEqual(bytes, name.hasSuffixIgnoringCaseByView(suffix), "\(name) \(suffix)")
                XCTAssertEqual(name.dropFirst().hasSuffixIgnoringCase(suffix), name.dropFirst().hasSuffixIgnoringCaseByView(suffix))
                if bytes && !suffix.isEmpty { found += 1 }
            }
        }
        XCTAssertGreaterThan(found, 1_000)
        XCTAssertEqual(PageBundle.postStem("README.Md"), "README")
        XCTAssertEqual(PageBundle.postStem("a.MARKDOWN"), "a")
        XCTAssertNil(PageBundle.postStem("a.mdé"))
        XCTAssertNil(PageBundle.postStem(".md"))
    }

    let utc = TimeZone(identifier: "UTC")!

    // MARK: Which files

    func testRolesByName() {
        let roles: [(String, PageBundle.Role?)] = [
            ("posts/trip/index.md", .index), ("a/b/INDEX.Markdown", .index), ("a//index.md", .index),
            ("2019-11-04-x.textbundle/text.md", .text), ("notes/X.TextBundle/Text.markdown", .text),
            ("posts/trip/README.md", .readme), ("a/ReadMe.markdown", .readme),
            // Not in a folder, not a post's extension, another name, a TextBundle's other text.
            ("index.md", nil), ("/index.md", nil), ("README.md", nil), ("text.md", nil),
            ("posts/_index.md", nil), ("posts/index.", nil), ("posts/index.txt", nil), ("posts/reindex.md", nil),
            ("posts/index.md/x.md", nil), ("posts/text.md", nil), ("x.textbundle/notes.md", nil), (".textbundle/text.md", nil),
            ("posts/README.txt", nil),
        ]
        for (path, role) in roles {
            XCTAssertEqual(PageBundle.role(of: path), role, path)
        }
    }

    /// A README is its folder's post only when no other post file is in the folder or below it,
    /// and no folder above it is a Hugo bundle; `index.md` and `text.md` always are.
    func testReadmeIsItsFoldersPostOnlyWhenAlone() {
        let posts = ["a-b.md", "alone/README.md", "docs/README.md", "docs/guide.md", "nested/README.md", "nested/deeper/x.md",
                     "solo/sub/README.md", "solo/sub/pictures.md/README.md", "trip/README.md", "trip/index.md", "z.textbundle/text.md",
                     // In a Hugo bundle, a sub-folder's README is in the bundle's files' folder, as in Hugo.
                     "hugo/my-post/Index.md", "hugo/my-post/example/README.md", "hugo/my-post/example/deeper/README.md"]
            .sorted(by: ContentScanner.bytesPrecede)
        let folders = PageBundle.Folders(posts: posts)
        XCTAssertEqual(posts.filter(folders.contains),
                       ["alone/README.md", "hugo/my-post/Index.md", "solo/sub/pictures.md/README.md", "trip/index.md", "z.textbundle/text.md"])
        // A prefix of the folder's name is another folder: `alone-2/` does not make `alone/` a section.
        let more = PageBundle.Folders(posts: (posts + ["alone-2/x.md", "alone.md", "hugo/my-post-2/README.md"]).sorted(by: ContentScanner.bytesPrecede))
        XCTAssertTrue(more.contains("alone/README.md"))
        XCTAssertTrue(more.contains("hugo/my-post-2/README.md"))
    }

    func testUnpublishedFiles() {
        for path in ["x.textbundle/info.json", "a/2019-01-01-b.TEXTBUNDLE/Info.JSON", "README.md", "readme.markdown"] {
            XCTAssertTrue(PageBundle.isUnpublished(path), path)
        }
        for path in ["x.textbundle/assets/info.json", "posts/info.json", "info.json", "docs/README.md", "README", "README.txt", "x.textbundle/text.md"] {
            XCTAssertFalse(PageBundle.isUnpublished(path), path)
        }
    }

    // MARK: Scanning

    func testTheScannerReadsOnlyATextBundlesTextAndNoTopReadme() throws {
        let site = try TempSite()
        defer { site.remove() }
        for path in ["content/2019-11-04-a.textbundle/text.md", "content/2019-11-04-a.textbundle/info.json",
                     "content/2019-11-04-a.textbundle/assets/x.png", "content/2019-11-04-a.textbundle/assets/notes.md",
                     "content/2019-11-04-a.textbundle/sub.textbundle/text.md",
                     "content/b.TextBundle/TEXT.markdown", "content/c.textbundle/text.txt",
                     "content/README.md", "content/docs/README.md", "content/post.md"] {
            try site.write(path, "x")
        }
        let inventory = try ContentScanner.scan(site.root.appendingPathComponent("content"), displayPath: "content")
        XCTAssertEqual(inventory.posts, ["2019-11-04-a.textbundle/text.md", "b.TextBundle/TEXT.markdown", "docs/README.md", "post.md"])
        XCTAssertEqual(inventory.assets, ["2019-11-04-a.textbundle/assets/notes.md", "2019-11-04-a.textbundle/assets/x.png",
                                          "2019-11-04-a.textbundle/info.json", "2019-11-04-a.textbundle/sub.textbundle/text.md",
                                          "README.md", "c.textbundle/text.txt"])
        XCTAssertEqual(inventory.textBundles, ["2019-11-04-a.textbundle", "b.TextBundle", "c.textbundle"])
        XCTAssertEqual(PageBundle.warnings(inventory, display: "content").map(\.description), [
            "warning: content/c.textbundle: a TextBundle without text.md or text.markdown: blog reads markdown only, so it makes no post; its files are copied as they are",
            "content/README.md:1:1: warning: a README at the top of the content folder describes the folder: it is not published; rename it or move it into a folder of its own to make it a post",
        ])
    }

    // MARK: Naming

    func read(_ text: String, _ contentPath: String, bundle: Bool? = nil) throws -> (Post, [Diagnostic]) {
        try PostReader.read(data: Data(text.utf8), source: "content/" + contentPath, contentPath: contentPath, bundle: bundle, timeZone: utc)
    }

    func testATextBundleIsNamedAndDatedByItsFolder() throws {
        let (post, warnings) = try read("![x](assets/x.png)\n", "2019-11-04-some-title.textbundle/text.md")
        XCTAssertTrue(post.isBundle)
        XCTAssertEqual(post.slug, "some-title")
        XCTAssertEqual(post.title, "Some title")
        XCTAssertEqual(post.date, DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: utc, year: 2019, month: 11, day: 4).date)
        XCTAssertEqual(warnings.map(\.message), ["missing title: using \"Some title\" from the file name"])
        // Any case; `.markdown` too; the folder's name kept as written when it is plain.
        let (other, _) = try read("---\ntitle: Other\n---\n", "drafts/2020-1-2-Other-Post.TextBundle/text.markdown")
        XCTAssertEqual(other.slug, "Other-Post")
        XCTAssertEqual(other.date, DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: utc, year: 2020, month: 1, day: 2).date)
    }

    /// Ulysses, Bear and iA Writer export a TextBundle's text with no header, its title as the
    /// first line: `# Title`. That heading is the title and leaves the body.
    func testATextBundlesFirstHeadingIsItsTitle() throws {
        let (post, warnings) = try read("\n  # Why *bundles* matter ##\r\n\nFirst paragraph.\n", "2019-11-04-some-title.textbundle/text.md")
        XCTAssertEqual(post.title, "Why *bundles* matter")
        XCTAssertEqual(post.slug, "some-title", "the folder still names it")
        XCTAssertEqual(post.body, "\nFirst paragraph.\n")
        XCTAssertEqual(post.bodyLine, 3, "the body starts after the heading's line")
        XCTAssertEqual(warnings, [])
        // Only a level-1 heading on the first line that has text; a header's title wins and keeps the heading.
        for text in ["## Part one\n\nx", "Intro\n# Later\n", "#Tight\n", "    # Code\n"] {
            let (other, _) = try read(text, "2019-11-04-some-title.textbundle/text.md")
            XCTAssertEqual(other.title, "Some title", text)
            XCTAssertEqual(other.body, text)
        }
        let (titled, _) = try read("---\ntitle: Header\n---\n# Heading\n", "2019-11-04-some-title.textbundle/text.md")
        XCTAssertEqual(titled.title, "Header")
        XCTAssertEqual(titled.body, "# Heading\n")
        // Any other post keeps its heading in its body: only TextBundle editors write the title so.
        let (loose, looseWarnings) = try read("# A heading\n\nx\n", "posts/2019-11-04-loose.md")
        XCTAssertEqual(loose.title, "Loose")
        XCTAssertTrue(loose.body.hasPrefix("# A heading"))
        XCTAssertEqual(looseWarnings.count, 1)
    }

    func testTheHeadersSlugAndDateWinAndAPelicanTitleDoesNotNameABundle() throws {
        let (post, _) = try read("---\ntitle: T\nslug: chosen\ndate: 2021-03-04\n---\n", "2019-11-04-folder.textbundle/text.md")
        XCTAssertEqual(post.slug, "chosen")
        XCTAssertEqual(post.date, DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: utc, year: 2021, month: 3, day: 4).date)
        // The folder names a bundle whatever its header's form: a Pelican title would name a loose file.
        let (pelican, _) = try read("Title: A Long Title\nDate: 2019-11-04\n\nBody", "posts/trip/README.md")
        XCTAssertEqual(pelican.slug, "trip")
        XCTAssertEqual(pelican.title, "A Long Title")
        let (loose, _) = try read("Title: A Long Title\nDate: 2019-11-04\n\nBody", "posts/trip/README.md", bundle: false)
        XCTAssertFalse(loose.isBundle)
        XCTAssertEqual(loose.slug, "a-long-title")
    }
}
