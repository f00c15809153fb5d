import BlogCore

extension Post {
    /// The picture that stands for the post where it is shared (Open Graph's `og:image`), as its
    /// header names it: `image` (Jekyll's jekyll-seo-tag, Pelican themes), else `cover` (Hugo
    /// themes), else the first of `images` (Hugo's own templates). Each may be the address itself
    /// or a mapping holding it under `image`, `path`, `src` or `url` (`cover: {image: a.png, alt: …}`).
    /// The address as written (relative to the post's page, to the site's root with `/`, or
    /// absolute); nil when the header names none.
    package var image: String? { Self.image(in: meta) }

    /// ``image`` of a post whose header fields are `meta`: a post of the site's array whose `image` is read is
    /// copied for the call, its header fields are not.
    package static func image(in meta: [String: MetaValue]) -> String? {
        for key in ["image", "cover", "images"] {
            if let value = meta[key], let address = Self.imageAddress(value) { return address }
        }
        return nil
    }

    /// The address in one header value: a non-empty text, the first such item of a list, or the
    /// text under one of a mapping's usual keys.
    private static func imageAddress(_ value: MetaValue) -> String? {
        switch value {
        case .string(let text):
            let trimmed = text.trimmingWhitespaces()
            return trimmed.isEmpty ? nil : trimmed
        case .list(let items):
            return items.lazy.compactMap(imageAddress).first
        case .map(let entries):
            return ["image", "path", "src", "url"].lazy.compactMap { entries[$0].flatMap(imageAddress) }.first
        default:
            return nil
        }
    }
}
