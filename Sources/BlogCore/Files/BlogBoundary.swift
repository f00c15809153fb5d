import Foundation

/// The one rule for symbolic links in the files a build reads (posts and assets under `content/`, the
/// theme's `templates/`, `static/` and `shortcodes/`, the blog's `shortcodes/`, Jekyll's `_config.yml` and
/// `_data/`): a path is read only when its real path (every link on it resolved, as `realpath` does) is
/// inside the blog folder. What it leads to is then read under the path's own name, and copied into the
/// output as bytes, never as a link, so a link text that means one file beside the source cannot mean
/// another beside the output. A link leading out of the blog folder, nowhere, or into a folder it is in
/// (a loop) is skipped with a warning naming it.
package struct BlogBoundary: Sendable {
    /// The real paths of the folders whose files may be read: the blog folder, and a folder that
    /// `blog.yml` places elsewhere (the content folder, say).
    package let folders: [String]

    /// The folders `folders`, which may themselves be links (a content folder linked in).
    package init(_ folders: [URL]) {
        self.folders = folders.map { Self.realPath($0.path) ?? $0.standardizedFileURL.path }
    }

    /// Where a path leads.
    package enum Resolution: Equatable, Sendable {
        /// Inside the boundary: the real path, and its type (`S_IFREG`, `S_IFDIR`, ...).
        case inside(String, type: mode_t)
        /// Out of the boundary, to this real path, of this type.
        case outside(String, type: mode_t)
        /// Inside the boundary, but to a hidden file or folder (a name on the way from the blog folder starts
        /// with `.`: `.git/config`, `.env`), which a build never reads: a link in a guest post must not publish
        /// the credentials a CI checkout keeps in `.git/config`.
        case hidden(String, type: mode_t)
        /// A link on the path leads nowhere, or into a loop of links.
        case nowhere
        /// Nothing is at the path (no file, no link).
        case missing
    }

    /// Where `path` (absolute) leads, every link on it resolved.
    package func resolve(_ path: String) -> Resolution {
        var status = stat()
        guard let real = Self.realPath(path), stat(real, &status) == 0 else {
            return lstat(path, &status) == 0 ? .nowhere : .missing
        }
        let type = status.st_mode & S_IFMT
        let within = folders.filter { PathSafety.isInside(real, $0) }
        if within.isEmpty { return .outside(real, type: type) }
        let hidden = within.allSatisfy { folder in
            real.dropFirst(folder.count).split(separator: "/").contains { $0.hasPrefix(".") }
        }
        return hidden ? .hidden(real, type: type) : .inside(real, type: type)
    }

    /// Whether the real path `real` is one of ``folders`` or inside one.
    package func contains(_ real: String) -> Bool {
        folders.contains { PathSafety.isInside(real, $0) }
    }

    /// `path` with every symbolic link resolved (`realpath`); nil when it leads nowhere or loops.
    package static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The warning for a path shown as `shown` that is not read: it leads out of the boundary or nowhere;
    /// nil when it is read, or when nothing is there. `isLink`: the path's last name is the link (else a
    /// folder on the way is).
    package static func skipped(_ shown: String, _ resolution: Resolution, isLink: Bool = true) -> Diagnostic? {
        let link = isLink ? "this symbolic link" : "a symbolic link on this path"
        switch resolution {
        case .inside, .missing:
            return nil
        case .nowhere:
            return .warning(shown, "skipped: \(link) leads nowhere, or into a loop of links")
        case .outside(let real, _):
            return .warning(shown, "skipped: \(link) leads out of the blog folder, to \(real); only links to files and folders inside it are followed")
        case .hidden(let real, _):
            return .warning(shown, "skipped: \(link) leads to \(real), a hidden file or folder (a name starting with `.`), which a build never reads")
        }
    }

    /// Whether the last name of `path` is a symbolic link.
    package static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// One file or folder met by ``walk(_:shown:context:wants:folder:file:)``.
    package struct Entry {
        /// Its name.
        package var name: String
        /// Its path from the folder walked, `/`-separated.
        package var relative: String
        /// The path of the folder it is in, from the folder walked (`""` at the top).
        package var folder: String
        /// Its path, absolute (the link's own when it is one).
        package var path: String
        /// Its real path: no link on it (for a link, what it leads to).
        package var real: String
        /// `S_IFREG` or `S_IFDIR` (a link's target's).
        package var type: mode_t
    }

    /// What a walk found besides its entries.
    package struct Walk {
        /// The real path of every folder read, the folder walked first: while none of them changes (a folder's
        /// times move when an entry is added, removed or renamed), nor do the entries.
        package var folders: [String] = []
        /// The links skipped, and the names that are not valid UTF-8.
        package var warnings: [Diagnostic] = []
        /// How many links were followed (the walked folder itself not counted).
        package var linksFollowed = 0
    }

    /// Walks the folder `root` (absolute; shown as `shown`): every regular file and folder under it that is
    /// not hidden (name starting with `.`), with the links on the way resolved by the rule above, each folder's
    /// entries in the order the file system gives them. `root` itself follows the rule too; when nothing is
    /// there, nothing is walked.
    ///
    /// Not FileManager's enumerator: it looks up each file's owner, and its links follow no rule.
    /// - Parameters:
    ///   - context: the value the top folder's entries get.
    ///   - wants: whether an entry of a folder with the given context is read at all (one that is not is left
    ///     out without a word, even when it is a link leading out).
    ///   - folder: a folder to go into, and the context of its folder; returns the context its entries get.
    ///   - file: a regular file, and the context of its folder.
    /// - Throws: ``BuildFailure`` naming a folder that cannot be read.
    package func walk<Context>(_ root: String, shown: String, context: Context,
                               wants: (_ name: String, _ type: mode_t, Context) -> Bool = { _, _, _ in true },
                               folder: (Entry, Context) -> Context, file: (Entry, Context) -> Void) throws -> Walk {
        var walk = Walk()
        let top = resolve(root)
        guard case .inside(let realRoot, type: S_IFDIR) = top else {
            if let warning = Self.skipped(shown, top, isLink: Self.isLink(root)) { walk.warnings.append(warning) }
            return walk
        }
        // Each folder with its context, and the real paths of the folders it is in (itself included), which a
        // link must not lead back into.
        var pending: [(path: String, relative: String, context: Context, within: [String])] = [(root, "", context, [realRoot])]
        while let (path, relativeFolder, context, within) = pending.popLast() {
            walk.folders.append(within.last!)
            var badNames: [String] = []
            func shownPath(_ relative: String) -> String {
                relative.isEmpty ? shown : shown.hasSuffix("/") ? shown + relative : shown + "/" + relative
            }
            guard let entries = FolderEntries.of(path, invalidNames: &badNames) else {
                throw BuildFailure([.error("cannot read the folder \(shownPath(relativeFolder)): \(String(cString: strerror(errno)))")])
            }
            for name in badNames where !name.hasPrefix(".") {
                walk.warnings.append(.warning(shownPath(relativeFolder.isEmpty ? name : relativeFolder + "/" + name),
                                              "skipped: the file name is not valid UTF-8 (shown with \u{FFFD} for the bytes that are not); rename it"))
            }
            for (name, type) in entries where !name.hasPrefix(".") {
                let parent = within.last!
                var entry = Entry(name: name, relative: relativeFolder.isEmpty ? name : relativeFolder + "/" + name,
                                  folder: relativeFolder, path: path + "/" + name,
                                  real: parent == "/" ? "/" + name : parent + "/" + name, type: type)
                if type == S_IFLNK {
                    let resolution = resolve(entry.path)
                    switch resolution {
                    case .inside(let target, let kind), .outside(let target, let kind), .hidden(let target, let kind):
                        guard wants(name, kind, context) else { continue }
                        if let warning = Self.skipped(shownPath(entry.relative), resolution) {
                            walk.warnings.append(warning)
                            continue
                        }
                        if kind == S_IFDIR, within.contains(where: { PathSafety.isInside($0, target) }) {
                            walk.warnings.append(.warning(shownPath(entry.relative), "skipped: this symbolic link leads to \(target), a folder it is in: a loop"))
                            continue
                        }
                        (entry.type, entry.real) = (kind, target)
                        walk.linksFollowed += 1
                    case .nowhere, .missing:
                        walk.warnings.append(.warning(shownPath(entry.relative), "skipped: this symbolic link leads nowhere, or into a loop of links"))
                        continue
                    }
                } else if !wants(name, type, context) {
                    continue
                }
                switch entry.type {
                case S_IFDIR:
                    pending.append((entry.path, entry.relative, folder(entry, context), within + [entry.real]))
                case S_IFREG:
                    file(entry, context)
                default:
                    continue  // sockets, pipes, devices
                }
            }
        }
        walk.warnings = walk.warnings.sortedForDisplay()
        return walk
    }
}
