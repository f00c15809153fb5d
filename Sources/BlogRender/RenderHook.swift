import Foundation

/// How a layer on top of the pipeline (the incremental build, BlogIncremental) sees where each
/// post's rendered body lands in the pages and feeds. Render calls it at two places: where a post's
/// body becomes a value (in templates and in feed entries), and where a page's or feed's text
/// becomes its bytes. Whatever the hook does, the bytes must be the ones a render without it makes.
///
/// Without a hook (`blog build --no-cache`, `blog check`, ``SiteRenderer/render(_:theme:)``)
/// templates and feeds get the plain body and text becomes bytes as it is.
package protocol RenderHook: Sendable {
    /// What templates see as the `html` of post `post` (an index into ``Site/posts``), whose
    /// rendered body is `html`.
    func templateBody(post: Int, html: String) -> Any
    /// What the feed entries of post `post` hold in place of its body (made absolute and escaped
    /// by the feed: ``feedBytes(path:json:text:)`` then puts the body there).
    func feedBody(post: Int) -> String
    /// The bytes of page `number` (an index into ``Site/pages``) from its rendered text.
    func pageBytes(number: Int, text: String) -> Data
    /// The bytes of the feed at `path` (`json`: the JSON feed, else Atom or RSS) from its text.
    func feedBytes(path: String, json: Bool, text: String) -> Data
}
