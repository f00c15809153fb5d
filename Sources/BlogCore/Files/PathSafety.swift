import Foundation

/// The rules that keep every file a build writes inside the output folder. An output path is made
/// of slugs (one segment each), paths that headers give (`permalink`, `url`, `save_as`, `aliases`),
/// the permalink patterns of `blog.yml`, and the names of content and theme files; each is checked
/// here by the rule that fits it when it is read, and every output path once more, with
/// ``isPlainOutputPath(_:)``, before anything is written (``SiteWriter``).
package enum PathSafety {
    /// Whether `segment` is `.` or `..`: a segment that names no file of its own, and may climb
    /// out of the folder.
    package static func isDotSegment<S: StringProtocol>(_ segment: S) -> Bool {
        segment == "." || segment == ".."
    }

    /// `segments` with `.` and `..` applied, as RFC 3986's remove_dot_segments (section 5.2.4): a `.`
    /// is dropped, a `..` drops the segment before it, and a path ending in either ends with an empty
    /// segment (`a/b/..` is the folder `a/`). The first `kept` segments are never dropped (1 for an
    /// absolute path's empty first one: `..` never climbs above the root); `climbed` says whether a `..`
    /// found nothing to drop, as a path that tries to leave its root does. The one place where `.` and
    /// `..` are resolved: URLs against a base, links between content files.
    package static func removingDotSegments(_ segments: [Substring], kept: Int = 0) -> (segments: [Substring], climbed: Bool) {
        var output: [Substring] = []
        output.reserveCapacity(segments.count)
        var climbed = false
        for (index, segment) in segments.enumerated() {
            guard isDotSegment(segment) else {
                output.append(segment)
                continue
            }
            if segment == ".." {
                if output.count > kept { output.removeLast() } else { climbed = true }
            }
            if index == segments.count - 1 { output.append("") }
        }
        return (output, climbed)
    }

    /// Whether `text` holds a control character (below U+0020, or U+007F).
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Whether `slug` is safe as one path segment: non-empty, no `/` or `\`, not `.` and holding
    /// no `..`, no control characters.
    package static func isSafeSegment(_ slug: String) -> Bool {
        // ASCII, as most slugs are, checked as bytes (see isPlainOutputPath(_:)): in one pass over them in memory,
        // where two through the view's iterator cost 2.6 k instructions a slug.
        let ascii = slug.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var previous: UInt8 = 0, safe = true
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F
                    || (byte == UInt8(ascii: ".") && previous == byte) { safe = false }
                previous = byte
            }
            return safe && !bytes.isEmpty && !(bytes.count == 1 && bytes[0] == UInt8(ascii: "."))
        }
        if let ascii, let ascii { return ascii }
        if slug.utf8.allSatisfy({ $0 < 0x80 }) {
            var previous: UInt8 = 0
            for byte in slug.utf8 {
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F
                    || (byte == UInt8(ascii: ".") && previous == byte) { return false }
                previous = byte
            }
            return !slug.isEmpty && slug != "."
        }
        if slug.isEmpty || isDotSegment(slug) { return false }
        if slug.contains("/") || slug.contains("\\") || slug.contains("..") { return false }
        return !hasControlCharacter(slug)
    }

    /// The absolute path of `url` with symbolic links resolved, also for a path that does not
    /// exist yet: how the build compares the output, content and cache folders.
    package static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var path = existing.resolvingSymlinksInPath().path
        for part in rest { path = (path as NSString).appendingPathComponent(part) }
        return path
    }

    /// Whether the resolved `path` is `folder` or inside it.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// Whether `path` is a plain path inside the output folder: not empty, relative, no `\`, and
    /// no empty, `.` or `..` segment.
    package static func isPlainOutputPath(_ path: String) -> Bool {
        // ASCII paths, which every generated page has, are checked as bytes, in one pass over the string's
        // contiguous bytes: Foundation's `contains` goes through NSString, and cost more than writing the file;
        // the UTF-8 view's iterator ~3,000 instructions a path.
        let ascii = path.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            // The current segment's length, and whether it is all dots. Every byte is read before the answer:
            // a path with a byte over ASCII is the general check's, whatever its ASCII part says.
            var length = 0, dotsOnly = true, plain = !bytes.isEmpty
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "\\") {
                    plain = false
                } else if byte == UInt8(ascii: "/") {
                    if length == 0 || (dotsOnly && length <= 2) { plain = false }
                    (length, dotsOnly) = (0, true)
                } else {
                    length += 1
                    if byte != UInt8(ascii: ".") { dotsOnly = false }
                }
            }
            return plain && length > 0 && !(dotsOnly && length <= 2)
        }
        if let ascii, let ascii { return ascii }
        return isPlainOutputPathByCharacters(path)
    }

    /// ``isPlainOutputPath(_:)`` for any path, by its characters: the rule the bytes' check keeps for ASCII paths.
    static func isPlainOutputPathByCharacters(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return !(path.isEmpty || path.hasPrefix("/") || path.contains("\\")
                 || segments.contains(where: { $0.isEmpty || isDotSegment($0) }))
    }
}

/// Paths that a header gives for a page (`permalink`, `url`, `save_as`, `aliases`).
package enum SitePath {
    /// The site-relative form of `path` (`/2016/about/` -> `2016/about/`, `/old` -> `old/`, `a.html`
    /// stays): no leading `/`, no empty, `.` or `..` segment; a last segment without an extension
    /// gets a `/`. nil when it could leave the site: `..`, a scheme (`https://`), `\`, control characters.
    package static func clean(_ path: String) -> String? {
        let trimmed = path.trimmingWhitespaces()
        if trimmed.contains("://") || trimmed.hasPrefix("//") || trimmed.contains("\\")
            || PathSafety.hasControlCharacter(trimmed) {
            return nil
        }
        let segments = trimmed.split(separator: "/").map(String.init)
        if segments.contains(where: PathSafety.isDotSegment) { return nil }
        guard let last = segments.last else { return "" }
        var clean = segments.joined(separator: "/")
        if trimmed.hasSuffix("/") || !last.contains(".") { clean += "/" }
        return clean
    }
}
