import BlogCore
import CSystem
import Foundation

/// The output folder of a build and the folders the build keeps beside it, checked before anything
/// is touched, so that a build replaces, prunes and deletes nothing else:
///
/// - none of them is reached through a symbolic link: the folder that holds the output folder is
///   resolved once, and a link where the output folder, the staging folder or the spare copy belongs
///   is an error naming it (what it points to is never touched);
/// - a build replaces only a folder that a build of blog wrote (``markerName`` is in it), or an
///   empty one (see ``checkOwner(writtenBefore:)``);
/// - an output folder that is a mount point can't be renamed: the staging folder is then inside it,
///   no spare copy is kept, and the new site replaces its entries one by one (see ``SiteWriter``).
package struct OutputFolder {
    /// The output folder, in the folder that holds it as resolved once.
    package let url: URL
    /// How messages name it.
    package let display: String
    /// Whether it exists (as a folder).
    let exists: Bool
    /// Whether it is a mount point (another file system, or a bind mount), which can't be renamed.
    let isMountPoint: Bool
    /// Where the new site is written before it is published: beside the output folder, or inside it
    /// when it is a mount point.
    let staging: URL
    /// The site before the published one, beside the output folder; nil for a mount point (see
    /// ``SiteWriter``).
    let spare: URL?
    /// Whether the spare copy is there, a folder.
    var hasSpare: Bool { spare.map { FileKind.of($0.path) == S_IFDIR } ?? false }

    /// The file every build leaves in the output folder: a folder that holds it is one that blog
    /// may replace.
    package static let markerName = ".blog-output"
    /// What it says to whoever finds it.
    static let markerText = """
        This folder is the output of `blog build`: each build replaces what it holds, but its hidden entries.
        blog builds only into a folder that holds this file, or an empty one.

        """

    /// The first words of ``markerName`` as `blog init --from` leaves it in an output folder that
    /// holds the site of the blog's former generator: the author's word that a build may replace it
    /// (see ``recordReplaceable(_:site:)``).
    package static let replaceableHeader = "blog init --from:"

    /// Records in `folder`, an output folder that holds a site blog did not write (`site`, such as
    /// `the Pelican site`), that a build may replace it: ``markerName`` starting with
    /// ``replaceableHeader``; the next build replaces it and says so. Nothing is written (nil) when
    /// the folder is missing, a link, empty (hidden entries aside) or holds ``markerName`` already;
    /// else the number of entries it holds.
    package static func recordReplaceable(_ folder: URL, site: String) -> Int? {
        guard FileKind.of(folder.path) == S_IFDIR, let entries = FolderEntries.of(folder.path),
              !entries.contains(where: { $0.name == markerName }) else { return nil }
        let visible = entries.filter { !$0.name.hasPrefix(".") }.count
        guard visible > 0 else { return nil }
        let text = """
            \(replaceableHeader) this folder holds \(site) (\(visible) entries), which blog did not write; `blog init --from`
            recorded that `blog build` may replace it. The next build does, says so, and leaves its own mark here.

            """
        return (try? SiteWriter.create(folder.appendingPathComponent(markerName).path, with: Data(text.utf8))) == nil ? nil : visible
    }

    /// The output folder `output`, named `display` in messages. Throws when it is a file, or when it,
    /// the staging folder or the spare copy is a symbolic link.
    package static func locate(_ output: URL, display: String) throws -> OutputFolder {
        let standard = output.standardizedFileURL
        let parent = URL(fileURLWithPath: PathSafety.resolved(standard.deletingLastPathComponent()), isDirectory: true)
        let url = parent.appendingPathComponent(standard.lastPathComponent)
        try FileKind.refuseLink(url.path, display: display, what: "the output folder",
                                fix: "remove the link, and name the folder itself (`output:` in blog.yml, or --output)")
        let kind = FileKind.of(url.path)
        if let kind, kind != S_IFDIR {
            throw BuildFailure([.error("\(display): the output path is a file; expected a folder (or nothing) there")])
        }
        let mountPoint = kind == S_IFDIR && blog_is_mount_point(url.path) == 1
        let staging = mountPoint ? url.appendingPathComponent(".blog-staging") : beside(url, "blog-staging")
        let spare = mountPoint ? nil : beside(url, "blog-spare")
        let fix = "remove the link (what it points to is left as it is)"
        try FileKind.refuseLink(staging.path, display: named(staging, display: display, inside: mountPoint),
                                what: "the staging folder, where the new site is written,", fix: fix)
        if let spare {
            try FileKind.refuseLink(spare.path, display: named(spare, display: display, inside: false),
                                    what: "the copy of the previous site beside the output folder", fix: fix)
        }
        return OutputFolder(url: url, display: display, exists: kind != nil, isMountPoint: mountPoint, staging: staging, spare: spare)
    }

    /// The hidden folder `.<output>.<suffix>` beside the output folder (staging, spare, previous).
    static func beside(_ output: URL, _ suffix: String) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(suffix)")
    }

    /// How messages name `slot`, a folder beside the output folder `display` (or, `inside`, in it).
    private static func named(_ slot: URL, display: String, inside: Bool) -> String {
        var folder = display
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        if inside { return folder + "/" + slot.lastPathComponent }
        guard let slash = folder.lastIndex(of: "/") else { return slot.lastPathComponent }
        return folder[...slash] + slot.lastPathComponent
    }

    /// Throws unless a build may replace what the folder holds: it is missing or empty (hidden
    /// entries aside, which builds keep), it holds ``markerName``, or, for a folder written before
    /// builds left that file, the spare copy of an earlier build is beside it or `writtenBefore`
    /// says that every file the last build recorded is there as it wrote it. Anything else (`.git`,
    /// `_data/`, a folder of one's own) is refused whole: its files would be deleted.
    /// - Returns: a note naming what this build replaces when `blog init --from` recorded that it may
    ///   (see ``recordReplaceable(_:site:)``); else nothing.
    @discardableResult
    package func checkOwner(writtenBefore: () -> Bool) throws -> [Diagnostic] {
        guard exists else { return [] }
        guard let entries = FolderEntries.of(url.path) else {
            throw BuildFailure([.error("cannot read the output folder \(url.path): \(String(cString: strerror(errno)))")])
        }
        let visible = entries.map(\.name).filter { !(isMountPoint ? Self.staysInMountPoint($0) : $0.hasPrefix(".")) }.sorted()
        let shown = visible.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (visible.count > 3 ? ", …" : "")
        if entries.contains(where: { $0.name == Self.markerName && $0.type == S_IFREG }) {
            let marker = FileHandle(forReadingAtPath: url.appendingPathComponent(Self.markerName).path)
            defer { try? marker?.close() }
            let start = marker.flatMap { try? $0.read(upToCount: 512) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard start.hasPrefix(Self.replaceableHeader), !visible.isEmpty else { return [] }
            let site = start.dropFirst(Self.replaceableHeader.count).prefix { $0 != "(" && $0 != "\n" }
                .replacingOccurrences(of: " this folder holds ", with: "").trimmingCharacters(in: .whitespaces)
            return [Diagnostic(.note, "\(display) holds \(site.isEmpty ? "a site blog did not write" : site) (\(visible.count) entr\(visible.count == 1 ? "y" : "ies"): \(shown)), which `blog init --from` recorded that a build may replace: this build replaces it")]
        }
        if visible.isEmpty { return [] }
        if (spare.map { FileKind.of($0.path) == S_IFDIR } ?? false) || writtenBefore() {
            // Written before builds left their mark: marked now, whatever this build comes to.
            adopt()
            return []
        }
        throw BuildFailure([.error("refusing to build into \(url.path): nothing shows that blog wrote what it holds (\(shown)): it has no \(Self.markerName) file, which every build leaves there, and a build replaces the output folder's whole content; move its files away or empty it (the output of an earlier version of blog can be deleted: the build makes it again), or choose a folder of its own with `output:` in blog.yml (or --output)")])
    }

    /// Whether the entry `name` of an output folder that is a mount point stays as it is: hidden
    /// entries (as in any output folder), and the `lost+found` of a file system's root.
    static func staysInMountPoint(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "lost+found"
    }

    /// Leaves ``markerName`` in `folder`, the new site before it is published: a link to the one
    /// in `previous` (the published site) when that one is the same, as for any unchanged file.
    static func mark(_ folder: URL, previous: URL?) throws {
        _ = try SiteWriter.place(Data(markerText.utf8), at: folder.appendingPathComponent(markerName).path,
                                 previous: previous.map { SiteWriter.Previous(folder: AT_FDCWD, path: $0.appendingPathComponent(markerName).path) },
                                 reuse: true)
    }

    /// Leaves ``markerName`` in the output folder as it is, made aside and renamed into place.
    private func adopt() {
        let made = url.appendingPathComponent(Self.markerName + ".new")
        unlink(made.path)
        if (try? SiteWriter.create(made.path, with: Data(Self.markerText.utf8))) == nil
            || rename(made.path, url.appendingPathComponent(Self.markerName).path) != 0 {
            unlink(made.path)
        }
    }
}
