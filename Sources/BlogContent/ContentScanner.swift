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
    /// Hidden files and folders (name starting with `.`) are skipped. A symbolic link is followed only when it points to a regular file inside
    /// the folder (it is listed under its own name); links to folders and links leading out of
    /// the folder are skipped. Throws ``BuildFailure`` naming `displayPath` when the folder is
    /// missing or unreadable.
    public static func scan(_ directory: URL, displayPath: String) throws -> ContentInventory {
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
        var inventory = ContentInventory()
        // Each folder with the outermost TextBundle it is in, if any.
        var pending: [(path: String, relative: String, textBundle: String?)] = [(rootPath, "", nil)]
        while let (folder, relativeFolder, textBundle) = pending.popLast() {
            guard let entries = FolderEntries.of(folder) else {
                let shown = relativeFolder.isEmpty ? displayPath : join(displayPath, relativeFolder)
                throw BuildFailure([.error(shown, "cannot read the folder: \(String(cString: strerror(errno)))")])
            }
            for (name, type) in entries where !name.hasPrefix(".") {
                let path = folder + "/" + name
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                // Not FileManager's attributes: those also look up the owner's name, which cost a
                // connection to the name service per file.
                switch type {
                case S_IFDIR:
                    if textBundle == nil, PageBundle.isTextBundle(name[...]) {
                        inventory.textBundles.append(relative)
                        pending.append((path, relative, relative))
                    } else {
                        pending.append((path, relative, textBundle))
                    }
                case S_IFREG:
                    add(relative, name: name, folder: relativeFolder, textBundle: textBundle, to: &inventory)
                case S_IFLNK:
                    // Only a link to a regular file that stays inside the folder.
                    let target = resolved(path)
                    var targetStatus = stat()
                    guard target.hasPrefix(realRoot + "/"), stat(target, &targetStatus) == 0,
                          (targetStatus.st_mode & S_IFMT) == S_IFREG else { continue }
                    add(relative, name: name, folder: relativeFolder, textBundle: textBundle, to: &inventory)
                default:
                    continue  // sockets, pipes, devices
                }
            }
        }
        inventory.posts.sort(by: bytesPrecede)
        inventory.assets.sort(by: bytesPrecede)
        inventory.textBundles.sort(by: bytesPrecede)
        return inventory
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
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    /// `path` with every symbolic link resolved (`realpath`).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }
}
