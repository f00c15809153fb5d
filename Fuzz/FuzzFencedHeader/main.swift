import BlogCore
import FuzzDriver
@testable import BlogContent

/// libFuzzer's entry: a YAML (`---`) or TOML (`+++`) front matter block, as the first byte says, through our
/// wrappers of Yams and TOMLKit (fences found, repeated keys renamed, values typed, key positions found). Malformed
/// YAML or TOML is a BuildFailure, never a trap; every key has a field, on a line of the block.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let fence = data[0] & 1 == 0 ? "---" : "+++"
    let block = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let text = fence + "\n" + block + "\n" + fence + "\n"
    guard let (header, _) = try? FrontMatterParser.parse(text, path: "content/fuzz.md") else { return 0 }
    precondition(Set(header.keyOrder) == Set(header.fields.keys), "key order and fields differ")
    for (key, field) in header.fields where header.format != .none {
        precondition(field.line >= 2 && field.line < header.bodyLine, "\(key) on line \(field.line), outside the header")
    }
    return 0
}

runFuzzer(fuzz)
