@testable import BlogBuild
@testable import BlogContent
@testable import BlogCore
import XCTest

final class PostReaderTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    let paris = TimeZone(identifier: "Europe/Paris")!

    func instant(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, offset: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset)!
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
    }

    func read(_ text: String, source: String = "content/posts/a.md", zone: TimeZone? = nil,
              file: StaticString = #filePath, line: UInt = #line) -> (Post, [Diagnostic])? {
        read(Data(text.utf8), source: source, zone: zone, file: file, line: line)
    }

    func read(_ data: Data, source: String = "content/posts/a.md", zone: TimeZone? = nil,
              file: StaticString = #filePath, line: UInt = #line) -> (Post, [Diagnostic])? {
        do {
            return try PostReader.read(data: data, source: source, timeZone: zone ?? utc)
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func failure(_ text: String, source: String = "content/posts/a.md",
                 file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        failure(Data(text.utf8), source: source, file: file, line: line)
    }

    func failure(_ data: Data, source: String = "content/posts/a.md",
                 file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
        buildFailure({ try PostReader.read(data: data, source: source, timeZone: utc) }, file: file, line: line)
    }

    // MARK: Bounded cost

    func testAPostOverAHundredMegabytesIsRefusedBeforeItIsRead() throws {
        // A sparse file: 101 MB long, with no bytes written; refused by its size, not read.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).md")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("Title: Huge\n\n".utf8)))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 101_000_000)
        try handle.close()
        let errors = buildFailure({ try PostReader.read(fileAt: url, source: "content/posts/huge.md", timeZone: utc) })
        XCTAssertEqual(errors.map(\.description), ["content/posts/huge.md:1:1: error: this post is 101 MB: a post may be at most 100 MB; is it a post?"])
    }

    func testAPostFilesBytesComeWithTheStatusOfTheFileTheyWereReadFrom() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.md").path
        let text = "Title: A\nDate: 2024-01-01\n\nBody.\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        let (data, status) = try PostReader.contentsAndStatus(ofPath: path, source: "content/a.md")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), text)
        // The build's state records it for the file: the same file, size and times as the path shows now.
        let read = try XCTUnwrap(status)
        var now = stat()
        XCTAssertEqual(stat(path, &now), 0)
        XCTAssertEqual(read.st_ino, now.st_ino)
        XCTAssertEqual(read.st_dev, now.st_dev)
        XCTAssertEqual(Int(read.st_size), data.count)
        XCTAssertEqual(read.st_mtim.tv_sec, now.st_mtim.tv_sec)
        XCTAssertEqual(read.st_mtim.tv_nsec, now.st_mtim.tv_nsec)
        XCTAssertEqual(read.st_ctim.tv_nsec, now.st_ctim.tv_nsec)
        // Replaced after the read: the status is still the one of the file the bytes came from.
        try Data("Title: B\n\nOther.\n".utf8).write(to: URL(fileURLWithPath: path + ".new"))
        XCTAssertEqual(rename(path + ".new", path), 0)
        XCTAssertEqual(stat(path, &now), 0)
        XCTAssertNotEqual(read.st_ino, now.st_ino)
        // A folder is not read, with the message the build gives, and no status.
        let errors = buildFailure({ _ = try PostReader.contentsAndStatus(ofPath: folder.path, source: "content/a.md") })
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.message.hasPrefix("cannot read the file: ") ?? false, "\(errors)")
    }

    func testMoreThanAThousandTagsIsAnErrorAtTheTagsLine() throws {
        let many = (1...1_001).map { "t\($0)" }
        let errors = failure("Title: T\nDate: 2024-01-01\nTags: \(many.joined(separator: ", "))\n\nBody.\n")
        XCTAssertEqual(errors.map(\.description), ["content/posts/a.md:3:7: error: 1001 tags: a post may have at most 1000 (each one's page lists the post with all of them, so a site's size grows with the square of their number)"])
        // A thousand is allowed, and repeats (same slug) are dropped first.
        let (post, _) = try XCTUnwrap(read("Title: T\nDate: 2024-01-01\nTags: \((many.dropLast(2) + ["T1", "t 1"]).joined(separator: ", "))\n\nBody.\n"))
        XCTAssertEqual(post.tags.count, 1_000, "t1 and T1 are one tag; `t 1` is t-1, another")
    }

    func testALineNestedDeeperThanTheLimitIsAnErrorAtItsLine() throws {
        let quotes = String(repeating: ">", count: 1_001)
        let errors = failure("---\ntitle: T\ndate: 2024-01-01\n---\nIntro.\n\n\(quotes) deep\n")
        XCTAssertEqual(errors.map(\.description), ["content/posts/a.md:7:1: error: this line is nested too deep: more than 1000 bytes of indentation, `>` and list markers before its text (markdown's cost grows with the square of the nesting depth)"])
        let list = (0..<501).map { String(repeating: " ", count: 2 * $0) + "- item" }.joined(separator: "\n")
        XCTAssertEqual(failure("Title: T\nDate: 2024-01-01\n\n" + list + "\n").first?.line, 4 + 500)
        // What only looks like a prefix is text: a long rule, a long number, dashes without a space.
        let fine = [String(repeating: "-", count: 3_000), String(repeating: "9", count: 3_000), String(repeating: "- ", count: 400) + "x",
                    String(repeating: " ", count: 900) + "code"]
        for body in fine {
            XCTAssertNotNil(read("Title: T\nDate: 2024-01-01\n\n\(body)\n"), String(body.prefix(20)))
        }
    }

    // MARK: Whole posts

    func testPelicanPost() throws {
        let text = """
        Title: Restoring view controllers
        Date: 25/11/2016
        Modified: 2016-12-01 10:00
        Tags: Swift; iOS; UIKit, state restoration;
        Category: Programming
        Slug: restoring-vcs
        Author: Jane Doe
        Summary: How state restoration works.
        Status: Draft
        Cover: cover.png

        Body text.
        """
        let (post, warnings) = try XCTUnwrap(read(text, zone: paris))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(post.source, "content/posts/a.md")
        XCTAssertEqual(post.title, "Restoring view controllers")
        XCTAssertEqual(post.date, instant(2016, 11, 25, offset: 3600))
        XCTAssertEqual(post.modified, instant(2016, 12, 1, 10, 0, offset: 3600))
        // `;` in the value: split on `;` only (the comma stays in the tag).
        XCTAssertEqual(post.tags.map(\.name), ["Swift", "iOS", "UIKit, state restoration"])
        XCTAssertEqual(post.category?.name, "Programming")
        XCTAssertEqual(post.category?.slug, "programming")
        XCTAssertEqual(post.slug, "restoring-vcs")
        XCTAssertEqual(post.author, "Jane Doe")
        XCTAssertEqual(post.summary, "How state restoration works.")
        XCTAssertEqual(post.status, .draft)
        XCTAssertEqual(post.meta["cover"], .string("cover.png"))
        XCTAssertEqual(post.meta["title"], .string("Restoring view controllers"))
        XCTAssertEqual(post.body, "Body text.")
        XCTAssertEqual(post.bodyLine, 12)
    }

    func testJekyllPost() throws {
        let text = """
        ---
        layout: post
        title:  "Welcome to Jekyll!"
        date:   2013-09-14 20:46:50 -0400
        categories: jekyll update
        tags: [ruby, Ruby, static sites]
        author:
          - Ann
          - Bob
        ---
        You’ll find this post in your `_posts` directory.
        """
        let (post, warnings) = try XCTUnwrap(read(text, source: "content/posts/2013-09-14-welcome-to-jekyll.markdown"))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(post.title, "Welcome to Jekyll!")
        XCTAssertEqual(post.date, Date(timeIntervalSince1970: 1_379_206_010))
        // `ruby` and `Ruby` have one slug: the first spelling names the tag.
        XCTAssertEqual(post.tags.map(\.name), ["ruby", "static sites"])
        XCTAssertEqual(post.slug, "welcome-to-jekyll")
        XCTAssertEqual(post.author, "Ann, Bob")
        XCTAssertEqual(post.status, .published)
        XCTAssertEqual(post.meta["categories"], .string("jekyll update"))
        XCTAssertEqual(post.bodyLine, 11)
    }

    func testHugoTOMLPost() throws {
        let text = """
        +++
        title = "Hugo 0.20"
        date = 2017-04-10T13:53:58
        tags = ["hugo", "release", "a, b"]
        draft = true
        +++
        Body
        """
        let (post, _) = try XCTUnwrap(read(text, zone: paris))
        // A local TOML date-time is in the site's zone (Paris, +02:00 in April).
        XCTAssertEqual(post.date, instant(2017, 4, 10, 13, 53, offset: 7200).addingTimeInterval(58))
        // A list item is kept as written, commas and all.
        XCTAssertEqual(post.tags.map(\.name), ["hugo", "release", "a, b"])
        XCTAssertEqual(post.status, .draft)
    }

    func testTOMLOffsetDateTime() throws {
        let (post, _) = try XCTUnwrap(read("+++\ntitle = \"x\"\ndate = 2017-04-10T13:53:58-04:00\n+++\n", zone: paris))
        XCTAssertEqual(post.date, Date(timeIntervalSince1970: 1_491_846_838))
    }

    // MARK: Tags

    func testTagsSplitOnCommasWhenThereIsNoSemicolon() throws {
        let (post, _) = try XCTUnwrap(read("Title: t\nDate: 2016-11-25\nTags: swift, , iOS,Swift,  testing ,\n\nBody"))
        XCTAssertEqual(post.tags.map(\.name), ["swift", "iOS", "testing"])
        XCTAssertEqual(post.tags.map(\.slug), ["swift", "ios", "testing"])
    }

    func testTagsSplitOnSemicolonsWhenThereIsOne() throws {
        let (post, _) = try XCTUnwrap(read("Title: t\nDate: 2016-11-25\nTags: a, b; c\n\nBody"))
        XCTAssertEqual(post.tags.map(\.name), ["a, b", "c"])
        // Beyond ASCII, a `;` followed by a combining mark is another character, and no separator.
        let (other, _) = try XCTUnwrap(read("Title: t\nDate: 2016-11-25\nTags: é;\u{301}x, y\n\nBody"))
        XCTAssertEqual(other.tags.map(\.name), ["é;\u{301}x", "y"])
    }

    func testNoTagsAndNoCategory() throws {
        let (post, _) = try XCTUnwrap(read("Title: t\nDate: 2016-11-25\n\nBody"))
        XCTAssertEqual(post.tags, [])
        XCTAssertNil(post.category)
        XCTAssertNil(post.author)
        XCTAssertNil(post.summary)
        XCTAssertNil(post.modified)
    }

    // MARK: Status and draft

    func testStatusAndDraft() throws {
        XCTAssertEqual(read("Title: t\nDate: 2016-11-25\nStatus: HIDDEN\n\nBody")?.0.status, .hidden)
        XCTAssertEqual(read("Title: t\nDate: 2016-11-25\nStatus: published\n\nBody")?.0.status, .published)
        // draft wins over status published, as a bool or as text.
        XCTAssertEqual(read("---\ntitle: t\ndate: 2016-11-25\nstatus: published\ndraft: true\n---\n")?.0.status, .draft)
        XCTAssertEqual(read("Title: t\nDate: 2016-11-25\nStatus: published\nDraft: true\n\nBody")?.0.status, .draft)
        XCTAssertEqual(read("Title: t\nDate: 2016-11-25\nDraft: False\n\nBody")?.0.status, .published)
    }

    func testUnknownStatusIsAnError() {
        let diagnostics = failure("Title: t\nDate: 2016-11-25\nStatus: archived\n\nBody")
        XCTAssertEqual(diagnostics.map(\.description), [
            "content/posts/a.md:3:9: error: unknown status \"archived\": use published, draft or hidden",
        ])
    }

    func testBadDraftIsAnError() {
        let diagnostics = failure("---\ntitle: t\ndate: 2016-11-25\ndraft: maybe\n---\n")
        XCTAssertEqual(diagnostics.first?.line, 4)
        XCTAssertEqual(diagnostics.first?.message, "`draft` must be true or false")
    }

    // MARK: Title

    func testMissingTitleIsAWarningAndComesFromTheFileName() throws {
        let (post, warnings) = try XCTUnwrap(read("Date: 2016-11-25\n\nBody", source: "content/posts/2016-11-25-my_first-post.md"))
        XCTAssertEqual(post.title, "My first post")
        XCTAssertEqual(post.slug, "my-first-post")
        XCTAssertEqual(warnings.map(\.description), [
            "content/posts/2016-11-25-my_first-post.md:1:1: warning: missing title: using \"My first post\" from the file name",
        ])
    }

    func testEmptyTitleIsAWarningAtItsLine() throws {
        let (post, warnings) = try XCTUnwrap(read("---\ndate: 2016-11-25\ntitle: \"\"\n---\n", source: "content/posts/hello-world.md"))
        XCTAssertEqual(post.title, "Hello world")
        XCTAssertEqual(warnings.first?.line, 3)
        XCTAssertEqual(warnings.first?.severity, .warning)
    }

    func testBodyWithoutHeaderTakesEverythingFromTheFileName() throws {
        let (post, warnings) = try XCTUnwrap(read("# Hello\n\nText.\n", source: "content/posts/2016-1-5-notes.md"))
        XCTAssertEqual(post.title, "Notes")
        XCTAssertEqual(post.date, instant(2016, 1, 5))
        XCTAssertEqual(post.slug, "notes")
        XCTAssertEqual(post.body, "# Hello\n\nText.\n")
        XCTAssertEqual(warnings.count, 1)
    }

    func testPageBundleIsNamedByItsFolder() throws {
        let (post, _) = try XCTUnwrap(read("Date: 2016-11-25\n\nBody", source: "content/posts/2016-11-25-trip/index.md"))
        XCTAssertEqual(post.slug, "trip")
        XCTAssertEqual(post.title, "Trip")
    }

    func testFileNamesAreReadByCharacterWhenTheyAreNotPlainASCII() throws {
        // ASCII: the date prefix (month and day unpadded) and the name after it.
        var file = PostReader.FileName(source: "posts/2016-1-05-my-post.md", bundle: false)
        XCTAssertEqual(file.datePrefix.map { [$0.year, $0.month, $0.day] }, [2016, 1, 5])
        XCTAssertEqual(file.name, "my-post")
        XCTAssertEqual(file.stem, "2016-1-05-my-post")
        // A non-ASCII folder or name keeps the same rules.
        file = PostReader.FileName(source: "posts/café/2016-11-25-été.md", bundle: false)
        XCTAssertEqual(file.datePrefix.map { [$0.year, $0.month, $0.day] }, [2016, 11, 25])
        XCTAssertEqual(file.name, "été")
        // A `-` or `/` followed by a combining mark is another character: no date prefix, no folder.
        file = PostReader.FileName(source: "posts/2016-11-25-\u{301}x.md", bundle: false)
        XCTAssertNil(file.datePrefix)
        XCTAssertEqual(file.name, "2016-11-25-\u{301}x")
        file = PostReader.FileName(source: "posts/a/\u{301}b.md", bundle: false)
        XCTAssertEqual(file.name, "a/\u{301}b")
        // A digit with a combining mark is no digit.
        XCTAssertNil(PostReader.FileName(source: "posts/2016-11-2\u{301}5-x.md", bundle: false).datePrefix)
    }

    // MARK: Date

    func testDateFromTheFileNameIsMidnightInTheSiteZone() throws {
        let (post, _) = try XCTUnwrap(read("Title: t\n\nBody", source: "content/posts/2016-11-25-t.md", zone: paris))
        XCTAssertEqual(post.date, Date(timeIntervalSince1970: 1_480_028_400))
    }

    func testMissingDateIsAWarningAndThePostIsUndated() throws {
        let (post, warnings) = try XCTUnwrap(read("Title: t\n\nBody", source: "content/posts/t.md"))
        XCTAssertFalse(post.dated)
        XCTAssertEqual(warnings.map(\.description), [
            "content/posts/t.md:1:1: warning: missing date: the post is listed after every dated post and shows no date; add a `date: YYYY-MM-DD` header line",
        ])
    }

    func testImpossibleDateIsAnErrorAtTheValue() {
        let diagnostics = failure("Title: t\nDate:   31/02/2016\n\nBody")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.line, 2)
        XCTAssertEqual(diagnostics.first?.column, 9)
        XCTAssertTrue(diagnostics.first?.message.contains("February 2016 has 29 days") ?? false)
    }

    func testAmbiguousDateIsAWarningNamingFileAndLine() throws {
        let (post, warnings) = try XCTUnwrap(read("Title: t\nDate: 03/04/2017\n\nBody"))
        XCTAssertEqual(post.date, instant(2017, 4, 3))
        XCTAssertEqual(warnings.map(\.description), [
            "content/posts/a.md:2:7: warning: ambiguous date \"03/04/2017\": read as day/month (3 April 2017); write 2017-04-03 to be explicit",
        ])
    }

    func testErrorsOfAFileAreAllReported() {
        let diagnostics = failure("---\ntitle: t\ndate: yesterday\nslug: ../../etc\nstatus: gone\n---\n")
        XCTAssertEqual(diagnostics.map(\.line), [3, 4, 5])
        XCTAssertTrue(diagnostics.allSatisfy { $0.severity == .error })
    }

    // MARK: Slug

    func testUnsafeSlugIsAnError() {
        for (slug, shown) in [("../../etc", "../../etc"), ("a/b", "a/b"), ("\"..\"", "..")] {
            let diagnostics = failure("---\ntitle: t\ndate: 2016-11-25\nslug: \(slug)\n---\n")
            XCTAssertEqual(diagnostics.map(\.description), [
                "content/posts/a.md:4:7: error: unsafe slug \"\(shown)\": a slug is one URL segment without \"/\" or \"..\"",
            ], slug)
        }
    }

    func testSlugFromTitleThenFileName() throws {
        XCTAssertEqual(read("Title: Hello, World!\nDate: 2016-11-25\n\nBody")?.0.slug, "hello-world")
        // A title with no letter or digit: the file name gives the slug.
        XCTAssertEqual(read("Title: ???\nDate: 2016-11-25\n\nBody", source: "content/posts/2016-11-25-why.md")?.0.slug, "why")
    }

    func testEmptySlugIsAnError() {
        let diagnostics = failure("Title: ???\nDate: 2016-11-25\n\nBody", source: "content/posts/___.md")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(diagnostics.first?.message.hasPrefix("empty slug") ?? false)
    }

    // MARK: Bytes

    func testInvalidUTF8NamesTheByteOffsetAndPosition() {
        var bytes = Array("Title: Caf".utf8)
        bytes.append(0xE9)  // Latin-1 é
        bytes += Array("\nDate: 2016-11-25\n\nBody".utf8)
        XCTAssertEqual(failure(Data(bytes)).map(\.description), [
            "content/posts/a.md:1:11: error: invalid UTF-8 at byte 10: the file must be UTF-8 text",
        ])
        // On a later line, after multi-byte characters and a CRLF.
        let later = Array("Title: Ünïcödé\r\nDate: 2016-11-25\r\n\r\nab".utf8) + [0xC3, 0x28]
        let offset = later.count - 2
        XCTAssertEqual(failure(Data(later)).map(\.description), [
            "content/posts/a.md:4:3: error: invalid UTF-8 at byte \(offset): the file must be UTF-8 text",
        ])
    }

    func testOverlongAndSurrogateBytesAreInvalid() {
        XCTAssertEqual(SourceText.firstInvalidUTF8Byte([0x41, 0xC0, 0xAF]), 1)        // overlong '/'
        XCTAssertEqual(SourceText.firstInvalidUTF8Byte([0xED, 0xA0, 0x80]), 0)        // surrogate
        XCTAssertEqual(SourceText.firstInvalidUTF8Byte([0xF4, 0x90, 0x80, 0x80]), 0)  // above U+10FFFF
        XCTAssertEqual(SourceText.firstInvalidUTF8Byte([0x41, 0xE2, 0x82]), 1)        // truncated
        XCTAssertNil(SourceText.firstInvalidUTF8Byte(Array("ok é € 𝄞".utf8)))
    }

    func testCRLFAndBOMFile() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("Title: Hello\r\nDate: 2016-11-25\r\nTags: a, b\r\n\r\nLine 1\r\nLine 2\r\n".utf8))
        let (post, warnings) = try XCTUnwrap(read(data))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(post.title, "Hello")
        XCTAssertEqual(post.tags.map(\.name), ["a", "b"])
        XCTAssertEqual(post.body, "Line 1\nLine 2\n")
        XCTAssertEqual(post.bodyLine, 5)
    }

    func testReadFileAt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postreader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("2016-11-25-hello.md")
        try Data("Title: Hello\n\nBody\n".utf8).write(to: url)
        let (post, _) = try PostReader.read(fileAt: url, source: "content/2016-11-25-hello.md", timeZone: utc)
        XCTAssertEqual(post.title, "Hello")
        XCTAssertEqual(post.source, "content/2016-11-25-hello.md")
        XCTAssertThrowsError(try PostReader.read(fileAt: folder.appendingPathComponent("missing.md"),
                                                 source: "content/missing.md", timeZone: utc)) { error in
            let d = (error as? BuildFailure)?.diagnostics.first
            XCTAssertEqual(d?.path, "content/missing.md")
            XCTAssertTrue(d?.message.hasPrefix("cannot read the file") ?? false, "\(String(describing: d))")
        }
    }

    // MARK: Every field

    /// The resolver makes its post in one expression from every field it found (a post made then set field by field
    /// was copied twice): each field the header, the file's place and its name set is in the post read.
    func testEveryFieldTheHeaderSetsIsInThePostRead() throws {
        let hugo = """
            +++
            title = "  A trip  "
            date = 2017-03-01T18:09:00-07:00
            lastmod = 2017-03-02T08:00:00Z
            slug = "the-trip"
            tags = ["Go", "Rust"]
            categories = ["Travel", "Notes"]
            authors = ["Ann", "Bob"]
            summary = "Short."
            url = "/trips/the-trip/"
            save_as = "trips/the-trip.html"
            aliases = ["/old/trip/", "/older/trip/"]
            lang = "fr"
            html = "sanitize"
            draft = true
            +++

            Body.
            """
        let (post, _) = try PostReader.read(data: Data(hugo.utf8), source: "content/posts/trip/index.md",
                                            contentPath: "posts/trip/index.md", bundle: true, timeZone: utc)
        XCTAssertEqual(post.source, "content/posts/trip/index.md")
        XCTAssertEqual(post.contentPath, "posts/trip/index.md")
        XCTAssertEqual(post.title, "A trip")
        XCTAssertEqual(post.kind, .post)
        XCTAssertTrue(post.isBundle)
        XCTAssertEqual(post.headerFormat, .toml)
        XCTAssertEqual(post.date, instant(2017, 3, 1, 18, 9, offset: -7 * 3600))
        XCTAssertTrue(post.dated)
        XCTAssertEqual(post.writtenOffset, -7 * 3600)
        XCTAssertEqual(post.modified, instant(2017, 3, 2, 8, 0))
        XCTAssertEqual(post.tags.map(\.name), ["Go", "Rust"])
        XCTAssertEqual(post.categories.map(\.name), ["Travel", "Notes"])
        XCTAssertEqual(post.authors, ["Ann", "Bob"])
        XCTAssertEqual(post.author, "Ann, Bob")
        XCTAssertEqual(post.summary, "Short.")
        XCTAssertEqual(post.permalink, "trips/the-trip/")
        XCTAssertEqual(post.saveAs, "trips/the-trip.html")
        XCTAssertEqual(post.aliases, ["old/trip/", "older/trip/"])
        XCTAssertEqual(post.lang, "fr")
        XCTAssertEqual(post.html, .sanitize)
        XCTAssertEqual(post.status, .draft)
        XCTAssertEqual(post.slug, "the-trip")
        XCTAssertEqual(post.meta["lang"]?.text, "fr")
        XCTAssertEqual(post.body, "\nBody.")
        XCTAssertEqual(post.bodyLine, 17)

        // A Pelican page with none of these: every field at its default, the date absent.
        let (page, _) = try XCTUnwrap(read("Title: About\nStatus: hidden\n\nText.\n", source: "content/pages/about.md"))
        XCTAssertEqual(page.contentPath, "pages/about.md")
        XCTAssertEqual(page.kind, .page)
        XCTAssertFalse(page.isBundle)
        XCTAssertEqual(page.headerFormat, .pelican)
        XCTAssertFalse(page.dated)
        XCTAssertEqual(page.date, Date(timeIntervalSince1970: 0))
        XCTAssertNil(page.writtenOffset)
        XCTAssertNil(page.modified)
        XCTAssertEqual(page.tags, [])
        XCTAssertEqual(page.categories, [])
        XCTAssertEqual(page.authors, [])
        XCTAssertNil(page.author)
        XCTAssertNil(page.summary)
        XCTAssertNil(page.permalink)
        XCTAssertNil(page.saveAs)
        XCTAssertEqual(page.aliases, [])
        XCTAssertNil(page.lang)
        XCTAssertNil(page.html)
        XCTAssertEqual(page.status, .hidden)
        XCTAssertEqual(page.slug, "about")
        XCTAssertEqual(page.body, "Text.\n")
        XCTAssertEqual(page.bodyLine, 4)
    }

    /// Where the resolver looks through several keys for the first one present (`firstField`), the keys' order
    /// decides, not the header's: a Hugo post's written offset is its `date`'s though `publishdate` comes first in
    /// the file, and a post repeated over too many terms is an error at its `tags` though `category` comes first.
    func testTheFirstOfSeveralKeysIsTheOneTheKeysOrderNamesFirst() throws {
        let hugo = "+++\ntitle = \"Trip\"\npublishdate = 2017-03-01T10:00:00+02:00\ndate = 2017-03-01T18:09:00-07:00\n+++\nBody.\n"
        let (post, _) = try PostReader.read(data: Data(hugo.utf8), source: "content/posts/trip.md", contentPath: "posts/trip.md",
                                            timeZone: utc)
        XCTAssertEqual(post.date, instant(2017, 3, 1, 18, 9, offset: -7 * 3600))
        XCTAssertEqual(post.writtenOffset, -7 * 3600)

        let tags = (0..<400).map { "t\($0)" }.joined(separator: ", ")
        let body = String(repeating: String(repeating: "word ", count: 199) + "word\n\n", count: 300)
        let wide = "Title: Wide\nDate: 2020-01-02\nCategory: Notes\nTags: \(tags)\n\n" + body
        XCTAssertThrowsError(try PostReader.read(data: Data(wide.utf8), source: "content/posts/wide.md", timeZone: utc)) { error in
            let found = (error as? BuildFailure)?.diagnostics.first { $0.message.contains("are repeated on the page and feed") }
            XCTAssertEqual(found.map { [$0.line, $0.column] }, [4, 7])
        }
    }
}
