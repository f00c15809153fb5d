@testable import BlogBuild
@testable import BlogContent
@testable import BlogMarkdown
import Foundation
import XCTest

/// The binary coder of the build cache: what it writes is pinned byte for byte (a change of the
/// format must bump `CacheStore.formatVersion`), every kind of value round-trips, and no input,
/// however cut or garbled, traps the decoder.
final class BinaryCoderTests: XCTestCase {
    struct Empty: Codable, Equatable {}

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case named(String, sides: Int)
        case none
    }

    struct Sample: Codable, Equatable {
        var text = "héllo \u{1F600}"
        var empty = ""
        var long = String(repeating: "long text ", count: 40)
        var int = -123_456_789
        var int8: Int8 = -8
        var int16: Int16 = 1616
        var int32: Int32 = -3232
        var int64: Int64 = .min
        var uint: UInt = 42
        var uint8: UInt8 = 255
        var uint16: UInt16 = 65535
        var uint32: UInt32 = 3_000_000_000
        var uint64: UInt64 = .max
        var double = -0.1
        var float: Float = 1.5
        var yes = true
        var no = false
        var date = Date(timeIntervalSince1970: 1_234_567_890.5)
        var data = Data([0, 1, 2, 0xff])
        var url = URL(string: "https://example.org/a?b=c")!
        var missing: String? = nil
        var present: Int? = 7
        var optionals: [String?] = ["a", nil, "c"]
        var nested: [[Int]] = [[1, 2], [], [3]]
        var byName: [String: Int] = ["one": 1]
        var byNumber: [Int: String] = [2: "two"]
        var nothing = Empty()
        var shapes: [Shape] = [.circle(radius: 2), .named("square", sides: 4), .none]
        var digest = Digest(high: 0x0123_4567_89ab_cdef, low: 42)
    }

    /// A post with every kind of header value, and its warnings.
    static let cachedPost: CachedPost = {
        var post = Post(source: "content/a.md", title: "Tïtle \u{1F600}", date: Date(timeIntervalSince1970: 1_234_567_890.123),
                        modified: Date(timeIntervalSince1970: 99), tags: [Tag(name: "Swift"), Tag(name: "iOS")], category: Tag(name: "Dev"),
                        slug: "a", author: "Ana", summary: nil, status: .draft,
                        meta: ["list": .list([.string("x"), .int(-1), .double(2.5), .bool(false), .null, .map(["k": .date(Date(timeIntervalSince1970: 0))])])],
                        body: "# Body\n\ntext", bodyLine: 4)
        post.aliases = ["old/a/"]
        post.lang = "pt"
        post.isBundle = true
        return CachedPost(post: post, warnings: [.warning("content/a.md", line: 3, column: 2, "careful")], file: Data())
    }()

    static let index = CacheIndex(
        packID: Digest(high: 1, low: 2), packLength: 1234,
        posts: [PostEntry(path: "posts/a.md", readerKey: Digest(high: 3, low: 4),
                          stat: FileStat(device: 5, inode: 6, size: 7, mtime: 8_000_000_000, ctime: -9),
                          content: Digest(high: .max, low: 0), ref: BlobRef(offset: 24, length: 100, digest: Digest(high: 10, low: 11)),
                          skeleton: Digest(high: 12, low: 13))],
        markdown: [BlobEntry(key: Digest(high: 14, low: 15), ref: BlobRef(offset: 124, length: 50, digest: Digest(high: 16, low: 17)))])

    /// The bytes of the format, pinned: the length and digest of what the encoder writes. When
    /// this fails on purpose, bump `CacheStore.formatVersion` and pin the new bytes.
    func testFormatIsPinned() throws {
        func pin<T: Encodable>(_ value: T) throws -> String {
            let bytes = try BinaryEncoder.encode(value)
            return "\(bytes.count) \(Digest.of(bytes))"
        }
        XCTAssertEqual(try BinaryEncoder.encode(Tag(name: "Go")),
                       [8, 2, 0, 0, 0, 4, 110, 97, 109, 101, 7, 2, 71, 111, 4, 115, 108, 117, 103, 7, 2, 103, 111])
        XCTAssertEqual(try pin(Sample()), "898 a683f7fe56648692adf31f18ed2b31bd")
        XCTAssertEqual(try pin(Self.cachedPost), "673 c120c112df072d8753583ab9c20ce9a2")
        XCTAssertEqual(try pin(Self.index), "368 eab7086803ac98fb8e80ec43bfc0ecf1")
        XCTAssertEqual(try pin(RenderedMarkdown(html: "<p>x</p>", summaryHTML: "", headings: [Heading(level: 2, id: "a", text: "A")])),
                       "89 4778d0855de597d2b4930d9203d0e33e")
    }

    func testEveryKindOfValueRoundTrips() throws {
        let sample = Sample()
        XCTAssertEqual(try BinaryDecoder.decode(Sample.self, from: try BinaryEncoder.encode(sample)), sample)
        var other = sample
        other.missing = "here"
        other.present = nil
        other.text = String(repeating: "\u{e9}", count: 300)
        other.shapes = []
        other.byName = [:]
        XCTAssertEqual(try BinaryDecoder.decode(Sample.self, from: try BinaryEncoder.encode(other)), other)

        let post = try BinaryDecoder.decode(CachedPost.self, from: try BinaryEncoder.encode(Self.cachedPost))
        XCTAssertEqual(post.post.title, Self.cachedPost.post.title)
        XCTAssertEqual(post.post.meta, Self.cachedPost.post.meta)
        XCTAssertEqual(post.post.modified, Self.cachedPost.post.modified)
        XCTAssertEqual(post.post.aliases, ["old/a/"])
        XCTAssertTrue(post.post.isBundle)
        XCTAssertEqual(post.post.categories.map(\.name), ["Dev"])
        XCTAssertEqual(post.warnings, Self.cachedPost.warnings)

        let index = try BinaryDecoder.decode(CacheIndex.self, from: try BinaryEncoder.encode(Self.index))
        XCTAssertEqual(index.posts.map(\.path), ["posts/a.md"])
        XCTAssertEqual(index.posts.first?.stat, Self.index.posts.first?.stat)
        XCTAssertEqual(index.posts.first?.ref.digest, Digest(high: 10, low: 11))
        XCTAssertEqual(index.markdown.first?.key, Digest(high: 14, low: 15))
        XCTAssertEqual(index.packLength, 1234)

        // Top-level leaves and containers.
        XCTAssertEqual(try BinaryDecoder.decode(String.self, from: try BinaryEncoder.encode("x")), "x")
        XCTAssertEqual(try BinaryDecoder.decode([Int].self, from: try BinaryEncoder.encode([Int]())), [])
        XCTAssertEqual(try BinaryDecoder.decode([Empty].self, from: try BinaryEncoder.encode([Empty(), Empty()])), [Empty(), Empty()])
    }

    /// Every cut of an encoded value, and the value with any one byte changed, throws or decodes;
    /// nothing traps (a trap ends the test run).
    func testDamagedInputThrowsAndNeverTraps() throws {
        for bytes in [try BinaryEncoder.encode(Sample()), try BinaryEncoder.encode(Self.cachedPost), try BinaryEncoder.encode(Self.index)] {
            for length in 0..<bytes.count {
                XCTAssertThrowsError(try BinaryDecoder.decode(Sample.self, from: Array(bytes.prefix(length))))
                XCTAssertThrowsError(try BinaryDecoder.decode(CachedPost.self, from: Array(bytes.prefix(length))))
                XCTAssertThrowsError(try BinaryDecoder.decode(CacheIndex.self, from: Array(bytes.prefix(length))))
            }
            for offset in bytes.indices {
                for flip: UInt8 in [0x01, 0x80, 0xff] {
                    var damaged = bytes
                    damaged[offset] ^= flip
                    _ = try? BinaryDecoder.decode(Sample.self, from: damaged)
                    _ = try? BinaryDecoder.decode(CachedPost.self, from: damaged)
                    _ = try? BinaryDecoder.decode(CacheIndex.self, from: damaged)
                }
            }
        }
        XCTAssertThrowsError(try BinaryDecoder.decode(CachedPost.self, from: try BinaryEncoder.encode(Self.index))) { error in
            XCTAssertTrue(error is BinaryCoderError, "\(error)")
        }
        XCTAssertThrowsError(try BinaryDecoder.decode(String.self, from: try BinaryEncoder.encode("x") + [0])) { error in
            XCTAssertTrue(error is BinaryCoderError, "\(error)")
        }
    }
}
