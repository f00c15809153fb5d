import BlogConfig
import BlogContent
import Foundation

extension SiteConfig {
    /// The zone `post`'s day and time are shown in (its page, its URL's date, `blog list`): the
    /// offset a Hugo-form post's date was written with when blog.yml names no `timezone`, as Hugo
    /// shows it (`2017-03-01T18:09:00-07:00` is 1 March); else the site's ``timeZone``.
    package func timeZone(of post: Post) -> TimeZone {
        guard !timeZoneIsSet, let offset = post.writtenOffset, let zone = TimeZone(secondsFromGMT: offset) else { return timeZone }
        return zone
    }
}
