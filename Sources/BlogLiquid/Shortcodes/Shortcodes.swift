import BlogCore
import Foundation

/// One Hugo shortcode in a post: `{{< name args >}}`, `{{% name args %}}`, or either with inner
/// content up to `{{< /name >}}`.
package struct ShortcodeCall: Sendable, Equatable {
    /// The shortcode's name (`figure`, `note`).
    package var name: String
    /// The arguments without a name, in order (`{{< gh "@spf13" >}}`: `@spf13`).
    package var positional: [String]
    /// The arguments with a name (`src="x.png"`), in order.
    package var named: [ShortcodeArgument]
    /// What is between the opening and the closing tag, as written; nil without a closing tag.
    package var inner: String?
    /// `{{% %}}`: the output is markdown (rendered with the post); `{{< >}}`: it is HTML.
    package var markdown: Bool

    /// The named argument `key`, or the positional one at `position`.
    package func argument(_ key: String, position: Int? = nil) -> String? {
        if let named = named.last(where: { $0.key == key }) { return named.value }
        if let position, named.isEmpty, position < positional.count { return positional[position] }
        return nil
    }
}

/// A `key="value"` argument of a shortcode.
package struct ShortcodeArgument: Sendable, Equatable {
    package var key: String
    package var value: String
}

/// Hugo's built-in shortcodes that posts use, without a template: `figure`, `youtube`, `gist`,
/// `param`, and `toc`, which many themes define (the post's table of contents, filled in once its
/// headings are known: ``TableOfContents/shortcodeMark``) (`highlight` becomes a fenced code block in ``LiquidScanner``). Their HTML follows Hugo's
/// own templates.
enum HugoShortcodes {
    /// The names handled here (and `highlight`).
    static let builtIn: Set<String> = ["figure", "youtube", "gist", "param", "highlight", "toc"]

    /// The HTML of a built-in shortcode; nil when `call` is not one, or lacks what it needs (a `figure`
    /// without `src`, a `youtube` without an id). `page` and `site` are Liquid's values of the post.
    static func html(_ call: ShortcodeCall, page: MetaValue?, site: [String: MetaValue], timeZone: TimeZone) -> String? {
        let esc = Escaping.html
        switch call.name {
        case "figure":
            guard let src = call.argument("src") else { return nil }
            var html = "<figure" + attribute("class", call.argument("class")) + ">"
            let link = call.argument("link")
            if let link {
                html += "<a href=\"\(esc(link))\"" + attribute("target", call.argument("target")) + attribute("rel", call.argument("rel")) + ">"
            }
            html += "<img src=\"\(esc(src))\"" + attribute("alt", call.argument("alt")) + attribute("width", call.argument("width"))
                + attribute("height", call.argument("height")) + " />"
            if link != nil { html += "</a>" }
            let title = call.argument("title"), caption = call.argument("caption"), attr = call.argument("attr")
            if title != nil || caption != nil || attr != nil {
                html += "<figcaption>"
                if let title { html += "<h4>\(esc(title))</h4>" }
                if caption != nil || attr != nil {
                    html += "<p>" + esc(caption ?? "")
                    if let attr {
                        if let attrlink = call.argument("attrlink") {
                            html += "<a href=\"\(esc(attrlink))\">\(esc(attr))</a>"
                        } else {
                            html += esc(attr)
                        }
                    }
                    html += "</p>"
                }
                html += "</figcaption>"
            }
            return html + "</figure>"
        case "youtube":
            guard let id = call.argument("id", position: 0), !id.isEmpty else { return nil }
            let title = call.argument("title") ?? "YouTube Video"
            return "<div style=\"position: relative; padding-bottom: 56.25%; height: 0; overflow: hidden;\">"
                + "<iframe src=\"https://www.youtube.com/embed/\(esc(id))\" style=\"position: absolute; top: 0; left: 0; width: 100%; height: 100%; border:0;\" "
                + "allowfullscreen title=\"\(esc(title))\"></iframe></div>"
        case "gist":
            guard call.positional.count >= 2 else { return nil }
            let file = call.positional.count > 2 ? "?file=" + call.positional[2] : ""
            return "<script src=\"https://gist.github.com/\(esc(call.positional[0]))/\(esc(call.positional[1])).js\(esc(file))\"></script>"
        case "toc":
            return TableOfContents.shortcodeMark
        case "param":
            guard let key = call.positional.first else { return nil }
            let path = key.split(separator: ".").map { MetaValue.string(String($0)) }
            func find(_ root: MetaValue?) -> MetaValue? {
                path.reduce(root) { value, member in value?.member(member) }
            }
            guard let value = find(page) ?? find(.map(site)) else { return nil }
            return esc(value.text(timeZone: timeZone))
        default:
            return nil
        }
    }

    private static func attribute(_ name: String, _ value: String?) -> String {
        guard let value else { return "" }
        return " \(name)=\"\(Escaping.html(value))\""
    }
}

/// Where a `{{< >}}` shortcode's HTML goes: Hugo renders the markdown around a mark and puts the
/// shortcode's output in its place, so the markdown never sees it. The mark is a ``PlaceholderMarks``
/// mark of kind `shortcode`; a mark alone in a paragraph takes the paragraph's place.
package enum ShortcodeMarks {
    /// The mark of the `index`th fragment.
    package static func mark(_ index: Int) -> String {
        PlaceholderMarks.build.mark("shortcode", index)
    }
}
