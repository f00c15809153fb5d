import Foundation
import XCTest

/// The default theme's colours, read from its stylesheet, meet WCAG 2's contrast of 4.5:1 for
/// text (success criterion 1.4.3) in every palette of highlighted code, in the light and the dark
/// scheme.
final class ThemeContrastTests: XCTestCase {
    static let stylesheet = RepositorySample.root.appendingPathComponent("themes/default/static/style.css")
    static let darkScheme = "(prefers-color-scheme: dark)"
    static let minimum = 4.5

    /// What each colour is read on, by name: text and links on the page, pills on `--surface`, the
    /// line numbers and language label on the code, every highlighting colour on the code and on a
    /// highlighted line, and inserted/deleted lines on their own backgrounds.
    static func pairs(_ properties: [String: String]) -> [(what: String, foreground: String, background: String)] {
        var pairs: [(String, String, String)] = [
            ("body text", "--text", "--background"), ("text in tables and tag index", "--text", "--surface"),
            ("code", "--text", "--code-background"), ("marked text", "--text", "--mark"),
            ("muted text", "--muted", "--background"), ("tag pills", "--muted", "--surface"),
            ("line numbers, language label", "--muted", "--code-background"),
            ("links", "--accent", "--background"), ("visited links", "--accent-visited", "--background"),
            ("tag pill under the pointer", "--accent", "--surface"),
        ]
        for name in properties.keys.sorted() where name.hasPrefix("--hl-") && !name.hasSuffix("-background") {
            if properties[name + "-background"] != nil {
                pairs.append((name, name, name + "-background"))
            } else {
                pairs.append((name, name, "--code-background"))
                pairs.append((name + " on a highlighted line", name, "--mark"))
            }
        }
        return pairs
    }

    func testEveryPaletteInBothSchemesHasContrastOfFourAndAHalf() throws {
        let css = CSSCustomProperties(try String(contentsOf: Self.stylesheet, encoding: .utf8))
        // The palettes: `default` (`:root`) and each `pre.highlight-NAME` (see HighlightPalettes).
        let palettes = Set(css.rules.flatMap(\.selectors).filter { $0.hasPrefix("pre.highlight-") })
        XCTAssertFalse(palettes.isEmpty, "the default theme ships a second palette")
        var table: [String] = []
        for palette in [":root"] + palettes.sorted() {
            for dark in [false, true] {
                var properties = css.properties(selector: ":root", media: nil)
                if dark { properties.merge(css.properties(selector: ":root", media: Self.darkScheme)) { $1 } }
                if palette != ":root" {
                    properties.merge(css.properties(selector: palette, media: nil)) { $1 }
                    if dark { properties.merge(css.properties(selector: palette, media: Self.darkScheme)) { $1 } }
                }
                let name = "\(palette == ":root" ? "default" : String(palette.dropFirst("pre.highlight-".count))) \(dark ? "dark" : "light")"
                var lowest: (ratio: Double, what: String)?
                for (what, foreground, background) in Self.pairs(properties) {
                    let fg = try XCTUnwrap(properties[foreground].flatMap(RGB.init), "\(name): \(foreground) is no #hex colour")
                    let bg = try XCTUnwrap(properties[background].flatMap(RGB.init), "\(name): \(background) is no #hex colour")
                    let ratio = RGB.contrast(fg, bg)
                    XCTAssertGreaterThanOrEqual(ratio, Self.minimum, "\(name): \(what), \(foreground) \(properties[foreground]!) on \(background) \(properties[background]!)")
                    if ratio < lowest?.ratio ?? .infinity { lowest = (ratio, what) }
                }
                if let lowest { table.append(String(format: "%@: %.2f (%@)", name, lowest.ratio, lowest.what)) }
            }
        }
        XCTAssertEqual(table.count, 2 * (palettes.count + 1))
        print("lowest contrast by palette and scheme:\n" + table.joined(separator: "\n"))
    }

    func testContrastMatchesWCAGsFormula() {
        // The two ends, and a grey whose ratio WCAG's own examples give (#767676 on white: 4.54).
        XCTAssertEqual(RGB.contrast(RGB("#000")!, RGB("#ffffff")!), 21, accuracy: 0.001)
        XCTAssertEqual(RGB.contrast(RGB("#777777")!, RGB("#777")!), 1, accuracy: 0.001)
        XCTAssertEqual(RGB.contrast(RGB("#767676")!, RGB("#fff")!), 4.54, accuracy: 0.005)
        XCTAssertNil(RGB("var(--x)"))
    }
}

/// A colour written `#rgb` or `#rrggbb`.
private struct RGB {
    var red, green, blue: Double

    init?(_ text: String) {
        var hex = text.trimmingCharacters(in: .whitespaces)
        guard hex.hasPrefix("#") else { return nil }
        hex.removeFirst()
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6, let value = Int(hex, radix: 16) else { return nil }
        red = Double(value >> 16 & 0xFF) / 255
        green = Double(value >> 8 & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    /// WCAG 2's relative luminance.
    var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio, from 1 to 21.
    static func contrast(_ a: RGB, _ b: RGB) -> Double {
        let (light, dark) = (max(a.luminance, b.luminance), min(a.luminance, b.luminance))
        return (light + 0.05) / (dark + 0.05)
    }
}
