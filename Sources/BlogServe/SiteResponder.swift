import BlogCore
import Foundation

/// What the preview server answers for a request into a built site folder: plain values, no sockets, so every
/// rule is testable on its own.
///
/// - `GET` and `HEAD`; any other method is `405`.
/// - URLs are the site's, under the base path of `base_url` (`/blog/` serves the folder's root at `/blog/`);
///   a URL outside the base path is `404`.
/// - A folder URL serves its `index.html`; `/x` when `x/` is a folder redirects (`301`) to `/x/`.
/// - A path with a `..` or `.` segment, raw or percent-encoded (`%2e%2e`), a NUL byte or a backslash is refused
///   (`400`): nothing outside the folder can be named.
/// - A missing file gets the site's `404.html` with status `404`.
/// - `ETag` and `Last-Modified` come from the file's size, time and inode; `If-None-Match` or
///   `If-Modified-Since` that still hold give `304`.
/// - HTML responses get the live-reload script before `</body>` (only here: built files never have it).
struct SiteResponder: Sendable {
    /// A request, as far as serving files goes.
    struct Request: Sendable {
        var method: String
        /// The path as sent, still percent-encoded (`/blog/a%20b/`).
        var path: String
        var headers: [String: String] = [:]

        /// The value of header `name` (case-insensitive).
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// A response: status, headers, body (empty for `HEAD`, whose `Content-Length` is the `GET` body's).
    struct Response: Sendable, Equatable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// The built site.
    var folder: URL
    /// The base path of `base_url`, starting and ending with `/`.
    var basePath: String
    /// What goes before `</body>` of every HTML page (the live-reload script tag); empty for none.
    var injection: String

    /// The response to `request`.
    func respond(to request: Request) -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.plain(405, "method not allowed: the preview serves GET and HEAD\n", extra: ["Allow": "GET, HEAD"], head: false)
        }
        let head = request.method == "HEAD"
        let rawPath = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        guard let decoded = rawPath.removingPercentEncoding, decoded.hasPrefix("/") else {
            return Self.plain(400, "bad request: the path is not a valid URL path\n", head: head)
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { PathSafety.isDotSegment($0) || $0.contains("\0") || $0.contains("\\") }) {
            return Self.plain(400, "bad request: a path may not hold `..`, `.`, NUL or `\\`\n", head: head)
        }
        // The site lives under the base path: /blog/ and /blog (redirected) are its root.
        let inSite: Substring
        if decoded == String(basePath.dropLast()), basePath != "/" {
            return redirect(to: basePath, head: head)
        } else if decoded.hasPrefix(basePath) {
            inSite = decoded.dropFirst(basePath.count)
        } else {
            return notFound(head: head)
        }
        let relative = inSite.split(separator: "/").joined(separator: "/")
        var file = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else { return notFound(head: head) }
        if isFolder.boolValue {
            guard decoded.hasSuffix("/") else {
                return redirect(to: rawPath + "/", head: head)
            }
            file = file.appendingPathComponent("index.html")
            guard FileManager.default.fileExists(atPath: file.path) else { return notFound(head: head) }
        }
        return serve(file, status: 200, request: request, head: head)
    }

    /// The file at `file` with `status`, or `304` when the client's copy is current.
    private func serve(_ file: URL, status: Int, request: Request, head: Bool) -> Response {
        guard let stat = FileInfo(file.path), var data = FileManager.default.contents(atPath: file.path) else {
            return Self.plain(500, "cannot read \(file.lastPathComponent)\n", head: head)
        }
        let type = ContentTypes.type(ofFile: file.lastPathComponent)
        let html = type.hasPrefix("text/html")
        // The injected script is part of what the client holds, so it is part of the tag.
        let tag = "\"\(String(stat.size, radix: 16))-\(String(stat.modified, radix: 16))-\(String(stat.inode, radix: 16))\(html && !injection.isEmpty ? "-r" : "")\""
        var headers = ["Content-Type": type, "ETag": tag, "Last-Modified": HTTPDate.format(seconds: stat.modified / 1_000_000_000),
                       "Cache-Control": "no-cache"]
        if status == 200, notModified(request, tag: tag, modified: stat.modified / 1_000_000_000) {
            return Response(status: 304, headers: headers, body: Data())
        }
        if html, !injection.isEmpty { data = LiveReload.inject(injection, into: data) }
        headers["Content-Length"] = String(data.count)
        return Response(status: status, headers: headers, body: head ? Data() : data)
    }

    /// Whether the client's `If-None-Match` (or, without it, `If-Modified-Since`) says its copy is current.
    private func notModified(_ request: Request, tag: String, modified: Int64) -> Bool {
        if let match = request.header("If-None-Match") {
            return match.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*" }
        }
        if let since = request.header("If-Modified-Since"), let seconds = HTTPDate.parse(since) {
            return modified <= seconds
        }
        return false
    }

    private func notFound(head: Bool) -> Response {
        let page = folder.appendingPathComponent("404.html")
        if FileManager.default.fileExists(atPath: page.path) {
            return serve(page, status: 404, request: Request(method: "GET", path: ""), head: head)
        }
        return Self.plain(404, "not found\n", head: head)
    }

    private func redirect(to location: String, head: Bool) -> Response {
        Self.plain(301, "moved to \(location)\n", extra: ["Location": location], head: head)
    }

    /// A plain-text response (its body left out for `HEAD`).
    static func plain(_ status: Int, _ text: String, extra: [String: String] = [:], head: Bool = false) -> Response {
        let body = Data(text.utf8)
        let headers = extra.merging(["Content-Type": "text/plain; charset=utf-8", "Content-Length": String(body.count)]) { a, _ in a }
        return Response(status: status, headers: headers, body: head ? Data() : body)
    }
}

/// A file's size, modification time (nanoseconds since 1970) and inode: what its `ETag` is made of.
struct FileInfo {
    var size: Int64
    var modified: Int64
    var inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = FileTimes.modified(info)
        inode = UInt64(info.st_ino)
    }
}

/// The `Content-Type` of a file, by its extension.
enum ContentTypes {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "xml": "application/xml", "atom": "application/atom+xml", "rss": "application/rss+xml",
        "txt": "text/plain; charset=utf-8", "md": "text/plain; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff2": "font/woff2", "woff": "font/woff", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "wasm": "application/wasm",
    ]

    /// The type of the file named `name`; `application/octet-stream` when the extension is unknown.
    static func type(ofFile name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}

/// HTTP dates (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), without the locale.
enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let weekday = days[Int((seconds / 86_400 % 7 + 7) % 7)]
        return "\(weekday), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The seconds since 1970 of an IMF-fixdate; nil for any other form.
    static func parse(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[5] == "GMT", let day = Int32(words[1]), let month = months.firstIndex(of: String(words[2])),
              let year = Int32(words[3]) else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = clock[0]
        parts.tm_min = clock[1]
        parts.tm_sec = clock[2]
        return Int64(timegm(&parts))
    }
}
