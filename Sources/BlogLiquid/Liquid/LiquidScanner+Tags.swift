import BlogCore
import Foundation

/// Jekyll's Liquid tags and outputs in the scan: `raw`, `post_url` and `link`, the ones the interpreter runs,
/// and those left as written.
extension LiquidScanner {
    /// `{% name markup %}`.
    mutating func handleTag(_ k: Int) {
        if let tag = simpleTag(at: k), tag.is("raw", in: b) {
            handleRaw(k, tagEnd: tag.end)
            return
        }
        let limit = paragraphLimit(from: k)
        guard let close = tagClose.next(in: b, from: k + 2), close + 2 <= limit else {
            advance(to: k + 1, copy: true)
            return
        }
        let end = close + 2
        let (lo, hi) = trim(k + 2, close, dashes: true)
        let nameEnd = tokenEnd(lo, hi)
        let name = text(lo, nameEnd)
        let (markupLo, markupHi) = trim(nameEnd, hi, dashes: false)
        let markup = text(markupLo, markupHi)
        switch name {
        case "highlight":
            handleHighlight(k, end: end, markup: markup)
        case "post_url":
            let url = markup.isEmpty ? nil : context.resolvePost(markup)
            handleLink(k, end: end, url: url, unknown:
                "unknown post \"\(markup)\" in {% post_url %}: expected the file name of a post in _posts/ (YYYY-MM-DD-slug)")
        case "link":
            let url = markup.isEmpty ? nil : context.resolvePath(markup)
            handleLink(k, end: end, url: url, unknown:
                "unknown post \"\(markup)\" in {% link %}: expected the path of a post from the site folder (_posts/YYYY-MM-DD-slug.md)")
        default:
            let source = tagSource(k, end: end, name: name, markup: markup)
            if interprets {
                piece(.tag(source), upTo: end)
            } else {
                unsupportedTags.append(source)
                advance(to: end, copy: true)
            }
        }
    }

    /// `{% raw %}…{% endraw %}`: the text between, exactly.
    mutating func handleRaw(_ k: Int, tagEnd: Int) {
        guard let close = nextEndRaw(from: tagEnd) else {
            warn(at: k, "{% raw %} is never closed: expected {% endraw %} after the text to show as written; the rest of the file is left as written")
            advance(to: n, copy: true)
            return
        }
        advance(to: tagEnd, copy: false)
        advance(to: close.start, copy: true)
        advance(to: close.end, copy: false)
    }

    /// `{% post_url %}` / `{% link %}`: the URL, or the tag as written and a warning.
    mutating func handleLink(_ k: Int, end: Int, url: String?, unknown: String) {
        guard let url else {
            warn(at: k, unknown)
            advance(to: end, copy: true)
            return
        }
        let base = context.baseURL
        if let last = baseURLEnd, last.input == k, last.output == out.count, !base.isEmpty, url.hasPrefix(base) {
            out.removeLast(base.utf8.count)
        }
        replace(upTo: end, with: url)
    }

    /// `{{ expression }}`.
    mutating func handleOutput(_ k: Int) {
        let limit = paragraphLimit(from: k)
        guard let close = outputClose.next(in: b, from: k + 2), close + 2 <= limit else {
            advance(to: k + 1, copy: true)
            return
        }
        let end = close + 2
        let (lo, hi) = trim(k + 2, close, dashes: true)
        let expression = text(lo, hi)
        switch expression {
        case "site.baseurl":
            replace(upTo: end, with: context.baseURL)
            baseURLEnd = (end, out.count)
        case "site.url":
            replace(upTo: end, with: context.siteURL)
        default:
            let source = tagSource(k, end: end, name: "", markup: expression)
            if interprets {
                piece(.output(source), upTo: end)
            } else {
                unsupportedTags.append(source)
                advance(to: end, copy: true)
            }
        }
    }

    /// The tag or output from `k` to `end`, as the interpreter and messages need it.
    mutating func tagSource(_ k: Int, end: Int, name: String, markup: String) -> LiquidTagSource {
        LiquidTagSource(name: name, markup: markup, written: Array(b[k..<end]), line: firstLine + line, column: column(of: k),
                        trimBefore: k + 2 < end && b[k + 2] == UInt8(ascii: "-"), trimAfter: end - 3 > k && b[end - 3] == UInt8(ascii: "-"))
    }

    /// Hands the tag or output ending at `end` to the interpreter: the text so far becomes a piece, then it.
    mutating func piece(_ piece: LiquidPiece, upTo end: Int) {
        pieces.append(.text(out))
        out = []
        pieces.append(piece)
        advance(to: end, copy: false)
    }
}
