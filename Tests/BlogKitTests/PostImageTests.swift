@testable import BlogContent
import XCTest

/// `Post.image`: the picture a post's header names for sharing, in the forms Jekyll, Hugo and
/// Pelican posts write it.
final class PostImageTests: XCTestCase {
    private func image(_ text: String, source: String = "content/posts/a.md") throws -> String? {
        try PostReader.read(data: Data(text.utf8), source: source, timeZone: TimeZone(identifier: "UTC")!).0.image
    }

    func testTheImageHeaderInEachForm() throws {
        XCTAssertEqual(try image("---\ntitle: A\nimage: /assets/card.png\n---\nText\n"), "/assets/card.png")
        XCTAssertEqual(try image("+++\ntitle = \"A\"\ncover = \"cover.jpg\"\n+++\nText\n"), "cover.jpg")
        XCTAssertEqual(try image("Title: A\nImage: https://cdn.example.org/a.png\n\nText\n"), "https://cdn.example.org/a.png")
        // Hugo's own templates read the first of `images`.
        XCTAssertEqual(try image("---\ntitle: A\nimages:\n  - first.png\n  - second.png\n---\nText\n"), "first.png")
    }

    func testMappingsHoldTheAddressUnderTheirUsualKeys() throws {
        // Hugo themes (PaperMod): `cover: {image:, alt:}`; jekyll-seo-tag: `image: {path:, height:}`.
        XCTAssertEqual(try image("---\ntitle: A\ncover:\n  alt: A lake\n  image: lake.jpg\n---\nText\n"), "lake.jpg")
        XCTAssertEqual(try image("---\ntitle: A\nimage:\n  path: /img/a.png\n  height: 630\n---\nText\n"), "/img/a.png")
    }

    func testImageComesBeforeCoverAndEmptyValuesAreNone() throws {
        XCTAssertEqual(try image("---\ntitle: A\ncover: c.png\nimage: i.png\n---\nText\n"), "i.png")
        XCTAssertEqual(try image("---\ntitle: A\nimage: \"  \"\ncover: c.png\n---\nText\n"), "c.png")
        XCTAssertNil(try image("---\ntitle: A\nimage: \"\"\n---\nText\n"))
        XCTAssertNil(try image("---\ntitle: A\ncover:\n  alt: no address\n---\nText\n"))
        XCTAssertNil(try image("---\ntitle: A\n---\nText\n"))
    }
}
