import FuzzDriver
@testable import BlogMarkdown

/// A context where every post and path resolves, so the rewriting paths run too.
let context = LiquidContext(baseURL: "/blog", siteURL: "https://example.org",
                            resolvePost: { "/blog/posts/\($0)/" }, resolvePath: { "/blog/\($0)/" })

/// libFuzzer's entry: Jekyll Liquid tags and Hugo shortcodes rewritten into markdown. A body with no `{{` or `{%`
/// comes back as it is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (out, _) = Liquid.process(body, path: "content/fuzz.md", firstLine: 3, context: context)
    if !Liquid.needsProcessing(body) { precondition(out == body, "a body without tags changed") }
    return 0
}

runFuzzer(fuzz)
