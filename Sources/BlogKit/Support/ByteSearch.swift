#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Substring tests on UTF-8 bytes. Foundation's `contains` on `String` goes through `NSString`
/// and UTF-16: over every post of a 10,000-post blog it cost more than rendering the markdown.
enum ByteSearch {
    /// Whether `text` holds `needle`, byte for byte (no Unicode normalisation, which the ASCII
    /// markers searched for here never need).
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in
                guard !pattern.isEmpty else { return true }
                guard haystack.count >= pattern.count, let h = haystack.baseAddress, let p = pattern.baseAddress else { return false }
                // memchr finds each candidate first byte at memory speed; memcmp checks the rest.
                let last = haystack.count - pattern.count
                var start = 0
                while start <= last {
                    guard let found = memchr(h + start, Int32(p.pointee), last - start + 1) else { return false }
                    let offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - h
                    if memcmp(h + offset, p, pattern.count) == 0 { return true }
                    start = offset + 1
                }
                return false
            }
        }
    }

    /// Whether `text` holds any of `needles`.
    static func containsAny(_ text: String, _ needles: [String]) -> Bool {
        needles.contains { contains(text, $0) }
    }
}
