import FuzzDriver
@testable import BlogCore
@testable import BlogMarkdown

/// libFuzzer's entry: `html: sanitize` over any bytes. Its output is its own fixed point and, read again by the
/// tokenizer, holds no comment or raw text, only allowed elements and attributes, and only allowed URLs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let html = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let once = HTMLSanitizer.sanitize(html).html
    precondition(HTMLSanitizer.sanitize(once).html == once, "sanitizing the output again changed it")
    let bytes = Array(once.utf8)
    HTMLTokenizer.tokenize(bytes) { token in
        precondition(token.kind != .comment && token.kind != .rawText, "a comment or raw text in the output")
        guard token.kind == .startTag else { return }
        let allowed = HTMLSanitizer.elements[token.name]
        precondition(allowed != nil, "<\(token.name)> in the output")
        for attribute in token.attributes {
            let kind = allowed?[attribute.name] ?? HTMLSanitizer.globalAttributes[attribute.name]
            precondition(kind != nil, "\(attribute.name) on <\(token.name)> in the output")
            if kind == .url, let value = attribute.value {
                let url = HTMLEntities.decodeAttribute(String(decoding: bytes[value], as: UTF8.self))
                precondition(HTMLSanitizer.allowedURL(url) != nil, "the URL \(url) in the output")
            }
        }
    }
    return 0
}

runFuzzer(fuzz)
