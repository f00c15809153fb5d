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
    }

    /// The files of a new blog, relative to its folder: `blog.yml`, a welcome post, `.gitignore` and a CI workflow.
    /// - Parameter now: the welcome post's date (in UTC, the new blog's time zone).
    static func files(now: Date) -> [(path: String, text: String)] {
        let date = DateText.day(now, in: TimeZone(identifier: "UTC")!)
        return [
            ("blog.yml", StarterFiles.config),
            ("content/posts/welcome.md", StarterFiles.welcomePost(date: date)),
            (".gitignore", StarterFiles.gitignore),
            (".github/workflows/publish.yml", StarterFiles.workflow),
        ]
    }

    /// Writes a new blog into `folder` (made when missing).
    ///
    /// A folder that holds anything but hidden entries (such as `.git`) is refused unless `force`; even then,
    /// no file that exists is overwritten.
    /// - Parameters:
    ///   - folder: the blog folder.
    ///   - display: how messages name the folder (`blog`, `.`).
    ///   - force: write into a folder that is not empty, keeping its files.
    ///   - now: the welcome post's date.
    /// - Throws: ``BuildFailure`` when the folder is refused or a file can't be written.
    public static func create(in folder: URL, display: String, force: Bool, now: Date) throws -> Report {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw BuildFailure([.error(display, "expected a folder for the new blog, but this is a file")])
            }
            let visible = ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            if !visible.isEmpty, !force {
                let shown = visible.prefix(3).joined(separator: ", ") + (visible.count > 3 ? ", …" : "")
                throw BuildFailure([.error(display, "the folder is not empty (\(shown)); choose an empty or new folder, or use --force to add the files that are missing (no file is overwritten)")])
            }
        }
        var report = Report(written: [], kept: [])
        for (path, text) in files(now: now) {
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
        return report
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
