import BlogCore

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

    /// `html` (a body or a summary rendered by cmark-gfm) with its footnotes in `dialect`'s form. One pass
    /// over the bytes: every search starts where the last one ended, or is bounded.
    static func apply(_ html: String, dialect: MarkdownDialect) -> String {
        guard applies(to: dialect), ByteSearch.contains(html, "data-footnote-ref") else { return html }
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var position = 0
        var referencesSeen: [ArraySlice<UInt8>: Int] = [:]
        var numbers: [ArraySlice<UInt8>: ArraySlice<UInt8>] = [:]
        let section = lastIndex(of: sectionStart, in: bytes)
        let referencesEnd = section ?? bytes.count
        while let found = ByteSearch.firstIndex(of: referenceStart, in: bytes, from: position), found < referencesEnd {
            guard let reference = parseReference(bytes, at: found) else {
                out += bytes[position..<(found + referenceStart.count)]
                position = found + referenceStart.count
                continue
            }
            out += bytes[position..<found]
            referencesSeen[reference.label, default: 0] += 1
            numbers[reference.label] = reference.number
            out += writeReference(label: reference.label, number: reference.number,
                                  repeatIndex: referencesSeen[reference.label]! - 1, dialect: dialect)
            position = reference.end
        }
        guard let section, section >= position,
              let end = ByteSearch.firstIndex(of: sectionEnd, in: bytes, from: section + sectionStart.count) else {
            out += bytes[position...]
            return String(decoding: out, as: UTF8.self)
        }
        out += bytes[position..<section]
        out += Array((dialect == .goldmark ? "<div class=\"footnotes\" role=\"doc-endnotes\">\n<hr>\n<ol>\n"
                                           : "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n").utf8)
        rewriteNotes(bytes, from: section + sectionStart.count, to: end, numbers: numbers, dialect: dialect, into: &out)
        out += Array("</ol>\n</div>".utf8)
        out += bytes[(end + sectionEnd.count)...]
        return String(decoding: out, as: UTF8.self)
    }

    private static let referenceStart = Array("<sup class=\"footnote-ref\"><a href=\"#fn-".utf8)
    private static let referenceEnd = Array("</a></sup>".utf8)
    private static let sectionStart = Array("<section class=\"footnotes\" data-footnotes>\n<ol>\n".utf8)
    private static let sectionEnd = Array("</ol>\n</section>".utf8)
    private static let noteStart = Array("<li id=\"fn-".utf8)
    private static let backlinkStart = Array("<a href=\"#fnref-".utf8)
    private static let backlinkSup = Array("<sup class=\"footnote-ref\">".utf8)
    private static let linkEnd = Array("</a>".utf8)
    private static let quote = UInt8(ascii: "\"")
    private static let tagClose = UInt8(ascii: ">")

    /// Where `pattern` last starts in `bytes` (the notes section is the body's last piece).
    private static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        var found: Int?
        var from = 0
        while let at = ByteSearch.firstIndex(of: pattern, in: bytes, from: from) {
            found = at
            from = at + 1
        }
        return found
    }

    /// The end of what cmark-gfm writes for one reference or backlink starting at `start` (a label has
    /// at most 999 bytes, written twice): searches stop there, so text that merely looks like one costs little.
    private static func window(_ bytes: [UInt8], _ start: Int) -> Int { min(bytes.count, start + 2_400) }

    /// The first `byte` in `bytes[from..<to]`.
    private static func first(_ byte: UInt8, in bytes: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return bytes[from..<to].firstIndex(of: byte)
    }

    /// `pattern` in `bytes[from..<to]`: the search itself stops at `to` (searched to the end of the body,
    /// each of 20,000 lookalike references read the rest of the body, 11 s for one post of 1 MB).
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return pattern.withUnsafeBufferPointer { pattern in
            bytes.withUnsafeBufferPointer { bytes in
                ByteSearch.firstIndex(of: pattern, in: UnsafeBufferPointer(rebasing: bytes[..<min(to, bytes.count)]), from: from)
            }
        }
    }

    /// `<sup class="footnote-ref"><a href="#fn-LABEL" id="fnref-LABEL[-k]" data-footnote-ref>N</a></sup>`
    /// at `start`: its label, number and end.
    private static func parseReference(_ bytes: [UInt8], at start: Int)
        -> (label: ArraySlice<UInt8>, number: ArraySlice<UInt8>, end: Int)? {
        let labelStart = start + referenceStart.count
        let limit = window(bytes, start)
        guard let labelEnd = first(quote, in: bytes, from: labelStart, to: limit),
              let tagEnd = first(tagClose, in: bytes, from: labelEnd, to: limit),
              let close = find(referenceEnd, in: bytes, from: tagEnd, to: limit) else { return nil }
        let number = bytes[(tagEnd + 1)..<close]
        guard !number.isEmpty, number.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return (bytes[labelStart..<labelEnd], number, close + referenceEnd.count)
    }

    private static func writeReference(label: ArraySlice<UInt8>, number: ArraySlice<UInt8>, repeatIndex: Int,
                                       dialect: MarkdownDialect) -> [UInt8] {
        let (label, number) = (String(decoding: label, as: UTF8.self), String(decoding: number, as: UTF8.self))
        if dialect == .goldmark {
            let id = "fnref\(repeatIndex > 0 ? String(repeatIndex) : ""):\(number)"
            return Array("<sup id=\"\(id)\"><a href=\"#fn:\(number)\" class=\"footnote-ref\" role=\"doc-noteref\">\(number)</a></sup>".utf8)
        }
        let id = "fnref:\(label)\(repeatIndex > 0 ? ":\(repeatIndex)" : "")"
        return Array("<sup id=\"\(id)\" role=\"doc-noteref\"><a href=\"#fn:\(label)\" class=\"footnote\" rel=\"footnote\">\(number)</a></sup>".utf8)
    }

    /// The notes in `bytes[from..<to]` (between `<ol>` and `</ol>`): each `<li id="fn-LABEL">` and its
    /// backlinks rewritten, into `out`.
    private static func rewriteNotes(_ bytes: [UInt8], from: Int, to: Int, numbers: [ArraySlice<UInt8>: ArraySlice<UInt8>],
                                     dialect: MarkdownDialect, into out: inout [UInt8]) {
        var position = from
        var index = 0
        var label = ""
        var number = ""
        var openParagraph = false
        var nextNote = find(noteStart, in: bytes, from: position, to: to)
        var nextBacklink = find(backlinkStart, in: bytes, from: position, to: to)
        while true {
            if let note = nextNote, note < position { nextNote = find(noteStart, in: bytes, from: position, to: to) }
            if let link = nextBacklink, link < position { nextBacklink = find(backlinkStart, in: bytes, from: position, to: to) }
            guard let mark = [nextNote, nextBacklink].compactMap({ $0 }).min() else { break }
            let limit = min(to, window(bytes, mark))
            if mark == nextNote {
                // <li id="fn-LABEL">
                let labelStart = mark + noteStart.count
                guard let labelEnd = first(quote, in: bytes, from: labelStart, to: limit),
                      let tagEnd = first(tagClose, in: bytes, from: labelEnd, to: limit) else { break }
                out += bytes[position..<mark]
                index += 1
                label = String(decoding: bytes[labelStart..<labelEnd], as: UTF8.self)
                number = numbers[bytes[labelStart..<labelEnd]].map { String(decoding: $0, as: UTF8.self) } ?? String(index)
                out += Array((dialect == .goldmark ? "<li id=\"fn:\(number)\">" : "<li id=\"fn:\(label)\" role=\"doc-endnote\">").utf8)
                position = tagEnd + 1
                openParagraph = false
                continue
            }
            // <a href="#fnref-LABEL[-k]" …>↩[<sup class="footnote-ref">k</sup>]</a>
            guard let tagEnd = first(tagClose, in: bytes, from: mark + backlinkStart.count, to: limit),
                  let close = find(linkEnd, in: bytes, from: tagEnd, to: limit) else { break }
            var repeatIndex = 0
            if let sup = find(backlinkSup, in: bytes, from: tagEnd, to: close),
               let supEnd = first(UInt8(ascii: "<"), in: bytes, from: sup + backlinkSup.count, to: close),
               let k = Int(String(decoding: bytes[(sup + backlinkSup.count)..<supEnd], as: UTF8.self)) {
                repeatIndex = k - 1
            }
            // In a paragraph (after a space) goldmark writes `&#160;` before each backlink and kramdown a
            // no-break space; after another block (a list, code) kramdown puts the backlinks in a paragraph
            // of their own.
            let inParagraph = mark > position && bytes[mark - 1] == UInt8(ascii: " ")
            out += bytes[position..<(inParagraph ? mark - 1 : mark)]
            let ownParagraph = dialect == .kramdown && !inParagraph
            openParagraph = openParagraph || ownParagraph
            let repeatText = repeatIndex > 0 ? String(repeatIndex) : ""
            if dialect == .goldmark {
                out += Array("&#160;<a href=\"#fnref\(repeatText):\(number)\" class=\"footnote-backref\" role=\"doc-backlink\">&#x21a9;&#xfe0e;</a>".utf8)
            } else {
                out += Array(((ownParagraph ? "<p>" : "\u{A0}") + "<a href=\"#fnref:\(label)\(repeatIndex > 0 ? ":\(repeatIndex)" : "")\" class=\"reversefootnote\" role=\"doc-backlink\">&#8617;\(repeatIndex > 0 ? "<sup>\(repeatIndex + 1)</sup>" : "")</a>").utf8)
            }
            position = close + linkEnd.count
            // cmark-gfm puts a backlink after a note's last block on a line of its own; goldmark and
            // kramdown close the item right after it.
            let itemEnd = Array("\n</li>".utf8)
            if position + itemEnd.count <= to, bytes[position..<(position + itemEnd.count)].elementsEqual(itemEnd) {
                if dialect == .goldmark { position += 1 }
                if openParagraph { out += Array("</p>".utf8) }
                openParagraph = false
            }
        }
        out += bytes[position..<to]
    }
}
