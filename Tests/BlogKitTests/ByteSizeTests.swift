import BlogCore
import XCTest

/// Every message that names a size (a post over the limit, a full disk, a big image) says it in one form, in
/// the decimal units blog.yml's sizes take.
final class ByteSizeTests: XCTestCase {
    func testSizesReadAsPeopleWriteThem() {
        XCTAssertEqual(ByteSize.text(0), "1 KB")
        XCTAssertEqual(ByteSize.text(1_499), "1 KB")
        XCTAssertEqual(ByteSize.text(849_600), "850 KB")
        XCTAssertEqual(ByteSize.text(999_499), "999 KB")
        XCTAssertEqual(ByteSize.text(999_500), "1 MB")
        XCTAssertEqual(ByteSize.text(1_000_000), "1 MB")
        XCTAssertEqual(ByteSize.text(3_249_999), "3.2 MB")
        XCTAssertEqual(ByteSize.text(3_250_000), "3.3 MB")
        XCTAssertEqual(ByteSize.text(100_000_000), "100 MB")
        XCTAssertEqual(ByteSize.text(999_949_999), "999.9 MB")
        XCTAssertEqual(ByteSize.text(999_950_000), "1 GB")
        XCTAssertEqual(ByteSize.text(1_000_000_000), "1 GB")
        XCTAssertEqual(ByteSize.text(1_540_000_000), "1.5 GB")
    }
}
