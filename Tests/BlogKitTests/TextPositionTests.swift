@testable import BlogCore
import XCTest

/// Lines and columns as an editor shows them, for every message that names a place in a file.
final class TextPositionTests: XCTestCase {
    func testLinesEndAtLFCRLFAndLoneCR() {
        let text = Array("ab\ncd\r\nef\rgh".utf8)
        XCTAssertEqual(position(0, text), [1, 1])
        XCTAssertEqual(position(4, text), [2, 2])
        XCTAssertEqual(position(7, text), [3, 1])
        XCTAssertEqual(position(11, text), [4, 2])
        XCTAssertEqual(position(99, text), [4, 3], "past the end: the end")
    }

    func testColumnsCountCharactersAndNotAByteOrderMark() {
        XCTAssertEqual(position(5, Array("é日x".utf8)), [1, 3])
        XCTAssertEqual(position(4, Array("e\u{301}x!".utf8)), [1, 3], "a combining mark is part of its character")
        XCTAssertEqual(position(4, [0xEF, 0xBB, 0xBF] + Array("ab".utf8)), [1, 2])
        XCTAssertEqual(position(5, Array("x\n\u{FEFF}y".utf8)), [2, 2], "only at the start of the text")
        XCTAssertEqual(TextPosition.column(ofByte: 5, lineStart: 3, in: Array("ab\ncde".utf8)), 3)
        XCTAssertEqual(TextPosition.lineAndColumn(ofByte: 4, in: "a\nbc").column, 3)
    }

    private func position(_ offset: Int, _ bytes: [UInt8]) -> [Int] {
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
        return [line, column]
    }
}
