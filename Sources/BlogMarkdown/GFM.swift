import BlogCore
import CCmarkGFM
import CSystem
import Foundation

/// The process-wide cmark-gfm setup: options, the GFM extensions, and the lock that keeps parsing serial.
///
/// Every cmark-gfm parse in the process must go through `GFM.parse`, because of the lock below.
enum GFM {
    /// Footnotes on, raw HTML passes through (authors own their blogs), smart punctuation on
    /// (`parse(_:tables:smart:)` takes it off: cmark applies it while parsing, not rendering).
    static let options: Int32 = CMARK_OPT_FOOTNOTES | CMARK_OPT_UNSAFE | CMARK_OPT_SMART

    /// Serialises `cmark_parser_feed` and `cmark_parser_finish`, for every parser in the process.
    ///
    /// cmark-gfm keeps the table of special inline characters (`~` for strikethrough, `:` and `w`
    /// for autolinks) in a global array. `cmark_parser_finish` adds the attached extensions'
    /// characters before parsing inlines and removes them after, so two parsers at once remove
    /// each other's characters and `<del>`/`<a>` go missing. `MarkdownConcurrencyTests` shows it:
    /// without the lock roughly 5-20% of its 200 documents differed from the serial run in every round.
    ///
    /// What the lock covers: in the installed 0.29.0.gfm.6 only `cmark_parser_finish` touches the
    /// array (checked in the disassembly; a lock around it alone also gave 0 differences), but
    /// later releases' table extension does the same add/remove while parsing each table row,
    /// which happens in `cmark_parser_feed`, so feed is inside too. Nothing else touches the
    /// array: creating and freeing parsers, editing trees and rendering HTML (its table and
    /// footnote state lives in each renderer) all stay outside and run in parallel. Measured on
    /// the sample blogs (cmark only): feed 28%, finish 58%, render 14% of the time.
    ///
    /// blog's executable defines `cmark_manage_extensions_special_characters` itself (CSystem), the
    /// function through which `cmark_parser_finish` adds and removes the characters: it keeps
    /// additions and drops removals. Every parser of blog attaches the same extensions, so the
    /// table then only ever holds the same values, and once the first parse shows that definition
    /// in use (`blog_cmark_removals_dropped`), parsing no longer takes the lock.
    static let parseLock = NSLock()

    /// Parses `markdown` with the GFM extensions (all but the table extension when `tables` is false), with curly
    /// quotes, dashes and ellipses when `smart`. The caller owns the returned document and must free it with `cmark_node_free`.
    ///
    /// `footnotes` nil: cmark's footnotes only where the text may hold one (``mayHoldFootnotes(_:)``); true: always.
    /// `emails` nil: the autolink extension's e-mail postprocess only where the text may hold an address
    /// (``mayHoldEmailAddresses(_:)``); true: always.
    static func parse(
        _ markdown: String, tables: Bool = true, smart: Bool = true, footnotes: Bool? = nil, emails: Bool? = nil
    ) -> OpaquePointer {
        var text = markdown
        text.makeContiguousUTF8()
        var parseOptions = smart ? options : options & ~CMARK_OPT_SMART
        if !(footnotes ?? text.withUTF8(mayHoldFootnotes)) { parseOptions &= ~CMARK_OPT_FOOTNOTES }
        // cmark's allocator aborts when memory runs out, so a parser and a document always come back.
        guard let parser = cmark_parser_new_with_mem(parseOptions, memory) else {
            preconditionFailure("cmark_parser_new failed")
        }
        defer { cmark_parser_free(parser) }
        let extensions = Extensions.shared
        let autolink = (emails ?? text.withUTF8(mayHoldEmailAddresses)) ? extensions.parsing[2] : extensions.autolinkWithoutEmails
        for (index, extensionPointer) in extensions.parsing.enumerated() where tables || index != 0 {
            cmark_parser_attach_syntax_extension(parser, index == 2 ? autolink : extensionPointer)
        }
        let run = { () -> OpaquePointer in
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
            }
            guard let document = cmark_parser_finish(parser) else { preconditionFailure("cmark_parser_finish failed") }
            return document
        }
        // Once blog's own cmark_manage_extensions_special_characters is known to be in use (it keeps
        // the characters in the table: see CSystem), parsers run at once; until then, one at a time.
        if blog_cmark_removals_dropped() != 0 { return run() }
        return parseLock.withLock(run)
    }

    /// Whether cmark-gfm's footnotes could change how `bytes` parse: they hold a `^`, or a `[` before a `&`.
    /// With footnotes on, cmark-gfm walks the whole tree twice more after parsing it (to find the definitions,
    /// then the references: ~17 M instructions of 1,000 posts, issue 32), whether or not there is one. A
    /// definition starts `[^`; a reference is a bracket whose text starts with `^`: a `^` in the text, escaped
    /// (`\^`), or a character reference (`[&#94;x]`, `[&Hat;x]`, which cmark-gfm 0.29 writes as `[^^` then).
    static func mayHoldFootnotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if ByteSearch.firstIndex(of: UInt8(ascii: "^"), in: bytes, from: 0) != nil { return true }
        var from = 0
        while let bracket = ByteSearch.firstIndex(of: UInt8(ascii: "["), in: bytes, from: from) {
            if bracket + 1 < bytes.count, bytes[bracket + 1] == UInt8(ascii: "&") { return true }
            from = bracket + 1
        }
        return false
    }

    /// Whether cmark-gfm's autolink postprocess could find an e-mail address in the text nodes of `bytes`' tree: they
    /// hold an `@`, or a character reference that can be one (`&#64;`, `&#x40;`, `&commat;`: every one starts `&#` or
    /// is `&commat;`, the only named reference to `@`). Without one, the postprocess (a consolidation of the text nodes
    /// that `cmark_parser_finish` has just made, then a walk of the tree looking for `@` in each text: ~34 M
    /// instructions of 1,000 posts, issue 32) changes nothing, and the parse attaches ``Extensions/autolinkWithoutEmails``.
    static func mayHoldEmailAddresses(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if ByteSearch.firstIndex(of: UInt8(ascii: "@"), in: bytes, from: 0) != nil { return true }
        var from = 0
        while let ampersand = ByteSearch.firstIndex(of: UInt8(ascii: "&"), in: bytes, from: from) {
            let next = ampersand + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "#") { return true }
            if bytes.count - next >= commat.count, commat.indices.allSatisfy({ bytes[next + $0] == commat[$0] }) { return true }
            from = next
        }
        return false
    }

    /// The named character reference to `@` after its `&`.
    private static let commat = Array("commat;".utf8)

    /// `node` and its descendants as HTML; with `tagfilter`, raw `<script>`, `<iframe>` and the
    /// other tags GFM disallows are escaped.
    static func html(_ node: OpaquePointer, tagfilter: Bool) -> String {
        let list = tagfilter ? Extensions.shared.renderingWithTagfilter : Extensions.shared.rendering
        let memory = memory
        guard let cString = cmark_render_html_with_mem(node, options, list.pointer, memory) else { return "" }
        defer { memory.pointee.free(cString) }
        // cmark-gfm's HTML is valid UTF-8 when its input is, but for a cut it may make (an autolink ending
        // inside a character): checked once (``ValidUTF8``), and repaired as before when it is not.
        let length = strlen(cString)
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            ValidUTF8.string(UnsafeBufferPointer(start: $0, count: length))
        } ?? String(cString: cString)
    }

    /// What cmark allocates with on this thread: the thread's arena inside ``withArena(sized:_:)``, else malloc.
    static var memory: UnsafeMutablePointer<cmark_mem> {
        inArena ? arena : cmark_get_default_mem_allocator()
    }

    /// The longest markdown parsed in the arena (see ``withArena(sized:_:)``): a post of 60,000
    /// headings (7.6 MB) peaked at 480 MB in the arena against 399 MB through malloc.
    static let arenaLimit = 256 * 1024

    /// Whether this thread is inside ``withArena(sized:_:)``.
    static var inArena: Bool { blog_arena_active() != 0 }

    /// The allocator of the arena (CSystem's `blog_arena_*`), which lives as long as the process.
    private nonisolated(unsafe) static let arena: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(to: cmark_mem(calloc: blog_arena_calloc, realloc: blog_arena_realloc, free: blog_arena_free))
        return memory
    }()

    /// `body`, with what cmark allocates on this thread (parsers, trees, nodes made with
    /// ``CmarkNode/make(_:)``, rendered HTML) taken from the thread's arena and all given back at
    /// once when it returns: no node or parser made inside may be used after it. A post's parse,
    /// passes and render allocate and free some 500 blocks; through malloc they cost 265M of the
    /// 1,000-post benchmark blog's 2,886M instructions.
    ///
    /// The arena gives nothing back before the end (a grown buffer leaves its old copy behind), so
    /// a document of more than ``arenaLimit`` bytes is made with malloc, which reuses what it frees:
    /// `sized` is the markdown's length.
    static func withArena<T>(sized size: Int, _ body: () -> T) -> T {
        guard size <= arenaLimit else { return body() }
        blog_arena_enter()
        defer { blog_arena_leave() }
        return body()
    }

    /// The registered GFM extensions, looked up once. They live as long as the process, and cmark
    /// only reads them (and the lists below) while parsing and rendering, so threads share them.
    struct Extensions: @unchecked Sendable {
        /// The shared instance, created on first use (Swift runs the initialiser once).
        static let shared = Extensions()

        /// Attached to every parser: table (first), strikethrough, autolink (third: see ``autolinkWithoutEmails``), tasklist.
        let parsing: [OpaquePointer]
        /// The autolink extension without its postprocess (the e-mail addresses, which it finds after parsing): an
        /// extension of blog's own, made by cmark-gfm's `create_autolink_extension` (so its inline matcher for `www.`
        /// and `scheme://` links and its special characters are the registered one's), never registered, and changed
        /// only here, before any parser sees it. Attached in place of `parsing[2]` to texts without an e-mail address
        /// (``GFM/mayHoldEmailAddresses(_:)``).
        let autolinkWithoutEmails: OpaquePointer
        /// Passed to the HTML renderer, which calls the extensions' filters (none of these has one).
        let rendering: List
        /// `rendering` plus `tagfilter`.
        let renderingWithTagfilter: List

        /// A `cmark_llist` of extensions, never freed (it lives as long as the process).
        struct List {
            /// The head of the list.
            let pointer: UnsafeMutablePointer<cmark_llist>?

            init(_ extensions: [OpaquePointer]) {
                var head: UnsafeMutablePointer<cmark_llist>?
                for extensionPointer in extensions {
                    head = cmark_llist_append(cmark_get_default_mem_allocator(), head, UnsafeMutableRawPointer(extensionPointer))
                }
                pointer = head
            }
        }

        private init() {
            cmark_gfm_core_extensions_ensure_registered()
            func find(_ name: String) -> OpaquePointer {
                guard let found = cmark_find_syntax_extension(name) else {
                    fatalError("cmark-gfm has no '\(name)' extension: is libcmark-gfm-extensions installed?")
                }
                return found
            }
            parsing = ["table", "strikethrough", "autolink", "tasklist"].map(find)
            guard let autolink = create_autolink_extension() else { fatalError("cmark-gfm made no autolink extension") }
            cmark_syntax_extension_set_postprocess_func(autolink, nil)
            autolinkWithoutEmails = autolink
            rendering = List(parsing)
            renderingWithTagfilter = List(parsing + [find("tagfilter")])
        }
    }
}
