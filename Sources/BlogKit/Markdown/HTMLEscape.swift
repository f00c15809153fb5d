/// HTML escaping exactly as cmark-gfm does it in text and attribute values (`&`, `<`, `>`, `"`),
/// so code blocks and headings built here look like the ones cmark renders.
enum HTMLEscape {
    /// `text` with `&`, `<`, `>` and `"` replaced by entities.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { entity(for: $0) != nil }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + utf8.count / 8)
        for byte in utf8 {
            if let replacement = entity(for: byte) {
                bytes.append(contentsOf: replacement.utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The entity that replaces `byte`, or nil when it stays.
    static func entity(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        default: return nil
        }
    }
}
