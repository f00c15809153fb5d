@testable import BlogCore
import XCTest

/// The attributes of HTML (links checked, URLs made absolute in feeds) are read by ``HTMLTokenizer``, the
/// one HTML reader, as a browser reads them; inside `<pre>`/`<code>` they are marked as code.
final class HTMLAttributesTests: XCTestCase {
    private let html = "<pre><a href=\"x\"></pre><a href=\"a\" HREF=\"b\"><iframe><a href=\"in\"></iframe>"
        + "<!--><a href=\"c\"> --><img src = 'd' srcset=\"e 2x\"><a href=\"cut"

    func testAttributesAreThoseABrowserReads() {
        let bytes = Array(html.utf8)
        var seen: [String] = []
        HTMLAttributes.scan(bytes) { attribute in
            seen.append("\(attribute.element).\(attribute.name)=\(String(decoding: bytes[attribute.value], as: UTF8.self))"
                        + (attribute.inCode ? " (code)" : ""))
        }
        // A repeated attribute: the first; an iframe's content is text; `<!-->` is a whole comment; a tag cut off is none.
        XCTAssertEqual(seen, ["a.href=x (code)", "a.href=a", "a.href=c", "img.src=d", "img.srcset=e 2x"])
    }

    func testURLsAreRewrittenOutsideCodeOnly() {
        XCTAssertEqual(HTMLAttributes.rewriteURLs(in: html) { "[\($0.text)\($0.isSrcset ? " set" : "")]" },
                       "<pre><a href=\"x\"></pre><a href=\"[a]\" HREF=\"b\"><iframe><a href=\"in\"></iframe>"
                        + "<!--><a href=\"[c]\"> --><img src = '[d]' srcset=\"[e 2x set]\"><a href=\"cut")
    }
}
