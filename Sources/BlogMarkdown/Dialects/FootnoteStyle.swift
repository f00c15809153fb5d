import Foundation

/// Footnotes written as the post's generator writes them, so that links to `#fn:1` from the old site
/// keep working and the notes read the same: cmark-gfm's HTML (`<sup class="footnote-ref">`,
/// `<section class="footnotes">`, ids `fn-LABEL`) rewritten, after the render, into
/// - goldmark's (Hugo): `<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`,
///   numbered ids (`fn:1`; the second reference to a note `fnref1:1`), and
///   `<div class="footnotes" role="doc-endnotes"><hr><ol><li id="fn:1">…&#160;<a href="#fnref:1"
///   class="footnote-backref" role="doc-backlink">&#x21a9;&#xfe0e;</a></li></ol></div>`;
/// - kramdown's (Jekyll): `<sup id="fnref:LABEL" role="doc-noteref"><a href="#fn:LABEL" class="footnote"
///   rel="footnote">1</a></sup>`, ids from the label (the second reference `fnref:LABEL:1`), and
///   `<div class="footnotes" role="doc-endnotes"><ol><li id="fn:LABEL" role="doc-endnote">…&nbsp;<a
///   href="#fnref:LABEL" class="reversefootnote" role="doc-backlink">&#8617;</a></li></ol></div>` (after a
///   note ending in a list or code, the backlink is a paragraph of its own).
/// Python-Markdown's and CommonMark posts keep cmark-gfm's form.
enum FootnoteStyle {
    /// Whether `dialect`'s footnotes are rewritten.
    static func applies(to dialect: MarkdownDialect) -> Bool { dialect == .goldmark || dialect == .kramdown }

    /// `html` (a body or a summary rendered by cmark-gfm) with its footnotes in `dialect`'s form.
    static func apply(_ html: String, dialect: MarkdownDialect) -> String {
        guard applies(to: dialect), html.contains("data-footnote-ref") else { return html }
        var out = ""
        out.reserveCapacity(html.utf8.count + html.utf8.count / 8)
        var rest = html[...]
        var referencesSeen: [Substring: Int] = [:]
        var numbers: [Substring: Substring] = [:]
        // References, in order; the notes section (always last) is handled apart.
        let section = html.range(of: sectionStart, options: .backwards)
        while let found = rest.range(of: referenceStart) {
            if let section, found.lowerBound >= section.lowerBound { break }
            guard let reference = parseReference(rest[found.lowerBound...]) else {
                out += rest[..<found.upperBound]
                rest = rest[found.upperBound...]
                continue
            }
            out += rest[..<found.lowerBound]
            referencesSeen[reference.label, default: 0] += 1
            numbers[reference.label] = reference.number
            out += writeReference(label: reference.label, number: reference.number,
                                  repeatIndex: referencesSeen[reference.label]! - 1, dialect: dialect)
            rest = rest[reference.end...]
        }
        guard let section, section.lowerBound >= rest.startIndex,
              let end = html.range(of: sectionEnd, range: section.upperBound..<html.endIndex) else {
            return out + rest
        }
        out += html[rest.startIndex..<section.lowerBound]
        out += dialect == .goldmark ? "<div class=\"footnotes\" role=\"doc-endnotes\">\n<hr>\n<ol>\n"
                                    : "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n"
        out += rewriteNotes(html[section.upperBound..<end.lowerBound], numbers: numbers, dialect: dialect)
        out += "</ol>\n</div>"
        out += html[end.upperBound...]
        return out
    }

    private static let referenceStart = "<sup class=\"footnote-ref\"><a href=\"#fn-"
    private static let sectionStart = "<section class=\"footnotes\" data-footnotes>\n<ol>\n"
    private static let sectionEnd = "</ol>\n</section>"
    private static let noteStart = "<li id=\"fn-"
    private static let backlinkStart = "<a href=\"#fnref-"

    /// `<sup class="footnote-ref"><a href="#fn-LABEL" id="fnref-LABEL[-k]" data-footnote-ref>N</a></sup>`
    /// at the start of `text`: its label, number and end.
    private static func parseReference(_ text: Substring) -> (label: Substring, number: Substring, end: Substring.Index)? {
        let afterStart = text.index(text.startIndex, offsetBy: referenceStart.count)
        let text = text[..<window(text)]
        guard let quote = text[afterStart...].firstIndex(of: "\""),
              let tagEnd = text[quote...].firstIndex(of: ">"),
              let close = text[tagEnd...].range(of: "</a></sup>") else { return nil }
        let number = text[text.index(after: tagEnd)..<close.lowerBound]
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else { return nil }
        return (text[afterStart..<quote], number, close.upperBound)
    }

    private static func writeReference(label: Substring, number: Substring, repeatIndex: Int, dialect: MarkdownDialect) -> String {
        if dialect == .goldmark {
            let id = "fnref\(repeatIndex > 0 ? String(repeatIndex) : ""):\(number)"
            return "<sup id=\"\(id)\"><a href=\"#fn:\(number)\" class=\"footnote-ref\" role=\"doc-noteref\">\(number)</a></sup>"
        }
        let id = "fnref:\(label)\(repeatIndex > 0 ? ":\(repeatIndex)" : "")"
        return "<sup id=\"\(id)\" role=\"doc-noteref\"><a href=\"#fn:\(label)\" class=\"footnote\" rel=\"footnote\">\(number)</a></sup>"
    }

    /// The notes between `<ol>` and `</ol>`: each `<li id="fn-LABEL">` and its backlinks rewritten.
    private static func rewriteNotes(_ notes: Substring, numbers: [Substring: Substring], dialect: MarkdownDialect) -> String {
        var out = ""
        var rest = notes
        var index = 0
        var label: Substring = ""
        var number: Substring = ""
        var marks = Marks()
        var openParagraph = false
        while let next = marks.next(in: rest) {
            if next.isNote {
                // <li id="fn-LABEL">
                guard let quote = rest[next.range.upperBound...].firstIndex(of: "\""),
                      let tagEnd = rest[quote...].firstIndex(of: ">") else { break }
                out += rest[..<next.range.lowerBound]
                index += 1
                label = rest[next.range.upperBound..<quote]
                number = numbers[label] ?? Substring(String(index))
                out += dialect == .goldmark ? "<li id=\"fn:\(number)\">" : "<li id=\"fn:\(label)\" role=\"doc-endnote\">"
                rest = rest[rest.index(after: tagEnd)...]
                continue
            }
            // <a href="#fnref-LABEL[-k]" …>↩[<sup class="footnote-ref">k</sup>]</a>
            let near = rest[..<window(rest[next.range.lowerBound...])]
            guard let tagEnd = near[next.range.upperBound...].firstIndex(of: ">"),
                  let close = near[tagEnd...].range(of: "</a>") else { break }
            let content = rest[rest.index(after: tagEnd)..<close.lowerBound]
            var repeatIndex = 0
            if let sup = content.range(of: "<sup class=\"footnote-ref\">"), let supEnd = content.range(of: "</sup>"),
               let k = Int(content[sup.upperBound..<supEnd.lowerBound]) {
                repeatIndex = k - 1
            }
            var before = rest[..<next.range.lowerBound]
            // In a paragraph (after a space) goldmark writes `&#160;` before each backlink and kramdown a
            // no-break space; after another block (a list, code) kramdown puts the backlinks in
            // a paragraph of their own.
            let inParagraph = before.last == " "
            if inParagraph { before = before.dropLast() }
            out += before
            let ownParagraph = dialect == .kramdown && !inParagraph
            out += dialect == .goldmark ? "&#160;" : ownParagraph ? "<p>" : "\u{A0}"
            openParagraph = openParagraph || ownParagraph
            if dialect == .goldmark {
                out += "<a href=\"#fnref\(repeatIndex > 0 ? String(repeatIndex) : ""):\(number)\" class=\"footnote-backref\" role=\"doc-backlink\">&#x21a9;&#xfe0e;</a>"
            } else {
                out += "<a href=\"#fnref:\(label)\(repeatIndex > 0 ? ":\(repeatIndex)" : "")\" class=\"reversefootnote\" role=\"doc-backlink\">&#8617;\(repeatIndex > 0 ? "<sup>\(repeatIndex + 1)</sup>" : "")</a>"
            }
            rest = rest[close.upperBound...]
            // cmark-gfm puts a backlink after a note's last block on a line of its own; goldmark and
            // kramdown close the item right after it.
            if rest.hasPrefix("\n</li>") {
                if dialect == .goldmark { rest = rest.dropFirst() }
                if openParagraph { out += "</p>" }
                openParagraph = false
            }
        }
        return out + rest
    }

    /// The end of what cmark-gfm writes for one reference or backlink starting `text` (a label has at
    /// most 999 characters): searches stop there, so text that merely looks like one costs little.
    private static func window(_ text: Substring) -> Substring.Index {
        text.index(text.startIndex, offsetBy: 2_000, limitedBy: text.endIndex) ?? text.endIndex
    }

    /// The next note start or backlink, each searched for again only once passed (one pass in all).
    private struct Marks {
        var note: Range<Substring.Index>?
        var backlink: Range<Substring.Index>?
        var noteDone = false
        var backlinkDone = false

        mutating func next(in text: Substring) -> (range: Range<Substring.Index>, isNote: Bool)? {
            if !noteDone, note.map({ $0.lowerBound < text.startIndex }) ?? true {
                note = text.range(of: noteStart)
                noteDone = note == nil
            }
            if !backlinkDone, backlink.map({ $0.lowerBound < text.startIndex }) ?? true {
                backlink = text.range(of: backlinkStart)
                backlinkDone = backlink == nil
            }
            switch (noteDone ? nil : note, backlinkDone ? nil : backlink) {
            case let (note?, backlink?): return note.lowerBound < backlink.lowerBound ? (note, true) : (backlink, false)
            case let (note?, nil): return (note, true)
            case let (nil, backlink?): return (backlink, false)
            case (nil, nil): return nil
            }
        }
    }
}
