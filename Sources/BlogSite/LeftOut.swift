import BlogCore

/// The posts a build leaves out without being asked to by name: drafts (without `--drafts`) and posts
/// dated after the build's "now" (without `--future`). `blog build`, `list` and `serve` say how many,
/// and how to see them, so that a new draft does not vanish without a word.
public struct LeftOut: Sendable, Equatable {
    /// Drafts left out (a draft dated in the future counts here, once).
    public var drafts: Int
    /// Posts (and pages) that are not drafts, dated after the build's "now", left out.
    public var future: Int

    package init(drafts: Int = 0, future: Int = 0) {
        self.drafts = drafts
        self.future = future
    }

    /// `1 draft and 2 future posts not shown: --drafts, --future`; nil when nothing was left out.
    /// `blog serve`, which shows both unless told not to, says instead which of its options left them out
    /// (`asServeAsked`): `1 draft not shown, as --no-drafts asks`.
    public func note(asServeAsked: Bool = false) -> String? {
        var what: [String] = [], flags: [String] = []
        if drafts > 0 {
            what.append(Count.of(drafts, "draft"))
            flags.append(asServeAsked ? "--no-drafts" : "--drafts")
        }
        if future > 0 {
            what.append("\(future) future post" + (future == 1 ? "" : "s"))
            flags.append(asServeAsked ? "--no-future" : "--future")
        }
        guard !what.isEmpty else { return nil }
        let posts = what.joined(separator: " and ")
        if asServeAsked {
            return posts + " not shown, as " + flags.joined(separator: " and ") + (flags.count == 1 ? " asks" : " ask")
        }
        return posts + " not shown: " + flags.joined(separator: ", ")
    }
}
