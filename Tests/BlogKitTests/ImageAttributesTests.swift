@testable import BlogCore
import Foundation
import XCTest

/// Image files as bytes, built by the tests from each format's specification.
enum ImageBytes {
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v) }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le24(_ v: Int) -> [UInt8] { le16(v) + [UInt8(v >> 16 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v) + le16(v >> 16) }

    static func png(_ width: Int, _ height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + be32(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    static func gif(_ width: Int, _ height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0, 0, 0, 0x3B]
    }

    static func webPLossy(_ width: Int, _ height: Int) -> [UInt8] {
        let frame: [UInt8] = [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [UInt8](repeating: 0, count: 8)
        return riff(Array("VP8 ".utf8) + le32(frame.count) + frame)
    }

    static func webPLossless(_ width: Int, _ height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        let data: [UInt8] = [0x2F] + le32(bits) + [0, 0, 0]
        return riff(Array("VP8L".utf8) + le32(data.count) + data)
    }

    static func webPExtended(_ width: Int, _ height: Int) -> [UInt8] {
        let data: [UInt8] = [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1)
        return riff(Array("VP8X".utf8) + le32(data.count) + data)
    }

    static func riff(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(chunks.count + 4) + Array("WEBP".utf8) + chunks
    }

    /// A baseline JPEG's headers: an EXIF segment with `orientation` (none when nil), `padding`
    /// bytes of a comment segment, then the frame header.
    static func jpeg(_ width: Int, _ height: Int, orientation: Int? = nil, padding: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0] + be16(16) + Array("JFIF".utf8) + [0, 1, 1, 0] + be16(1) + be16(1) + [0, 0]
        if let orientation {
            // Exif\0\0, big-endian TIFF header, one directory with one entry (tag 0x0112, SHORT, 1).
            let tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8) + be16(1) + be16(0x0112) + be16(3) + be32(1)
                + be16(orientation) + be16(0) + be32(0)
            let exif = Array("Exif".utf8) + [0, 0] + tiff
            bytes += [0xFF, 0xE1] + be16(exif.count + 2) + exif
        }
        var rest = padding
        while rest > 0 {
            let size = min(rest, 65_000)
            bytes += [0xFF, 0xFE] + be16(size + 2) + [UInt8](repeating: 0x41, count: size)
            rest -= size
        }
        bytes += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return bytes + [0xFF, 0xD9]
    }
}

/// ``ImageHeader``: the size each format declares, against the `file` command where it is installed,
/// and nothing unbounded or wrong from a file that is cut off or lies.
final class ImageHeaderTests: XCTestCase {
    func testEachFormatsDeclaredSize() throws {
        let cases: [(String, [UInt8], Int, Int)] = [
            ("png", ImageBytes.png(640, 427), 640, 427),
            ("gif", ImageBytes.gif(31, 7), 31, 7),
            ("webp lossy", ImageBytes.webPLossy(1200, 800), 1200, 800),
            ("webp lossless", ImageBytes.webPLossless(333, 16383), 333, 16383),
            ("webp extended", ImageBytes.webPExtended(20000, 3), 20000, 3),
            ("jpeg", ImageBytes.jpeg(1024, 768), 1024, 768),
            // Turned a quarter by its EXIF orientation (6: rotate 90°): browsers show it 768 wide.
            ("jpeg turned", ImageBytes.jpeg(1024, 768, orientation: 6), 768, 1024),
            ("jpeg upright", ImageBytes.jpeg(1024, 768, orientation: 1), 1024, 768),
            // The frame header after 200 KB of metadata.
            ("jpeg late frame", ImageBytes.jpeg(50, 60, padding: 200_000), 50, 60),
            ("svg", Array(#"<?xml version="1.0"?><!-- a --><svg xmlns="http://www.w3.org/2000/svg" width="640" height="120px"></svg>"#.utf8), 640, 120),
            ("svg viewBox", Array(#"<svg viewBox="0 0 300.4 150" width="100%"></svg>"#.utf8), 300, 150),
            ("svg one side", Array(#"<svg width="200" viewBox="0,0,100,50"/>"#.utf8), 200, 100),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-header-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes, width, height) in cases {
            let size = ImageHeader.size(of: bytes)
            XCTAssertEqual(size?.width, width, name)
            XCTAssertEqual(size?.height, height, name)
            let file = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-"))
            try Data(bytes).write(to: file)
            let read = ImageHeader.size(ofFileAt: file)
            XCTAssertEqual(read?.width, width, name + " (file)")
            XCTAssertEqual(read?.height, height, name + " (file)")
        }
        // The `file` command (libmagic) reads the same sizes from the same bytes.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/file") else { return }
        for (name, pattern) in [("png", "640 x 427"), ("gif", "31 x 7"), ("jpeg", "1024x768"), ("webp-lossy", "1200x800")] {
            let run = try BlogCLI.run(["-b", folder.appendingPathComponent(name).path], in: folder, program: URL(fileURLWithPath: "/usr/bin/file"))
            XCTAssertTrue(run.stdout.contains(pattern), "\(name): file says \(run.stdout)")
        }
    }

    func testCutOffLyingAndOtherFilesGiveNoSize() {
        let whole: [[UInt8]] = [ImageBytes.png(10, 10), ImageBytes.gif(10, 10), ImageBytes.webPLossy(10, 10),
                                ImageBytes.webPExtended(10, 10), ImageBytes.jpeg(10, 10, orientation: 6)]
        for bytes in whole {
            // Every cut that ends before the size gives nil or the size, never another one.
            for end in 0..<bytes.count {
                if let size = ImageHeader.size(of: Array(bytes[..<end])) {
                    XCTAssertEqual(size.width, 10)
                    XCTAssertEqual(size.height, 10)
                }
            }
        }
        XCTAssertNil(ImageHeader.size(of: ImageBytes.png(0, 10)))
        XCTAssertNil(ImageHeader.size(of: ImageBytes.png(4_000_000, 10)), "a side over a million pixels is a lie")
        XCTAssertNil(ImageHeader.size(of: Array("<svg width=\"1e300\" height=\"5\"/>".utf8)))
        XCTAssertNil(ImageHeader.size(of: Array("<svg width=\"-4\" height=\"5\"/>".utf8)))
        XCTAssertNil(ImageHeader.size(of: Array("<html><body>not an image</body></html>".utf8)))
        XCTAssertNil(ImageHeader.size(of: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]), "a segment shorter than its length field")
        // Random bytes and random damage: no crash, and any size found is within bounds.
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20_000 {
            var bytes = whole[round % whole.count]
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let size = ImageHeader.size(of: bytes) {
                XCTAssertTrue((1...ImageHeader.largestSide).contains(size.width) && (1...ImageHeader.largestSide).contains(size.height))
            }
        }
    }
}

/// Local images in built pages: sized from their files, lazily loaded below the first, the
/// author's attributes kept; and `blog check` on an image too large.
final class ImageAttributesTests: BuiltSiteTestCase {
    func testLocalImagesAreSizedAndLaterOnesLoadLazily() throws {
        try site.write("blog.yml", "title: Images\nbase_url: https://example.org/blog/\n")
        try site.write("content/images/wide.png", data: Data(ImageBytes.png(1600, 900)))
        try site.write("content/images/photo.jpg", data: Data(ImageBytes.jpeg(4000, 3000, orientation: 8)))
        try site.write("content/posts/trip/index.md", """
            ---
            title: Trip
            date: 2024-05-01
            ---
            ![Wide](/blog/images/wide.png)

            ![Photo](../../images/photo.jpg "The photo")

            ![Map](map.gif)

            ![Remote](https://cdn.example.com/x.png)

            <img src="/blog/images/wide.png" width="50" alt="Kept">
            <img src="https://example.org/blog/images/wide.png" alt="Absolute" loading="eager">

            ![Missing](/blog/images/none.png)
            """)
        try site.write("content/posts/trip/map.gif", data: Data(ImageBytes.gif(300, 200)))
        try build(["--no-cache"])
        let page = try page("posts/trip/index.html")
        let images = page.components(separatedBy: "<img").dropFirst().map { "<img" + $0.prefix { $0 != ">" } + ">" }
        XCTAssertEqual(images, [
            #"<img src="/blog/images/wide.png" alt="Wide" width="1600" height="900" />"#,
            #"<img src="../../images/photo.jpg" alt="Photo" title="The photo" width="3000" height="4000" loading="lazy" />"#,
            #"<img src="map.gif" alt="Map" width="300" height="200" loading="lazy" />"#,
            #"<img src="https://cdn.example.com/x.png" alt="Remote" loading="lazy" />"#,
            #"<img src="/blog/images/wide.png" width="50" alt="Kept" loading="lazy">"#,
            #"<img src="https://example.org/blog/images/wide.png" alt="Absolute" loading="eager" width="1600" height="900">"#,
            #"<img src="/blog/images/none.png" alt="Missing" loading="lazy" />"#,
        ], page)
    }

    func testCheckWarnsOnALargeImage() throws {
        try site.write("blog.yml", "title: Images\nbase_url: https://example.org/\nimage_size_warning: 200KB\n")
        try site.write("content/images/big.jpg", data: Data(ImageBytes.jpeg(10, 10, padding: 250_000)))
        try site.write("content/images/small.png", data: Data(ImageBytes.png(10, 10)))
        try site.write("content/posts/a.md", "---\ntitle: A\ndate: 2024-05-01\n---\n![Big](/images/big.jpg) ![Small](/images/small.png)\n")
        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stderr.contains("content/images/big.jpg:1:1: warning: the image is 250 KB, over `image_size_warning` (200 KB)"), check.stderr)
        XCTAssertFalse(check.stderr.contains("small.png"), check.stderr)
        try site.write("blog.yml", "title: Images\nbase_url: https://example.org/\nimage_size_warning: big\n")
        let bad = try BlogCLI.run(["check"], in: site.root)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("blog.yml:3:21: error: `image_size_warning` must be a size such as `500KB`"), bad.stderr)
    }
}
