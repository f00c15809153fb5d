import Foundation

/// One file of the generated site.
public struct OutputFile: Sendable {
    /// Where the bytes come from.
    public enum Contents: Sendable {
        /// Bytes made by the build (pages, embedded theme files).
        case bytes(Data)
        /// A file copied as it is (images, a site's own static files).
        case copy(from: URL)
        /// Bytes the build cache holds (an unchanged page), read only if they must be written.
        case stored(StoredBytes)
    }

    /// Relative to the output folder, `/`-separated (`posts/x/index.html`).
    public var path: String
    /// The content.
    public var contents: Contents

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }
}
