import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// `blog init`: a new blog folder that builds at once.
public enum NewBlog {
    /// What `blog init` did.
    public struct Report: Sendable, Equatable {
        /// The files written, relative to the blog folder, in the order written.
        public var written: [String]
        /// The files that were there already and were left as they were (only with `force`).
        public var kept: [String]
        /// The `base_url` written into blog.yml, and where it came from.
        public var baseURL: String = ConfigLoader.initPlaceholderBaseURL
        public var baseURLSource: BaseURLSource = .placeholder
        /// Whether `git init` made the folder a repository (it was in none).
        public var madeRepository = false
    }

    /// Where the new blog's `base_url` came from.
    public enum BaseURLSource: Sendable, Equatable {
        /// `--base-url`.
        case given
        /// The GitHub Pages address of the git remote `origin`.
        case remote(String)
        /// Neither: the placeholder that `blog build --strict` refuses.
        case placeholder
    }

    /// The files of a new blog, relative to its folder: `blog.yml`, a welcome post, `.gitignore` and a CI workflow.
    /// - Parameters:
    ///   - now: the welcome post's date (in UTC, the new blog's time zone).
    ///   - baseURL: blog.yml's `base_url`.
    ///   - version: the version of blog the workflow uses.
    static func files(now: Date, baseURL: String, version: String) -> [(path: String, text: String)] {
        let date = DateText.day(now, in: TimeZone(identifier: "UTC")!)
        return [
            ("blog.yml", StarterFiles.config(baseURL: baseURL)),
            ("content/posts/welcome.md", StarterFiles.welcomePost(date: date)),
            (".gitignore", StarterFiles.gitignore),
            (".github/workflows/publish.yml", StarterFiles.workflow(version: version)),
        ]
    }

    /// The GitHub Pages address of a GitHub repository, from its git remote URL: `git@github.com:ann/notes.git`
    /// and `https://github.com/ann/notes` give `https://ann.github.io/notes/`; `ann/ann.github.io` gives
    /// `https://ann.github.io/`. Nil for any other remote.
    package static func pagesURL(remote: String) -> String? {
        var rest = remote.trimmingCharacters(in: .whitespacesAndNewlines)
        let prefixes = ["git@github.com:", "ssh://git@github.com/", "https://github.com/", "http://github.com/", "git://github.com/"]
        if let userInfo = rest.range(of: "^https://[^/@]+@github\\.com/", options: .regularExpression) {
            rest.replaceSubrange(userInfo, with: "https://github.com/")
        }
        guard let prefix = prefixes.first(where: { rest.lowercased().hasPrefix($0) }) else { return nil }
        rest = String(rest.dropFirst(prefix.count))
        while rest.hasSuffix("/") { rest.removeLast() }
        if rest.hasSuffix(".git") { rest.removeLast(4) }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(allowed.contains) }) else { return nil }
        let owner = parts[0].lowercased(), name = String(parts[1])
        if name.lowercased() == "\(owner).github.io" { return "https://\(owner).github.io/" }
        return "https://\(owner).github.io/\(name)/"
    }

    /// Writes a new blog into `folder` (made when missing), and makes it a git repository when it is in none.
    ///
    /// A folder that holds anything but hidden entries (such as `.git`) is refused unless `force`; even then,
    /// no file that exists is overwritten. `base_url` is `baseURL`, else the GitHub Pages address of the git
    /// remote `origin` of the repository the folder is in, else the placeholder `blog build --strict` refuses.
    /// - Parameters:
    ///   - folder: the blog folder.
    ///   - display: how messages name the folder (`blog`, `.`).
    ///   - force: write into a folder that is not empty, keeping its files.
    ///   - now: the welcome post's date.
    ///   - baseURL: `--base-url`, or nil.
    ///   - version: the version of blog the publish workflow uses.
    /// - Throws: ``BuildFailure`` when the folder is refused or a file can't be written.
    public static func create(in folder: URL, display: String, force: Bool, now: Date, baseURL: String? = nil,
                              version: String = "0.1.0") throws -> Report {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw BuildFailure([.error("\(display) is a file: expected a folder for the new blog")])
            }
            let visible = ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            if !visible.isEmpty, !force {
                let shown = visible.prefix(3).joined(separator: ", ") + (visible.count > 3 ? ", …" : "")
                throw BuildFailure([.error("the folder \(display) is not empty (\(shown)); choose an empty or new folder, or use --force to add the files that are missing (no file is overwritten)")])
            }
        }
        var report = Report(written: [], kept: [])
        if let baseURL {
            guard let normalized = ConfigLoader.normalizeBaseURL(baseURL) else {
                throw BuildFailure([.error("--base-url: expected a URL such as https://example.org/ or a path such as /blog/, got \"\(baseURL)\"")])
            }
            (report.baseURL, report.baseURLSource) = (normalized, .given)
        }
        let repository = Git.run(["rev-parse", "--is-inside-work-tree"], in: existingAncestor(of: folder))
        if baseURL == nil, repository?.output == "true",
           // The URL as configured: `remote get-url` would apply url.*.insteadOf rewrites.
           let remote = Git.run(["config", "--get", "remote.origin.url"], in: existingAncestor(of: folder))?.output,
           let pages = pagesURL(remote: remote) {
            (report.baseURL, report.baseURLSource) = (pages, .remote(remote))
        }
        for (path, text) in files(now: now, baseURL: report.baseURL, version: version) {
            let url = folder.appendingPathComponent(path)
            do {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard try FileCreation.create(url, contents: Data(text.utf8)) else {
                    report.kept.append(path)
                    continue
                }
            } catch {
                throw BuildFailure([.error(join(display, path), "cannot write the file: \(FileCreation.reason(error))")])
            }
            report.written.append(path)
        }
        // A folder in no repository becomes one (git missing: nothing to do, the blog builds all the same).
        if repository != nil, repository?.output != "true", Git.run(["init", "--quiet"], in: folder)?.status == 0 {
            report.madeRepository = true
        }
        return report
    }

    /// `folder`, or its nearest folder that exists.
    static func existingAncestor(of folder: URL) -> URL {
        var url = URL(fileURLWithPath: folder.path).standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url = url.deletingLastPathComponent() }
        return url
    }

    /// `path` in `folder` as messages show it.
    static func join(_ folder: String, _ path: String) -> String {
        folder.isEmpty || folder == "." ? path : (folder.hasSuffix("/") ? folder : folder + "/") + path
    }
}

/// Creating a file that must not exist yet.
enum FileCreation {
    /// Creates `url` with `contents`, unless something is there already (then returns false and writes nothing).
    /// The check and the creation are one system call (`O_CREAT | O_EXCL`), so a file can't be overwritten.
    static func create(_ url: URL, contents: Data) throws -> Bool {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 {
            if errno == EEXIST { return false }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        defer { close(fd) }
        try contents.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    unlink(url.path)
                    throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
                }
                offset += n
            }
        }
        return true
    }

    /// Creates `url` with `contents` (and its folder), or throws ``BuildFailure`` naming the file
    /// `shown`: `exists` when something is there already, else why it can't be written.
    static func createNew(_ url: URL, contents: Data, shown: String, exists: String) throws {
        let made: Bool
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            made = try create(url, contents: contents)
        } catch {
            throw BuildFailure([.error(shown, "cannot write the file: \(reason(error))")])
        }
        guard made else { throw BuildFailure([.error(shown, exists)]) }
    }

    /// A short reason for `error`, for messages.
    static func reason(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return (error as NSError).localizedDescription
    }
}

/// Runs `git`.
enum Git {
    /// `git arguments…` in `folder`: its exit status and its output, trimmed; nil when git can't be run.
    static func run(_ arguments: [String], in folder: URL) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path, isDirectory: true)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // env's 127: git is not installed.
        if process.terminationStatus == 127 { return nil }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
