import FuzzDriver
@testable import BlogContent
@testable import BlogMarkdown

/// libFuzzer's entry: markdown to HTML through our tree edits (dialect passes, code blocks, heading anchors,
/// summary). The first byte picks the dialect, tagfilter, and whether a summary field is given (the rest of the
/// input then also serves as the summary). Bodies the post reader refuses (nesting past its limit) are skipped,
/// as the build never renders them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let flags = Int(data[0])
    let body = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    guard PostReader.tooDeeplyNested(body) == nil else { return 0 }
    let dialects = MarkdownDialect.allCases
    let options = MarkdownOptions(tagfilter: flags & 4 != 0, dialect: dialects[flags % dialects.count])
    _ = MarkdownRenderer.render(body: body, summary: flags & 8 != 0 ? body : nil, options: options)
    return 0
}

runFuzzer(fuzz)
