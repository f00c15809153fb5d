import BlogCore
import Foundation

/// The palettes of highlighted code a theme has. A theme declares one by styling the class
/// `highlight-NAME` in a stylesheet under `static/` (`pre.highlight-contrast { --hl-keyword: … }`);
/// `highlight_style: NAME` then puts that class on every highlighted `<pre>`. `default`, the
/// theme's styles without such a class, is always there.
package enum HighlightPalettes {
    /// The palette every theme has: no class on `<pre>`.
    package static let defaultName = "default"

    /// `default` and every NAME of a `.highlight-NAME` class in `stylesheets`, sorted.
    static func names(inStylesheets stylesheets: [Data]) -> [String] {
        let prefix = Array(".highlight-".utf8)
        var names: Set<String> = [defaultName]
        for css in stylesheets {
            let bytes = [UInt8](css)
            var index = 0
            while let hit = ByteSearch.firstIndex(of: prefix, in: bytes, from: index) {
                index = hit + prefix.count
                let start = index
                while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
                if index > start { names.insert(String(decoding: bytes[start..<index], as: UTF8.self)) }
            }
        }
        return names.sorted()
    }

    /// The bytes `highlight_style` allows in a name: lower-case ASCII letters, digits and `-`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
