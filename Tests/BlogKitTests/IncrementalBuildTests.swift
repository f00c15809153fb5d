@testable import BlogBuild
@testable import BlogCore
@testable import BlogIncremental
@testable import BlogOutput
@testable import BlogRender
import Foundation
import XCTest

/// The incremental layer's full builds: a build after an earlier one (its output, spare copy and
/// state in place) writes exactly the bytes a clean `--no-cache` build writes, whatever changed in
/// between; a state that can't be used or written costs a full build, never a failed or wrong one.
final class IncrementalBuildTests: XCTestCase {
    var site: TempSite!
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    override func setUpWithError() throws {
        site = try TempSite()
        try site.write("blog.yml", """
        title: Cache Notes
        author: Ana Lima
        base_url: https://example.org/blog/
        paginate: 2
        """)
        for n in 1...7 {
            try site.write("content/posts/post-\(n).md", """
            title: Post number \(n)
            date: 2020-0\(n)-1\(n) 10:00
            tags: \(n % 2 == 0 ? "Swift; iOS" : "shell")
            \(n == 3 ? "summary: A summary of *three*." : "")

            The body of post \(n), with a [link](../post-\(n + 1)/).

            ## A heading

            More text.\(n == 5 ? "\n\n<!-- more -->\n\nAfter the fold." : "")
            """)
        }
        try site.write("content/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }

    override func tearDown() {
        site.remove()
    }

    @discardableResult
    func build(cache: Bool = true, output: String = "public", version: String = blogVersion, strict: Bool = false,
               quick: Bool = false, now: Date? = nil) throws -> BuildReport {
        // As a build from the command line starts well after a save (the process's start): a post changed in the clock's
        // tick in which the build starts counts as changed while it ran, and the build keeps no state. An in-process build
        // that may be done in place compiles no template first, so it starts within that tick.
        Thread.sleep(forTimeInterval: 0.02)
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent(output).path, now: now ?? self.now)
        // These tests are about the full build with the layer; QuickBuildTests are about the build in place.
        options.quick = quick
        options.cache = cache
        options.version = version
        options.strict = strict
        return try Pipeline.build(options)
    }

    /// The incremental output in `public/` is byte for byte a clean build's (no cache) of the same sources.
    func assertSameAsCleanBuild(version: String = blogVersion, file: StaticString = #filePath, line: UInt = #line) throws {
        try? FileManager.default.removeItem(at: site.root.appendingPathComponent("clean"))
        try build(cache: false, output: "clean", version: version)
        let incremental = site.snapshot("public"), clean = site.snapshot("clean")
        XCTAssertGreaterThan(clean.count, 20, file: file, line: line)
        XCTAssertEqual(incremental.keys.sorted(), clean.keys.sorted(), file: file, line: line)
        for (path, bytes) in clean where incremental[path] != bytes {
            XCTFail("\(path) differs from a clean build's", file: file, line: line)
        }
    }

    func edit(_ path: String, _ change: (String) -> String) throws {
        let text = try XCTUnwrap(site.read(path))
        try site.write(path, change(text))
    }

    func testSecondBuild() throws {
        let first = try build()
        XCTAssertEqual(first.cacheSummary, "full build")
        try build()
        try assertSameAsCleanBuild()
    }

    func testBodyEdit() throws {
        try build()
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "More text.", with: "Other *words*.") }
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/post-number-4/index.html")).contains("Other <em>words</em>."))
        try assertSameAsCleanBuild()
    }

    /// A build with the layer (its markers in every page and feed) and one with `--no-cache`
    /// (templates see the plain bodies) write the same bytes, also where a theme escapes or
    /// transforms the body.
    func testBuildsWithAndWithoutTheLayerWriteTheSameBytes() throws {
        try site.write("themes/default/templates/post.mustache", """
        {{#post}}<article>{{{html}}}</article><pre>{{html}}</pre><p>{{lowercased(html)}}</p>{{/post}}

        """)
        try edit("content/posts/post-4.md") { $0 + "\n\nSome <b>bold</b> & \"quoted\" text, [a link](../x/).\n" }
        let cached = try BlogCLI.run(["build", "--output", "cached"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(cached.status, 0, cached.stderr)
        let plain = try BlogCLI.run(["build", "--no-cache", "--output", "plain"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFolder.appendingPathComponent("state").path), "the build with the layer left a state")
        let withLayer = site.snapshot("cached"), without = site.snapshot("plain")
        XCTAssertGreaterThan(without.count, 20)
        XCTAssertEqual(withLayer.keys.sorted(), without.keys.sorted())
        for (path, bytes) in without where withLayer[path] != bytes {
            XCTFail("\(path) differs between the builds with and without the layer")
        }
        let page = try XCTUnwrap(site.read("plain/posts/post-number-4/index.html"))
        XCTAssertTrue(page.contains("<pre>&lt;p&gt;The body of post 4"), page)
        XCTAssertTrue(page.contains("<p>&lt;p&gt;the body of post 4"), page)
        for (path, bytes) in withLayer {
            XCTAssertNil(bytes.range(of: Data("\u{E000}".utf8)), "a marker was left in \(path)")
        }
    }

    func testTheSameBodyInAnotherDialectIsRenderedAgain() throws {
        // The body is the same; the header form, and so the dialect, is not: the header changed,
        // so the build is a full one, in the new dialect.
        try site.write("content/posts/post-2.md", "title: Two\ndate: 2020-02-12\n\n##Heading\n")
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/two/index.html")).contains("<h2 id=\"heading\">Heading</h2>"))
        try site.write("content/posts/post-2.md", "---\ntitle: Two\ndate: 2020-02-12\nslug: two\n---\n##Heading\n")
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/posts/two/index.html")).contains("<p>##Heading</p>"))
        try assertSameAsCleanBuild()
    }

    func testTitleEdit() throws {
        try build()
        try edit("content/posts/post-2.md") { $0.replacingOccurrences(of: "Post number 2", with: "A better title") }
        try build()
        try assertSameAsCleanBuild()
    }

    func testNewTag() throws {
        try build()
        try edit("content/posts/post-6.md") { $0.replacingOccurrences(of: "Swift; iOS", with: "Swift; iOS; Brand new") }
        try build()
        XCTAssertTrue(site.exists("public/tags/brand-new/index.html"))
        try assertSameAsCleanBuild()
    }

    func testDeletedPost() throws {
        try build()
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/post-3.md"))
        try build()
        XCTAssertFalse(site.exists("public/posts/post-number-3/index.html"))
        try assertSameAsCleanBuild()
    }

    func testNewPost() throws {
        try build()
        try site.write("content/posts/new.md", "title: Newest\ndate: 2021-01-01\ntags: shell, new\n\nFresh.\n")
        try build()
        try assertSameAsCleanBuild()
    }

    func testChangedTemplate() throws {
        try build()
        try site.write("themes/default/templates/post-summary.mustache", "<article class=\"changed\"><a href=\"{{url}}\">{{title}}</a>{{{summaryHTML}}}</article>\n")
        try build()
        XCTAssertTrue(try XCTUnwrap(site.read("public/index.html")).contains("class=\"changed\""))
        try assertSameAsCleanBuild()
    }

    func testChangedConfig() throws {
        try build()
        try edit("blog.yml") { $0.replacingOccurrences(of: "paginate: 2", with: "paginate: 3\ntimezone: Asia/Tokyo\ndate_format: \"%Y-%m-%d\"") }
        try build()
        try assertSameAsCleanBuild()
    }

    func testChangedVersionIgnoresTheState() throws {
        try build(version: "0.0.1-old")
        try build(version: "0.0.1-old")
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended.\n" }
        let report = try build(version: "9.9.9-new", quick: true)
        XCTAssertEqual(report.cacheSummary, "full build: no state of a previous build")
        try assertSameAsCleanBuild(version: "9.9.9-new")
        // The state now belongs to the new version.
        try edit("content/posts/post-4.md") { $0 + "\n\nAppended again.\n" }
        XCTAssertTrue(try build(version: "9.9.9-new", quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed") ?? false)
        try assertSameAsCleanBuild(version: "9.9.9-new")
    }

    /// Files checked out anew (new times, same bytes) are told from changed ones by their bytes.
    func testFreshModificationTimesStillBuildInPlace() throws {
        try build()
        try build()
        for path in site.files(under: "content") where path.hasSuffix(".md") {
            let url = site.root.appendingPathComponent("content/\(path)")
            let data = try Data(contentsOf: url)
            try FileManager.default.removeItem(at: url)
            try data.write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: url.path)
        }
        let report = try build(quick: true)
        XCTAssertEqual(report.cacheSummary, "quick build: 0 posts changed, 0 files patched in place")
        XCTAssertEqual(report.files.written, 0)
        try assertSameAsCleanBuild()
    }

    /// A full build through the layer with the pipeline's steps called here, as they are in a full build, but reading the
    /// posts without telling the layer (which reads each post file again for the state); `afterStart` runs once the
    /// layer has started, `whileFlushing` once the layer has the staged site, `afterWrite` once the site is published.
    func fullBuildOfItsOwn(afterStart: () throws -> Void = {}, whileFlushing: () -> Void = {}, afterWrite: () throws -> Void = {}) throws {
        var options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
        options.quick = false
        let config = try Pipeline.loadConfig(options).0
        let theme = try Theme.load(name: "default", siteRoot: options.source)
        let incremental = try IncrementalBuild(IncrementalRequest(
            config: config, theme: try ThemeFiles.read(name: "default", siteRoot: options.source), source: options.source,
            sourceDisplay: options.sourceDisplay, content: Pipeline.contentFolder(options, config: config).url, contentDisplay: "content",
            output: try Pipeline.outputFolder(options, config: config).0, outputDisplay: "public", drafts: false, future: false, now: now,
            version: blogVersion), enabled: true)
        try afterStart()
        var clock = StageClock()
        _ = try incremental.build(inPlace: false, warnings: [], strict: { _ in }, clock: &clock) { observer, clock in
            XCTAssertNotNil(observer.fileReads)
            let loaded = try Pipeline.loadSite(options, config: config, warnings: [], render: true, clock: &clock)
            let hook = observer.renderHook(for: loaded.site)
            let files = SiteRenderer.pages(loaded.site, theme: theme, hook: hook)
            let written = try SiteWriter.write(files, to: site.root.appendingPathComponent("public"), displayPath: "public") { staged in
                observer.staged(BuiltSite(site: loaded.site, posts: loaded.posts, inventory: loaded.inventory, files: files,
                                          warnings: loaded.warnings, dueAt: loaded.dueAt), in: staged)
                whileFlushing()
            }
            try afterWrite()
            return written
        }
    }

    /// A full build writes its state while the site is flushed, but it is the state only once the site is published:
    /// until then the last state's file (written over, its magic cleared) or the new file beside it is no state, and the
    /// output is the last site. The file is then the bytes `saveState` writes of the same state. A build that fails after
    /// the state was written leaves no state, and no file beside it.
    func testAFullBuildsStateWrittenWhileTheSiteFlushesIsTheStateOnlyOnceTheSiteIsPublished() throws {
        let folder = StateFolder(folder: cacheFolder, display: ".blog-cache", version: blogVersion)
        let page = site.root.appendingPathComponent("public/posts/post-number-4/index.html")
        let beside = cacheFolder.appendingPathComponent("state.new")
        for overLast in [false, true] {
            // With no state file the state is made anew beside its place; with the last build's, written over it.
            try build()
            if !overLast { try FileManager.default.removeItem(at: stateFile) }
            let before = try Data(contentsOf: page)
            try edit("content/posts/post-4.md") { $0 + "\n\nEdited \(overLast).\n" }
            var duringFlush: (state: SiteState?, page: Data?, beside: Bool)?
            try fullBuildOfItsOwn(whileFlushing: {
                duringFlush = (folder.loadState(), try? Data(contentsOf: page), FileManager.default.fileExists(atPath: beside.path))
            })
            let during = try XCTUnwrap(duringFlush)
            XCTAssertNil(during.state, "no state before the site it describes is published")
            XCTAssertEqual(during.page, before, "the output is the last site while the state is written")
            XCTAssertEqual(during.beside, !overLast)
            XCTAssertFalse(FileManager.default.fileExists(atPath: beside.path))
            let state = try XCTUnwrap(folder.loadState())
            XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).contains("Edited \(overLast)."))
            // The same bytes as the state saved whole, in a folder of its own.
            let other = StateFolder(folder: site.root.appendingPathComponent("other-cache"), display: "other-cache", version: blogVersion)
            other.saveState(state)
            let saved = try Data(contentsOf: other.stateURL)
            XCTAssertEqual(try Data(contentsOf: stateFile).prefix(saved.count), saved)
            // It describes the site published (the pages this build writes): a build in place takes it.
            XCTAssertEqual(try build(quick: true).cacheSummary, "quick build: 0 posts changed, 0 files patched in place")
        }
        // Failed once its state was written: none is left.
        for overLast in [false, true] {
            try build()
            if !overLast { try FileManager.default.removeItem(at: stateFile) }
            struct Late: Error {}
            XCTAssertThrowsError(try fullBuildOfItsOwn(afterWrite: { throw Late() }))
            XCTAssertNil(folder.loadState())
            XCTAssertFalse(FileManager.default.fileExists(atPath: beside.path))
            XCTAssertEqual(try build(quick: true).cacheSummary, "full build: no state of a previous build")
            try assertSameAsCleanBuild()
        }
    }

    /// A post file that changes while the build runs leaves no state: what the build read of it
    /// is unknown, so the next build is a full one.
    func testAPostChangedDuringTheBuildLeavesNoState() throws {
        try build()
        try fullBuildOfItsOwn(afterStart: {
            // Written after the layer started, as an editor saving while the build runs would.
            try edit("content/posts/post-4.md") { $0 + "\n\nSaved during the build.\n" }
        })
        XCTAssertNil(StateFolder(folder: cacheFolder, display: ".blog-cache", version: blogVersion).loadState())
        XCTAssertEqual(try build(quick: true).cacheSummary, "full build: no state of a previous build")
        try assertSameAsCleanBuild()
    }

    /// The state of each post file that a full build takes from the bytes it read the file from (see `PostFileReads`) is
    /// the state made by reading every file again, as a build without those facts does: for a post with Liquid (its body
    /// links elsewhere), one with an image (its rendered body does), a folder's README (read as its folder's post), a
    /// draft (no page) and the home page's `_index.md` (no post).
    func testTheStateOfEachPostFileIsTheSameFromTheBuildsReadsAsFromReadingItAgain() throws {
        try site.write("content/posts/liquid.md", "---\ntitle: Liquid\ndate: 2020-08-01\n---\n\nSee {{ site.title }}.\n")
        try site.write("content/posts/picture.md", "title: Picture\ndate: 2020-08-02\n\n![A picture](../images/pic.svg)\n")
        try site.write("content/trip/README.md", "title: Trip notes\ndate: 2020-09-01\n\nA trip.\n")
        try site.write("content/posts/draft.md", "title: Draft\ndate: 2020-08-03\nstatus: draft\n\nNot yet.\n")
        try site.write("content/_index.md", "title: Home\n\nThe home page.\n")
        try build()
        let folder = StateFolder(folder: cacheFolder, display: ".blog-cache", version: blogVersion)
        let fromReads = try XCTUnwrap(folder.loadState()).posts
        // The same site, its state made with no facts from the reading.
        try fullBuildOfItsOwn()
        let readAgain = try XCTUnwrap(folder.loadState()).posts
        XCTAssertEqual(fromReads.count, 12)
        XCTAssertEqual(fromReads.map(\.path), readAgain.map(\.path))
        for (read, again) in zip(fromReads, readAgain) {
            XCTAssertEqual(read.stat, again.stat, read.path)
            XCTAssertEqual(read.content, again.content, read.path)
            XCTAssertEqual(read.skeleton, again.skeleton, read.path)
            XCTAssertEqual(read.index, again.index, read.path)
            XCTAssertEqual(read.patchable, again.patchable, read.path)
        }
        let patchable = Dictionary(uniqueKeysWithValues: fromReads.map { ($0.path, $0.patchable) })
        XCTAssertEqual(patchable["posts/liquid.md"], false)
        XCTAssertEqual(patchable["posts/picture.md"], false)
        XCTAssertEqual(patchable["posts/post-1.md"], true)
        XCTAssertEqual(fromReads.first { $0.path == "_index.md" }?.skeleton, .zero)
    }

    /// Whether a post's rendered body or summary links elsewhere (an image, a Pelican reference left as written) is what
    /// the markdown stage found as it rewrote the links (``BodyText/linksElsewhere``), the same as looking for them in
    /// the body and summary as rendered: images in markdown, in raw HTML, only in the summary; references resolved (the
    /// address left holds none), left unresolved, only in the summary.
    func testWhetherARenderedPostLinksElsewhereIsWhatTheMarkdownStageFound() throws {
        try site.write("content/posts/picture.md", "title: Picture\ndate: 2020-08-02\n\n![A picture](../images/pic.svg)\n")
        try site.write("content/posts/raw.md", "title: Raw\ndate: 2020-08-03\n\nText.\n\n<div><img src=\"/x.png\"></div>\n")
        try site.write("content/posts/summary-picture.md",
                       "title: Summary picture\ndate: 2020-08-04\nsummary: See ![it](../images/pic.svg).\n\nNo picture here.\n")
        try site.write("content/posts/resolved.md", "title: Resolved\ndate: 2020-08-05\n\nSee [one]({filename}post-1.md).\n")
        try site.write("content/posts/unresolved.md", "title: Unresolved\ndate: 2020-08-06\n\nSee [none]({filename}nothing.md).\n")
        try site.write("content/posts/summary-reference.md",
                       "title: Summary reference\ndate: 2020-08-07\nsummary: See [none]({static}gone.png).\n\nPlain.\n")
        try site.write("content/posts/text.md", "title: Text\ndate: 2020-08-08\n\nAn {attached} word and a <em>tag</em>.\n")
        let options = BuildOptions(source: site.root.path, output: site.root.appendingPathComponent("public").path, now: now)
        let (built, _) = try Pipeline.loadSite(options)
        var found: [String: Bool] = [:]
        for item in built.posts {
            let stage = try XCTUnwrap(item.rendered.text?.linksElsewhere, item.post.contentPath)
            XCTAssertEqual(stage, SiteState.searchedLinksElsewhere(item.rendered), item.post.contentPath)
            XCTAssertEqual(SiteState.renderedLinksElsewhere(item.rendered), stage, item.post.contentPath)
            found[item.post.contentPath] = stage
        }
        XCTAssertEqual(found["posts/picture.md"], true)
        XCTAssertEqual(found["posts/raw.md"], true)
        XCTAssertEqual(found["posts/summary-picture.md"], true)
        XCTAssertEqual(found["posts/resolved.md"], false)
        XCTAssertEqual(found["posts/unresolved.md"], true)
        XCTAssertEqual(found["posts/summary-reference.md"], true)
        // The reference test is a "may": a marker after a brace is enough.
        XCTAssertEqual(found["posts/text.md"], true)
        XCTAssertEqual(found["posts/post-1.md"], false)
    }

    // MARK: - Bad states

    var cacheFolder: URL { site.root.appendingPathComponent(".blog-cache") }
    var stateFile: URL { cacheFolder.appendingPathComponent("state") }

    /// A state that can't be used is no state: the build is a full one, without a warning, and
    /// leaves a good state for the next.
    func assertIgnored(file: StaticString = #filePath, line: UInt = #line) throws {
        try edit("content/posts/post-1.md") { $0 + "\nMore.\n" }
        let report = try build(quick: true)
        XCTAssertEqual(report.cacheSummary, "full build: no state of a previous build", file: file, line: line)
        XCTAssertTrue(report.warnings.isEmpty, file: file, line: line)
        try assertSameAsCleanBuild(file: file, line: line)
        try edit("content/posts/post-1.md") { $0 + "\nAnd more.\n" }
        XCTAssertTrue(try build(quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed, ") ?? false, file: file, line: line)
        try assertSameAsCleanBuild(file: file, line: line)
    }

    /// Each build writes its state over the last one's file (freeing its blocks costs time on a file
    /// system mounted with `discard`); a state cleared before the site changes is no state, one shorter
    /// than the file's bytes is read by its length, and a state file linked elsewhere or a symbolic link
    /// is replaced, never written through.
    func testTheStateIsWrittenOverTheLastOneAndClearedBeforeTheSiteChanges() throws {
        func inode() throws -> UInt64 {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: stateFile.path)[.systemFileNumber] as? UInt64)
        }
        try build()
        try build()
        let first = try inode()
        try edit("content/posts/post-4.md") { $0 + "\n\nA paragraph.\n" }
        XCTAssertTrue(try build(quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed") ?? false)
        XCTAssertEqual(try inode(), first, "a build in place writes its state over the last one")
        try edit("content/posts/post-4.md") { $0.replacingOccurrences(of: "title: Post number 4", with: "title: Renamed") }
        assertRebuilt(try build(quick: true), because: "changed")
        XCTAssertEqual(try inode(), first, "so does a full build")
        try assertSameAsCleanBuild()
        // What a build leaves when it is stopped after the site began to change: no state.
        let folder = StateFolder(folder: cacheFolder, display: ".blog-cache", version: blogVersion)
        let kept = try Data(contentsOf: stateFile)
        folder.dropState()
        XCTAssertEqual(try inode(), first)
        XCTAssertNil(folder.loadState())
        // A state followed by what is left of a longer one is read by its length.
        try (kept + Data(repeating: 0x5a, count: 5000)).write(to: stateFile)
        XCTAssertNotNil(folder.loadState())
        try edit("content/posts/post-2.md") { $0 + "\n\nAnother paragraph.\n" }
        XCTAssertTrue(try build(quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed") ?? false)
        try assertSameAsCleanBuild()
        // A state file with another link to it: replaced, the other link's bytes left as they were.
        let elsewhere = site.root.appendingPathComponent("elsewhere")
        try FileManager.default.linkItem(at: stateFile, to: elsewhere)
        let linked = try Data(contentsOf: elsewhere)
        try edit("content/posts/post-2.md") { $0 + "\n\nOne more.\n" }
        XCTAssertTrue(try build(quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed") ?? false)
        XCTAssertEqual(try Data(contentsOf: elsewhere), linked)
        XCTAssertNotEqual(try inode(), first)
        try assertSameAsCleanBuild()
        // A symbolic link where the state belongs: replaced by a file, what it points to left as it was.
        try FileManager.default.removeItem(at: stateFile)
        try FileManager.default.createSymbolicLink(at: stateFile, withDestinationURL: elsewhere)
        try edit("content/posts/post-2.md") { $0 + "\n\nAnd one more.\n" }
        XCTAssertEqual(try build(quick: true).cacheSummary, "full build: no state of a previous build")
        XCTAssertEqual(try Data(contentsOf: elsewhere), linked)
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: stateFile.path))
        try edit("content/posts/post-2.md") { $0 + "\n\nThe last one.\n" }
        XCTAssertTrue(try build(quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed") ?? false)
        try assertSameAsCleanBuild()
    }

    func testTruncatedState() throws {
        try build()
        try build()
        let data = try Data(contentsOf: stateFile)
        try data.prefix(data.count / 2).write(to: stateFile)
        try assertIgnored()
    }

    /// A build with `--no-cache` drops the state about the output it replaces, read from the state's head alone: also
    /// a state cut short after its head (no state to a build with the cache either). One about another output, and
    /// one cut inside its head, are left as they are.
    func testNoCacheBuildDropsAStateCutShortAboutItsOutput() throws {
        try build()
        let whole = try Data(contentsOf: stateFile)
        let folder = StateFolder(folder: cacheFolder, display: ".blog-cache", version: blogVersion)
        let head = try XCTUnwrap(folder.stateHead())
        XCTAssertEqual(head.output, PathSafety.resolved(site.root.appendingPathComponent("public")))
        XCTAssertEqual(head.inputs, folder.loadState()?.inputs)
        let cut = whole.prefix(whole.count / 2)
        func magic() throws -> Data { try Data(contentsOf: stateFile).prefix(StateFolder.magic.count) }
        // About another output: left.
        try cut.write(to: stateFile)
        XCTAssertNil(folder.loadState())
        try build(cache: false, output: "other")
        XCTAssertEqual(try Data(contentsOf: stateFile), cut)
        // About this output: dropped.
        try build(cache: false)
        XCTAssertEqual(try magic(), Data(count: StateFolder.magic.count))
        // Cut inside its head (the output's path): left, as nothing says what it is about.
        let inHead = whole.prefix(StateFolder.magic.count + 12)
        try inHead.write(to: stateFile)
        XCTAssertNil(folder.stateHead())
        try build(cache: false)
        XCTAssertEqual(try Data(contentsOf: stateFile), inHead)
        // A whole state about this output: dropped, and the next build with the cache is a full one.
        try whole.write(to: stateFile)
        try build(cache: false)
        XCTAssertEqual(try magic(), Data(count: StateFolder.magic.count))
        XCTAssertEqual(try build(quick: true).cacheSummary, "full build: no state of a previous build")
        try assertSameAsCleanBuild()
    }

    func testGarbageState() throws {
        try build()
        try build()
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: stateFile)
        try assertIgnored()
    }

    func testDamagedState() throws {
        try build()
        try build()
        var data = try Data(contentsOf: stateFile)
        for offset in stride(from: 100, to: data.count, by: 97) { data[offset] ^= 0x5a }
        try data.write(to: stateFile)
        try assertIgnored()
    }

    /// The state of a build that can't be written costs the next build time, and a warning: the
    /// build lock is held elsewhere (see SecurityOutputTests).
    func testCacheFolderThatCantBeWritten() throws {
        // Tests run as root in CI, where permissions don't stop a write: a file where the folder should be does.
        try site.write(".blog-cache", "not a folder")
        XCTAssertEqual(try build().warnings.map(\.message).map { $0.hasPrefix("cannot hold the build lock") }, [true])
        XCTAssertEqual(try build(quick: true).cacheSummary, "full build: no state of a previous build")
        try assertSameAsCleanBuild()
    }

    func testTimingsSayWhetherTheBuildWasDoneInPlace() throws {
        let first = try BlogCLI.run(["build", "--strict", "--timings"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("cache: full build: no state of a previous build\n"), first.stdout)
        let again = try BlogCLI.run(["build", "--strict", "--timings"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
        // Nothing changed: the second build is done in place (QuickBuild), from the first one's state.
        XCTAssertTrue(again.stdout.contains("cache: quick build: 0 posts changed"), again.stdout)
        let plain = try BlogCLI.run(["build", "--no-cache", "--timings"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(plain.stdout.contains("cache:"), plain.stdout)
        try assertSameAsCleanBuild()
    }

    /// A README alone in its folder is the folder's post; once another post joins it, it is an
    /// ordinary post: the README, unchanged, is read again rather than taken from the cache.
    func testAReadmeThatGainsASiblingIsReadAgain() throws {
        try site.write("content/trip/README.md", "title: Trip notes\ndate: 2020-09-01\n\nA [map](map.svg).\n")
        try site.write("content/trip/map.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        try build()
        XCTAssertNotNil(site.read("public/posts/trip/index.html"), "named by its folder: \(site.files(under: "public"))")
        XCTAssertNotNil(site.read("public/posts/trip/map.svg"))
        try site.write("content/trip/day-2.md", "title: Day 2\ndate: 2020-09-02\n\nMore.\n")
        try build()
        XCTAssertNotNil(site.read("public/posts/trip-notes/index.html"), "named by its Pelican title, as a loose file: \(site.files(under: "public"))")
        XCTAssertNotNil(site.read("public/trip/map.svg"))
        try assertSameAsCleanBuild()
    }

    func testNoCacheFlagNeitherReadsNorWrites() throws {
        let result = try BlogCLI.run(["build", "--no-cache"], in: site.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFolder.path))
    }

    func testCacheFolderInsideTheOutputIsRefused() throws {
        try edit("blog.yml") { $0 + "\ncache_dir: public/.cache\n" }
        let diagnostics = buildFailure { try build(output: "public") }
        XCTAssertEqual(diagnostics.map(\.message), ["refusing `cache_dir: public/.cache`: it is inside the output folder, which every build replaces; choose a folder of its own such as .blog-cache"])
    }

    // MARK: - Digests

    func testDigestKnownValues() {
        XCTAssertEqual(Digest.of([UInt8]()).description, "00000000000000000000000000000000")
        XCTAssertNotEqual(Digest.of("a"), Digest.of("b"))
        XCTAssertNotEqual(Digest.of(String(repeating: "x", count: 31)), Digest.of(String(repeating: "x", count: 32)))
    }

    /// Bytes digested part after part (the state file as it is written) give the digest of them all at
    /// once, however they are cut: parts shorter than a block, longer, ending inside one, empty.
    func testRunningDigestIsTheDigestOfTheWhole() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        for length in [0, 1, 8, 9, 15, 16, 17, 33, 300] {
            let whole = Digest.of(Array(bytes[..<length]))
            for cut in [1, 3, 7, 16, 17, 40] {
                var running = Digest.Running()
                var start = 0
                while start < length {
                    let end = min(length, start + cut)
                    bytes[start..<end].withUnsafeBytes { running.add($0) }
                    if start == 0 { running.add(UnsafeRawBufferPointer(start: nil, count: 0)) }
                    start = end
                }
                XCTAssertEqual(running.digest, whole, "\(length) bytes in parts of \(cut)")
            }
        }
    }

    /// A build in place writes over the state file it read only what it changed (the changed posts' and files' records,
    /// the fields around them): the file then holds the bytes of the whole state written anew. When a part would change
    /// its length (a warning more), the whole state is written, as before.
    func testABuildInPlaceWritesOverTheStateOnlyWhatItChanged() throws {
        let folder = StateFolder(folder: cacheFolder, display: ".blog-cache", version: blogVersion)
        func encoded(_ state: SiteState) -> [UInt8] {
            var bytes: [UInt8] = []
            var out = StateWriter(chunk: 64) { bytes.append(contentsOf: $0) }
            state.encode(into: &out)
            out.flush()
            return bytes
        }
        func body() throws -> [UInt8] {
            try folder.unwrap(try Data(contentsOf: stateFile)) { Array($0) }
        }
        func read() throws -> (SiteState, StateFolder.LoadedBytes) {
            let data = try Data(contentsOf: stateFile)
            var layout: StateLayout?
            let state = try folder.unwrap(data) { try SiteState(decoding: $0, recording: true, layout: &layout) }
            return (state, StateFolder.LoadedBytes(file: data, layout: try XCTUnwrap(layout)))
        }
        try build()
        try build()
        // What a build in place changes: a post's file status and content, a page's identity and holes, the spare's fields.
        var (state, bytes) = try read()
        let page = try XCTUnwrap(state.outputs.indices.first { state.outputs[$0].holes.count > 1 })
        state.posts[2].stat = FileStat(device: 1, inode: 2, size: 3, mtime: 4, ctime: 5)
        state.posts[2].content = Digest.of("another body")
        state.outputs[page].identity = FileStat(device: 6, inode: 7, size: 8, mtime: 9, ctime: 10)
        state.outputs[page].holes[1].length += 11
        state.outputs[page].holes[1].offset += 12
        state.spareSamePaths = true
        state.spareDiffers = [page, 0, 3]
        XCTAssertTrue(folder.saveState(state, over: bytes, posts: [2], outputs: [page]), "written over the file's parts")
        XCTAssertEqual(try body(), encoded(state))
        // Written again over what it wrote, with the spare's fields shorter.
        (state, bytes) = try read()
        state.posts[5].stat = FileStat(device: 13, inode: 14, size: 15, mtime: 16, ctime: 17)
        state.spareDiffers = []
        XCTAssertTrue(folder.saveState(state, over: bytes, posts: [5], outputs: []))
        XCTAssertEqual(try body(), encoded(state))
        // A warning more: the whole state.
        (state, bytes) = try read()
        state.warnings.append(.warning("content/posts/post-1.md", "a warning"))
        XCTAssertFalse(folder.saveState(state, over: bytes, posts: [], outputs: []))
        XCTAssertEqual(try body(), encoded(state))
        XCTAssertNotNil(folder.loadState())

        // Builds in place from the command line read the state file (in this process the state it saved is kept, unless
        // the file's times moved): each writes its parts over it, and the next one reads what it wrote.
        try build()
        for round in 1...3 {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(round))], ofItemAtPath: stateFile.path)
            try edit("content/posts/post-\(round + 1).md") { $0 + "\n\nRound \(round).\n" }
            XCTAssertTrue(try build(quick: true).cacheSummary?.hasPrefix("quick build: 1 post changed") ?? false)
            let saved = try XCTUnwrap(folder.load())
            XCTAssertTrue(saved.savedHere)
            XCTAssertEqual(try body(), encoded(saved.state))
            try assertSameAsCleanBuild()
        }
    }

    /// The state is written through a buffer of a few bytes, handed on as it fills: what comes out
    /// is every field in order, a field longer than the buffer whole.
    func testStateWriterHandsOnEveryByteInOrder() throws {
        var parts: [[UInt8]] = []
        var writer = StateWriter(chunk: 8) { parts.append(Array($0)) }
        writer.int(1)
        writer.string("a path longer than the buffer")
        writer.bool(true)
        writer.digest(Digest(high: 2, low: 3))
        writer.flush()
        // The count; the string's length; the string, for which the buffer grew; the flag and the digest.
        XCTAssertEqual(parts.map(\.count), [8, 8, 29, 1 + 16], "cut where the buffer filled")
        let bytes = parts.flatMap { $0 }
        try bytes.withUnsafeBytes { raw in
            var reader = StateReader(raw: raw)
            XCTAssertEqual(try reader.int(), 1)
            XCTAssertEqual(try reader.string(), "a path longer than the buffer")
            XCTAssertEqual(try reader.bool(), true)
            XCTAssertEqual(try reader.digest(), Digest(high: 2, low: 3))
            XCTAssertTrue(reader.atEnd)
        }
    }

    func testTemplateNames() {
        let names = TemplateTags.names(in: "{{! x }}{{#post}}{{title}}{{{html}}}{{/post}}{{>post-meta}}{{^empty(tags)}}{{.}}{{/empty(tags)}}{{<base}}{{$content}}{{page.url}}{{/content}}{{/base}}")
        // A closing tag names what it closes (`base` here): a name too many is harmless.
        XCTAssertEqual(names, ["post", "title", "html", "empty", "tags", "content", "page", "url", "base"])
        XCTAssertNil(TemplateTags.names(in: "{{=<% %>=}}<% x %>"))
        XCTAssertNil(TemplateTags.names(in: "{{>*dynamic}}"))
    }
}
