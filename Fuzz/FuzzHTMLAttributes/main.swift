import FuzzDriver
@testable import BlogCore

/// libFuzzer's entry: the start-tag walker used by feeds (absolute URLs), content links and `blog check`. Every
/// value it reports lies inside the input, in document order; rewriting no URL gives back the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var end = 0
    HTMLAttributes.scan(bytes) { attribute in
        precondition(attribute.value.lowerBound >= end && attribute.value.upperBound <= bytes.count,
                     "value \(attribute.value) out of order or out of the input")
        end = attribute.value.upperBound
    }
    let html = String(decoding: bytes, as: UTF8.self)
    precondition(HTMLAttributes.rewriteURLs(in: html) { _ in nil } == html, "an unchanged rewrite changed the HTML")
    _ = HTMLAttributes.rewriteURLs(in: html) { value in value.isSrcset ? value.text : "/x" + value.text }
    return 0
}

runFuzzer(fuzz)
