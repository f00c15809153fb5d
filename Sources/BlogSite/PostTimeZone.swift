import BlogConfig
import BlogContent
import Foundation

extension SiteConfig {
    /// The zone a post's day and time are shown in (its page, its URL's date, `blog list`), given its
    /// ``Post/writtenOffset``: the offset a Hugo-form post's date was written with when blog.yml names no
    /// `timezone`, as Hugo shows it (`2017-03-01T18:09:00-07:00` is 1 March); else the site's ``timeZone``.
    /// Given the offset, not the post: a post of the site's array passed whole was copied for the call.
    package func timeZone(writtenOffset: Int?) -> TimeZone {
        guard !timeZoneIsSet, let offset = writtenOffset, let zone = TimeZone(secondsFromGMT: offset) else { return timeZone }
        return zone
    }
}
