import FuzzDriver
import BlogCore
import Foundation
@testable import BlogContent

/// libFuzzer's entry: a whole post file's bytes read into a Post (UTF-8 checked, header of any form split and
/// resolved: title, dates, tags, slug, status). Bad input is a BuildFailure, never a trap; a post's slug is a safe
/// path segment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let utc = TimeZone(identifier: "UTC")!
    if let (post, _) = try? PostReader.read(data: bytes, source: "content/posts/fuzz.md", timeZone: utc) {
        precondition(post.slug.isEmpty || PathSafety.isSafeSegment(post.slug), "unsafe slug \(post.slug)")
    }
    return 0
}

runFuzzer(fuzz)
