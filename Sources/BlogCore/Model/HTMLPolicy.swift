/// What raw HTML in a post (its body, its summary, the output of its shortcodes) may do, from the
/// most trusting to the strictest (`html` in blog.yml; a post's `html` header may only ask for a
/// stricter one).
package enum HTMLPolicy: String, Sendable, Equatable, CaseIterable, Comparable {
    /// Passed as written, as Hugo's `unsafe: true`, Jekyll and Pelican do.
    case trusted
    /// GFM's tagfilter: `<script>`, `<iframe>`, `<style>`, `<textarea>`, `<title>`, `<xmp>`,
    /// `<noembed>`, `<noframes>` and `<plaintext>` escaped; everything else as written.
    case tagfilter
    /// Only an allow-list of elements and attributes, and links to `http`, `https`, `mailto` and
    /// relative URLs, are kept (see `HTMLSanitizer` in BlogMarkdown).
    case sanitize

    package static func < (a: HTMLPolicy, b: HTMLPolicy) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
