import BlogConfig
import BlogCore
import BlogLiquid
import Foundation

extension ShortcodeMarks {
    /// `html` with each mark replaced by its fragment (and the `<p>` around a mark alone dropped).
    /// A fragment is the post's content too: with `html: sanitize` it is sanitized first, as the
    /// rest of the body was (GFM's tagfilter filters only the markdown's raw HTML).
    package static func restore(_ html: String, fragments: [String], policy: HTMLPolicy = .trusted) -> String {
        guard !fragments.isEmpty, PlaceholderMarks.build.mayBeIn(html) else { return html }
        let fragments = policy == .sanitize ? fragments.map { HTMLSanitizer.sanitize($0).html } : fragments
        var html = html
        for (index, fragment) in fragments.enumerated().reversed() {
            let mark = mark(index)
            html = html.replacingOccurrences(of: "<p>" + mark + "</p>", with: fragment)
            html = html.replacingOccurrences(of: mark, with: fragment)
        }
        return html
    }
}
