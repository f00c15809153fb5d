import BlogCore
import BlogSite

/// The digests of a context built with them (see ``PageInputs``): what a page's values were made from, so that
/// a build can tell which pages would come out as they are.
extension TemplateContext {
    /// A post's values, its real body (`html`, before its marker stood for it) standing for `html`.
    static func postDigest(_ values: [String: Any], html: String) -> Digest {
        var input = DigestInput()
        PageInputs.add(values, to: &input, replacing: ("html", Digest.of(html)))
        return input.digest
    }

    /// The values every page shares, by key: `config`, `tags` and `links` as they are, and `archives` from the
    /// digests of the posts it lists (``postDigest(_:html:)``, by index into ``Site/posts``).
    static func sharedDigests(site: Site, postDigests: [Digest], config: Any, tags: [[String: Any]],
                              links: [String: Any]) -> [String: Digest] {
        var archiveInput = DigestInput()
        for year in site.archives {
            archiveInput.add(year.year)
            archiveInput.add(year.months.count)
            for month in year.months {
                archiveInput.add(month.month)
                archiveInput.add(month.posts.count)
                for index in month.posts { archiveInput.add(postDigests[index]) }
            }
        }
        return ["config": PageInputs.digest(config), "tags": PageInputs.digest(tags),
                "links": PageInputs.digest(links), "archives": archiveInput.digest]
    }
}
