import BlogConfig
import BlogCore
import Foundation

/// ``LinkChecker/check(folder:displayPath:config:posts:alternatives:)`` again and again on one folder that builds
/// keep replacing (`blog serve`'s site), reading again only what changed: a page whose file is the one the last
/// check read (same inode, size and time: builds write a changed page as a new file, and link the others) keeps
/// its links and ids, and its links' outcomes stand unless a file they point at appeared or disappeared, or a page
/// they point into has other ids. The report is the one a whole check of the folder makes (`LinkCheckMemoTests`
/// compares them). At 10,000 posts a whole check costs about 40 s of CPU, one after a title edit a few pages' worth.
package final class LinkCheckMemo: @unchecked Sendable {
    /// A page as the last check read it.
    private struct Page {
        var identity: [Int64]
        var ids: Set<String>
        var links: [PageScan.Link]
        /// Links followed (inside the site).
        var followed: Int
        /// The links that are broken, by index into ``links``, with their messages and, for a missing file, its path.
        var broken: [(link: Int, message: String, missing: String?)]
        /// The paths the links were looked up at (see ``LinkResolver/problem(with:onPage:ids:lookedAt:)``).
        var lookedAt: Set<String>
    }

    private var pages: [String: Page] = [:]
    private var files: Set<String> = []
    private let lock = NSLock()
    /// The pages the last check read, and the pages whose links it looked up again.
    private(set) var lastRead = 0, lastResolved = 0

    package init() {}

    /// Every broken link of the site in `folder`, as ``LinkChecker/check(folder:displayPath:config:posts:alternatives:)``
    /// reports them; nil, with nothing kept, when `stale` turns true while it runs (a newer build is replacing the
    /// folder: what it read may be of either site).
    package func check(folder: URL, displayPath: String, config: SiteConfig, posts: [PostPage], stale: () -> Bool) -> LinkCheckReport? {
        lock.lock()
        defer { lock.unlock() }
        let root = folder.path
        let directory = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        let all = Self.files(under: root)
        let files = Set(all)
        let pagePaths = all.filter(LinkChecker.isHTML).sorted()
        guard !stale() else { return nil }

        // The pages whose files changed are read again. Looking at each page's file is most of a check after a
        // build that changed a few pages, so a newer build stops it here too (nil: read below as stale).
        let identities = Parallel.map(pagePaths.count) { number -> [Int64]? in
            if number % 256 == 0, stale() { return nil }
            var info = stat()
            guard fstatat(directory, pagePaths[number], &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), FileTimes.modified(info)]
        }
        guard !stale() else { return nil }
        let reread = pagePaths.indices.filter { number in pages[pagePaths[number]].map { $0.identity != identities[number] } ?? true }
        let scans = Parallel.map(reread.count) { number -> PageScan? in
            if number % 64 == 0, stale() { return nil }
            return PageScan(bytes: (try? [UInt8](Data(contentsOf: folder.appendingPathComponent(pagePaths[reread[number]])))) ?? [])
        }
        guard !stale(), !scans.contains(where: { $0 == nil }) else { return nil }
        var next: [String: Page] = [:]
        next.reserveCapacity(pagePaths.count)
        var bytes: [String: [UInt8]] = [:]
        for (number, scan) in zip(reread, scans) {
            let path = pagePaths[number], scan = scan!
            bytes[path] = scan.bytes
            next[path] = Page(identity: identities[number] ?? [], ids: scan.ids, links: scan.links, followed: 0, broken: [], lookedAt: [])
        }
        // What changed for the pages kept: files that appeared or went, pages whose ids changed.
        var changed = files.symmetricDifference(self.files)
        for path in reread.map({ pagePaths[$0] }) where pages[path]?.ids != next[path]?.ids { changed.insert(path) }
        // A path is looked up as written, as `x/` + `index.html`, and as `x` + `/index.html`.
        var touched = changed
        for path in changed where path.hasSuffix("index.html") {
            touched.insert(String(path.dropLast("index.html".count)))
            if path.hasSuffix("/index.html") { touched.insert(String(path.dropLast("/index.html".count))) }
        }
        for path in pagePaths where next[path] == nil {
            next[path] = pages[path]
        }
        var idsByPage: [String: Set<String>] = [:]
        for (path, page) in next { idsByPage[path] = page.ids }
        let resolver = LinkResolver(config: config, files: files)
        let resolve = pagePaths.filter { path in bytes[path] != nil || !next[path]!.lookedAt.isDisjoint(with: touched) }
        let outcomes = Parallel.map(resolve.count) { number in
            number % 64 == 0 && stale() ? nil : Self.outcomes(of: next[resolve[number]]!.links, onPage: resolve[number], resolver: resolver, ids: idsByPage)
        }
        guard !stale(), !outcomes.contains(where: { $0 == nil }) else { return nil }
        for (path, outcome) in zip(resolve, outcomes.map { $0! }) {
            next[path]!.followed = outcome.followed
            next[path]!.broken = outcome.broken
            next[path]!.lookedAt = outcome.lookedAt
        }

        // The report, page by page as a whole check makes it.
        let postsByPage = Dictionary(posts.map { ($0.outputPath, $0) }, uniquingKeysWith: { first, _ in first })
        var broken: [Diagnostic] = []
        var seen: Set<Diagnostic> = []
        var followed = 0
        var missing: [(link: String, path: String)] = []
        for path in pagePaths {
            let page = next[path]!
            followed += page.followed
            guard !page.broken.isEmpty else { continue }
            let pageBytes = bytes[path] ?? ((try? [UInt8](Data(contentsOf: folder.appendingPathComponent(path)))) ?? [])
            var locator = Locator(page: path, bytes: pageBytes, displayPath: displayPath, post: postsByPage[path])
            for (index, message, target) in page.broken {
                let link = page.links[index]
                let diagnostic = locator.error(at: link.offset, target: link.url, message)
                guard seen.insert(diagnostic).inserted else { continue }
                broken.append(diagnostic)
                if let target { missing.append((link.url, target)) }
            }
        }
        pages = next
        self.files = files
        (lastRead, lastResolved) = (reread.count, resolve.count)
        var report = LinkCheckReport(pages: pagePaths.count, links: followed, broken: broken.sortedForDisplay())
        report.missing = missing
        return report
    }

    /// The outcome of each link of a page: how many were followed, which are broken, where they were looked up.
    private static func outcomes(of links: [PageScan.Link], onPage path: String, resolver: LinkResolver, ids: [String: Set<String>])
        -> (followed: Int, broken: [(link: Int, message: String, missing: String?)], lookedAt: Set<String>) {
        var followed = 0
        var broken: [(link: Int, message: String, missing: String?)] = []
        var lookedAt: Set<String> = []
        for (index, link) in links.enumerated() {
            var looked: String?
            let problem = resolver.problem(with: link.url, onPage: path, ids: ids, lookedAt: &looked)
            if let looked { lookedAt.insert(looked) }
            if case .external = problem { continue }
            followed += 1
            guard let message = LinkChecker.message(problem, link: link.url) else { continue }
            if case .missing(let target) = problem {
                broken.append((index, message, target))
            } else {
                broken.append((index, message, nil))
            }
        }
        return (followed, broken, lookedAt)
    }

    /// Every regular file under `root`, relative to it, hidden entries skipped (as ``LinkChecker/filePaths(under:)``
    /// lists them, by `readdir`: the site's folders are blog's, with no links in them).
    static func files(under root: String) -> [String] {
        var found: [String] = []
        var folders = [""]
        while let folder = folders.popLast() {
            for (name, type) in FolderEntries.of(folder.isEmpty ? root : root + "/" + folder) ?? [] where !name.hasPrefix(".") {
                let path = folder.isEmpty ? name : folder + "/" + name
                if type == S_IFDIR { folders.append(path) } else if type == S_IFREG { found.append(path) }
            }
        }
        return found
    }
}
