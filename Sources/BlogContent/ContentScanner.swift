import BlogCore
import Foundation

/// What the content folder holds: posts and the other files (assets), by path relative to it.
public struct ContentInventory: Sendable, Equatable {
    /// Markdown files (`*.md`, `*.markdown`, any case), relative to the content folder,
    /// `/`-separated, sorted in byte order; but inside a TextBundle only its `text.md`, and not a
    /// README at the top (see ``PageBundle``).
    public var posts: [String]
    /// Every other regular file, the same way.
    public var assets: [String]
    /// The folders named `*.textbundle` (not those inside another), the same way.
    public var textBundles: [String]
    /// What was skipped, and why: symbolic links leading out of the blog folder, nowhere, or into a loop, and
    /// file names that are not valid UTF-8.
    public var warnings: [Diagnostic] = []
    /// The real path of every folder the scan read, the content folder first: while none of them
    /// changes (a folder's times move when an entry is added, removed or renamed), nor do the
    /// lists above.
    public var folders: [String] = []

    /// Creates an inventory.
    public init(posts: [String] = [], assets: [String] = [], textBundles: [String] = []) {
        self.posts = posts
        self.assets = assets
        self.textBundles = textBundles
    }
}

/// Lists a content folder.
public enum ContentScanner {
    /// File extensions (lower-cased) of posts.
    public static let postExtensions: Set<String> = ["md", "markdown"]

    /// Every `*.md` and `*.markdown` under `directory`, recursively (extension in any case), is a
    /// post, but for a TextBundle's other markdown files and a README at the top (see
    /// ``PageBundle/readsAsPost(_:folder:textBundle:)``); every other regular file is an asset.
    /// Hidden files and folders (name starting with `.`) are skipped.
    ///
    /// A symbolic link is followed when it leads to a file or folder inside `blogFolder` (people link a shared
    /// image folder into `content/`); what it leads to is listed under the link's own name. A link that leads
    /// out of the blog folder, nowhere, or into a folder it is in (a loop) is skipped with a warning naming it, as
    /// is a file whose name is not valid UTF-8 (no URL could name it).
    /// - Parameters:
    ///   - directory: the content folder.
    ///   - displayPath: how messages name it (`content`).
    ///   - blogFolder: the folder links may lead into; by default `directory` itself.
    /// - Throws: ``BuildFailure`` naming `displayPath` when the folder is missing or unreadable.
    public static func scan(_ directory: URL, displayPath: String, blogFolder: URL? = nil) throws -> ContentInventory {
        let fm = FileManager.default
        let rootPath = directory.path
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: rootPath, isDirectory: &isDirectory) else {
            throw BuildFailure([.error(displayPath, "content folder not found")])
        }
        guard isDirectory.boolValue else {
            throw BuildFailure([.error(displayPath, "expected a folder of posts, found a file")])
        }
        let realRoot = resolved(rootPath)
        let realBlog = blogFolder.map { resolved($0.path) } ?? realRoot
        var inventory = ContentInventory()
        // Each folder with the outermost TextBundle it is in, if any, and the real paths of the folders it is in
        // (itself included), which a link must not lead back into.
        var pending: [(path: String, relative: String, textBundle: String?, within: [String])] = [(rootPath, "", nil, [realRoot])]
        while let (folder, relativeFolder, textBundle, within) = pending.popLast() {
            inventory.folders.append(within.last!)
            var badNames: [String] = []
            guard let entries = FolderEntries.of(folder, invalidNames: &badNames) else {
                let shown = relativeFolder.isEmpty ? displayPath : join(displayPath, relativeFolder)
                throw BuildFailure([.error(shown, "cannot read the folder: \(String(cString: strerror(errno)))")])
            }
            for name in badNames where !name.hasPrefix(".") {
                let shown = join(displayPath, relativeFolder.isEmpty ? name : relativeFolder + "/" + name)
                inventory.warnings.append(.warning(shown, "skipped: the file name is not valid UTF-8 (shown with � for the bytes that are not); rename it"))
            }
            for (name, type) in entries where !name.hasPrefix(".") {
                let path = folder + "/" + name
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                var kind = type
                var real: String?
                if type == S_IFLNK {
                    let shown = join(displayPath, relative)
                    var targetStatus = stat()
                    guard let target = resolvedIfExists(path), stat(target, &targetStatus) == 0 else {
                        inventory.warnings.append(.warning(shown, "skipped: this symbolic link leads nowhere, or into a loop of links"))
                        continue
                    }
                    guard target == realBlog || target.hasPrefix(realBlog == "/" ? "/" : realBlog + "/") else {
                        inventory.warnings.append(.warning(shown, "skipped: this symbolic link leads out of the blog folder, to \(target); only links to files and folders inside it are followed"))
                        continue
                    }
                    kind = targetStatus.st_mode & S_IFMT
                    real = target
                    if kind == S_IFDIR, within.contains(where: { target == $0 || $0.hasPrefix(target + "/") }) {
                        inventory.warnings.append(.warning(shown, "skipped: this symbolic link leads to \(target), a folder it is in: a loop"))
                        continue
                    }
                }
                // Not FileManager's attributes: those also look up the owner's name, which cost a
                // connection to the name service per file.
                switch kind {
                case S_IFDIR:
                    let inside = within + [real ?? resolvedFolder(within.last!, name)]
                    if textBundle == nil, PageBundle.isTextBundle(name[...]) {
                        inventory.textBundles.append(relative)
                        pending.append((path, relative, relative, inside))
                    } else {
                        pending.append((path, relative, textBundle, inside))
                    }
                case S_IFREG:
                    add(relative, name: name, folder: relativeFolder, textBundle: textBundle, to: &inventory)
                default:
                    continue  // sockets, pipes, devices
                }
            }
        }
        inventory.posts.sort(by: bytesPrecede)
        inventory.assets.sort(by: bytesPrecede)
        inventory.textBundles.sort(by: bytesPrecede)
        inventory.warnings = inventory.warnings.sortedForDisplay()
        return inventory
    }

    /// The real path of the folder `name` in the folder whose real path is `parent` (it is no link).
    private static func resolvedFolder(_ parent: String, _ name: String) -> String {
        parent == "/" ? "/" + name : parent + "/" + name
    }

    /// Lists the file `relative`, named `name`, of the folder `folder` (relative too).
    static func add(_ relative: String, name: String, folder: String, textBundle: String?, to inventory: inout ContentInventory) {
        if PageBundle.readsAsPost(name[...], folder: folder, textBundle: textBundle) {
            inventory.posts.append(relative)
        } else {
            inventory.assets.append(relative)
        }
    }

    /// Whether `a` comes before `b` in byte order: memcmp of their UTF-8, where a generic
    /// `lexicographicallyPrecedes` over the UTF-8 views goes a byte at a time through their indices.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        // Native strings are contiguous UTF-8: compared in place, with no copy of either.
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
        return (fast ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// `path` with every symbolic link resolved (`realpath`); `path` itself when that fails.
    static func resolved(_ path: String) -> String {
        resolvedIfExists(path) ?? path
    }

    /// `path` with every symbolic link resolved (`realpath`); nil when it leads nowhere or loops.
    static func resolvedIfExists(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }
}
