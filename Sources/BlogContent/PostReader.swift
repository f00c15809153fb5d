import BlogCore
import Foundation

/// Reads one post file into a ``Post``: text checked and normalised, header split and resolved
/// (title, date, tags, slug, status...), every problem reported with its file, line and column.
package enum PostReader {
    /// The revision of the reading rules. Bump it when the same file reads into another post (a
    /// header rule changed): build states made under other rules are then not
    /// used, though the `blog` version is the same.
    /// 1: Pelican headers as Python-Markdown's meta extension reads them.
    /// 2: a TextBundle's first `# heading` is its title when its header has none.
    package static let rulesRevision = 2

    /// The most tags (and the most categories) a post may have: each tag's page lists the post with all its tags,
    /// so pages grow with the square of their number (10,000 tags made 10,000 pages of 10,000 links, 3 GB of
    /// memory and minutes of work).
    package static let maxTags = 1_000

    /// The most bytes a post file may hold, 100 MB: a post twice the size of the longest book is a mistake (a
    /// log or a dump saved as `.md`), and reading it whole would hold several times its size in memory. Checked
    /// before the file is read: a 2.5 GB file took 7 GB of memory and 17 s to be refused for its nesting.
    package static let maxFileSize = 100_000_000

    /// The most bytes of container prefix (spaces, tabs, `>`, list markers) before a body line's text. Each level
    /// of block quote or list costs markdown's parser a check on every later line of the block, so 50,000 nested
    /// `>` or list levels take minutes; 1,000 bytes allow 250 levels and more than any post needs.
    package static let maxNesting = 1_000

    /// The most characters a title may have. A title is repeated in every list, feed and term page that shows its
    /// post, and in its page's head: a title of a million characters with 500 tags wrote 1.5 GB. A longer title is
    /// an error rather than cut with a warning: no title is meant to be that long (it is a body or a broken header),
    /// and a cut one would be published, and named in URLs, as nobody wrote it.
    package static let maxTitle = 1_000

    /// The most bytes a post may be repeated over the pages and feeds of its tags, categories and authors: its
    /// bytes times their number. Each term's page lists the post (title, summary, the first paragraph when it has no
    /// summary) and its feed carries it whole, so without a bound a post of 100 MB with 1,000 tags would write
    /// hundreds of GB; with it, what a post adds to the site is bounded as its size is (``maxFileSize``, a post
    /// with one term).
    package static let maxRepeated = maxFileSize

    /// The first line of `body` (0-based) whose container prefix (spaces, tabs, `>`, and list markers `-`, `*`, `+`,
    /// `1.`, `1)` followed by a space) is longer than ``maxNesting`` bytes.
    static func tooDeeplyNested(_ body: String) -> Int? {
        var body = body
        return body.withUTF8 { bytes -> Int? in
            var line = 0
            var index = 0
            let count = bytes.count
            while index < count {
                // The prefix of the line that starts at `index`.
                var prefix = 0
                scan: while index < count, prefix <= maxNesting {
                    switch bytes[index] {
                    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ">"):
                        index += 1
                        prefix += 1
                    case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"):
                        guard index + 1 < count, bytes[index + 1] == UInt8(ascii: " ") || bytes[index + 1] == UInt8(ascii: "\t") else { break scan }
                        index += 2
                        prefix += 2
                    case UInt8(ascii: "0")...UInt8(ascii: "9"):
                        var end = index
                        while end < count, end - index < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                        guard end + 1 < count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"),
                              bytes[end + 1] == UInt8(ascii: " ") || bytes[end + 1] == UInt8(ascii: "\t") else { break scan }
                        prefix += end + 2 - index
                        index = end + 2
                    default:
                        break scan
                    }
                }
                if prefix > maxNesting { return line }
                // On to the next line: memchr rather than a loop over the bytes, which read every
                // byte of every post through a bounds check (27 M instructions for 1,000 posts).
                guard index < count, let newline = memchr(bytes.baseAddress! + index, 0x0A, count - index) else { return nil }
                index = bytes.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                line += 1
            }
            return nil
        }
    }

    /// Reads one post. `source` is the path shown in messages and stored in `Post.source`
    /// (e.g. `content/posts/a.md`). Throws ``BuildFailure`` (errors and warnings); returns the
    /// post and its warnings.
    /// `contentPath` is the file's path under `content/` (`pages/about.md`): a file under `pages/`,
    /// and a Hugo section page `_index.md`, is a page rather than a post. It defaults to `source`.
    /// `bundle` says whether the file is its folder's post (see ``PageBundle``), named by its
    /// folder; by default, what its name says (a README counting as alone in its folder).
    package static func read(data: Data, source: String, contentPath: String? = nil, bundle: Bool? = nil,
                             timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        try checkSize(data.count, source: source)
        let text = try SourceText.decode(data, path: source)
        let (header, headerWarnings) = try FrontMatterParser.parse(text, path: source)
        let path = contentPath ?? Post.contentPath(ofSource: source)
        var resolver = Resolver(header: header, source: source, contentPath: path,
                                bundle: bundle ?? PageBundle.isBundle(path), timeZone: timeZone, size: data.count)
        resolver.diagnostics = headerWarnings
        resolver.text = text
        let post = resolver.resolve()
        let diagnostics = resolver.diagnostics.sortedForDisplay()
        if diagnostics.hasErrors { throw BuildFailure(diagnostics) }
        return (post!, diagnostics)
    }

    /// Reads the post in the file at `url` (see ``read(data:source:contentPath:bundle:timeZone:)``).
    package static func read(fileAt url: URL, source: String, contentPath: String? = nil, bundle: Bool? = nil,
                             timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        try read(filePath: url.path, source: source, contentPath: contentPath, bundle: bundle, timeZone: timeZone)
    }

    /// Reads the post in the file at the file-system path `path`: a build reading every post joins the
    /// content folder's path and each post's as text (a URL appended and read back cost 22M instructions
    /// for 1,000 posts).
    package static func read(filePath path: String, source: String, contentPath: String? = nil, bundle: Bool? = nil,
                             timeZone: TimeZone) throws -> (Post, [Diagnostic]) {
        try read(data: contents(ofPath: path, source: source), source: source, contentPath: contentPath, bundle: bundle,
                 timeZone: timeZone)
    }

    /// The bytes of the post file at `url`; throws when it can't be read, or is over ``maxFileSize`` (checked
    /// before it is read).
    package static func contents(of url: URL, source: String) throws -> Data {
        try contents(ofPath: url.path, source: source)
    }

    /// The bytes of the post file at the file-system path `path` (see ``contents(of:source:)``).
    package static func contents(ofPath path: String, source: String) throws -> Data {
        try contentsAndStatus(ofPath: path, source: source).data
    }

    /// ``contents(ofPath:source:)``, and the status of the file the bytes were read from, taken from the open file after
    /// they were read (a change while they were read shows in its change time); nil when the bytes were read another
    /// way (not a regular file when opened).
    package static func contentsAndStatus(ofPath path: String, source: String) throws -> (data: Data, status: stat?) {
        // A regular file is read with open, fstat and read: Data(contentsOf:) cost 12 k instructions a file, and
        // URL's path as many again. Anything else (a failure, a folder, a pipe) goes the way it always did, for
        // the same messages.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            var status = stat()
            if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                try checkSize(Int(status.st_size), source: source)
                if let data = readAll(fd, size: Int(status.st_size)) { return (data, fstat(fd, &status) == 0 ? status : nil) }
            }
        }
        var status = stat()
        if stat(path, &status) == 0 { try checkSize(Int(status.st_size), source: source) }
        do {
            return (try Data(contentsOf: URL(fileURLWithPath: path)), nil)
        } catch {
            throw BuildFailure([.error(source, "cannot read the file: \(reason(error))")])
        }
    }

    /// The `size` bytes of the open file `fd`, or nil when a read fails or the file is not that size.
    private static func readAll(_ fd: Int32, size: Int) -> Data? {
        // Read into memory of its own that the Data takes over: Data(count:) zeroed every byte first.
        guard let buffer = malloc(max(size, 1)) else { return nil }
        var done = 0
        while done < size {
            let n = readBytes(fd, buffer + done, size - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                free(buffer)
                return nil
            }
            done += n
        }
        // The end of the file, where fstat said.
        var probe: UInt8 = 0
        guard readBytes(fd, &probe, 1) == 0 else {
            free(buffer)
            return nil
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    /// Throws when a post of `size` bytes is over ``maxFileSize``.
    static func checkSize(_ size: Int, source: String) throws {
        guard size > maxFileSize else { return }
        throw BuildFailure([.error(source, "this post is \(ByteSize.text(size)): a post may be at most \(ByteSize.text(maxFileSize)); is it a post?")])
    }

    package static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return ns.localizedDescription
    }
}

/// POSIX `read`, which `PostReader.read` hides inside the enum.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
