@testable import BlogCore
import XCTest

final class SlugTests: XCTestCase {
    func testSlugKeepsLettersOfAnyScript() {
        XCTAssertEqual(Slug.make("Hello, World!"), "hello-world")
        XCTAssertEqual(Slug.make("Ünïcödé 日本語"), "ünïcödé-日本語")
        XCTAssertEqual(Slug.make("  --Swift 6: what's new?-- "), "swift-6-whats-new")
        XCTAssertEqual(Slug.make("../../etc"), "etc")
        XCTAssertEqual(Slug.make("!!!"), "")
    }

    /// ASCII titles take a byte-by-byte path; every ASCII character, alone and between letters,
    /// must give what the Character-by-Character rules give.
    func testASCIIGivesWhatTheCharacterRulesGive() {
        for byte in UInt8(0)..<0x80 {
            let c = String(UnicodeScalar(byte))
            for text in [c, "a\(c)b", "\(c)\(c)Z9\(c)", "Don\(c)t Stop"] {
                XCTAssertEqual(Slug.make(text), Slug.slugByCharacters(text), text.debugDescription)
            }
        }
        XCTAssertEqual(Slug.make("Don't STOP_me\r\nnow 2day"), "dont-stop-me-now-2day")
        XCTAssertEqual(Slug.make("a\r\nb"), "a-b")
    }

    /// Text with any byte above ASCII keeps the Character rules: a combining mark stays with its
    /// letter and goes with a dropped character, other scripts' letters and digits are kept.
    func testNonASCIIKeepsTheCharacterRules() {
        XCTAssertEqual(Slug.make("Don’t Stop"), "dont-stop")
        XCTAssertEqual(Slug.make("Cafe\u{301} & Cre\u{300}me"), "cafe\u{301}-cre\u{300}me")
        XCTAssertEqual(Slug.make("a -\u{301} b"), "a-b", "the mark goes with the dash")
        XCTAssertEqual(Slug.make("ΣΟΦΙΑ ① Ｆｕｌｌ"), "σοφια-①-ｆｕｌｌ")
        XCTAssertEqual(Slug.make("Tea\u{A0}for\u{3000}two 🎉 now"), "tea-for-two-now")
        XCTAssertEqual(Slug.make("İstanbul"), "i\u{307}stanbul")
        XCTAssertEqual(Slug.make("Straße 9"), "straße-9")
        XCTAssertEqual(Slug.make("x\u{301}'y"), "x\u{301}y")
        XCTAssertEqual(Slug.make("日本語 (Kyoto)"), "日本語-kyoto")
        XCTAssertEqual(Slug.make("🇫🇷 France"), "france")
        XCTAssertEqual(Slug.make("e\u{301}\r\n!"), "e\u{301}")
    }

    func testSafety() {
        XCTAssertTrue(PathSafety.isSafeSegment("my-post"))
        XCTAssertFalse(PathSafety.isSafeSegment("../etc"))
        XCTAssertFalse(PathSafety.isSafeSegment("a/b"))
        XCTAssertFalse(PathSafety.isSafeSegment(".."))
        XCTAssertFalse(PathSafety.isSafeSegment(""))
        XCTAssertFalse(PathSafety.isSafeSegment("."))
        XCTAssertFalse(PathSafety.isSafeSegment("a..b"))
        XCTAssertFalse(PathSafety.isSafeSegment("a\\b"))
        XCTAssertFalse(PathSafety.isSafeSegment("tab\there"))
        XCTAssertFalse(PathSafety.isSafeSegment("del\u{7F}"))
        XCTAssertTrue(PathSafety.isSafeSegment(".hidden"))
        XCTAssertTrue(PathSafety.isSafeSegment("v1.2"))
        XCTAssertTrue(PathSafety.isSafeSegment("café"))
        XCTAssertFalse(PathSafety.isSafeSegment("café/x"))
        XCTAssertFalse(PathSafety.isSafeSegment("café\u{1}"))
    }

    func testPlainOutputPaths() {
        for path in ["index.html", "posts/x/index.html", "a/.well-known/x", "a/.../b", "v1.2/x.html", "café/über.html"] {
            XCTAssertTrue(PathSafety.isPlainOutputPath(path), path)
        }
        for path in ["", "/", "/a", "a/", "a//b", "./a", "a/./b", "a/../b", "..", "a/..", "a\\b", "café/../x", "/café", "café//x"] {
            XCTAssertFalse(PathSafety.isPlainOutputPath(path), path)
        }
    }

    /// The check of an ASCII path's bytes answers as the check by characters, which every other path gets: for every
    /// path of up to four pieces among `/`, `.`, `..`, `\`, a letter, a non-ASCII letter, a combining accent (which joins the
    /// `/` or `.` before it into one character), a dot-name, and names of 255 and 256 bytes.
    func testPlainOutputPathsBytesAgreeWithTheCharacters() {
        let pieces = ["/", ".", "..", "\\", "a", "é", "\u{301}", ".hidden", String(repeating: "x", count: 255), String(repeating: "y", count: 256)]
        var paths = [""]
        var checked = 0, plain = 0
        for _ in 1...4 { paths = paths.flatMap { path in pieces.map { path + $0 } } + paths }
        for path in paths {
            let bytes = PathSafety.isPlainOutputPath(path), characters = PathSafety.isPlainOutputPathByCharacters(path)
            XCTAssertEqual(bytes, characters, path.debugDescription)
            checked += 1
            if bytes { plain += 1 }
        }
        XCTAssertGreaterThan(plain, 500)
        XCTAssertGreaterThan(checked - plain, 500)
        // Where the two differ on a non-ASCII path, the characters decide: `/` joined with an accent parts nothing.
        XCTAssertTrue(PathSafety.isPlainOutputPath("./\u{301}x"))
        XCTAssertFalse(PathSafety.isPlainOutputPath("./x"))
    }

    /// Text that is its own slug is kept as it is; every text of up to four characters from letters, digits, `-`, a
    /// space, an apostrophe and a non-ASCII letter gets from ``Slug/make(_:)`` what building the slug anew gives.
    func testOwnSlugsAreKeptAsBuildingTheSlugGivesThem() {
        let alphabet = ["a", "Z", "7", "-", " ", "'", "é"]
        var texts = [""]
        var kept = 0
        for _ in 1...4 { texts = texts.flatMap { text in alphabet.map { text + $0 } } + texts }
        for text in Set(texts) {
            XCTAssertEqual(Slug.make(text), Slug.made(text), text.debugDescription)
            if Slug.isOwnSlug(text) {
                XCTAssertEqual(Slug.made(text), text, text.debugDescription)
                kept += 1
            }
        }
        XCTAssertTrue(Slug.isOwnSlug("swift-5"))
        XCTAssertFalse(Slug.isOwnSlug("swift--5"))
        XCTAssertFalse(Slug.isOwnSlug("-swift"))
        XCTAssertFalse(Slug.isOwnSlug("swift-"))
        XCTAssertFalse(Slug.isOwnSlug(""), "the empty text's slug is made (empty)")
        XCTAssertEqual(kept, 50, "the texts of a, 7 and single dashes between them")
    }
}
