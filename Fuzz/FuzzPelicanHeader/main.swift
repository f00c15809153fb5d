import FuzzDriver
import Foundation
@testable import BlogContent

/// libFuzzer's entry: `Key: value` header lines (Python-Markdown's meta extension), read from the text's first line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = SourceText.normalize(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    let (header, _) = PelicanHeader.parse(SourceText.LazyLines(text), path: "content/fuzz.md")
    precondition(header.bodyLine >= 1, "body line \(header.bodyLine)")
    precondition(Set(header.keyOrder) == Set(header.fields.keys), "key order and fields differ")
    return 0
}

runFuzzer(fuzz)
