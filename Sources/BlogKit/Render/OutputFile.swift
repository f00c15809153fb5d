import Foundation

/// One file of the built site, ready to be written to the output folder.
public struct OutputFile: Sendable {
    /// Where the file's bytes come from.
    public enum Contents: Sendable {
        /// Bytes made in memory (a rendered page, a file of the embedded theme).
        case bytes(Data)
        /// A file on disk, copied as it is.
        case copy(from: URL)
    }

    /// Relative to the output folder, `/`-separated, e.g. `posts/x/index.html`.
    public var path: String
    /// The bytes, or the file to copy them from.
    public var contents: Contents

    /// Creates an output file.
    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }
}
