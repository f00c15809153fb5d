import Foundation

/// The size an image shows at, read from the header of its file: PNG, JPEG, GIF, WebP and SVG, with no
/// image library. Pages give each local image its `width` and `height` from it, so the browser keeps
/// the image's place before it loads and the page does not jump.
///
/// Reads are bounded: at most ``readLimit`` bytes of a file, and a JPEG's segments are skipped by
/// their lengths within that. A file that is cut off, lies about its sizes or is no image gives nil.
package enum ImageHeader {
    /// The most bytes read of one file. A JPEG's size comes after its metadata segments (EXIF, ICC
    /// profiles, XMP), which can reach this far; an SVG's root element comes after its prolog.
    package static let readLimit = 256 * 1024
    /// The largest side believed, in pixels: larger values are a header's lie, not a picture.
    package static let largestSide = 1 << 20

    /// The size of the image in the file at `url`, or nil.
    package static func size(ofFileAt url: URL) -> (width: Int, height: Int)? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        // Most headers are in the first 4 KB; only a JPEG with large metadata needs more.
        guard let first = try? handle.read(upToCount: 4096), !first.isEmpty else { return nil }
        let bytes = [UInt8](first)
        if bytes.count == 4096, isJPEG(bytes) || mayBeSVG(bytes) {
            let rest = (try? handle.read(upToCount: readLimit - bytes.count)) ?? Data()
            return size(of: bytes + [UInt8](rest))
        }
        return size(of: bytes)
    }

    /// The size of the image whose first bytes are `bytes`, or nil.
    package static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        let found: (width: Int, height: Int)?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            found = png(bytes)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            found = bytes.count >= 10 ? (le16(bytes, 6), le16(bytes, 8)) : nil
        } else if bytes.count >= 16, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            found = webP(bytes)
        } else if isJPEG(bytes) {
            found = jpeg(bytes)
        } else if mayBeSVG(bytes) {
            found = svg(bytes)
        } else {
            found = nil
        }
        guard let found, (1...largestSide).contains(found.width), (1...largestSide).contains(found.height) else { return nil }
        return found
    }

    // MARK: Formats

    /// PNG: the IHDR chunk comes first (https://www.w3.org/TR/png/#11IHDR).
    private static func png(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (be32(b, 16), be32(b, 20))
    }

    /// WebP: lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`, the canvas).
    private static func webP(_ b: [UInt8]) -> (Int, Int)? {
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard b.count >= 30, b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF)
        case "VP8L":
            // Signature 0x2F, then width-1 and height-1 in 14 bits each.
            guard b.count >= 25, b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard b.count >= 30 else { return nil }
            return (le24(b, 24) + 1, le24(b, 27) + 1)
        default:
            return nil
        }
    }

    private static func isJPEG(_ b: [UInt8]) -> Bool { b.count >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF }

    /// JPEG: the first start-of-frame segment's size, turned as the EXIF orientation says (browsers
    /// show a photo upright: `image-orientation: from-image` is their default).
    private static func jpeg(_ b: [UInt8]) -> (Int, Int)? {
        var position = 2
        var quarterTurn = false
        while position + 4 <= b.count {
            guard b[position] == 0xFF else { return nil }
            let marker = b[position + 1]
            // Fill bytes, and markers without a length.
            if marker == 0xFF { position += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }
            let length = be16(b, position + 2)
            guard length >= 2 else { return nil }
            let segment = position + 4
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard segment + 5 <= b.count else { return nil }
                let (height, width) = (be16(b, segment + 1), be16(b, segment + 3))
                return quarterTurn ? (height, width) : (width, height)
            case 0xE1:
                if let orientation = exifOrientation(b, from: segment, to: min(b.count, position + 2 + length)) {
                    quarterTurn = (5...8).contains(orientation)
                }
            case 0xD9, 0xDA:
                // End of image, or the scan: no frame header came first.
                return nil
            default:
                break
            }
            position += 2 + length
        }
        return nil
    }

    /// The orientation tag (0x0112) of an APP1 `Exif` segment's first image directory.
    private static func exifOrientation(_ b: [UInt8], from start: Int, to end: Int) -> Int? {
        guard end - start >= 14, Array(b[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] else { return nil }
        let tiff = start + 6
        let little: Bool
        switch (b[tiff], b[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? { at + 2 <= end ? (little ? le16(b, at) : be16(b, at)) : nil }
        func u32(_ at: Int) -> Int? { at + 4 <= end ? (little ? le32(b, at) : be32(b, at)) : nil }
        guard let offset = u32(tiff + 4), offset < end - tiff, let count = u16(tiff + offset) else { return nil }
        var entry = tiff + offset + 2
        for _ in 0..<min(count, 256) {
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 { return u16(entry + 8) }
            entry += 12
        }
        return nil
    }

    /// Whether the bytes may be SVG: XML, or `<svg` at the start.
    private static func mayBeSVG(_ b: [UInt8]) -> Bool {
        var start = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < b.count, b[start] == 0x20 || b[start] == 0x0A || b[start] == 0x0D || b[start] == 0x09 { start += 1 }
        return b[start...].starts(with: Array("<?xml".utf8)) || b[start...].starts(with: Array("<svg".utf8))
            || b[start...].starts(with: Array("<!--".utf8)) || b[start...].starts(with: Array("<!DOCTYPE svg".utf8))
    }

    /// SVG: the root element's `width` and `height` when both are lengths in pixels (or plain
    /// numbers), else its `viewBox`'s width and height: the size a browser gives it in an `<img>`.
    private static func svg(_ b: [UInt8]) -> (Int, Int)? {
        var root: HTMLToken?
        HTMLTokenizer.tokenize(b) { token in
            if root == nil, token.kind == .startTag, token.name == "svg" { root = token }
        }
        guard let root else { return nil }
        func value(_ name: String) -> String? {
            guard let attribute = root.attributes.first(where: { $0.name == name }), let range = attribute.value else { return nil }
            return String(decoding: b[range], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        func pixels(_ text: String?) -> Double? {
            guard var text else { return nil }
            if text.hasSuffix("px") { text.removeLast(2) }
            guard let number = Double(text), number.isFinite, number > 0 else { return nil }
            return number
        }
        let box = value("viewbox")?.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) }
        let boxSize = box.flatMap { $0.count == 4 && $0[2] > 0 && $0[3] > 0 && $0[2].isFinite && $0[3].isFinite ? ($0[2], $0[3]) : nil }
        var (width, height) = (pixels(value("width")), pixels(value("height")))
        // One side given: the other from the view box's proportions.
        if let boxSize {
            if let w = width, height == nil { height = w * boxSize.1 / boxSize.0 }
            if let h = height, width == nil { width = h * boxSize.0 / boxSize.1 }
        }
        guard let w = width ?? boxSize?.0, let h = height ?? boxSize?.1, w < Double(largestSide), h < Double(largestSide) else { return nil }
        return (Int(w.rounded()), Int(h.rounded()))
    }

    // MARK: Integers

    private static func be16(_ b: [UInt8], _ at: Int) -> Int { at + 2 <= b.count ? Int(b[at]) << 8 | Int(b[at + 1]) : 0 }
    private static func le16(_ b: [UInt8], _ at: Int) -> Int { at + 2 <= b.count ? Int(b[at]) | Int(b[at + 1]) << 8 : 0 }
    private static func le24(_ b: [UInt8], _ at: Int) -> Int { at + 3 <= b.count ? le16(b, at) | Int(b[at + 2]) << 16 : 0 }
    private static func be32(_ b: [UInt8], _ at: Int) -> Int { at + 4 <= b.count ? be16(b, at) << 16 | be16(b, at + 2) : 0 }
    private static func le32(_ b: [UInt8], _ at: Int) -> Int { at + 4 <= b.count ? le16(b, at) | le16(b, at + 2) << 16 : 0 }
}
