import FuzzDriver
@testable import BlogCore

/// libFuzzer's entry: the slug of any text has no `/` or `.` (so it cannot leave the output folder), and no `-`
/// at either end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let slug = Slug.make(text)
    precondition(!slug.contains("/") && !slug.contains("."), "slug with `/` or `.`: \(slug)")
    precondition(!slug.hasPrefix("-") && !slug.hasSuffix("-"), "slug with `-` at an end: \(slug)")
    precondition(slug == Slug.slugByCharacters(text), "the ASCII fast path and the rules differ: \(slug)")
    return 0
}

runFuzzer(fuzz)
