import BlogCore
import Foundation

/// The output folder of a build and the folders the build keeps beside it, checked before anything
/// is touched, so that a build replaces, prunes and deletes nothing else:
///
/// - none of them is reached through a symbolic link: the folder that holds the output folder is
///   resolved once, and a link where the output folder, the staging folder or the spare copy belongs
///   is an error naming it (what it points to is never touched).
package struct OutputFolder {
    /// The output folder, in the folder that holds it as resolved once.
    package let url: URL
    /// How messages name it.
    package let display: String
    /// Whether it exists (as a folder).
    let exists: Bool
    /// Where the new site is written before it is published, beside the output folder.
    let staging: URL
    /// The site before the published one, beside the output folder.
    let spare: URL

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
            throw BuildFailure([.error(display, "the output path is a file; expected a folder (or nothing) there")])
        }
        let staging = beside(url, "blog-staging"), spare = beside(url, "blog-spare")
        let fix = "remove the link (what it points to is left as it is)"
        try FileKind.refuseLink(staging.path, display: named(staging, display: display),
                                what: "the staging folder, where the new site is written,", fix: fix)
        try FileKind.refuseLink(spare.path, display: named(spare, display: display),
                                what: "the copy of the previous site beside the output folder", fix: fix)
        return OutputFolder(url: url, display: display, exists: kind != nil, staging: staging, spare: spare)
    }

    /// The hidden folder `.<output>.<suffix>` beside the output folder (staging, spare, previous).
    static func beside(_ output: URL, _ suffix: String) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(suffix)")
    }

    /// How messages name `slot`, a folder beside the output folder `display`.
    private static func named(_ slot: URL, display: String) -> String {
        var folder = display
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        guard let slash = folder.lastIndex(of: "/") else { return slot.lastPathComponent }
        return folder[...slash] + slot.lastPathComponent
    }
}
