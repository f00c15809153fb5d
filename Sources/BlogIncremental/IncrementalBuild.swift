import BlogConfig
import BlogContent
import BlogCore
import BlogOutput
import BlogRender
import BlogSite
import Foundation

/// What the incremental layer needs to know of a build: plain values the pipeline has made.
package struct IncrementalRequest {
    /// `blog.yml`, with the command line's overrides.
    package var config: SiteConfig
    /// The theme's files as read (part of what the state depends on); a build in place compiles no template.
    package var theme: ThemeFiles
    /// The blog folder, and how messages name it (`""` or `path/`).
    package var source: URL
    package var sourceDisplay: String
    /// The content folder, and how messages name it.
    package var content: URL
    package var contentDisplay: String
    /// The output folder, and how messages name it.
    package var output: URL
    package var outputDisplay: String
    /// `--drafts`: drafts are in the site.
    package var drafts: Bool
    /// `--future`: posts dated after `now` are in the site.
    package var future: Bool
    /// The build's "now".
    package var now: Date
    /// The `blog` version: a state of another version is not used.
    package var version: String
    /// Whether the process builds again after this build (`blog serve`): it then keeps the posts'
    /// rendered markdown for the next build (see ``BuildMemo``).
    package var buildsAgain: Bool
    /// Whether the output folder and the state's folder are the process's own (`blog serve`'s private folder), which
    /// nothing but its builds writes: a build then trusts the state this process saved about the published files
    /// instead of looking at each (see ``IncrementalBuild/build(inPlace:warnings:strict:clock:full:)``).
    package var ownsOutput: Bool
    /// When `blog serve`'s watcher closed the list of changes this build is given (see ``BuildMemo``), by the clock
    /// that dates file changes: the build may take what it read of a file before then.
    package var changesBefore: Int64?

    /// The request of a build; each value as its property says.
    package init(config: SiteConfig, theme: ThemeFiles, source: URL, sourceDisplay: String, content: URL, contentDisplay: String,
                 output: URL, outputDisplay: String, drafts: Bool, future: Bool, now: Date, version: String, buildsAgain: Bool = false,
                 ownsOutput: Bool = false, changesBefore: Int64? = nil) {
        self.buildsAgain = buildsAgain
        self.ownsOutput = ownsOutput
        self.changesBefore = changesBefore
        self.config = config
        self.theme = theme
        self.source = source
        self.sourceDisplay = sourceDisplay
        self.content = content
        self.contentDisplay = contentDisplay
        self.output = output
        self.outputDisplay = outputDisplay
        self.drafts = drafts
        self.future = future
        self.now = now
        self.version = version
    }
}

/// The digests of a build's request that the state and the memo are compared by, made once a build (each of the six
/// places that need one of them made it again).
struct RequestDigests {
    /// Everything besides the content folder that the site depends on (see ``QuickBuild/inputs(_:config:)``).
    let inputs: Digest
    /// What a parsed post depends on besides its file (see ``SiteState/readerKey(config:version:)``).
    let readerKey: Digest

    init(_ request: IncrementalRequest) {
        let config = request.config.digest
        inputs = QuickBuild.inputs(request, config: config)
        readerKey = SiteState.readerKey(config: config, version: request.version)
    }
}

/// What a build done in place reports.
package struct InPlaceReport {
    /// Posts with a page, as the last full build counted them.
    package var posts: Int
    /// Pages (kind `page`) with a page, as the last full build counted them.
    package var contentPages: Int
    /// The drafts and future posts left out, as the last full build counted them.
    package var leftOut: LeftOut
    /// Tags with a page.
    package var tags: Int
    /// HTML pages of the site.
    package var pages: Int
    /// Files written (patched) and left unchanged.
    package var files: WriteReport
    /// Every warning, in display order.
    package var warnings: [Diagnostic]
    /// What was done (`quick build: 1 post changed, 3 files patched in place`).
    package var summary: String
}

/// What a full build hands the layer once its files are staged: plain values of the pipeline.
package struct BuiltSite {
    /// The site model, every body rendered.
    package var site: Site
    /// The post read from each post file of `inventory` (same order); nil where none was (an
    /// error, or a home page's `_index.md`).
    package var posts: [Post?]
    /// The content folder's files.
    package var inventory: ContentInventory
    /// Every file of the site, the pages first in the order of ``Site/pages``.
    package var files: [OutputFile]
    /// Every warning of the build, in display order.
    package var warnings: [Diagnostic]
    /// When the first post dated after the build's "now" falls due (seconds since 1970).
    package var dueAt: Double?
    /// The digest of what each page of ``files`` is rendered from (see ``PageInputs``), when the
    /// layer's hook rendered them.
    package var pageInputs: [Digest]?

    /// A full build's values; each as its property says.
    package init(site: Site, posts: [Post?], inventory: ContentInventory, files: [OutputFile], warnings: [Diagnostic], dueAt: Double?,
                 pageInputs: [Digest]? = nil) {
        self.site = site
        self.posts = posts
        self.inventory = inventory
        self.files = files
        self.warnings = warnings
        self.dueAt = dueAt
        self.pageInputs = pageInputs
    }
}

/// The incremental layer of one build, on top of the pipeline, which calls it at one place
/// (``build(inPlace:warnings:strict:clock:full:)``), under the build lock the pipeline holds. It keeps
/// the last build's state (``SiteState``) in `cache_dir`; it does the build in place when only post bodies changed
/// (``QuickBuild``), else it runs the pipeline's full build, sees through a ``RenderHook`` where
/// the bodies land, and keeps the new state for the next build.
///
/// With `blog build --no-cache` it only removes a state that the build makes
/// stale: no state is read, no hook renders, nothing is recorded.
package final class IncrementalBuild {
    fileprivate let request: IncrementalRequest
    private let enabled: Bool
    private let folder: StateFolder?
    /// When the build started, by the clock that dates file changes (nanoseconds since 1970): a
    /// content file changed since counts as changed while the build ran, even in the same tick
    /// (see ``QuickBuild/postStates(_:contentDir:readerKey:headings:opaque:changedSince:)``).
    fileprivate let started: Int64

    /// The layer of the build `request`; `enabled` is false for `--no-cache`. Throws when
    /// `cache_dir` is a folder the build must not write into.
    package init(_ request: IncrementalRequest, enabled: Bool) throws {
        // The kernel dates file changes by its coarse clock, which lags the real one by up to a tick. A build given the
        // watcher's list of changes takes what the last build read of the files it does not name: it sees the content
        // as it was when the list was closed, and a file changed since counts as changed while it ran.
        started = min(FileTimes.now(), request.changesBefore ?? .max)
        self.request = request
        self.enabled = enabled
        // With --no-cache the folder is only where the last build's state is dropped.
        let folder = enabled ? try StateFolder.of(request) : (try? StateFolder.of(request))
        self.folder = folder
    }

    /// The folder of the state (`cache_dir`), where the build lock belongs, and how messages name
    /// it; nil with `--no-cache` when `cache_dir` is a folder a build must not write into.
    package var stateFolder: (url: URL, display: String)? {
        folder.map { ($0.folder, $0.display) }
    }

    /// The request's digests, made once a build.
    private lazy var digests = RequestDigests(request)

    /// Whether the build may be done in place: the layer is on and the last build's state has the inputs of this one
    /// (the same configuration, options and theme files: its theme compiled, with the warnings the state keeps). A
    /// hint, read before the build lock and not checked: ``build(inPlace:warnings:strict:clock:full:)`` decides.
    package func mayBuildInPlace() -> Bool {
        guard enabled, let folder, let inputs = folder.stateHead()?.inputs else { return false }
        return inputs == digests.inputs
    }

    /// Whether the last build's state describes the output folder as it is: every file it recorded
    /// there is the one it wrote. How an output folder written before builds left their mark in it
    /// (see ``OutputFolder/checkOwner(writtenBefore:)``) is known to be blog's.
    package func lastBuildWroteOutput() -> Bool {
        guard let folder, let state = folder.loadState(), !state.outputs.isEmpty else { return false }
        return state.output == PathSafety.resolved(request.output) && state.firstReplacedOutput(in: request.output) == nil
    }

    /// What the build came to.
    package enum Outcome<Full> {
        /// Done in place.
        case inPlace(InPlaceReport)
        /// `full` ran; with the layer, `summary` says why (`full build: a file that is not a post changed`),
        /// or what it wrote when the site kept its files (`partial build: ...; 15 of 81 files written`).
        case full(Full, summary: String?)
    }

    /// The build: in place when `inPlace` and only post bodies changed since the last build, else
    /// `full`, the pipeline's full build, which gives the observer its site (and with `inPlace`,
    /// writes only what changed when the site has the same files). `warnings` are the
    /// configuration's; `strict` throws when the build must fail on the warnings it is given.
    package func build<Full>(inPlace: Bool, warnings: [Diagnostic], strict: ([Diagnostic]) throws -> Void,
                             clock: inout StageClock,
                             full: (FullBuildObserver, inout StageClock) throws -> Full) throws -> Outcome<Full> {
        guard enabled, let folder else {
            return .full(try full(FullBuildObserver(layer: self, folder: folder, previous: nil, digests: nil, records: false, partial: false,
                                                    trustsOutput: false, configWarnings: warnings), &clock), summary: nil)
        }
        let digests = digests
        // A build in place writes its changes over the state file's bytes as read.
        var loaded = folder.load(keepingBytes: inPlace)
        let previous = loaded?.state
        // The published files are the ones the state says when nothing but this process writes the output folder
        // (`blog serve`'s private one) and this process saved the state: they are not looked at one by one (14,600
        // `lstat`s at 10,000 posts, a thirtieth of a title edit in `blog serve`).
        let trustsOutput = request.ownsOutput && loaded?.savedHere == true
        var reason = ""
        if inPlace {
            do {
                return .inPlace(try QuickBuild.attempt(request, digests: digests, trustsOutput: trustsOutput, warnings: warnings, strict: strict,
                                                       folder: folder, state: previous, bytes: loaded?.bytes, changedSince: started, clock: &clock))
            } catch let refusal as QuickBuild.Refusal {
                reason = ": " + refusal.reason
            }
        }
        // A full build writes a state of its own: the bytes read (19 MB at 50,000 posts) are let go before it.
        loaded = nil
        let observer = FullBuildObserver(layer: self, folder: folder, previous: previous, digests: digests, records: true, partial: inPlace,
                                         trustsOutput: trustsOutput, configWarnings: warnings)
        let made: Full
        do {
            made = try full(observer, &clock)
        } catch {
            observer.stagedState?.abandon()
            throw error
        }
        if let staged = observer.stagedState {
            // Written while the site was flushed; the site it describes is published now.
            staged.publish()
            clock.lap("save state")
        } else if let state = observer.state {
            folder.saveState(state)
            clock.lap("save state")
        }
        // `partial build: the header of content/posts/a.md changed; 15 of 13,590 files written`
        return .full(made, summary: observer.partialSummary.map { "partial build" + reason + "; " + $0 } ?? "full build" + reason)
    }

    /// Makes the spare copy of the site (see ``SiteWriter/patch(output:paths:changed:spareSamePaths:spareDiffers:)``) that
    /// a build in place takes as its staging folder, when the last build left none it can take as it is: a first build, a
    /// full build whose files changed, or one after which more than an eighth of the files differ from the spare. The next build in place
    /// would make it first (linking every file and flushing the file system: 1.6 s of a body edit at 10,000 posts);
    /// `blog serve` calls this between builds, while the author reads the page. The published files stay the same
    /// files (hard links), so the state still describes them; it is saved with the spare known to match. Whether a
    /// spare was made.
    package func readySpare() -> Bool {
        guard enabled, let folder, var state = folder.loadState(), !state.outputs.isEmpty,
              state.output == PathSafety.resolved(request.output),
              let hasSpare = SiteWriter.hasSpare(output: request.output) else { return false }
        let differing = state.spareSamePaths ? state.spareDiffers?.count : nil
        // A spare that differs in a few files (after a build in place or a title edit) is the next edit's to update.
        if hasSpare, let differing, differing <= max(64, state.outputs.count / 8) { return false }
        guard SiteWriter.patch(output: request.output, paths: state.outputs.map(\.path), changed: [:],
                               spareSamePaths: state.spareSamePaths, spareDiffers: nil) != nil else { return false }
        state.spareSamePaths = true
        state.spareDiffers = []
        folder.saveState(state)
        return true
    }

    /// Whether the last build's state describes the output folder of this build.
    fileprivate func stateIsAboutThisOutput(_ folder: StateFolder) -> Bool {
        folder.stateHead()?.output == PathSafety.resolved(request.output)
    }

    /// The state of a full build whose files are now in `staged` (see ``FullBuildObserver``).
    fileprivate func state(of built: BuiltSite, in staged: URL, holes: BodyHoles, previous: SiteState?, digests: RequestDigests,
                           reads: PostFileReads?) -> SiteState? {
        let contentDir = request.content
        let opaque = holes.opaquePosts
        guard let posts = QuickBuild.postStates(built, contentDir: contentDir, readerKey: digests.readerKey, headings: QuickBuild.showsHeadings(request.theme),
                                                opaque: opaque, changedSince: started, reads: reads) else { return nil }
        let found = holes.found
        return QuickBuild.state(after: built, in: staged, pageHoles: found.pages, feedHoles: found.feeds, posts: posts,
                                request: request, inputs: digests.inputs, previousPaths: previous?.pathsDigest, changedSince: started)
    }
}

/// What the incremental layer sees of a full build: the pipeline gives it the site before the
/// pages are rendered (``renderHook(for:)``) and the files once they are staged (``staged(_:in:)``).
package final class FullBuildObserver: @unchecked Sendable {
    private let layer: IncrementalBuild
    private let folder: StateFolder?
    private let previous: SiteState?
    /// The request's digests (nil with `--no-cache`, which records nothing).
    private let digests: RequestDigests?
    /// Whether the published files are the ones `previous` says, without looking (see ``IncrementalBuild/build(inPlace:warnings:strict:clock:full:)``).
    private let trustsOutput: Bool
    /// Whether the build records a state (false with `--no-cache`).
    private let records: Bool
    /// Whether a site with the same files as the last build's may be written in place (``writeChanges(_:)``).
    private let partial: Bool
    private var holes: BodyHoles?
    /// The state for the next build, once the files are staged.
    fileprivate private(set) var state: SiteState?

    /// The configuration's warnings, which the state does not keep (see ``kept(_:)``).
    private let configWarnings: [Diagnostic]

    fileprivate init(layer: IncrementalBuild, folder: StateFolder?, previous: SiteState?, digests: RequestDigests?, records: Bool, partial: Bool,
                     trustsOutput: Bool, configWarnings: [Diagnostic]) {
        self.configWarnings = configWarnings
        self.digests = digests
        self.trustsOutput = trustsOutput
        self.partial = partial
        self.layer = layer
        self.folder = folder
        self.previous = previous
        self.records = records
        fileReads = records ? digests.map { PostFileReads(readerKey: $0.readerKey) } : nil
    }

    /// Where the build's reading of the post files leaves what the state takes of them (see ``PostFileReads``); nil
    /// with `--no-cache`.
    package let fileReads: PostFileReads?

    /// The posts and markdown the last build of this process read and rendered, when it builds
    /// again (see ``BuildMemo``); nil otherwise, and with `--no-cache`.
    package lazy var memo: BuildMemo? = {
        guard records, layer.request.buildsAgain, let folder, let digests else { return nil }
        return BuildMemo.memo(folder: folder.folder.path, inputs: digests.inputs, started: layer.started)
    }()

    /// Whether the pages' digests (see PageInputs) are made for the state: for a process that builds again (`blog
    /// serve`), whose memo makes them from what the last build's were. Not from the command line, where each post's
    /// values would be walked and digested again: at 1,000 posts that cost more than the pages it spared (a title edit
    /// 1,929.9 M instructions with them, 1,754.1 M making every page and writing those that differ, see
    /// ``PartialBuild``; a clean build 1,777.5 M), and the first title edit after a clean build, which has none to
    /// compare with, paid for them on top of writing the whole site (2,233.5 M).
    package var wantsPageInputs: Bool {
        records && layer.request.buildsAgain
    }

    /// The hook through which the pages and feeds of `site` are rendered; nil with `--no-cache`.
    /// Called before anything is written: the last build's state, which describes the site about
    /// to be replaced, is removed (with `--no-cache`, only when it is about this output folder).
    package func renderHook(for site: Site) -> RenderHook? {
        guard let folder else { return nil }
        guard records else {
            if layer.stateIsAboutThisOutput(folder) { folder.dropState() }
            return nil
        }
        folder.dropState()
        let holes = BodyHoles(site: site, postDigests: memo?.digests)
        self.holes = holes
        return holes
    }

    /// Whether ``writeChanges(_:)`` may write the site (a build in place after one that left a state): when not, the
    /// whole site is written, and its paths' plan may be made early.
    package var mayWriteChanges: Bool {
        records && partial && previous != nil
    }

    /// What ``writeChanges(_:)`` did, when it wrote the site (`12 of 13,590 files written`).
    fileprivate private(set) var partialSummary: String?

    /// Publishes `built` by rendering and writing only what changed since the last build, when the
    /// site has the same files (see ``PartialBuild``); nil, having written nothing, when the whole
    /// site must be written. Throws what rendering a page throws.
    package func writeChanges(_ built: BuiltSite) throws -> WriteReport? {
        guard records, partial, let holes, let previous, let folder, let digests else { return nil }
        let statRead = memo?.statsRead() ?? { _ in nil }
        guard let (report, state) = try PartialBuild.attempt(built, previous: previous, holes: holes, request: layer.request, digests: digests,
                                                             trustsOutput: trustsOutput, changedSince: layer.started, statRead: statRead)
        else { return nil }
        self.state = state.map(kept)
        if state == nil { folder.dropState() }
        partialSummary = "\(report.written) of \(built.files.count) files written"
        return report
    }

    /// The site's files are written in `folder` (a rename keeps their identity), soon published:
    /// the state for the next build is made now, while the disk flush leaves the cores idle.
    package func staged(_ built: BuiltSite, in staged: URL) {
        guard let holes, let digests, let folder else { return }
        state = layer.state(of: built, in: staged, holes: holes, previous: previous, digests: digests, reads: fileReads).map(kept)
        // Written now too, beside the flush, and published by the layer once the site is (see ``StateFolder/stage(_:)``):
        // encoded and written after the flush, it kept one core busy and the other idle at the end of every full build.
        stagedState = state.flatMap(folder.stage)
    }

    /// The state written by ``staged(_:in:)``, not yet the folder's state.
    fileprivate private(set) var stagedState: StateFolder.StagedState?

    /// `state` without the configuration's warnings (the theme's files' among them): they are the build's too, but
    /// made again by every build: kept, a build in place would say them twice. The theme's compile's are kept: a build
    /// in place compiles no template.
    private func kept(_ state: SiteState) -> SiteState {
        var state = state
        state.warnings = QuickBuild.keptWarnings(state.warnings, configWarnings: configWarnings, request: layer.request)
        return state
    }
}
