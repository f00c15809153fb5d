import BlogBuild
import BlogCheck
import BlogConfig
import CSystem
import FlyingSocks
import Foundation

/// What `blog serve` is asked to do.
public struct ServeOptions: Sendable {
    /// The blog folder, as the user named it.
    public var source: String
    /// The port; nil: 8000, or the next free one.
    public var port: UInt16?
    /// The address to listen on: `127.0.0.1` (this machine only) unless asked.
    public var bind: String = "127.0.0.1"
    /// Include drafts (a preview shows them, marked, unless `--no-drafts`).
    public var drafts = true
    /// Include posts dated in the future (unless `--no-future`).
    public var future = true
    /// Print the seconds of each stage of every build (`--timings`).
    public var timings = false

    /// Options for the blog folder `source`.
    public init(source: String = ".") {
        self.source = source
    }
}

/// `blog serve`: builds the blog into a private folder (never the published output), serves it over HTTP,
/// rebuilds when a post, the theme or blog.yml changes, and reloads the open pages. A build that fails is
/// printed and shown over the pages, and the last good site stays served.
///
/// The private folder is the process's own (``PrivateFolder``): made anew, readable by this user only, holding
/// the site and the build's state and lock, and removed when `serve` ends (Ctrl-C, `kill`, a closed terminal).
public final class PreviewServer: @unchecked Sendable {
    /// Where the site is served, e.g. `http://127.0.0.1:8000/blog/`.
    public let url: String
    /// `http://127.0.0.1:8000`: where the server's own pages are (``LiveReload/linksPath``).
    private let origin: String
    private let options: ServeOptions
    private let folder: BlogFolder
    private let privateFolder: PrivateFolder
    private let listener: Socket
    private let gate: HostGate
    private let basePath: String
    /// What is said when the preview is open to other machines; nil on a loopback address.
    private let networkNote: String?
    /// The content folder blog.yml names, watched for changes.
    private let content: URL
    private let hub = ReloadHub()
    private let builds = DispatchQueue(label: "blog serve: builds")
    /// The links of each built site are checked here, off the builds' queue and off the responses.
    private let checks = DispatchQueue(label: "blog serve: link checks")
    /// The broken links of the last site checked, its link checker, and the number of the last successful build.
    private let linkState = LinkState()
    private let print: @Sendable (String) -> Void
    private var signalSources: [DispatchSourceSignal] = []
    /// Whether a build has succeeded: until then a failed build has no last good site to keep serving.
    /// Read and written on `builds` only.
    private var servedOnce = false

    /// Prepares to serve: reads blog.yml (for the base path and the folders to watch), listens on the port, and
    /// makes the private folder.
    /// - Parameter print: where messages go (standard output, or standard error for errors).
    /// - Throws: ``BuildFailure`` when blog.yml does not read, the address or port can't be listened on, or the
    ///   private folder can't be made.
    public init(_ options: ServeOptions, print: @escaping @Sendable (String) -> Void) throws {
        self.options = options
        self.print = print
        folder = BlogFolder(options.source)
        try Pipeline.requireBlogFolder(source: options.source)
        let (config, _) = try ConfigLoader.load(path: folder.url.appendingPathComponent("blog.yml").path,
                                                displayPath: folder.display + "blog.yml")
        basePath = config.basePath
        content = folder.resolve(config.content).url
        guard let bind = BindAddress(options.bind) else {
            throw BuildFailure([.error("cannot listen on \(options.bind): no such address; --bind takes an IP address of this machine (such as 127.0.0.1, ::1 or 0.0.0.0) or localhost")])
        }
        let port: UInt16
        (listener, port) = try Ports.listen(options.port, bind: bind, print: print)
        let machine: (addresses: [BindAddress], hostName: String?) = bind.isWildcard ? HostGate.machine() : ([], nil)
        gate = HostGate(bind: bind, port: port, machine: machine)
        origin = "http://\(bind.localURLHost):\(port)"
        url = origin + basePath
        if bind.isLoopback {
            networkNote = nil
        } else {
            let others = bind.isWildcard ? machine.addresses.filter { !$0.isLoopback && (bind.isIPv6 || !$0.isIPv6) } : [bind]
            let base = config.basePath
            let addresses = others.map { "http://\($0.urlHost):\(port)\(base)" }.joined(separator: " ")
            networkNote = "blog serve: --bind \(options.bind): the preview, drafts and build errors included, is open to the network"
                + (addresses.isEmpty ? "" : " at \(addresses)")
        }
        do {
            privateFolder = try PrivateFolder()
        } catch {
            try? listener.close()
            throw error
        }
        removeOnSignals()
        // The private folders that killed `serve`s left (a site each: 280 MB at 10,000 posts), removed beside the
        // first build.
        DispatchQueue.global(qos: .utility).async { [print] in
            for path in PrivateFolder.sweep(FileManager.default.temporaryDirectory) {
                print("blog serve: removed \(path), the private folder of a serve that ended without removing it")
            }
        }
    }

    /// The folders and file whose changes rebuild the site: the content folder, `themes/`, `blog.yml`.
    private func watched() -> (folders: [URL], files: [URL]) {
        let themes = folder.url.appendingPathComponent("themes")
        // Shortcode templates, and a Jekyll site's `_config.yml` and `_data/` (in the blog folder, or beside
        // a `_posts` content folder), which posts' Liquid reads.
        var jekyllFolders = [folder.url]
        if content.lastPathComponent == "_posts" { jekyllFolders.append(content.deletingLastPathComponent()) }
        // A folder made later (`themes/` for a first theme change) is watched from when it appears.
        return ([content, themes, folder.url.appendingPathComponent("shortcodes")] + jekyllFolders.map { $0.appendingPathComponent("_data") },
                [folder.url.appendingPathComponent("blog.yml")] + jekyllFolders.map { $0.appendingPathComponent("_config.yml") })
    }

    /// Builds once, then serves and watches until the process ends; the private folder is removed when
    /// serving fails (and on SIGINT, SIGTERM and SIGHUP from the start: see ``removeOnSignals()``).
    public func run() async throws {
        // Watching begins before the first build reads anything: a save during it rebuilds once it is done.
        let (folders, files) = watched()
        FileWatcher(folders: folders, files: files).start { [self] batch in
            builds.async { self.rebuild(batch) }
        }
        builds.sync { self.rebuild(FileWatcher.Batch(changed: [], seen: nil)) }
        let responder = SiteResponder(folder: privateFolder.site, basePath: basePath, injection: LiveReload.tag)
        let server = PreviewHTTP(listener: listener, gate: gate, hub: hub) { head in
            let path = head.target.prefix { $0 != "?" }
            if path == LiveReload.socketPath { return .liveReload }
            if path == LiveReload.linksPath, head.method == "GET" || head.method == "HEAD" {
                let body = Data(self.linkState.page().utf8)
                return .response(SiteResponder.Response(status: 200, headers: [
                    "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache", "Content-Length": String(body.count),
                ], body: head.method == "HEAD" ? Data() : body))
            }
            if path == LiveReload.scriptPath, head.method == "GET" || head.method == "HEAD" {
                let body = Data(LiveReload.script.utf8)
                return .response(SiteResponder.Response(status: 200, headers: [
                    "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache", "Content-Length": String(body.count),
                ], body: head.method == "HEAD" ? Data() : body))
            }
            return .response(responder.respond(to: SiteResponder.Request(
                method: head.method, path: head.target,
                headers: Dictionary(head.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))))
        }
        print("Serving \(folder.display.isEmpty ? "the blog" : folder.display) at \(url) (a private build in \(privateFolder.site.path); Ctrl-C stops)")
        if let networkNote { print(networkNote) }
        do {
            try await server.run()
        } catch {
            privateFolder.remove()
            throw error
        }
    }

    /// On SIGINT, SIGTERM or SIGHUP: waits for a build that is running, removes the private folder, and ends
    /// the process as the signal would have.
    private func removeOnSignals() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                privateFolder.stopping = true
                builds.sync {}
                privateFolder.remove()
                Self.end(by: number)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Ends the process as `number` does by default (the signal is blocked in the threads of signal sources).
    private static func end(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }

    /// Builds the site into the private folder, prints the outcome, and tells the open pages.
    private func rebuild(_ batch: FileWatcher.Batch) {
        let changed = batch.changed
        guard !privateFolder.stopping else { return }
        // A check of the last site still running stops: it would compete with this build for the cores, and its
        // site is being replaced.
        linkState.building()
        // A full build of a big blog allocates hundreds of MB on every core; the allocator keeps what was freed in
        // each thread's arena. Given back after each build, the server's memory stays that of one build.
        defer { Memory.giveBack() }
        var build = BuildOptions(source: options.source, output: privateFolder.site.path, baseURL: url, drafts: options.drafts, future: options.future)
        build.strict = false
        build.buildsAgain = true
        // The build's state and lock are this process's: another `serve` or a `blog build` of the blog never
        // waits for them, and the state in cache_dir stays the published site's.
        build.cacheFolder = privateFolder.cache.path
        build.privateOutput = true
        build.changes = batch.seen.map { WatchedChanges(paths: $0, content: content.path, before: batch.before) }
        let start = DispatchTime.now()
        do {
            let (report, links) = try Pipeline.buildForPreview(build)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            for warning in report.warnings { print(warning.description) }
            let what = changed.isEmpty ? "Built" : "Rebuilt (\(changed.count) changed)"
            let leftOut = report.leftOut.note(asServeAsked: true)
            print(String(format: "%@ in %.3f s: %d files written", what, seconds, report.files.written) + (leftOut.map { " (\($0))" } ?? ""))
            if options.timings {
                for (stage, seconds) in report.timings { print(String(format: "%8.3f s  %@", seconds, stage)) }
                if let summary = report.cacheSummary { print("cache: \(summary)") }
            }
            servedOnce = true
            let onlyStyles = !changed.isEmpty && changed.allSatisfy { $0.hasSuffix(".css") }
            Task { await hub.built(onlyStyles: onlyStyles) }
            checkLinks(links)
            // A full build may leave no spare copy of the site that the next body edit can take: it is made now,
            // while the page is read, not by that edit (see Pipeline.readySpare).
            if links != nil {
                var spare = build
                spare.changes = nil
                builds.async { [self, spare] in
                    if !privateFolder.stopping { _ = Pipeline.readySpare(spare) }
                }
            }
        } catch let failure as BuildFailure {
            for diagnostic in failure.diagnostics { print(diagnostic.description) }
            print(servedOnce ? "build failed; still serving the last good site"
                             : "build failed; nothing to serve until a build succeeds")
            let text = failure.diagnostics.map(\.description).joined(separator: "\n")
            Task { await hub.failed(text) }
            recheckAfterFailure()
        } catch {
            print("blog: error: \(error)")
            Task { await hub.failed("\(error)") }
            recheckAfterFailure()
        }
    }

    /// A failed build stopped the check of the last good site, which stays served: it is checked again (what the
    /// stopped check read is not used; what the check before it read is, see ``LinkCheckMemo``).
    private func recheckAfterFailure() {
        guard servedOnce else { return }
        checkLinks(nil)
    }
}

extension PreviewServer {
    /// Checks the links of the site just built, on ``checks``, and says how many are broken: one line in the
    /// terminal, a note in every open page (linking to ``LiveReload/linksPath``, which lists them). Only the pages
    /// that changed since the last check are read again (see ``LinkCheckMemo``). A check that a newer build
    /// overtakes stops as that build starts, and is dropped: the newer build's check follows it.
    private func checkLinks(_ links: PreviewLinks?) {
        let build = linkState.built(links)
        guard let checker = linkState.checker else { return }
        let folder = privateFolder.site
        checks.async { [self] in
            guard linkState.isLatest(build), !privateFolder.stopping else { return }
            let start = DispatchTime.now()
            guard let report = checker.check(folder: folder, memo: linkState.memo, stale: { !linkState.isLatest(build) || privateFolder.stopping })
            else { return }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            guard linkState.isLatest(build) else { return }
            let summary = LinkState.summary(report.broken.count)
            linkState.set(report.broken.map(\.description), build: build)
            if options.timings { print(String(format: "%8.3f s  link check", seconds)) }
            print(report.broken.isEmpty ? "Links: \(report.links) checked, none broken"
                                        : "Links: \(summary) (\(origin)\(LiveReload.linksPath) lists them)")
            Task { await hub.linksChecked(report.broken.isEmpty ? nil : summary) }
        }
    }
}

/// What `blog serve` knows of the links of its site, shared by the builds, the checks and the responses.
final class LinkState: @unchecked Sendable {
    private let lock = NSLock()
    private var build = 0
    /// Whether a build has started since the last one succeeded.
    private var buildRunning = false
    /// What the checks read of the site, kept for the next check.
    let memo = LinkCheckMemo()
    private var links: PreviewLinks?
    private var broken: [String] = []
    private var checkedBuild = 0

    /// A build succeeded; its checker (nil after a build in place: the last one still holds). Returns its number.
    func built(_ links: PreviewLinks?) -> Int {
        lock.withLock {
            build += 1
            buildRunning = false
            if let links { self.links = links }
            return build
        }
    }

    var checker: PreviewLinks? { lock.withLock { links } }

    /// A build starts: the check of the last site is overtaken, whether the build succeeds or fails.
    func building() {
        lock.withLock { buildRunning = true }
    }

    /// Whether `number` is the last successful build and no build has started since.
    func isLatest(_ number: Int) -> Bool { lock.withLock { number == build && !buildRunning } }

    func set(_ broken: [String], build number: Int) {
        lock.withLock {
            self.broken = broken
            checkedBuild = number
        }
    }

    /// `1 broken link`, `3 broken links`.
    static func summary(_ count: Int) -> String {
        Count.of(count, "broken link")
    }

    /// The page at ``LiveReload/linksPath``: every broken link of the last site checked, as `blog check` prints them.
    func page() -> String {
        let (broken, checked) = lock.withLock { (self.broken, checkedBuild) }
        let items = broken.map { "<li><code>" + Escaping.html($0) + "</code></li>" }.joined(separator: "\n")
        let heading = checked == 0 ? "The links are being checked" : broken.isEmpty ? "No broken links" : Self.summary(broken.count)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>blog serve: links</title></head>
            <body style="font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem">
            <h1>\(heading)</h1>
            <p>Of the last build, as <code>blog check</code> finds them: a link, image or #anchor inside the site that points nowhere.</p>
            <ul>
            \(items)
            </ul>
            </body>
            </html>

            """
    }
}

/// The folder of one `serve` process in the temporary folder: `blog-serve-XXXXXX`, made by `mkdtemp` (a new
/// name no one else holds, mode 0700), so no other user can plant a link where the builds write and remove.
/// The site is built into `site/`, its staging and spare copies beside it, the build's state and lock in `cache/`.
/// Its file `owner` is locked (`flock`) for as long as the process runs: a folder whose `owner` no process holds was
/// left by a `serve` that could not remove it (killed with SIGKILL, a machine that lost power), and the next `serve`
/// removes it (see ``sweep(_:)``).
final class PrivateFolder: @unchecked Sendable {
    let url: URL
    var site: URL { url.appendingPathComponent("site") }
    var cache: URL { url.appendingPathComponent("cache") }
    /// Set once the process is ending: no build starts.
    var stopping: Bool {
        get { lock.withLock { isStopping } }
        set { lock.withLock { isStopping = newValue } }
    }
    private var isStopping = false
    private let lock = NSLock()
    /// The open, locked `owner` file (its lock ends with the process); -1 when it could not be made: the folder is
    /// then never taken for a left one.
    private let owner: Int32
    static let prefix = "blog-serve-"
    static let ownerName = "owner"

    /// - Throws: ``BuildFailure`` when the temporary folder can't be written.
    init(in temporary: URL = FileManager.default.temporaryDirectory) throws {
        let template = temporary.appendingPathComponent(Self.prefix + "XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else {
            throw BuildFailure([.error("cannot make the private folder of blog serve in \(temporary.path): \(String(cString: strerror(errno)))")])
        }
        url = URL(fileURLWithPath: String(cString: bytes), isDirectory: true)
        // Locked before it has its name: a sweep never finds this folder's `owner` unlocked while the process runs.
        let made = url.path + "/" + Self.ownerName + ".new"
        var fd = open(made, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0, flock(fd, LOCK_EX | LOCK_NB) != 0 || rename(made, url.path + "/" + Self.ownerName) != 0 {
            close(fd)
            fd = -1
        }
        owner = fd
    }

    /// Removes the folder and everything in it (links are removed, never followed).
    func remove() {
        _ = blog_remove_tree(url.path)
    }

    /// Removes the private folders in `temporary` that `serve` processes left: this user's folders named as
    /// ``init(in:)`` names them (never through a link) whose `owner` file no process holds locked. A folder
    /// without `owner` (one being made, or made by an older `blog`) is left. `owner` is removed last, so a sweep
    /// cut short is taken up by the next. Returns the folders removed.
    static func sweep(_ temporary: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
            let path = temporary.path + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            let fd = open(path + "/" + ownerName, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where entry != ownerName {
                _ = blog_remove_tree(path + "/" + entry)
            }
            if blog_remove_tree(path) == 0 { removed.append(path) }
        }
        return removed
    }
}

/// The process's memory.
enum Memory {
    /// Returns the memory freed by the last build to the system (glibc keeps it otherwise); nothing elsewhere.
    static func giveBack() {
        blog_give_back_memory()
    }
}
