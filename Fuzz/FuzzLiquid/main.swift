import FuzzDriver
import BlogCore
@testable import BlogLiquid

/// What every input is run with, made anew for each: kept in a global, the values LeakSanitizer reported as leaked
/// on the first input (Swift keeps them in enum payloads whose pointers carry tag bits it can't see through).
enum Fixture {
    /// A context where every post and path resolves, so the rewriting paths run too.
    static var context: LiquidContext { LiquidContext(baseURL: "/blog", siteURL: "https://example.org",
                                       resolvePost: { "/blog/posts/\($0)/" }, resolvePath: { "/blog/\($0)/" },
                                       site: ["title": .string("T"), "data": .map(["list": .list([.int(1), .string("a")])])],
                                       renderShortcode: { call in call.name == "note" ? "<aside>\(call.inner ?? "")</aside>" : nil },
                                       shortcodeTakesInner: { $0 == "note" ? true : nil }) }
    /// Liquid's `page` of the fuzzed post.
    static var page: MetaValue { .map(["title": .string("P"), "tags": .list([.string("x"), .string("y")]), "n": .int(3)]) }
}

/// libFuzzer's entry: Jekyll Liquid tags and Hugo shortcodes rewritten into markdown, the body run as Liquid
/// (a Jekyll-form post) when its first byte is odd. A body with no `{{` or `{%` comes back as it is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let runsLiquid = size > 0 && data[0] % 2 == 1
    let out = Liquid.run(body, path: "content/fuzz.md", firstLine: 3, context: Fixture.context, page: Fixture.page, runsLiquid: runsLiquid).markdown
    if !Liquid.needsProcessing(body) { precondition(out == body, "a body without tags changed") }
    return 0
}

runFuzzer(fuzz)
