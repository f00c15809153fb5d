@testable import BlogBuild
import BlogOutput
import Foundation
import XCTest

/// The build in place (QuickBuild): when only post bodies changed, the new bodies are patched
/// into the published pages and feeds, and the site is byte for byte what a clean build writes.
/// Anything more than a body change is a full build, which says why.
extension IncrementalBuildTests {
    @discardableResult
    func quickBuild(strict: Bool = false, now: Date? = nil) throws -> BuildReport {
        try build(strict: strict, quick: true, now: now)
    }

    /// Two builds: the first has no output to keep as the spare copy, the second has one, which
    /// later builds in place update.
    func buildTwice() throws {
        try quickBuild()
        try build()
    }

    func assertQuick(_ report: BuildReport, changed: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(report.cacheSummary?.hasPrefix("quick build: \(changed) post") ?? false, report.cacheSummary ?? "no summary",
                      file: file, line: line)
    }

    /// The build was not done in place, because of `reason`: its pages were rendered, all of them
    /// (`full build: ...`) or those whose values changed (`partial build: ...`, see PartialBuild).
    func assertRebuilt(_ report: BuildReport, because reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(report.cacheSummary.map { ($0.hasPrefix("full build: ") || $0.hasPrefix("partial build: ")) && $0.contains(reason) } ?? false,
                      report.cacheSummary ?? "no summary", file: file, line: line)
    }

    func testQuickBodyEditIsPatchedInPlace() throws {
        try buildTwice()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "Other *words* & <b>tags</b>.") }
        let report = try quickBuild()
        assertQuick(report, changed: 1)
        XCTAssertGreaterThanOrEqual(report.files.written, 1)
        // Every file of public/, but the mark each build leaves there (.blog-output).
        XCTAssertEqual(report.files.written + report.files.unchanged, site.files(under: "public").count - 1)
        XCTAssertEqual(report.posts, 7)
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-4/index.html")).contains("Other <em>words</em> &amp; <b>tags</b>."))
        try assertSameAsCleanBuild()
        // Again, from the state the quick build left.
        try edit("content/posts/post-4.md") { $0 + "\n\nOne more paragraph.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
    }

    func testQuickBodyEditPatchesTheSearchIndex() throws {
        try buildTwice()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "More text about aardvarks.") }
        assertQuick(try quickBuild(), changed: 1)
        XCTAssertTrue(try XCTUnwrap(site.read("public/search/posts-1.json")).contains(" aardvarks"))
        try assertSameAsCleanBuild()
    }

    func testAPostWithImagesIsRenderedAgainAndFollowsItsImageFiles() throws {
        try site.write("content/images/a.png", data: Data(ImageBytes.png(20, 10)))
        try edit("content/posts/post-4.md") { $0 + "\n\n![A](/blog/images/a.png)\n" }
        try buildTwice()
        try edit("content/posts/post-4.md") { $0 + "\n\nOne more line.\n" }
        assertRebuilt(try quickBuild(), because: "had links to other posts or images")
        try assertSameAsCleanBuild()
        // The image alone changes: the page follows its new size.
        try site.write("content/images/a.png", data: Data(ImageBytes.png(40, 30)))
        try quickBuild()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-4/index.html")).contains(#"alt="A" width="40" height="30""#))
        try assertSameAsCleanBuild()
    }

    func testQuickBuildsInTurnKeepTheSpareCopyInStep() throws {
        // A build in place updates the spare copy (the site before) only where it differs from the
        // published site: the files the last build wrote. Edits that take turns between posts, and a
        // full build between them, show whether each build knew where that was.
        try buildTwice()
        for (round, number) in [4, 2, 4, 7, 2].enumerated() {
            try edit("content/posts/post-\(number).md") { $0 + "\n\nRound \(round) paragraph.\n" }
            assertQuick(try quickBuild(), changed: 1)
            try assertSameAsCleanBuild()
        }
        // A title edit is a full build: the home page, tags and feeds change, and the next build in
        // place starts from them.
        try edit("content/posts/post-3.md") { $0.replacingOccurrences(of: "title: Post number 3", with: "title: Renamed post") }
        assertRebuilt(try quickBuild(), because: "changed")
        for (round, number) in [5, 3, 5].enumerated() {
            try edit("content/posts/post-\(number).md") { $0 + "\n\nAfter the rename, round \(round).\n" }
            assertQuick(try quickBuild(), changed: 1)
            try assertSameAsCleanBuild()
        }
    }

    func testQuickEditsSavedByRenamingANewFileOverThePost() throws {
        // Editors such as vim save by writing a new file and renaming it over the post: the folder's
        // times change, its files do not. Each such save is still a build in place, and so is the
        // next build, from the folder's times as this one saw them.
        try buildTwice()
        for round in 1...3 {
            let text = try XCTUnwrap(site.read("content/posts/post-4.md")) + "\n\nSaved by rename, round \(round).\n"
            try site.write("content/posts/.post-4.md.swp", text)
            XCTAssertEqual(rename(site.root.appendingPathComponent("content/posts/.post-4.md.swp").path,
                                  site.root.appendingPathComponent("content/posts/post-4.md").path), 0)
            assertQuick(try quickBuild(), changed: 1)
            try assertSameAsCleanBuild()
        }
        // A file added beside it is never missed, however the folder's times were recorded.
        try site.write("content/posts/post-8.md", "title: Post number 8\ndate: 2020-09-19 10:00\n\nNew.\n")
        assertRebuilt(try quickBuild(), because: "added to or removed from")
        try assertSameAsCleanBuild()
    }

    func testQuickBodyEditReportsTheBodysMarkdownWarnings() throws {
        // A warning of the markdown stage (here: CodeHilite's hl_lines, which blog can't show
        // without highlighting) comes from a build in place too, at its line, and --strict refuses it.
        try edit("blog.yml") { $0 + "\nhighlight: false\n" }
        try edit("content/posts/post-4.md") { $0 + "\n\n    :::python hl_lines=\"1\"\n    a = 1\n" }
        try buildTwice()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "Other text.") }
        let report = try quickBuild()
        assertQuick(report, changed: 1)
        XCTAssertEqual(report.warnings.map(\.description).filter { $0.contains("hl_lines") },
                       ["\(site.root.path)/content/posts/post-4.md:12:5: warning: hl_lines in a CodeHilite marker is not supported: the code block is shown without highlighted lines"])
        try assertSameAsCleanBuild()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "Other text.", with: "Third text.") }
        XCTAssertThrowsError(try quickBuild(strict: true))
    }

    func testQuickEditOfTheNewestPostPatchesTheFeeds() throws {
        try buildTwice()
        let feedBefore = try XCTUnwrap(site.read("public/feed.xml"))
        try edit("content/posts/post-7.md") { $0.replacingOccurrences(of: "More text.", with: "Fresh \"text\" with a [link](other/) & more.") }
        let report = try quickBuild()
        assertQuick(report, changed: 1)
        let feed = try XCTUnwrap(site.read("public/feed.xml"))
        XCTAssertNotEqual(feed, feedBefore)
        XCTAssertTrue(feed.contains("https://example.org/blog/posts/post-number-7/other/"), "links in feeds stay absolute")
        XCTAssertTrue(try XCTUnwrap(site.read("public/feed.json")).contains("Fresh &quot;text&quot; with a"), "a Pelican-form post: no curly quotes")
        try assertSameAsCleanBuild()
    }

    func testQuickSummaryChangeIsAFullBuild() throws {
        try buildTwice()
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "The body of post 2", with: "The new start of post 2") }
        let report = try quickBuild()
        assertRebuilt(report, because: "the header, summary or headings of")
        try assertSameAsCleanBuild()
    }

    func testQuickHeaderChangeIsAFullBuild() throws {
        try buildTwice()
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "Post number 2", with: "Post number two") }
        assertRebuilt(try quickBuild(), because: "the header, summary or headings of")
        try assertSameAsCleanBuild()
    }

    /// A post's page shows its translations' titles and URLs: a body edit is patched in place, a
    /// translation's header edit (its title, shown on the other page) is a full build.
    func testQuickBuildAndTranslations() throws {
        try site.write("content/posts/post-2-fr.md", "title: Article numéro 2\ndate: 2020-02-12 10:00\nslug: post-number-2\nlang: fr\n\nRésumé.\n\nCorps.\n")
        try buildTwice()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-2/index.html")).contains(">Article numéro 2 (fr)</a>"))
        try edit("content/posts/post-2-fr.md") { $0.replacingOccurrences(of: "Corps.", with: "Un autre corps.") }
        assertQuick(try quickBuild(), changed: 1)
        XCTAssertTrue(try XCTUnwrap(site.read("public/fr/posts/post-number-2/index.html")).contains("Un autre corps."))
        try assertSameAsCleanBuild()
        try edit("content/posts/post-2-fr.md") { $0.replacingOccurrences(of: "Article numéro 2", with: "Deuxième article") }
        assertRebuilt(try quickBuild(), because: "the header, summary or headings of")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-2/index.html")).contains(">Deuxième article (fr)</a>"))
        try assertSameAsCleanBuild()
    }

    func testQuickTouchWritesNothing() throws {
        try buildTwice()
        let page = site.root.appendingPathComponent("public/posts/post-number-3/index.html")
        let before = try FileManager.default.attributesOfItem(atPath: page.path)[.systemFileNumber] as? Int
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)],
                                              ofItemAtPath: site.root.appendingPathComponent("content/posts/post-3.md").path)
        let report = try quickBuild()
        assertQuick(report, changed: 0)
        XCTAssertEqual(report.files.written, 0)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: page.path)[.systemFileNumber] as? Int, before)
        try assertSameAsCleanBuild()
    }

    func testQuickRefusesAnOutputFileChangedByHand() throws {
        try buildTwice()
        try site.write("public/posts/post-number-5/index.html", "changed by hand")
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        assertRebuilt(try quickBuild(), because: "public/posts/post-number-5/index.html is not the file the last build wrote")
        try assertSameAsCleanBuild()
    }

    func testQuickWithoutTheSpareLinksANewCopy() throws {
        // The first build into an output folder leaves no spare copy of the site before it: the
        // first edit after it (the first save after `blog serve` starts) is still patched in place.
        try quickBuild()
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root.appendingPathComponent(".public.blog-spare").path))
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
        // And when the spare is removed by hand.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent(".public.blog-spare"))
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended again.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
        try edit("content/posts/post-2.md") { $0 + "\n\nAnd another post.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
    }

    /// `blog serve` makes the spare copy between builds (`Pipeline.readySpare`) when the last build left none that the
    /// next body edit could take as it is: the first build, and a build whose site has other files.
    func testTheSpareMadeBetweenBuildsHoldsThePublishedFilesAndTheNextEditTakesIt() throws {
        let spare = site.root.appendingPathComponent(".public.blog-spare")
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
        options.quick = true
        options.buildsAgain = true
        // The builds are `blog serve`'s (``serveBuild()``): the pages' digests are kept from the first build, so a
        // summary edit is a partial build.
        func identity(_ url: URL) throws -> Int {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
        }
        /// The spare holds every published file, the same file (a link, not a copy).
        func assertSpareIsThePublishedSite(file: StaticString = #filePath, line: UInt = #line) throws {
            let published = site.files(under: "public").filter { $0 != ".blog-output" }
            let spared = site.files(under: ".public.blog-spare").filter { $0 != ".blog-output" }
            XCTAssertEqual(spared.sorted(), published.sorted(), file: file, line: line)
            for path in published {
                XCTAssertEqual(try identity(spare.appendingPathComponent(path)), try identity(site.root.appendingPathComponent("public/" + path)),
                               path, file: file, line: line)
            }
        }
        try serveBuild()
        XCTAssertFalse(FileManager.default.fileExists(atPath: spare.path))
        XCTAssertTrue(Pipeline.readySpare(options))
        try assertSpareIsThePublishedSite()
        XCTAssertFalse(Pipeline.readySpare(options), "made once")
        try assertSameAsCleanBuild()
        // The edit takes that folder as its staging folder: it becomes the published one.
        let made = try identity(spare)
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        assertQuick(try serveBuild(), changed: 1)
        XCTAssertEqual(try identity(site.root.appendingPathComponent("public")), made)
        try assertSameAsCleanBuild()
        // After a build in place or a partial build (a summary or a title edited), the spare differs from the site in
        // a few files: the next edit updates those.
        XCTAssertFalse(Pipeline.readySpare(options))
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "The body of post 2", with: "The new start of post 2") }
        let partial = try serveBuild()
        XCTAssertTrue(partial.cacheSummary?.hasPrefix("partial build: ") ?? false, partial.cacheSummary ?? "no summary")
        XCTAssertFalse(Pipeline.readySpare(options))
        // A title that is part of the post's URL: the site has other files.
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "Post number 2", with: "Post number two") }
        assertRebuilt(try serveBuild(), because: "the header, summary or headings of")
        XCTAssertTrue(Pipeline.readySpare(options))
        try assertSpareIsThePublishedSite()
        // A new post: the site before has other files.
        try site.write("content/posts/post-9.md", "title: Post number 9\ndate: 2020-03-01 10:00\n\nA summary.\n\nA body.\n")
        assertRebuilt(try serveBuild(), because: "files were added to or removed from")
        XCTAssertTrue(Pipeline.readySpare(options))
        try assertSpareIsThePublishedSite()
        try edit("content/posts/post-9.md") { $0 + "\n\nAppended.\n" }
        assertQuick(try serveBuild(), changed: 1)
        try assertSameAsCleanBuild()
        // Without the cache there is no state to say what the site is: nothing is made.
        try build(cache: false)
        XCTAssertFalse(Pipeline.readySpare(options))
    }

    func testQuickAfterNoCacheBuildIsAFullBuild() throws {
        try buildTwice()
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        try build(cache: false)
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended again.\n" }
        assertRebuilt(try quickBuild(), because: "no state of a previous build")
        try assertSameAsCleanBuild()
    }

    func testQuickNewFileAndConfigChangeAreFullBuilds() throws {
        try buildTwice()
        try site.write("content/images/new.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        assertRebuilt(try quickBuild(), because: "files were added to or removed from")
        try site.write("content/images/new.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><g/></svg>")
        assertRebuilt(try quickBuild(), because: "a file that is not a post changed")
        try edit("blog.yml") { $0.replacingOccurrences(of: "Cache Notes", with: "Other Notes") }
        assertRebuilt(try quickBuild(), because: "blog.yml, the options, the theme or the blog version changed")
        try assertSameAsCleanBuild()
    }

    /// The first of the future posts to fall due (found as the posts are read, on every core) makes the next build a full one.
    func testQuickFuturePostFallingDueIsAFullBuild() throws {
        try site.write("content/posts/much-later.md", "title: Much later\ndate: 2040-06-01\n\nNot yet.\n")
        try site.write("content/posts/later.md", "title: Later\ndate: 2030-06-01\n\nNot yet.\n")
        try site.write("content/posts/even-later.md", "title: Even later\ndate: 2035-06-01\n\nNot yet.\n")
        try buildTwice()
        XCTAssertFalse(site.exists("public/posts/later/index.html"))
        let report = try quickBuild(now: Date(timeIntervalSince1970: 1_950_000_000))
        assertRebuilt(report, because: "a post dated in the future is due")
        XCTAssertTrue(site.exists("public/posts/later/index.html"))
        XCTAssertFalse(site.exists("public/posts/even-later/index.html"))
    }

    func testQuickEscapedAndTransformedBodies() throws {
        // A theme that prints the body escaped too: the patch escapes it the same way.
        try site.write("themes/default/templates/post.mustache", """
        {{#post}}<article>{{{html}}}</article><pre>{{html}}</pre>{{/post}}
        {{#neighbours}}{{#older}}<aside>{{{html}}}</aside>{{/older}}{{/neighbours}}

        """)
        try buildTwice()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "Now <i>\"quoted\"</i> & 'apostrophes'.") }
        XCTAssertFalse(try XCTUnwrap(site.read("public/posts/post-number-5/index.html")).contains("Now <i>"))
        let report = try quickBuild()
        assertQuick(report, changed: 1)
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-5/index.html")).contains("<aside><p>The body of post 4"),
                      "the newer neighbour's page shows the post's body too")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-5/index.html")).contains("Now <i>"))
        try assertSameAsCleanBuild()
        // A template that transforms the body: the post is never patched in place.
        try site.write("themes/default/templates/post.mustache", "{{#post}}<article>{{uppercased(html)}}</article>{{/post}}\n")
        try quickBuild()
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        assertRebuilt(try quickBuild(), because: "content/posts/post-4.md had links to other posts or images, or a template transforms its body")
        try assertSameAsCleanBuild()
    }

    func testQuickAfterALinkToAnotherPostIsRemovedIsAFullBuild() throws {
        // A full build lets each post's markdown go once rendered, and its state reads the body from
        // the file: a post that had an `{attach}` link, or ran Liquid, is still known to have, and
        // is rendered again when the link is taken out (its summary, the first paragraph, unchanged).
        try site.write("content/posts/picture.png", "not really a picture")
        try site.write("content/posts/linking.md", "title: Linking\ndate: 2020-03-01\nsummary: Short.\n\nSee [it]({attach}picture.png).\n")
        try site.write("content/posts/liquid.md", "---\ntitle: Liquid\ndate: 2020-03-02\n---\n\nIntro.\n\nA {{ site.baseurl }} link.\n")
        try buildTwice()
        try edit("content/posts/linking.md") { $0.replacingOccurrences(of: "See [it]({attach}picture.png).", with: "No link now.") }
        assertRebuilt(try quickBuild(), because: "content/posts/linking.md had links to other posts")
        try assertSameAsCleanBuild()
        try edit("content/posts/liquid.md") { $0.replacingOccurrences(of: "A {{ site.baseurl }} link.", with: "No Liquid now.") }
        assertRebuilt(try quickBuild(), because: "content/posts/liquid.md had links to other posts")
        try assertSameAsCleanBuild()
    }

    func testQuickKeepsWarningsAndStrict() throws {
        try site.write("content/posts/undated.md", "title: No date\n\nBody.\n")
        try buildTwice()
        let first = try build()
        XCTAssertFalse(first.warnings.isEmpty)
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        let second = try quickBuild()
        assertQuick(second, changed: 1)
        XCTAssertEqual(second.warnings, first.warnings)
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended again.\n" }
        XCTAssertThrowsError(try quickBuild(strict: true)) { error in
            XCTAssertTrue("\(error)".contains("--strict"), "\(error)")
        }
        XCTAssertFalse(try XCTUnwrap(site.read("public/posts/post-number-4/index.html")).contains("Appended again."))
    }

    /// The theme's warnings are made by every build, in place or not: a build in place says each once,
    /// as a full build does, however many builds in place came before it.
    func testQuickSaysTheThemesWarningsOnce() throws {
        let outside = try TempSite()
        defer { outside.remove() }
        let target = try outside.write("elsewhere.css", "p {}")
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("themes/default/static"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("themes/default/static/out.css"), withDestinationURL: target)
        try buildTwice()
        let full = try build()
        let linkWarnings = full.warnings.filter { $0.path.hasSuffix("static/out.css") }
        XCTAssertEqual(linkWarnings.count, 1, "\(full.warnings)")
        for round in 1...3 {
            try edit("content/posts/post-4.md") { $0 + "\n\nRound \(round).\n" }
            let quick = try quickBuild()
            assertQuick(quick, changed: 1)
            XCTAssertEqual(quick.warnings, full.warnings)
        }
        try assertSameAsCleanBuild()
    }

    /// A build that may be done in place (the state has this build's theme files) compiles no template before the build
    /// lock; one whose theme changed compiles it first, as every build did: a template broken since the last build is
    /// said before anything else is looked at, here before the lock another build holds.
    func testATemplateBrokenSinceTheLastBuildIsSaidBeforeTheBuildLock() throws {
        try buildTwice()
        let lock = try BuildLock.hold(blog: site.root, folder: (site.root.appendingPathComponent(".blog-cache"), ".blog-cache"), create: false).0
        defer { lock.release() }
        try edit("content/posts/post-4.md") { $0 + "\n\nOne more paragraph.\n" }
        XCTAssertEqual(buildFailure { try quickBuild() }.map(\.message).filter { $0.contains("another `blog build`") }.count, 1,
                       "the theme as the last build had it: the lock is the first thing said")
        try site.write("themes/default/templates/post.mustache", "{{#post}}never closed\n")
        let failure = buildFailure { try quickBuild() }
        XCTAssertEqual(failure.count, 1, "\(failure)")
        XCTAssertTrue(failure.allSatisfy { $0.path.hasSuffix("themes/default/templates/post.mustache") }, "\(failure)")
        lock.release()
        XCTAssertEqual(buildFailure { try quickBuild() }.map(\.description), failure.map(\.description))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("themes"))
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
    }

    func testQuickEditOfAPageInTheHomePagesPlace() throws {
        try site.write("content/pages/home.md", "Title: Welcome\nSave_as: index.html\nURL:\n\nFirst words.\n\nMore words.\n")
        try buildTwice()
        let first = try build()
        let notes = first.warnings.filter { $0.severity == .note }
        XCTAssertEqual(notes.map(\.path), ["content/pages/home.md"].map { site.root.path + "/" + $0 })
        try edit("content/pages/home.md") { $0.replacingOccurrences(of: "More words.", with: "Other *words*.") }
        let report = try quickBuild(strict: true)
        assertQuick(report, changed: 1)
        XCTAssertEqual(report.warnings, first.warnings, "the note stays; --strict does not count it")
        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("Other <em>words</em>."))
        XCTAssertTrue(try XCTUnwrap(site.read("public/blog/index.html")).contains("Post number 7"))
        try assertSameAsCleanBuild()
    }

    func testQuickDraftEditChangesNothing() throws {
        try site.write("content/posts/draft.md", "title: Draft\ndate: 2020-02-02\nstatus: draft\n\nFirst.\n\nSecond.\n")
        try buildTwice()
        try edit("content/posts/draft.md") { $0 + "\nThird.\n" }
        let report = try quickBuild()
        assertQuick(report, changed: 1)
        XCTAssertEqual(report.files.written, 0)
        try assertSameAsCleanBuild()
    }

    /// A TextBundle's text that shows a picture is rendered again (a picture's size comes from its
    /// file), not patched in place; a new or changed picture in its bundle is a full build, which
    /// puts it beside the page.
    func testQuickEditOfABundledTextAndANewPictureInItsBundle() throws {
        try site.write("content/2020-08-18-trip.textbundle/text.md", "---\ntitle: Trip\n---\n![Sea](assets/sea.png)\n\nSome text.\n")
        try site.write("content/2020-08-18-trip.textbundle/assets/sea.png", "PNG")
        try site.write("content/2020-08-18-trip.textbundle/info.json", "{}")
        try buildTwice()
        try edit("content/2020-08-18-trip.textbundle/text.md") { $0.replacingOccurrences(of: "Some text.", with: "Other *text*.") }
        assertRebuilt(try quickBuild(), because: "had links to other posts or images")
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/trip/index.html")).contains("Other <em>text</em>."))
        try assertSameAsCleanBuild()
        try site.write("content/2020-08-18-trip.textbundle/assets/boat.png", "PNG")
        assertRebuilt(try quickBuild(), because: "files were added to or removed from")
        XCTAssertEqual(site.read("public/posts/trip/assets/boat.png"), "PNG")
        try assertSameAsCleanBuild()
        try site.write("content/2020-08-18-trip.textbundle/assets/sea.png", "PNG, retouched")
        assertRebuilt(try quickBuild(), because: "a file that is not a post changed")
        XCTAssertEqual(site.read("public/posts/trip/assets/sea.png"), "PNG, retouched")
        try assertSameAsCleanBuild()
    }

    func testASecondBuildAtTheSameTimeIsRefused() throws {
        try buildTwice()
        let fd = open(cacheFolder.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o666)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        XCTAssertThrowsError(try quickBuild()) { error in
            XCTAssertTrue("\(error)".contains("another `blog build` of this blog is running"), "\(error)")
        }
        close(fd)
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        assertQuick(try quickBuild(), changed: 1)
        try assertSameAsCleanBuild()
    }
}
