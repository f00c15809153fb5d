import BlogConfig
import BlogContent
import BlogCore
import BlogMarkdown
import BlogOutput
import BlogRender
import BlogSite
import Foundation

/// `blog build` when the last build left its state (see ``SiteState``) and since then only post
/// bodies changed: the new bodies are put into the published pages and feeds where the old ones
/// were, and nothing else is read, rendered or written.
///
/// It applies when, compared with the last build:
/// - the `blog` version, `blog.yml`, the command's options, the theme and the output folder are
///   the same, and no post has fallen due since;
/// - the content folder has the same files, and only post files changed (by size and times);
/// - each changed post has the same header, summary and headings (whatever lists, tags, feeds
///   and other pages show of it), and neither its old nor its new body has links that depend on
///   other posts (Liquid tags in YAML and TOML posts, Pelican's `{filename}` links), and no
///   template transforms its body;
/// - every published file is the one the last build wrote (same inode, size and time); when the output folder
///   is the process's own and it saved the state (`blog serve`'s private folder: `trustsOutput`), that is
///   trusted, not looked at.
///
/// Otherwise the build is a full one, which writes a new state. The output in place is then byte
/// for byte what a full build makes: the pages were rendered with markers where bodies go (see
/// ``BodyHoles``), so a body's place in a page never depends on the body.
enum QuickBuild {
    /// Why a build can't be done in place (`blog build --timings` prints it).
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The report of a build done in place, with `warnings` (the configuration's) and the posts';
    /// throws ``Refusal`` when a full build is needed, and what `strict` throws (given every
    /// warning) when the build fails. A file or folder changed since `changedSince` (nanoseconds
    /// since 1970, when the build started) is recorded as unknown: a change in the same tick of
    /// the kernel's clock would leave its times as they are. `digests` are the request's; with `trustsOutput`
    /// the published files are taken to be the ones the state says.
    static func attempt(_ request: IncrementalRequest, digests: RequestDigests, trustsOutput: Bool, warnings configWarnings: [Diagnostic],
                        strict: ([Diagnostic]) throws -> Void, folder: StateFolder, state: SiteState?, bytes: StateFolder.LoadedBytes? = nil, changedSince: Int64,
                        clock: inout StageClock) throws -> InPlaceReport {
        guard var state else { throw Refusal("no state of a previous build") }
        clock.lap("quick: load state")
        guard state.inputs == digests.inputs else {
            throw Refusal("blog.yml, the options, the theme or the blog version changed")
        }
        // A quick build patches bodies into pages: the copies of the posts' own files would stay as they were.
        if request.config.outputSources { throw Refusal("`output_sources` copies each post's file, which a quick build does not write") }
        if let due = state.dueAt, request.now.timeIntervalSince1970 >= due { throw Refusal("a post dated in the future is due") }
        let (config, output, outputDisplay) = (request.config, request.output, request.outputDisplay)
        let (contentDir, contentDisplay) = (request.content, request.contentDisplay)
        // While no folder of the content changed, it holds the same files: the scan is skipped.
        let folderStats = state.folders.map { folders in folders.map { FileStat.of($0.path) } }
        let sameFolders = state.folders.map { folders in zip(folders, folderStats!).allSatisfy { $0.stat == $1 } } ?? false
        let postPaths = state.posts.map(\.path)
        if !sameFolders {
            guard let inventory = try? ContentScanner.scan(contentDir, displayPath: contentDisplay, blogFolder: request.source),
                  inventory.posts == postPaths, inventory.assets == state.assets.map(\.path) else {
                throw Refusal("files were added to or removed from \(contentDisplay)")
            }
            // What the scan skips (a link out of the blog folder, a name that is not UTF-8) is a warning the last
            // build must have given too.
            guard Set(inventory.warnings).isSubset(of: Set(state.warnings)) else {
                throw Refusal("\(contentDisplay) has an entry the last build did not skip")
            }
            // An editor that saves by writing a new file and renaming it over the post changes its folder's
            // times: the folders as they were before this scan are what the next build compares with.
            if let known = state.folders, inventory.warnings.isEmpty, inventory.folders == known.map(\.path),
               case let stats = folderStats!.compactMap({ $0 }), stats.count == known.count, stats.allSatisfy({ $0.ctime < changedSince }) {
                state.folders = zip(known, stats).map { FileState(path: $0.path, stat: $1) }
            }
        }
        let contentPath = contentDir.path
        let postStats = FileStat.of(postPaths, in: contentPath)
        let assetStats = FileStat.of(state.assets.map(\.path), in: contentPath)
        guard zip(assetStats, state.assets).allSatisfy({ $0 == $1.stat }) else { throw Refusal("a file that is not a post changed") }
        let touched = state.posts.indices.filter { postStats[$0] != state.posts[$0].stat }
        clock.lap("quick: scan content")

        // Read what changed; give up at the first change that is more than a body.
        // The state's inputs are this build's: its theme files are the ones the state's skeletons were digested with.
        let headings = state.headings
        let readerKey = digests.readerKey
        let bundles = PageBundle.Folders(posts: postPaths)
        typealias Changed = (content: Digest, post: Post?, rendered: RenderedMarkdown?, warnings: [Diagnostic])
        let read = Parallel.map(touched.count) { number -> Result<Changed, Refusal> in
            let old = state.posts[touched[number]]
            let source = contentDisplay + "/" + old.path
            guard let data = try? PostReader.contents(of: contentDir.appendingPathComponent(old.path), source: source) else {
                return .failure(Refusal("\(source) can't be read, or is over the size of a post"))
            }
            let content = Digest.of(data)
            if content == old.content { return .success((content, nil, nil, [])) }
            guard old.patchable else { return .failure(Refusal("\(source) had links to other posts or images, or a template transforms its body")) }
            let bundle = bundles.contains(old.path)
            guard !(SiteBuilder.isSectionIndex(old.path) && !old.path.contains("/")),
                  let (post, warnings) = try? PostReader.read(data: data, source: source, contentPath: old.path, bundle: bundle,
                                                              timeZone: config.timeZone)
            else { return .failure(Refusal("\(source) has an error")) }
            let bare = SiteState.digest(of: post, file: data, readerKey: SiteState.postKey(readerKey, bundle: bundle))
            guard old.index != nil else {
                return SiteState.digest(unplaced: bare) == old.skeleton ? .success((content, post, nil, warnings))
                    : .failure(Refusal("the header of \(source) changed"))
            }
            let rendered = MarkdownRenderer.render(body: post.body, summary: post.summary,
                                                   options: config.markdownOptions(for: post))
            if SiteState.linksElsewhere(post, rendered) { return .failure(Refusal("\(source) has links to other posts or images")) }
            guard SiteState.digest(post: bare, rendered: rendered, headings: headings, wordsPerMinute: config.wordsPerMinute) == old.skeleton else {
                return .failure(Refusal("the header, summary or headings of \(source) changed"))
            }
            return .success((content, post, rendered, warnings + rendered.diagnostics(path: post.source, bodyLine: post.bodyLine)))
        }
        let changes = try read.map { try $0.get() }
        clock.lap("quick: read changed posts")

        // Every published file must be the one the last build wrote.
        let outputPath = output.path
        if !trustsOutput, let number = state.firstReplacedOutput(in: output) {
            throw Refusal("\(outputDisplay)/\(state.outputs[number].path) is not the file the last build wrote")
        }

        // The new bodies, by index into the site's posts, and the pages and feeds that show them.
        var bodies: [Int: String] = [:]
        var changedSources = Set<String>()
        var newWarnings: [Diagnostic] = []
        for (number, (content, post, rendered, warnings)) in zip(touched, changes) {
            // A stat that can't tell a later change in the same tick is one the next build never matches.
            state.posts[number].stat = postStats[number].flatMap { $0.ctime < changedSince ? $0 : nil } ?? FileStat.unknown
            guard let post else { continue }
            state.posts[number].content = content
            changedSources.insert(post.source)
            newWarnings += warnings
            if let index = state.posts[number].index, let rendered { bodies[index] = rendered.html }
        }
        let affected = state.outputs.indices.filter { state.outputs[$0].holes.contains { bodies[$0.post] != nil } }
        var patched: [String: Data] = [:]
        for number in affected {
            let file = state.outputs[number]
            guard let old = try? Data(contentsOf: URL(fileURLWithPath: outputPath + "/" + file.path)),
                  old.count == Int(file.identity.size) else { throw Refusal("\(outputDisplay)/\(file.path) can't be read") }
            var bytes = Data()
            bytes.reserveCapacity(old.count + 4096)
            var holes: [BodyHole] = []
            var copied = 0
            for hole in file.holes.sorted(by: { $0.offset < $1.offset }) {
                guard hole.offset >= copied, hole.offset + hole.length <= old.count else { throw Refusal("the state does not fit \(file.path)") }
                bytes.append(old[copied..<hole.offset])
                let start = bytes.count
                if let body = bodies[hole.post] {
                    bytes.append(contentsOf: hole.form.apply(body).utf8)
                } else {
                    bytes.append(old[hole.offset..<hole.offset + hole.length])
                }
                holes.append(BodyHole(post: hole.post, offset: start, length: bytes.count - start, form: hole.form))
                copied = hole.offset + hole.length
            }
            bytes.append(old[copied...])
            patched[file.path] = bytes
            state.outputs[number].holes = holes
        }
        clock.lap("quick: patch pages")

        // The last build's warnings, but the changed posts' (which are read again) and the
        // configuration's (made again). Notes are about the site model, which only a header
        // change (a full build) changes: they stay.
        let warnings = (configWarnings + state.warnings.filter { $0.severity == .note || !changedSources.contains($0.path) } + newWarnings).sortedForDisplay()
        try strict(warnings)

        var written = WriteReport(written: 0, unchanged: state.outputs.count)
        if !patched.isEmpty {
            folder.dropState()
            let spareDiffers = state.spareSamePaths ? state.spareDiffers.map { $0.map { state.outputs[$0].path } } : nil
            guard let report = SiteWriter.patch(output: output, paths: state.outputs.map(\.path), changed: patched,
                                                spareSamePaths: state.spareSamePaths, spareDiffers: spareDiffers) else {
                throw Refusal("the copy of the site beside \(outputDisplay) can't be made or updated")
            }
            written = report
            for number in affected {
                guard let identity = FileStat.of(outputPath + "/" + state.outputs[number].path, followingLinks: false) else {
                    throw Refusal("\(state.outputs[number].path) vanished")
                }
                state.outputs[number].identity = identity
            }
            state.spareSamePaths = true
            // The published site before this build is now the spare: it differs in the files patched.
            state.spareDiffers = affected
        }
        clock.lap("quick: write")
        state.warnings = keptWarnings(warnings, configWarnings: configWarnings, request: request)
        // Only the changed posts' and files' records (and the fields around them) are written over the state read.
        if let bytes { folder.saveState(state, over: bytes, posts: touched, outputs: affected) } else { folder.saveState(state) }
        clock.lap("save state")
        return InPlaceReport(posts: state.postCount, contentPages: state.contentPageCount, leftOut: state.leftOut, tags: state.tagCount, pages: state.pageCount, files: written, warnings: warnings,
                             summary: "quick build: \(changedSources.count) post\(changedSources.count == 1 ? "" : "s") changed, \(patched.count) file\(patched.count == 1 ? "" : "s") patched in place")
    }

    /// What the theme's templates may show of posts' bodies besides the bodies (then it is part of a
    /// post's skeleton): all of it when a template's names can't be known.
    static func showsHeadings(_ theme: ThemeFiles) -> BodyFacts {
        guard let names = theme.templateNames else { return .all }
        var facts: BodyFacts = []
        for (fact, named) in BodyFacts.names where !names.isDisjoint(with: named) { facts.insert(fact) }
        return facts
    }

    /// `warnings` without those every build makes again, which the state does not keep: the configuration's,
    /// the theme's files' and the build lock's (`configWarnings`, and any at one of ``configWarningPaths(_:)``). The
    /// warnings of compiling the theme's templates are kept: a build in place compiles none.
    static func keptWarnings(_ warnings: [Diagnostic], configWarnings: [Diagnostic], request: IncrementalRequest) -> [Diagnostic] {
        let again = Set(configWarnings), paths = configWarningPaths(request)
        return warnings.filter { !again.contains($0) && !paths.contains($0.path) }
    }

    /// Paths of the warnings that the configuration and the build lock give (made again by every build).
    static func configWarningPaths(_ request: IncrementalRequest) -> Set<String> {
        [request.sourceDisplay + "blog.yml", "--base-url",
         BlogFolder(url: request.source, display: request.sourceDisplay).resolve(request.config.cacheDir).display]
    }

    /// Everything besides the content folder that a site depends on: the `blog` version and its
    /// reading rules, the configuration (command-line overrides included), the options, the
    /// output folder and every file of the theme. `config`: the configuration's ``BlogConfig/SiteConfig/digest``.
    static func inputs(_ request: IncrementalRequest, config: Digest) -> Digest {
        let theme = request.theme
        var input = DigestInput()
        input.add(request.version)
        input.add(PostReader.rulesRevision)
        input.add(config)
        // Messages name files as the blog folder was named on the command line.
        input.add(request.sourceDisplay)
        input.add(request.drafts ? 1 as UInt8 : 0)
        input.add(request.future ? 1 as UInt8 : 0)
        input.add(PathSafety.resolved(request.output))
        input.add(theme.name)
        for (name, text) in theme.templateTexts.sorted(by: { $0.key < $1.key }) {
            input.add(name)
            input.add(text)
        }
        for (name, text) in theme.shortcodeTexts.sorted(by: { $0.key < $1.key }) {
            input.add("shortcodes/" + name)
            input.add(text)
        }
        for file in theme.staticFiles {
            input.add(file.path)
            switch file.contents {
            case .bytes(let data): input.add(Digest.of(data))
            case .copy(let url):
                let stat = FileStat.of(url.path)
                input.add(Int(stat?.inode ?? 0))
                input.add(Int(stat?.size ?? -1))
                input.add(Int(stat?.mtime ?? 0))
                input.add(Int(stat?.ctime ?? 0))
            default: input.add(0 as UInt8)
            }
        }
        return input.digest
    }
}
