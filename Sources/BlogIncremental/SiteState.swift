import BlogConfig
import BlogContent
import BlogCore
import BlogLiquid
import BlogMarkdown
import BlogRender
import BlogSite
import Foundation

/// What a finished build leaves for the next one, in the file `state` of `cache_dir` (see ``StateFolder``): enough to
/// tell from the files' sizes and times that only post bodies changed, and to put the new bodies
/// into the published pages and feeds without building the rest (see ``QuickBuild``).
struct SiteState {
    /// Everything besides the content folder that the site depends on (see ``QuickBuild/inputs``).
    var inputs: Digest
    /// When the first post now in the future falls due (seconds since 1970): from then on the
    /// site differs with no file changed.
    var dueAt: Double?
    /// Posts, pages (kind `page`), tags and HTML pages of the report.
    var postCount: Int
    var contentPageCount: Int
    /// The drafts and future posts the build left out.
    var leftOut: LeftOut
    var tagCount: Int
    var pageCount: Int
    /// Every warning of the build, in display order.
    var warnings: [Diagnostic]
    /// Every post file of the content folder, in the scanner's order.
    var posts: [PostState]
    /// Every other file of the content folder, in the scanner's order.
    var assets: [FileState]
    /// Every folder the scan of the content folder read (see ``ContentInventory/folders``), by
    /// real path; nil when the next build must scan again (the scan skipped something, or a
    /// folder changed while the build ran).
    var folders: [FileState]?
    /// Every file of the published site.
    var outputs: [OutputState]
    /// Whether the spare copy beside the output folder (the site before) has the same files.
    var spareSamePaths: Bool
    /// Indices into ``outputs`` of the files the spare copy does not share with the published
    /// site (every other file of it is a hard link to the published one); nil when unknown. A
    /// build in place then brings the spare up to date by these files alone.
    var spareDiffers: [Int]?
    /// Digest of the published site's paths, in order.
    var pathsDigest: Digest
    /// What the theme's templates show of posts' bodies (``QuickBuild/showsHeadings(_:)``), which the posts' skeletons
    /// were digested with: a build in place, whose theme files are the ones in ``inputs``, takes it from here rather
    /// than scan every template again (10 M instructions, an eighth of a body edit at 1,000 posts).
    var headings: BodyFacts
    /// The output folder, resolved.
    var output: String
}

/// A post file as the last build saw it.
struct PostState {
    var path: String
    var stat: FileStat
    var content: Digest
    /// Everything of the post but its body's rendered HTML (see ``SiteState/digest(post:rendered:headings:wordsPerMinute:)``);
    /// zero for a file that gave no post (it failed, or is a home page's `_index.md`).
    var skeleton: Digest
    /// Index into ``Site/posts``; nil for a post with no page (a draft, say).
    var index: Int?
    /// Whether a new body can be put into the site in place: false when the body has links that
    /// depend on other posts (Liquid, Pelican's `{filename}`) or a template transforms it.
    var patchable: Bool
}

/// A file of the content folder that is not a post.
struct FileState {
    var path: String
    var stat: FileStat
}

/// A file of the published site.
struct OutputState {
    var path: String
    /// Device, inode, size and modification time of the published file (its change time moves
    /// when the spare copy links to it, so it is not compared).
    var identity: FileStat
    /// Where post bodies are in it.
    var holes: [BodyHole]
    /// For a page, the digest of what it was rendered from (see ``PageInputs``); zero for other files.
    var inputs: Digest = .zero
}

extension SiteState {
    static let fileName = "state"

    /// The index of the first file of ``outputs`` that is no longer the one the last build wrote
    /// in `output` (changed, replaced or gone); nil when every one is.
    func firstReplacedOutput(in output: URL) -> Int? {
        let identities = FileStat.of(outputs.map(\.path), in: output.path, followingLinks: false)
        return outputs.indices.first { index in identities[index].map { !$0.sameFile(as: outputs[index].identity) } ?? true }
    }

    /// Digest of a post as read, without its body: of what it is read from besides the body.
    /// A post is its header's lines, its path and the reader's settings (`readerKey`); of the
    /// body, the reader only takes the summary (Jekyll's `excerpt_separator`).
    static func digest(of post: Post, file data: Data, readerKey: Digest) -> Digest {
        var input = DigestInput()
        input.add(readerKey)
        input.add(post.source)
        input.add(post.contentPath)
        input.add(post.bodyLine)
        if let summary = post.summary { input.add(1 as UInt8); input.add(summary) } else { input.add(0 as UInt8) }
        // The lines before the body.
        let end = bodyStart(in: data, bodyLine: post.bodyLine)
        input.add(data.withUnsafeBytes { Digest.of(UnsafeRawBufferPointer(rebasing: $0[0..<end])) })
        return input.digest
    }

    /// The offset in a post file's bytes of its body's first line, `bodyLine` (1-based).
    static func bodyStart(in data: Data, bodyLine: Int) -> Int {
        data.withUnsafeBytes { raw -> Int in
            var lines = bodyLine - 1
            var end = 0
            while lines > 0, end < raw.count {
                if raw[end] == UInt8(ascii: "\n") { lines -= 1 }
                end += 1
            }
            return end
        }
    }

    /// What other pages can show of a post with a page: the post without its body, its summary,
    /// whether the summary is the whole post, and what of its body the theme shows besides (``BodyFacts``).
    static func digest(post: Digest, rendered: RenderedMarkdown, headings facts: BodyFacts, wordsPerMinute: Int) -> Digest {
        var input = DigestInput()
        input.add(post)
        input.add(rendered.summaryHTML)
        input.add(rendered.summaryHTML == rendered.html ? 1 as UInt8 : 0)
        if facts.contains(.headings) {
            input.add(rendered.headings.count)
            for heading in rendered.headings {
                input.add(heading.level)
                input.add(heading.id)
                input.add(heading.text)
            }
            input.add(rendered.holdsTableOfContents ? 1 as UInt8 : 0)
        }
        if !facts.isDisjoint(with: [.words, .minutes]) {
            let words = rendered.words
            if facts.contains(.words) { input.add(words) }
            if facts.contains(.minutes) { input.add(BodyText.readingMinutes(words: words, perMinute: wordsPerMinute)) }
        }
        if facts.contains(.renderers) {
            input.add((rendered.math ? 1 : 0) + (rendered.diagrams ? 2 : 0) as UInt8)
        }
        return input.digest
    }

    /// The same for a post without a page.
    static func digest(unplaced post: Digest) -> Digest {
        var input = DigestInput()
        input.add(post)
        input.add(0xFF as UInt8)
        return input.digest
    }

    /// Whether a post's body has anything whose output depends on other files: Liquid tags in a
    /// YAML or TOML post, Pelican's `{filename}`, `{static}` and `{attach}` links, images (their
    /// sizes come from their files).
    static func linksElsewhere(_ post: Post, _ rendered: RenderedMarkdown?) -> Bool {
        linksElsewhere(post, body: post.body, rendered)
    }

    /// The same, with the post's `body` as written: a full build's posts no longer hold theirs
    /// once rendered (see Pipeline.loadSite), and their state reads it from the file.
    static func linksElsewhere(_ post: Post, body: String, _ rendered: RenderedMarkdown?) -> Bool {
        var body = body
        return body.withUTF8 { linksElsewhere(post, bodyBytes: $0, rendered) }
    }

    /// The same, with the post's body in the bytes of its file (not made a `String`: a full build's state reads
    /// every post file again).
    static func linksElsewhere(_ post: Post, bodyBytes body: UnsafeBufferPointer<UInt8>, _ rendered: RenderedMarkdown?) -> Bool {
        bodyLinksElsewhere(post, bodyBytes: body) || rendered.map(renderedLinksElsewhere) == true
    }

    /// The part of ``linksElsewhere(_:bodyBytes:_:)`` that reads the body as written: Liquid, attachments.
    static func bodyLinksElsewhere(_ post: Post, bodyBytes body: UnsafeBufferPointer<UInt8>) -> Bool {
        if post.headerFormat == .yaml || post.headerFormat == .toml {
            if Liquid.needsProcessing(bytes: body) || post.summary.map(Liquid.needsProcessing) == true { return true }
        }
        return ContentLinks.mayHoldAttachments(bytes: body)
    }

    /// The part of ``linksElsewhere(_:bodyBytes:_:)`` that reads the rendered body: images, Pelican's references.
    /// As the markdown stage found it (``BodyText/linksElsewhere``), else looked for.
    static func renderedLinksElsewhere(_ rendered: RenderedMarkdown) -> Bool {
        rendered.text?.linksElsewhere ?? searchedLinksElsewhere(rendered)
    }

    /// ``renderedLinksElsewhere(_:)`` looked for in the rendered body and summary.
    static func searchedLinksElsewhere(_ rendered: RenderedMarkdown) -> Bool {
        // An image's size comes from its file, which may change while the post does not.
        if ImageAttributes.holdsImages(rendered.html) || ImageAttributes.holdsImages(rendered.summaryHTML) { return true }
        return ContentLinks.mayHoldReferences(rendered.html) || ContentLinks.mayHoldReferences(rendered.summaryHTML)
    }

    /// What a parsed post depends on besides its file: the whole configuration (whatever of it
    /// the reader uses, now or later; `config` is its ``BlogConfig/SiteConfig/digest``), the `blog` version and the
    /// reader's rules.
    static func readerKey(config: Digest, version: String) -> Digest {
        var input = DigestInput()
        input.add(version)
        input.add(PostReader.rulesRevision)
        input.add(config)
        return input.digest
    }

    /// The reader key of one post file: `readerKey`, and whether the file is its folder's post,
    /// which for a README depends on the other files (see ``PageBundle``), not on its own.
    static func postKey(_ readerKey: Digest, bundle: Bool) -> Digest {
        guard bundle else { return readerKey }
        var input = DigestInput()
        input.add(readerKey)
        input.add("bundle")
        return input.digest
    }

    /// Digest of output paths, in order.
    static func digest(paths: [String]) -> Digest {
        var input = DigestInput()
        for path in paths { input.add(path) }
        return input.digest
    }
}

// MARK: - Bytes

/// The state in bytes, written field by field (the output folder first: see
/// ``StateFolder/stateHead()``).
extension SiteState {
    /// Writes the state's fields to `out` (the body of the state file: see ``StateFolder``).
    func encode(into out: inout StateWriter) {
        encodeHead(into: &out)
        encodeWarnings(into: &out)
        out.int(posts.count)
        for number in posts.indices { encodePost(number, into: &out) }
        out.fileStates(assets)
        encodeFolders(into: &out)
        out.int(outputs.count)
        for number in outputs.indices { encodeOutput(number, into: &out) }
        encodeTail(into: &out)
    }

    /// The fields before the warnings.
    func encodeHead(into out: inout StateWriter) {
        out.string(output)
        out.digest(inputs)
        out.bool(dueAt != nil)
        out.int(Int((dueAt ?? 0).bitPattern))
        out.int(postCount)
        out.int(contentPageCount)
        out.int(leftOut.drafts)
        out.int(leftOut.future)
        out.int(tagCount)
        out.int(pageCount)
    }

    func encodeWarnings(into out: inout StateWriter) {
        out.int(warnings.count)
        for warning in warnings {
            out.int(Self.severities.firstIndex(of: warning.severity) ?? 0)
            out.string(warning.path)
            out.int(warning.line)
            out.int(warning.column)
            out.string(warning.message)
        }
    }

    /// Post `number`: its path, then what a build in place changes (``StateLayout/posts``), then the rest.
    func encodePost(_ number: Int, into out: inout StateWriter) {
        let post = posts[number]
        out.string(post.path)
        encodePostChanges(number, into: &out)
        out.digest(post.skeleton)
        out.int(post.index ?? -1)
        out.bool(post.patchable)
    }

    /// What a build in place changes of post `number`: its file's status and its content's digest.
    func encodePostChanges(_ number: Int, into out: inout StateWriter) {
        out.stat(posts[number].stat)
        out.digest(posts[number].content)
    }

    func encodeFolders(into out: inout StateWriter) {
        out.bool(folders != nil)
        out.fileStates(folders ?? [])
    }

    /// Output file `number`: its path, then what a build in place changes (``StateLayout/outputs``).
    func encodeOutput(_ number: Int, into out: inout StateWriter) {
        out.string(outputs[number].path)
        encodeOutputChanges(number, into: &out)
    }

    /// What a build in place changes of output file `number`, to the end of its record: its identity, and its
    /// holes' places (with the rest of the record, which it does not change).
    func encodeOutputChanges(_ number: Int, into out: inout StateWriter) {
        let file = outputs[number]
        out.stat(file.identity)
        out.digest(file.inputs)
        out.int(file.holes.count)
        for hole in file.holes {
            out.int(hole.post)
            out.int(hole.offset)
            out.int(hole.length)
            switch hole.form {
            case .html: out.int(0)
            case .escaped: out.int(1)
            case .feedXML(let base): out.int(2); out.string(base)
            case .feedJSON(let base): out.int(3); out.string(base)
            case .searchText: out.int(4)
            }
        }
    }

    /// The fields after the outputs: the spare's, the paths' digest, the body facts.
    func encodeTail(into out: inout StateWriter) {
        out.bool(spareSamePaths)
        out.bool(spareDiffers != nil)
        out.int(spareDiffers?.count ?? 0)
        for index in spareDiffers ?? [] { out.int(index) }
        out.digest(pathsDigest)
        out.int(Int(headings.rawValue))
    }

    init(decoding raw: UnsafeRawBufferPointer) throws {
        var layout: StateLayout?
        try self.init(decoding: raw, recording: false, layout: &layout)
    }

    /// Decodes the state; when `recording`, `layout` is where its sections and records are in `raw`.
    init(decoding raw: UnsafeRawBufferPointer, recording records: Bool, layout: inout StateLayout?) throws {
        var reader = StateReader(raw: raw)
        output = try reader.string()
        inputs = try reader.digest()
        let hasDue = try reader.bool()
        let due = Double(bitPattern: UInt64(bitPattern: Int64(try reader.int())))
        dueAt = hasDue ? due : nil
        postCount = try reader.int()
        contentPageCount = try reader.int()
        leftOut = LeftOut(drafts: try reader.int(), future: try reader.int())
        tagCount = try reader.int()
        pageCount = try reader.int()
        let warningsStart = reader.position
        warnings = []
        for _ in 0..<(try reader.count()) {
            let severity = try reader.int()
            guard Self.severities.indices.contains(severity) else { throw StateError("unknown severity") }
            let path = try reader.string(), line = try reader.int(), column = try reader.int()
            warnings.append(Diagnostic(Self.severities[severity], path: path, line: line, column: column, try reader.string()))
        }
        let warningsEnd = reader.position
        posts = []
        var postChanges: [Int] = []
        var postChangesLength = 0
        for _ in 0..<(try reader.count()) {
            let path = try reader.string()
            if records { postChanges.append(reader.position) }
            let stat = try reader.stat()
            let content = try reader.digest()
            if records { postChangesLength = reader.position - postChanges.last! }
            let skeleton = try reader.digest()
            let index = try reader.int()
            posts.append(PostState(path: path, stat: stat, content: content, skeleton: skeleton,
                                   index: index < 0 ? nil : index, patchable: try reader.bool()))
        }
        assets = try reader.fileStates()
        let foldersStart = reader.position
        let knowsFolders = try reader.bool()
        let folders = try reader.fileStates()
        self.folders = knowsFolders ? folders : nil
        let foldersEnd = reader.position
        outputs = []
        var outputChanges: [Range<Int>] = []
        for _ in 0..<(try reader.count()) {
            let path = try reader.string()
            let changesStart = reader.position
            let identity = try reader.stat()
            let inputs = try reader.digest()
            var holes: [BodyHole] = []
            for _ in 0..<(try reader.count()) {
                let post = try reader.int(), offset = try reader.int(), length = try reader.int()
                let form: BodyForm
                switch try reader.int() {
                case 0: form = .html
                case 1: form = .escaped
                case 2: form = .feedXML(base: try reader.string())
                case 3: form = .feedJSON(base: try reader.string())
                case 4: form = .searchText
                default: throw StateError("unknown body form")
                }
                holes.append(BodyHole(post: post, offset: offset, length: length, form: form))
            }
            outputs.append(OutputState(path: path, identity: identity, holes: holes, inputs: inputs))
            if records { outputChanges.append(changesStart..<reader.position) }
        }
        let tailStart = reader.position
        spareSamePaths = try reader.bool()
        let knowsDifferences = try reader.bool()
        var differs: [Int] = []
        for _ in 0..<(try reader.count()) {
            let index = try reader.int()
            guard outputs.indices.contains(index) else { throw StateError("a spare file out of range") }
            differs.append(index)
        }
        spareDiffers = knowsDifferences ? differs : nil
        pathsDigest = try reader.digest()
        guard let facts = UInt8(exactly: try reader.int()) else { throw StateError("body facts out of range") }
        headings = BodyFacts(rawValue: facts)
        guard reader.atEnd else { throw StateError("bytes after the state") }
        if records {
            layout = StateLayout(length: raw.count, head: 0..<warningsStart, warnings: warningsStart..<warningsEnd, posts: postChanges,
                                 postChangesLength: postChangesLength,
                                 folders: foldersStart..<foldersEnd, outputs: outputChanges, tail: tailStart)
        }
    }

    /// Severities by their number in the bytes.
    private static let severities: [Diagnostic.Severity] = [.error, .warning, .note]
}

/// Where the sections and records of a state's bytes (the body of its file) are, for a build in place to write
/// only what it changed over them (see ``StateFolder/saveState(_:over:posts:outputs:)``).
struct StateLayout {
    /// The body's length.
    var length: Int
    var head: Range<Int>
    var warnings: Range<Int>
    /// For each post, where the fields ``SiteState/encodePostChanges(_:into:)`` writes start.
    var posts: [Int]
    /// How many bytes they take (the same for every post).
    var postChangesLength: Int
    var folders: Range<Int>
    /// For each output file, the bytes ``SiteState/encodeOutputChanges(_:into:)`` writes.
    var outputs: [Range<Int>]
    /// Where the fields ``SiteState/encodeTail(into:)`` writes start; they run to the end.
    var tail: Int
}

/// Why a state's bytes can't be read.
struct StateError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Writes a state's fields as bytes: little-endian integers, length-prefixed strings. They go
/// into a small buffer, handed to `sink` each time it fills and at ``flush()``: a 50,000-post state
/// is 19 MB, which a buffer of the whole state and copies of it would add to the build's peak of
/// memory (the state is written last, while the whole site is still held).
struct StateWriter {
    private var buffer: [UInt8]
    private var count = 0
    private let sink: (UnsafeRawBufferPointer) -> Void

    /// A writer that hands its bytes to `sink`, in order, `chunk` bytes at a time (or one field
    /// longer than that).
    init(chunk: Int = 1 << 16, to sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        buffer = [UInt8](repeating: 0, count: chunk)
        self.sink = sink
    }

    /// Hands the bytes written since the last flush to the sink.
    mutating func flush() {
        let count = count
        buffer.withUnsafeBytes { sink(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        self.count = 0
    }

    /// Room for `size` more bytes.
    private mutating func reserve(_ size: Int) {
        guard count + size > buffer.count else { return }
        flush()
        if size > buffer.count { buffer = [UInt8](repeating: 0, count: size) }
    }

    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }
    mutating func u64(_ value: UInt64) {
        reserve(8)
        let at = count
        buffer.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt64.self) }
        count += 8
    }
    mutating func bool(_ value: Bool) {
        reserve(1)
        buffer[count] = value ? 1 : 0
        count += 1
    }
    mutating func digest(_ value: Digest) { u64(value.high); u64(value.low) }
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            reserve(utf8.count)
            let at = count
            buffer.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[at..<at + utf8.count]).copyMemory(from: UnsafeRawBufferPointer(utf8)) }
            count += utf8.count
        }
    }
    mutating func stat(_ value: FileStat) {
        u64(value.device); u64(value.inode)
        int(Int(value.size)); int(Int(value.mtime)); int(Int(value.ctime))
    }
    /// A list of files with their states (the content's other files, its folders).
    mutating func fileStates(_ files: [FileState]) {
        int(files.count)
        for file in files {
            string(file.path)
            stat(file.stat)
        }
    }
}

struct StateReader {
    let raw: UnsafeRawBufferPointer
    var position = 0

    var atEnd: Bool { position == raw.count }

    mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, raw.count - position >= count else { throw StateError("the state ends too early") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: raw[position..<position + count])
    }
    mutating func u64() throws -> UInt64 {
        UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))
    }
    mutating func u32() throws -> UInt32 {
        let b = try take(4)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }
    mutating func int() throws -> Int { Int(truncatingIfNeeded: Int64(bitPattern: try u64())) }
    /// A count of items that each take at least a byte.
    mutating func count() throws -> Int {
        let value = try int()
        guard value >= 0, value <= raw.count - position else { throw StateError("a count is too big") }
        return value
    }
    mutating func bool() throws -> Bool { try take(1)[0] != 0 }
    mutating func digest() throws -> Digest { Digest(high: try u64(), low: try u64()) }
    mutating func string() throws -> String { String(decoding: try take(try count()), as: UTF8.self) }
    mutating func stat() throws -> FileStat {
        FileStat(device: try u64(), inode: try u64(), size: Int64(try int()), mtime: Int64(try int()), ctime: Int64(try int()))
    }
    /// A list written by ``StateWriter/fileStates(_:)``.
    mutating func fileStates() throws -> [FileState] {
        try (0..<(try count())).map { _ in FileState(path: try string(), stat: try stat()) }
    }
}

/// What of a post's body templates can show besides the body and summary: each is part of the post's skeleton
/// (``SiteState/digest(post:rendered:headings:wordsPerMinute:)``) when a template names it, and a change to it then needs more
/// than a build in place.
struct BodyFacts: OptionSet {
    let rawValue: UInt8
    /// `headings`, `toc`, `toc_html`, `show_toc`.
    static let headings = BodyFacts(rawValue: 1)
    /// `words`.
    static let words = BodyFacts(rawValue: 2)
    /// `reading_minutes`.
    static let minutes = BodyFacts(rawValue: 4)
    /// `has_math`, `has_diagrams`: which scripts a page loads.
    static let renderers = BodyFacts(rawValue: 8)
    static let all: BodyFacts = [.headings, .words, .minutes, .renderers]

    /// The names of each.
    static let names: [(BodyFacts, Set<String>)] = [
        (.headings, ["headings", "toc", "toc_html", "show_toc"]), (.words, ["words"]), (.minutes, ["reading_minutes"]),
        (.renderers, ["has_math", "has_diagrams"]),
    ]
}
