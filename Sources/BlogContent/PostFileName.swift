import BlogCore
import Foundation

extension PostReader {
    /// What a post's file name says: `2016-11-25-my-post.md` gives the date 2016-11-25 and the name
    /// `my-post`. A bundle's post is named by its folder (`my-post/index.md`,
    /// `2019-11-04-my-post.textbundle/text.md`), and so is a Hugo section page (`news/_index.md`).
    package struct FileName {
        /// The name without extension and date prefix.
        package var name: String
        /// The name without extension (date prefix kept).
        var stem: String
        /// The date prefix's year, month and day, if any.
        package var datePrefix: (year: Int, month: Int, day: Int)?
        /// A Hugo section page: `_index.md`, named by its folder.
        package var isSectionIndex = false
        /// Its folder's post (see ``PageBundle``), named by its folder.
        var isBundle = false

        package init(source: String, bundle: Bool) {
            // A path whose characters are its bytes (nearly every one) is read on its bytes; any other
            // through its characters. Grapheme breaking made this 34 k instructions a post.
            let plain = source.charactersAreBytes
            // Only the last two of the path's parts are read: found from its end, not split into all of them.
            let (folder, lastPart): (String?, String?)
            if plain {
                (folder, lastPart) = Self.lastParts(source)
            } else {
                let parts = source.split(separator: "/").map(String.init)
                (folder, lastPart) = (parts.dropLast().last, parts.last)
            }
            var last = lastPart ?? source
            if plain {
                if let dot = last.utf8.lastIndex(of: UInt8(ascii: ".")), dot != last.startIndex { last = String(last[..<dot]) }
            } else if let dot = last.lastIndex(of: "."), dot != last.startIndex {
                last = String(last[..<dot])
            }
            isSectionIndex = last.utf8.count == 6 && last.lowercased() == "_index"
            if bundle || isSectionIndex, let folder {
                last = PageBundle.postName(ofFolder: folder)
                isBundle = bundle
            }
            stem = last
            name = last
            // YYYY-M-D- prefix (Jekyll), unpadded month and day allowed.
            if plain, let first = last.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                let bytes = Array(last.utf8)
                if let (date, rest) = Self.datePrefix(bytes, digit: { (0x30...0x39).contains($0) ? Int($0 - 0x30) : nil },
                                                      isDash: { $0 == UInt8(ascii: "-") }) {
                    datePrefix = date
                    name = String(decoding: bytes[rest...], as: UTF8.self)
                }
            } else if !plain {
                let chars = Array(last)
                if let (date, rest) = Self.datePrefix(chars, digit: { $0.isASCII ? $0.wholeNumberValue : nil },
                                                      isDash: { $0 == "-" }) {
                    datePrefix = date
                    name = String(chars[rest...])
                }
            }
        }

        /// The last part of a `/`-separated path whose characters are its bytes and the part before it (nil for a
        /// name alone), empty parts skipped; nil for the last when there is no part at all.
        private static func lastParts(_ path: String) -> (folder: String?, last: String?) {
            let slash = UInt8(ascii: "/")
            func parts(_ bytes: UnsafeBufferPointer<UInt8>) -> (folder: String?, last: String?) {
                func part(endingAt end: Int) -> (text: String, start: Int)? {
                    var end = end
                    while end > 0, bytes[end - 1] == slash { end -= 1 }
                    guard end > 0 else { return nil }
                    var start = end
                    while start > 0, bytes[start - 1] != slash { start -= 1 }
                    return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self), start)
                }
                guard let last = part(endingAt: bytes.count) else { return (nil, nil) }
                return (part(endingAt: last.start)?.text, last.text)
            }
            if let found = path.utf8.withContiguousStorageIfAvailable(parts) { return found }
            return Array(path.utf8).withUnsafeBufferPointer(parts)
        }

        /// The `YYYY-M-D-` prefix of `chars` (month and day may be unpadded) and where the rest starts.
        private static func datePrefix<Element>(_ chars: [Element], digit: (Element) -> Int?, isDash: (Element) -> Bool)
            -> (date: (year: Int, month: Int, day: Int), rest: Int)? {
            var i = 0
            func digits(_ min: Int, _ max: Int) -> Int? {
                var value = 0, count = 0
                while i < chars.count, count < max, let d = digit(chars[i]) {
                    value = value * 10 + d; count += 1; i += 1
                }
                return count >= min ? value : nil
            }
            guard let y = digits(4, 4), i < chars.count, isDash(chars[i]) else { return nil }
            i += 1
            guard let m = digits(1, 2), i < chars.count, isDash(chars[i]) else { return nil }
            i += 1
            guard let d = digits(1, 2), i < chars.count, isDash(chars[i]) else { return nil }
            return ((y, m, d), i + 1)
        }

        /// Jekyll's title for a post without one (`Utils.titleize_slug`): the name without its
        /// trailing periods, split at each `-`, every word capitalised as Ruby's `capitalize` does
        /// (first letter upper-cased, the rest lower-cased): `my-iOS_post` -> `My Ios_post`.
        var jekyllTitle: String {
            var slug = Substring(name.isEmpty ? stem : name)
            while slug.last == "." { slug = slug.dropLast() }
            var words = slug.split(separator: "-", omittingEmptySubsequences: false)
            while words.last?.isEmpty == true { words.removeLast() }  // Ruby's split drops trailing empty fields
            return words.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined(separator: " ")
        }

        /// The slug Jekyll's `:title` gives a name that is plain but for apostrophes and trailing
        /// periods (`don't-panic`, `why-it-works.`): the name as written without its trailing
        /// periods (Jekyll drops them), apostrophes kept; nil for any other name.
        var jekyllSlug: String? {
            var slug = Substring(name)
            while slug.last == "." { slug = slug.dropLast() }
            guard Slug.isPlainFileName(slug.replacingOccurrences(of: "'", with: "")), PathSafety.isSafeSegment(String(slug)) else { return nil }
            return String(slug)
        }

        /// A title made from the name: `-` and `_` become spaces, first letter upper-cased.
        var title: String {
            var words = (name.isEmpty ? stem : name).map { $0 == "-" || $0 == "_" ? " " : $0 }
            while words.first == " " { words.removeFirst() }
            while words.last == " " { words.removeLast() }
            var text = String(words).split(separator: " ").joined(separator: " ")
            if let first = text.first {
                text = first.uppercased() + text.dropFirst()
            }
            return text
        }
    }
}

extension PostReader {
    /// Whether a post with a YAML header is one of Jekyll's: in a `_posts` or `_drafts` folder, or
    /// named `YYYY-MM-DD-…`. Any other post with a YAML header is Hugo's (see
    /// `Post.markdownDialect`).
    package static func isJekyllPost(source: String, contentPath: String) -> Bool {
        let inFolder = source.charactersAreBytes
            ? source.utf8.split(separator: UInt8(ascii: "/")).dropLast().contains { $0.elementsEqual("_posts".utf8) || $0.elementsEqual("_drafts".utf8) }
            : source.split(separator: "/").dropLast().contains { $0 == "_posts" || $0 == "_drafts" }
        return inFolder || FileName(source: contentPath, bundle: false).datePrefix != nil
    }
}
