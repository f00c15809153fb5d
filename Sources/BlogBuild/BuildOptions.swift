import BlogCore
import BlogSite
import BlogOutput
import Foundation

/// What `blog build` and `blog list` are asked to do.
public struct BuildOptions: Sendable {
    /// The blog folder: holds `blog.yml`, `content/` and maybe `themes/`.
    var source: URL
    /// How to show the blog folder in messages (`""` for the working folder, else `path/`).
    var sourceDisplay: String
    /// The output folder from the command line (relative to the working folder), overriding `output` of blog.yml.
    var output: String?
    /// `--base-url`, overriding `base_url` of blog.yml.
    var baseURL: String?
    /// `--relative-urls`: links relative to each page, overriding `relative_urls` of blog.yml when true.
    public var relativeURLs = false
    /// Include drafts.
    var drafts: Bool
    /// Include posts dated in the future.
    var future: Bool
    /// Warnings fail the build (`--strict`, for CI): nothing is written.
    public var strict: Bool = false
    /// The build's "now".
    var now: Date
    /// Use the incremental layer (its state in `cache_dir`, see BlogIncremental);
    /// `blog build --no-cache` turns it off: everything is built, no state is read or written.
    public var cache: Bool = true
    /// The `blog` version the state is made by: a state of another version is not used.
    var version: String = blogVersion
    /// With the incremental layer, patch post bodies into the published site when nothing else
    /// changed (a build in place); tests of the full build with the layer turn it off.
    var quick: Bool = true
    /// Free the site's memory when the build returns. The `blog` command, which exits right
    /// after, turns it off: freeing a 10,000-post site's half a million values one by one takes
    /// a tenth of a second, and the exit gives the memory back at once.
    public var releasesMemory: Bool = true
    /// The process builds again after this build (`blog serve`): it keeps what the next build can
    /// use in memory (each post's rendered markdown).
    public var buildsAgain: Bool = false
    /// The output folder and `cacheFolder` are the process's own (`blog serve`'s private folder): only its builds write
    /// them, so a build trusts what the process's last build saved about the published files.
    public var privateOutput: Bool = false
    /// The folder of the build's state and lock, overriding `cache_dir` of blog.yml: `blog serve` keeps its
    /// own in its private folder.
    public var cacheFolder: String?
    /// What `blog serve`'s watcher saw change since the last build; nil when it cannot tell (and for any other
    /// build).
    public var changes: WatchedChanges?

    /// The blog folder, and how messages name it.
    var folder: BlogFolder { BlogFolder(url: source, display: sourceDisplay) }

    /// The build's "now": `SOURCE_DATE_EPOCH` (seconds since 1970, the reproducible-builds
    /// convention) when the environment sets it, else the clock. Only the cut-off for future posts
    /// depends on it; nothing in the output reads the clock.
    public static func defaultNow(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            return Date(timeIntervalSince1970: TimeInterval(epoch))
        }
        return Date()
    }

    /// Options for the blog folder `source` as the user named it.
    public init(source: String = ".", output: String? = nil, baseURL: String? = nil, drafts: Bool = false,
                future: Bool = false, now: Date = BuildOptions.defaultNow()) {
        let folder = BlogFolder(source)
        self.source = folder.url
        self.sourceDisplay = folder.display
        self.output = output
        self.baseURL = baseURL
        self.drafts = drafts
        self.future = future
        self.now = now
    }
}

/// The paths a watcher saw change, exactly: with them a build of `blog serve` keeps the last list of the content
/// folder and looks only at the post files named (see BlogIncremental's `BuildMemo`).
public struct WatchedChanges: Sendable {
    /// Every path (absolute) under `content` that changed since the watcher's last list, editors' scratch files
    /// included.
    public var paths: [String]
    /// The content folder, watched with everything in it.
    public var content: String
    /// When the list was closed (nanoseconds since 1970, by the clock that dates file changes): a change before
    /// it is in this list or an earlier one.
    public var before: Int64

    public init(paths: [String], content: String, before: Int64) {
        self.paths = paths
        self.content = content
        self.before = before
    }
}

/// The outcome of a build.
public struct BuildReport: Sendable {
    /// Posts with a page.
    public var posts: Int
    /// Pages (posts of kind `page`: no date, in no list) with a page.
    public var contentPages: Int
    /// The drafts and future posts left out (``LeftOut/note(asServeAsked:)`` says so).
    public var leftOut = LeftOut()
    /// Tags with a page.
    public var tags: Int
    /// HTML pages rendered.
    public var pages: Int
    /// Files written and left unchanged.
    public var files: WriteReport
    /// The output folder, as shown to the user.
    public var output: String
    /// Warnings about the input, and notes (``Diagnostic/Severity/note``) about what it made the build do.
    public var warnings: [Diagnostic]
    /// Seconds spent in each stage, in order (`blog build --timings` prints them).
    public var timings: [(stage: String, seconds: Double)]
    /// Whether the build was done in place, or why not (`blog build --timings` prints it); nil
    /// with `--no-cache`.
    public var cacheSummary: String?
}
