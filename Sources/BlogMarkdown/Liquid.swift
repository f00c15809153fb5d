import BlogCore

/// What a body transform needs to know about the site.
package struct LiquidContext: Sendable {
    /// `{{ site.baseurl }}`: the base path without trailing slash ("" or "/blog").
    var baseURL: String
    /// `{{ site.url }}`: scheme+host without trailing slash ("https://example.org"), "" if unknown.
    var siteURL: String
    /// Resolves a `{% post_url 2010-07-21-name %}` argument (a Jekyll post's file name without extension,
    /// may include a subfolder) to a site URL path (with base path, e.g. "/blog/posts/name/"), nil if unknown.
    var resolvePost: @Sendable (String) -> String?
    /// Resolves a `{% link _posts/2016-07-26-name.md %}` / Hugo `ref`/`relref` argument (a path relative to the
    /// content folder, or a bare file name, or a path like "/news/0.120.0-relnotes/index.md") to a site URL path,
    /// nil if unknown.
    var resolvePath: @Sendable (String) -> String?

    /// Creates a context; by default nothing resolves.
    package init(
        baseURL: String = "",
        siteURL: String = "",
        resolvePost: @escaping @Sendable (String) -> String? = { _ in nil },
        resolvePath: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.baseURL = baseURL
        self.siteURL = siteURL
        self.resolvePost = resolvePost
        self.resolvePath = resolvePath
    }
}

/// The Jekyll Liquid tags and Hugo shortcodes that real blogs' posts use, rewritten into plain markdown.
///
/// What is understood: `{% highlight %}` (to a fenced code block), `{% raw %}`, `{% post_url %}`, `{% link %}`,
/// `{{ site.baseurl }}`, `{{ site.url }}`, Hugo `ref`/`relref` and Hugo's escaped shortcodes (`{{</* x */>}}` shows
/// as `{{< x >}}`). Anything else is left as written, with one warning per file. Text in code (fenced, indented,
/// inline, highlight) is never touched, except `raw` tags and Hugo escapes, which both generators process everywhere
/// and which authors write precisely so that the code shows as they mean.
package enum Liquid {
    /// Rewrites Jekyll Liquid tags and Hugo shortcodes in `body`; returns the new markdown and warnings.
    /// `path` names the file in messages, `firstLine` is the file line of the body's first line
    /// (messages give FILE lines and columns).
    package static func process(_ body: String, path: String, firstLine: Int, context: LiquidContext) -> (String, [Diagnostic]) {
        guard needsProcessing(body) else { return (body, []) }
        var scanner = LiquidScanner(Array(body.utf8), path: path, firstLine: firstLine, context: context)
        scanner.run()
        if scanner.out == scanner.b { return (body, scanner.diagnostics) }
        return (String(decoding: scanner.out, as: UTF8.self), scanner.diagnostics)
    }

    /// Quick check so posts without any `{%` or `{{` skip the work.
    package static func needsProcessing(_ body: String) -> Bool {
        var afterBrace = false
        for byte in body.utf8 {
            if afterBrace && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "%")) { return true }
            afterBrace = byte == UInt8(ascii: "{")
        }
        return false
    }

    /// The tags and outputs that `process` understands, as named in the warning about the others.
    static let supportedList = "highlight, raw, post_url, link, site.baseurl, site.url, ref and relref"
}
