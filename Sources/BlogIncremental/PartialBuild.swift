import BlogCore
import BlogOutput
import BlogRender
import Foundation

/// A full build whose site has the same files as the last one (a title, a date or a tag of a post
/// edited, with every address as it was): with the pages' digests (`blog serve`), only the pages whose values
/// changed (see ``PageInputs``) are rendered; without them (`blog build`), every page is. Every other file that is
/// not a copy, and every page made without digests, is made and compared with the published one, and only what
/// differs is put into the published site as a build in place does it
/// (``SiteWriter/patch(output:paths:changed:spareSamePaths:spareDiffers:)``). The output is byte
/// for byte what writing the whole site would make: a page is left as it is only when it would be
/// rendered from the same values by the same theme.
///
/// It applies when, compared with the last build, the `blog` version, `blog.yml`, the options,
/// the theme and the output folder are the same; the site has the same files (in any order);
/// the content folder's other files are unchanged; and every published file is the one the last
/// build wrote (looked at, unless `trustsOutput`: see ``QuickBuild``).
enum PartialBuild {
    /// Publishes `built` by writing what changed since `previous`, the state of the last build,
    /// and returns the report with the state for the next build (nil when a file changed while
    /// the build ran: the next build is then a full one); nil, having written nothing, when the
    /// whole site must be written. `holes` rendered the pages; throws what rendering a page throws. `statRead` gives
    /// the state of a post file as the build found it before reading it, when it kept one (`blog serve`: see
    /// ``BuildMemo/statsRead()``); the others are looked at.
    static func attempt(_ built: BuiltSite, previous: SiteState, holes: BodyHoles, request: IncrementalRequest, digests: RequestDigests,
                        trustsOutput: Bool, changedSince: Int64,
                        statRead: (String) -> FileStat? = { _ in nil }) throws -> (report: WriteReport, state: SiteState?)? {
        let files = built.files
        let paths = files.map(\.path)
        // The same files, maybe in another order (a post's new date moves its page among the others): each file's
        // place in the last build's.
        // Without the pages' digests (`blog build` makes none, see FullBuildObserver), every page is made and compared.
        let inputs = built.pageInputs ?? []
        guard let was = places(of: paths, in: previous.outputs.map(\.path)),
              // The last build made the pages' digests, when this one did (a first build does not).
              inputs.isEmpty || previous.outputs.first?.inputs != .zero,
              previous.output == PathSafety.resolved(request.output),
              previous.inputs == digests.inputs, built.inventory.assets == previous.assets.map(\.path),
              zip(FileStat.of(previous.assets.map(\.path), in: request.content.path), previous.assets).allSatisfy({ $0 == $1.stat }),
              trustsOutput || previous.firstReplacedOutput(in: request.output) == nil
        else { return nil }

        // Posts by their index in the last build's site and in this one: the bodies in the pages
        // left as they are count by the new indices.
        // By index: `enumerated()` gave each post copied, every string retained.
        let sitePosts = built.site.posts
        let newIndex = Dictionary(sitePosts.indices.map { (sitePosts[$0].post.contentPath, $0) }, uniquingKeysWith: { a, _ in a })
        var renumbered: [Int: Int] = [:]
        for post in previous.posts {
            if let index = post.index, let now = newIndex[post.path] { renumbered[index] = now }
        }

        // The pages whose values changed, and the other files that are made (feeds, the sitemap,
        // redirects): copies are of the theme (its files are in `inputs`) or of the content (unchanged);
        // a search shard is left as it is when it holds the same posts, none of them changed.
        let published = request.output.path
        let keptShards = unchangedShards(built, previous: previous, was: was, renumbered: renumbered, request: request,
                                         changedSince: changedSince, statRead: statRead)
        // The pages whose digests changed, found on one core: 14,600 files' contents and states looked at on every core
        // retained the same few objects from each (the one page maker, the arrays), a tenth of a title edit's samples
        // at 10,000 posts.
        let lastInputs = was.map { previous.outputs[$0].inputs }
        let making = files.indices.filter { $0 >= inputs.count || inputs[$0] != lastInputs[$0] }
        let makes = try Parallel.map(making.count) { item -> Result<Data?, Error> in
            Result {
                let number = making[item]
                if number < inputs.count {
                    guard case .made(let maker) = files[number].contents else { return nil }
                    return try maker.make()
                }
                if keptShards.contains(files[number].path) { return nil }
                let data: Data
                switch files[number].contents {
                case .copy: return nil
                case .bytes(let bytes): data = bytes
                case .made(let maker): data = try maker.make()
                }
                let old = try? Data(contentsOf: URL(fileURLWithPath: published + "/" + files[number].path))
                return old == data ? nil : data
            }
        }.map { try $0.get() }
        var made = [Data?](repeating: nil, count: files.count)
        for (item, number) in making.enumerated() { made[number] = makes[item] }
        var changed: [String: Data] = [:]
        for (file, data) in zip(files, made) where data != nil { changed[file.path] = data }

        var outputs = was.map { previous.outputs[$0] }
        for number in outputs.indices where made[number] == nil {
            for hole in outputs[number].holes.indices {
                guard let now = renumbered[outputs[number].holes[hole].post] else { return nil }
                outputs[number].holes[hole].post = now
            }
        }

        let spareDiffers = previous.spareSamePaths ? previous.spareDiffers.map { $0.map { previous.outputs[$0].path } } : nil
        guard let report = SiteWriter.patch(output: request.output, paths: paths, changed: changed,
                                            spareSamePaths: previous.spareSamePaths, spareDiffers: spareDiffers) else { return nil }

        // The state: the files written as they are now, the others as the last build left them.
        let found = holes.found
        let written = files.indices.filter { made[$0] != nil }
        let identities = FileStat.of(written.map { paths[$0] }, in: published, followingLinks: false)
        for (number, identity) in zip(written, identities) {
            guard let identity else { return (report, nil) }
            outputs[number].identity = identity
            outputs[number].holes = number < found.pages.count ? found.pages[number] : found.feeds[paths[number]] ?? []
        }
        // A page's digest is this build's, or none: one kept from a build before may not be the page's now.
        for number in outputs.indices { outputs[number].inputs = number < inputs.count ? inputs[number] : .zero }
        // A post whose body a template transformed, on a page not rendered again, stays unpatchable.
        let unpatchable = Set(previous.posts.filter { !$0.patchable }.map(\.path))
        let opaque = holes.opaquePosts.union(built.site.posts.indices.filter { unpatchable.contains(built.site.posts[$0].post.contentPath) })
        guard let posts = QuickBuild.postStates(built, contentDir: request.content, readerKey: digests.readerKey,
                                                headings: QuickBuild.showsHeadings(request.theme), opaque: opaque, changedSince: changedSince,
                                                known: Dictionary(previous.posts.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }),
                                                statRead: statRead),
              var state = QuickBuild.state(after: built, outputs: outputs, posts: posts, request: request, inputs: digests.inputs,
                                           changedSince: changedSince)
        else { return (report, nil) }
        state.spareSamePaths = true
        state.spareDiffers = written
        return (report, state)
    }

    /// The place in `last` of each of `paths`, which hold the same paths, maybe in another order; nil when they do not.
    /// Compared in order first: the same strings kept from the last build compare at once (the paths of the files a
    /// build wrote are unique: ``SiteWriter`` checks them).
    static func places(of paths: [String], in last: [String]) -> [Int]? {
        guard paths.count == last.count else { return nil }
        if paths == last { return Array(paths.indices) }
        let before = Dictionary(last.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let was = paths.compactMap { before[$0] }
        return before.count == paths.count && was.count == paths.count ? was : nil
    }

    /// The search shards (``SearchIndex/shards(_:)``) of `built` that hold the posts they held in the last build, in
    /// the same order and places (`renumbered` maps each post's old index to its new one), none of which changed:
    /// a shard's text is made of its posts alone (title, address, date, tags, summary, words), each read from its
    /// file with `blog.yml`, which the state's inputs cover. A post changed when its file is not the one the last
    /// build read, or its body depends on other files (Liquid, `{filename}` links, images: not patchable).
    /// Making the shards again is a tenth of a title edit's work at 10,000 posts: the words of every post.
    /// `was`: each file's place in the last build's outputs.
    private static func unchangedShards(_ built: BuiltSite, previous: SiteState, was: [Int], renumbered: [Int: Int], request: IncrementalRequest,
                                        changedSince: Int64, statRead: (String) -> FileStat?) -> Set<String> {
        guard built.site.config.search, renumbered.allSatisfy({ $0.key == $0.value }) else { return [] }
        let shards = SearchIndex.shards(built.site)
        // The shards' holes in the last build, found by their files' places (not a dictionary of every file's).
        let paths = Set(shards.map(\.path))
        let files = built.files
        var holes: [String: [BodyHole]] = [:]
        for number in files.indices.reversed() where paths.contains(files[number].path) {
            holes[files[number].path] = previous.outputs[was[number]].holes
            if holes.count == paths.count { break }
        }
        // Each post file as the build found it, else looked at now.
        var stats = previous.posts.map { statRead($0.path) }
        let unknown = stats.indices.filter { stats[$0] == nil }
        for (number, stat) in zip(unknown, FileStat.of(unknown.map { previous.posts[$0].path }, in: request.content.path)) { stats[number] = stat }
        var changed = Set<Int>()
        for (state, stat) in zip(previous.posts, stats) {
            guard let index = state.index else { continue }
            if !state.patchable || stat != state.stat || stat.map({ $0.ctime >= changedSince }) ?? true { changed.insert(index) }
        }
        var kept = Set<String>()
        for (path, posts) in shards {
            guard let old = holes[path], old.count == posts.count, old.allSatisfy({ $0.form == .searchText }),
                  zip(old, posts).allSatisfy({ $0.post == $1 && !changed.contains($1) }) else { continue }
            kept.insert(path)
        }
        return kept
    }
}
