import BlogCore
import Foundation

/// Posts that are their folder's: named by the folder (slug, and date from a `YYYY-MM-DD-` prefix),
/// with the folder's other files, sub-folders included, copied beside their page.
///
/// - A Hugo leaf bundle's `index.md` (`my-post/index.md`; not `_index.md`, a section page).
/// - A TextBundle's `text.md` or `text.markdown` (Ulysses, Bear, iA Writer:
///   `2019-11-04-title.textbundle/`, pictures in `assets/`). Only that file of the bundle is a post;
///   every other one is part of the bundle, and its `info.json` is not published.
/// - A `README.md` with no other post file in its folder or below it, in no Hugo bundle: GitHub
///   shows a folder's README as the folder's page. A README beside other posts (a folder's table
///   of contents) or inside a Hugo bundle is an ordinary post; one at the top of the content
///   folder describes the folder and is not published.
///
/// Names are matched in any case (`INDEX.md`, `ReadMe.markdown`, `Text.md`, `X.TextBundle`), as
/// Hugo, GitHub and macOS's case-insensitive disks do.
package enum PageBundle {
    /// What makes a post file its folder's post, from its path alone.
    enum Role: Equatable {
        /// `index.md`: always its folder's post.
        case index
        /// A TextBundle's `text.md`: always its folder's post.
        case text
        /// `README.md`: its folder's post when alone there (see ``Folders/contains(_:)``).
        case readme
    }

    /// The role of the post file at `path` (under `content/`), or nil when its name gives none or
    /// it is not in a folder.
    static func role(of path: String) -> Role? {
        guard let slash = path.lastSlash, path.startIndex < slash,
              let stem = postStem(path[path.index(after: slash)...]) else { return nil }
        if stem.equalsIgnoringCase("index") { return .index }
        if stem.equalsIgnoringCase("readme") { return .readme }
        if stem.equalsIgnoringCase("text") { return isTextBundle(lastName(path[..<slash])) ? .text : nil }
        return nil
    }

    /// A file's name without its extension, when the extension is a post's, in any case
    /// (`README.md` -> `README`); nil for any other file.
    static func postStem(_ name: Substring) -> Substring? {
        guard let dot = name.lastDot, dot != name.startIndex,
              case let ext = name[name.index(after: dot)...],
              ContentScanner.postExtensions.contains(where: { ext.equalsIgnoringCase($0) }) else { return nil }
        return name[..<dot]
    }

    /// The last name of a `/`-separated path.
    static func lastName(_ path: Substring) -> Substring {
        path[(path.lastSlash.map(path.index(after:)) ?? path.startIndex)...]
    }

    /// Which post files of one content folder are their folder's posts.
    package struct Folders: Sendable {
        /// Every post file, in byte order.
        let posts: [String]
        /// The folders made bundles by their `index.md`.
        let indexed: Set<Substring>

        /// The bundles among `posts`, every post file of the content folder in byte order
        /// (``ContentInventory/posts``): a README's role depends on the others.
        package init(posts: [String]) {
            self.posts = posts
            var indexed = Set<Substring>()
            for path in posts {
                // Most names can't be `index.*`: look no further at them.
                guard let slash = path.lastSlash, let first = path.utf8[path.utf8.index(after: slash)...].first,
                      first | 0x20 == UInt8(ascii: "i"), role(of: path) == .index else { continue }
                indexed.insert(path[..<slash])
            }
            self.indexed = indexed
        }

        /// Whether the post file at `path` is its folder's post. A README is when no other post
        /// file is in its folder or below it, and no folder above it is a bundle by its
        /// `index.md` (whose files, as in Hugo, the README's folder's are).
        package func contains(_ path: String) -> Bool {
            switch role(of: path) {
            case nil: return false
            case .index, .text: return true
            case .readme:
                let slash = path.lastSlash!
                // Paths under the folder are one run of the sorted list: the README alone in it.
                let prefix = String(path[...slash])
                let low = ContentScanner.firstIndex(notBefore: prefix, in: posts)
                guard posts[low...].prefix(2).filter({ $0.utf8.starts(with: prefix.utf8) }).count <= 1 else { return false }
                var folder = path[..<slash]
                while let up = folder.lastSlash {
                    folder = folder[..<up]
                    if indexed.contains(folder) { return false }
                }
                return true
            }
        }
    }

    /// Whether `path` names a bundle's post by its name alone, a README counting as alone in its
    /// folder and in no other bundle: for a post read without the list of the others.
    static func isBundle(_ path: String) -> Bool { role(of: path) != nil }

    /// The name a bundle's folder gives its post: `2019-11-04-title.textbundle` -> `2019-11-04-title`.
    static func postName(ofFolder folder: String) -> String {
        isTextBundle(folder[...]) ? String(folder.dropLast(textBundleSuffix.count)) : folder
    }

    static let textBundleSuffix = ".textbundle"

    /// Whether a folder's name is a TextBundle's (`x.textbundle`, any case).
    static func isTextBundle(_ name: Substring) -> Bool {
        name.utf8.count > textBundleSuffix.utf8.count && name.hasSuffixIgnoringCase(textBundleSuffix)
    }

    /// Whether the file `name`, of the folder `folder` (under `content/`, `""` at its top), is
    /// read as a post: a markdown file (``ContentScanner/postExtensions``), but inside a
    /// TextBundle (`textBundle`, the outermost one the file is in) only the bundle's `text.md` or
    /// `text.markdown`, and not a README at the top of the content folder (it describes the folder).
    static func readsAsPost(_ name: Substring, folder: String, textBundle: String?) -> Bool {
        guard let stem = postStem(name) else { return false }
        if let textBundle { return folder == textBundle && stem.equalsIgnoringCase("text") }
        return !(folder.isEmpty && stem.equalsIgnoringCase("readme"))
    }

    /// Whether the file at `path` (under `content/`) is one that is not published though it is not
    /// a post: a TextBundle's `info.json` (the editor's settings) and a README at the top of the
    /// content folder.
    package static func isUnpublished(_ path: String) -> Bool {
        guard let slash = path.lastSlash else { return isContentReadme(path) }
        let name = path[path.index(after: slash)...]
        return name.utf8.count == 9 && name.hasSuffixIgnoringCase("info.json") && isTextBundle(lastName(path[..<slash]))
    }

    /// `README.md` (any case, any post extension) at the top of the content folder.
    static func isContentReadme(_ path: String) -> Bool {
        path.lastSlash == nil && postStem(path[...])?.equalsIgnoringCase("readme") == true
    }

    /// Warnings about what of the content folder is not read as its editor or generator would:
    /// a README at its top (not published), a TextBundle without a markdown text (its files are
    /// copied as they are), a TextPack (a zipped TextBundle, copied as a file). `display` names
    /// the content folder (`content`).
    package static func warnings(_ inventory: ContentInventory, display: String) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        let texts = inventory.textBundles.isEmpty ? []
            : Set(inventory.posts.filter { role(of: $0) == .text }.map { $0.folderPart })
        for folder in inventory.textBundles where !texts.contains(folder) {
            warnings.append(.warning("\(display)/\(folder): a TextBundle without text.md or text.markdown: blog reads markdown only, so it makes no post; its files are copied as they are"))
        }
        for asset in inventory.assets {
            if isContentReadme(asset) {
                warnings.append(.warning(display + "/" + asset, "a README at the top of the content folder describes the folder: it is not published; rename it or move it into a folder of its own to make it a post"))
            } else if asset.utf8.count > 9, asset.hasSuffixIgnoringCase(".textpack") {
                warnings.append(.warning(display + "/" + asset, "a TextPack (a zipped TextBundle) is not read: it is copied as a file; unzip it into a .textbundle folder to make it a post"))
            }
        }
        return warnings
    }
}

extension StringProtocol {
    /// Whether the text ends with `suffix`, lower-case ASCII, in any case.
    func hasSuffixIgnoringCase(_ suffix: String) -> Bool {
        // The contiguous bytes of both (every file of the content folder is asked, on one core): the UTF-8 views'
        // iterators cost ~1,600 instructions a name.
        let answer = utf8.withContiguousStorageIfAvailable { bytes in
            suffix.utf8.withContiguousStorageIfAvailable { suffix in
                guard bytes.count >= suffix.count else { return false }
                let start = bytes.count - suffix.count
                for index in suffix.indices {
                    let (a, b) = (bytes[start + index], suffix[index])
                    if a != b && !(a >= UInt8(ascii: "A") && a <= UInt8(ascii: "Z") && a + 0x20 == b) { return false }
                }
                return true
            }
        }
        if let answer, let answer { return answer }
        return hasSuffixIgnoringCaseByView(suffix)
    }

    /// ``hasSuffixIgnoringCase(_:)`` through the UTF-8 views, for text whose bytes are not contiguous.
    func hasSuffixIgnoringCaseByView(_ suffix: String) -> Bool {
        let tail = utf8.suffix(suffix.utf8.count)
        guard tail.count == suffix.utf8.count else { return false }
        return zip(tail, suffix.utf8).allSatisfy { a, b in
            a == b || (a >= UInt8(ascii: "A") && a <= UInt8(ascii: "Z") && a + 0x20 == b)
        }
    }

    /// Whether the text is `word`, lower-case ASCII, in any case.
    func equalsIgnoringCase(_ word: String) -> Bool {
        utf8.count == word.utf8.count && hasSuffixIgnoringCase(word)
    }
}
