import Foundation

/// One file of the generated site.
package struct OutputFile: Sendable {
    /// Where the bytes come from.
    package enum Contents: Sendable {
        /// Bytes made by the build (feeds, embedded theme files).
        case bytes(Data)
        /// Bytes made when the file is written (a page through its template), so that a site's
        /// pages are never all in memory at once.
        case made(by: Maker)
        /// A file copied as it is (images, a site's own static files).
        case copy(from: URL)
    }

    /// Makes a file's bytes; called once, on any thread.
    package struct Maker: @unchecked Sendable {
        // Unchecked: the closures SiteRenderer makes only read the immutable template values.
        package let make: () throws -> Data

        package init(_ make: @escaping () throws -> Data) {
            self.make = make
        }
    }

    /// Relative to the output folder, `/`-separated (`posts/x/index.html`).
    package var path: String
    /// The content.
    package var contents: Contents

    package init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }
}
