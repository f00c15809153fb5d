import BlogCore
import Foundation

/// What the content folder holds: posts and the other files (assets), by path relative to it.
package struct ContentInventory: Sendable, Equatable {
    /// Markdown files (`*.md`, `*.markdown`, any case), relative to the content folder,
    /// `/`-separated, sorted in byte order; but inside a TextBundle only its `text.md`, and not a
    /// README at the top (see ``PageBundle``).
    package var posts: [String]
    /// Every other regular file, the same way.
    package var assets: [String]
    /// The folders named `*.textbundle` (not those inside another), the same way.
    package var textBundles: [String]
    /// What was skipped, and why: symbolic links leading out of the blog folder, nowhere, or into a loop, and
    /// file names that are not valid UTF-8.
    package var warnings: [Diagnostic] = []
    /// The real path of every folder the scan read, the content folder first: while none of them
    /// changes (a folder's times move when an entry is added, removed or renamed), nor do the
    /// lists above.
    package var folders: [String] = []
    /// How many symbolic links the scan followed: what a followed link leads to may be outside the folders
    /// `blog serve` watches.
    package var linksFollowed = 0

    /// Creates an inventory.
    package init(posts: [String] = [], assets: [String] = [], textBundles: [String] = []) {
        self.posts = posts
        self.assets = assets
        self.textBundles = textBundles
    }
}

/// Lists a content folder.
package enum ContentScanner {
    /// File extensions (lower-cased) of posts.
    package static let postExtensions: Set<String> = ["md", "markdown"]

    /// Every `*.md` and `*.markdown` under `directory`, recursively (extension in any case), is a
    /// post, but for a TextBundle's other markdown files and a README at the top (see
    /// ``PageBundle/readsAsPost(_:folder:textBundle:)``); every other regular file is an asset.
    /// Hidden files and folders (name starting with `.`) are skipped.
    ///
    /// A symbolic link is followed when it leads to a file or folder inside `blogFolder` or the content folder
    /// (people link a shared image folder into `content/`); what it leads to is listed under the link's own
    /// name. A link that leads out of them, nowhere, or into a folder it is in (a loop) is skipped with a
    /// warning naming it (the rule of ``BlogBoundary``), as is a file whose name is not valid UTF-8 (no URL
    /// could name it).
    /// - Parameters:
    ///   - directory: the content folder.
    ///   - displayPath: how messages name it (`content`).
    ///   - blogFolder: the folder links may lead into; by default `directory` itself.
    /// - Throws: ``BuildFailure`` naming `displayPath` when the folder is missing or unreadable.
    package static func scan(_ directory: URL, displayPath: String, blogFolder: URL? = nil) throws -> ContentInventory {
        let fm = FileManager.default
        let rootPath = directory.path
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: rootPath, isDirectory: &isDirectory) else {
            throw BuildFailure([.error("content folder \(displayPath)/ not found")])
        }
        guard isDirectory.boolValue else {
            throw BuildFailure([.error(displayPath, "expected a folder of posts, found a file")])
        }
        // The content folder as blog.yml names it is read even when it is a link (to a folder of posts kept
        // elsewhere); links under it follow the rule of BlogBoundary.
        let boundary = BlogBoundary([blogFolder ?? directory, directory])
        var inventory = ContentInventory()
        // Each folder's context is the outermost TextBundle it is in, if any.
        let walk = try boundary.walk(rootPath, shown: displayPath, context: String?.none, folder: { entry, textBundle in
            if textBundle == nil, PageBundle.isTextBundle(entry.name[...]) {
                inventory.textBundles.append(entry.relative)
                return entry.relative
            }
            return textBundle
        }, file: { entry, textBundle in
            add(entry.relative, name: entry.name, folder: entry.folder, textBundle: textBundle, to: &inventory)
        })
        inventory.folders = walk.folders
        inventory.warnings = walk.warnings
        inventory.linksFollowed = walk.linksFollowed
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

    /// The index of the first path of `sorted` (in byte order, as a scan lists them) that does not come before
    /// `name`; `sorted.count` when none.
    package static func firstIndex(notBefore name: String, in sorted: [String]) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if bytesPrecede(sorted[middle], name) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether `a` comes before `b` in byte order: memcmp of their UTF-8, where a generic
    /// `lexicographicallyPrecedes` over the UTF-8 views goes a byte at a time through their indices.
    package static func bytesPrecede(_ a: String, _ b: String) -> Bool {
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
}
