import BlogBuild
import BlogConfig
import CSystem
import FlyingFox
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
    /// Include drafts.
    public var drafts = false
    /// Include posts dated in the future.
    public var future = false
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
public final class PreviewServer: @unchecked Sendable {
    /// Where the site is served, e.g. `http://127.0.0.1:8000/blog/`.
    public let url: String
    private let options: ServeOptions
    private let folder: BlogFolder
    private let output: URL
    private let port: UInt16
    private let basePath: String
    /// The content folder blog.yml names, watched for changes.
    private let content: URL
    private let hub = ReloadHub()
    private let builds = DispatchQueue(label: "blog serve: builds")
    private let print: @Sendable (String) -> Void

    /// Prepares to serve: reads blog.yml (for the base path and the folders to watch) and finds the port.
    /// - Parameter print: where messages go (standard output, or standard error for errors).
    /// - Throws: ``BuildFailure`` when blog.yml does not read, or the port is taken or can't be listened on.
    public init(_ options: ServeOptions, print: @escaping @Sendable (String) -> Void) throws {
        self.options = options
        self.print = print
        folder = BlogFolder(options.source)
        let (config, _) = try ConfigLoader.load(path: folder.url.appendingPathComponent("blog.yml").path,
                                                displayPath: folder.display + "blog.yml")
        basePath = config.basePath
        content = folder.resolve(config.content).url
        port = try Ports.choose(options.port, bind: options.bind, print: print)
        let host = options.bind == "0.0.0.0" || options.bind == "::" ? "localhost" : (options.bind.contains(":") ? "[\(options.bind)]" : options.bind)
        url = "http://\(host):\(port)\(basePath)"
        // One private folder per blog folder, kept between runs, so that a restart can build in place.
        let key = folder.url.path.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        output = FileManager.default.temporaryDirectory.appendingPathComponent("blog-serve-\(getuid())-\(String(key, radix: 36))")
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

    /// Builds once, then serves and watches until the process ends.
    public func run() async throws {
        builds.sync { self.rebuild(changed: []) }
        let server = HTTPServer(address: try Ports.address(options.bind, port), timeout: 60, logger: .disabled)
        let responder = SiteResponder(folder: output, basePath: basePath, injection: LiveReload.tag)
        await server.appendRoute(HTTPRoute("GET " + LiveReload.scriptPath)) { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                         body: Data(LiveReload.script.utf8))
        }
        await server.appendRoute(HTTPRoute("GET " + LiveReload.socketPath), to: .webSocket(hub))
        await server.appendRoute("*") { request in
            let answer = responder.respond(to: SiteResponder.Request(
                method: request.method.rawValue, path: request.target.path(percentEncoded: true),
                headers: Dictionary(request.headers.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { a, _ in a })))
            var headers = HTTPHeaders()
            for (name, value) in answer.headers { headers[HTTPHeader(name)] = value }
            return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)), headers: headers, body: answer.body)
        }
        let (folders, files) = watched()
        FileWatcher(folders: folders, files: files).start { [self] changed in
            builds.async { self.rebuild(changed: changed) }
        }
        print("Serving \(folder.display.isEmpty ? "the blog" : folder.display) at \(url) (a private build in \(output.path); Ctrl-C stops)")
        try await server.run()
    }

    /// Builds the site into the private folder, prints the outcome, and tells the open pages.
    private func rebuild(changed: [String]) {
        // A full build of a big blog allocates hundreds of MB on every core; the allocator keeps what was freed in
        // each thread's arena. Given back after each build, the server's memory stays that of one build.
        defer { Memory.giveBack() }
        var build = BuildOptions(source: options.source, output: output.path, baseURL: url, drafts: options.drafts, future: options.future)
        build.strict = false
        build.buildsAgain = true
        let start = DispatchTime.now()
        do {
            let report = try Pipeline.build(build)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            for warning in report.warnings { print(warning.description) }
            let what = changed.isEmpty ? "Built" : "Rebuilt (\(changed.count) changed)"
            print(String(format: "%@ in %.3f s: %d files written", what, seconds, report.files.written))
            if options.timings {
                for (stage, seconds) in report.timings { print(String(format: "%8.3f s  %@", seconds, stage)) }
                if let summary = report.cacheSummary { print("cache: \(summary)") }
            }
            let onlyStyles = !changed.isEmpty && changed.allSatisfy { $0.hasSuffix(".css") }
            Task { await hub.built(onlyStyles: onlyStyles) }
        } catch let failure as BuildFailure {
            for diagnostic in failure.diagnostics { print(diagnostic.description) }
            print("build failed; still serving the last good site")
            let text = failure.diagnostics.map(\.description).joined(separator: "\n")
            Task { await hub.failed(text) }
        } catch {
            print("blog: error: \(error)")
            Task { await hub.failed("\(error)") }
        }
    }

    private static func phrase(_ status: Int) -> String {
        [200: "OK", 301: "Moved Permanently", 304: "Not Modified", 400: "Bad Request", 404: "Not Found",
         405: "Method Not Allowed", 500: "Internal Server Error"][status] ?? "Status"
    }
}

/// Choosing and checking the port to listen on.
enum Ports {
    /// The first port to try when none is asked for.
    static let preferred: UInt16 = 8000

    /// `asked` when it is free (0: any free port); without one, 8000 or the next free port (saying so).
    /// - Throws: ``BuildFailure`` naming the port when the one asked for is taken or can't be used.
    static func choose(_ asked: UInt16?, bind: String, print: (String) -> Void) throws -> UInt16 {
        if let asked {
            switch probe(bind, asked) {
            case .success(let port): return port
            case .failure(let reason): throw BuildFailure([.error("--port \(asked)", "cannot listen on \(bind) port \(asked): \(reason); choose another with --port")])
            }
        }
        for port in preferred..<(preferred + 100) {
            if case .success = probe(bind, port) {
                if port != preferred { print("port \(preferred) is in use; using \(port)") }
                return port
            }
        }
        throw BuildFailure([.error("--port", "no free port from \(preferred) to \(preferred + 99) on \(bind); choose one with --port")])
    }

    /// Binds `port` on `bind` and lets it go: the port (the one the system chose for 0), or why not.
    static func probe(_ bind: String, _ port: UInt16) -> Result<UInt16, ProbeFailure> {
        do {
            let socket = try Socket(domain: bind.contains(":") ? AF_INET6 : AF_INET, type: .stream)
            defer { try? socket.close() }
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: address(bind, port))
            if case .ip4(_, let chosen) = try socket.sockname() { return .success(chosen) }
            if case .ip6(_, let chosen) = try socket.sockname() { return .success(chosen) }
            return .success(port)
        } catch SocketError.failed(_, EADDRINUSE, _) {
            return .failure(ProbeFailure(text: "it is in use"))
        } catch {
            return .failure(ProbeFailure(text: "\(error)"))
        }
    }

    /// Why a port can't be used: "it is in use", or the system's error.
    struct ProbeFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    /// The socket address of `bind` (IPv4 or IPv6) and `port`.
    static func address(_ bind: String, _ port: UInt16) throws -> any SocketAddress {
        if bind.contains(":") { return try sockaddr_in6.inet6(ip6: bind, port: port) }
        return try sockaddr_in.inet(ip4: bind, port: port)
    }
}

/// The process's memory.
enum Memory {
    /// Returns the memory freed by the last build to the system (glibc keeps it otherwise); nothing elsewhere.
    static func giveBack() {
        blog_give_back_memory()
    }
}
