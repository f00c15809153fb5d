import Foundation

/// A post's table of contents: its headings of some levels, nested by level, and their HTML.
package struct TableOfContents: Sendable, Equatable {
    /// One heading, and the deeper ones under it until the next heading of its level or higher.
    package struct Entry: Sendable, Equatable {
        package var heading: Heading
        package var children: [Entry]
    }

    /// The top entries.
    package var entries: [Entry]
    /// The number of headings it holds, at every depth.
    package var count: Int

    /// The headings of `headings` whose level is in `levels`, nested: a heading goes under the
    /// last one before it of a higher level (a smaller number), as Python-Markdown's and Hugo's
    /// tables nest them; a heading with none above it is at the top.
    package init(_ headings: [Heading], levels: ClosedRange<Int>) {
        // The open path from the top: each entry with the children seen so far.
        var path: [Entry] = []
        var top: [Entry] = []
        var count = 0
        func close() {
            let last = path.removeLast()
            if path.isEmpty { top.append(last) } else { path[path.count - 1].children.append(last) }
        }
        for heading in headings where levels.contains(heading.level) {
            count += 1
            while let last = path.last, last.heading.level >= heading.level { close() }
            path.append(Entry(heading: heading, children: []))
        }
        while !path.isEmpty { close() }
        entries = top
        self.count = count
    }

    /// The entries as nested lists, `<ul><li><a href="#id">text</a><ul>…</ul></li></ul>`; empty without any.
    ///
    /// Each piece's UTF-8 appended in place, into room for all of them made at once, then made one text: `a + b + c`
    /// made a new text at every `+`, and the lists grew from nothing (a post's page made its table so, about 25,000
    /// instructions); a piece appended to a `String` cost about 350 instructions (both strings' forms and capacity
    /// checked): 13.7 -> 9.8 M instructions at 1,000 posts.
    package var listHTML: String {
        guard !entries.isEmpty else { return "" }
        func size(_ entries: [Entry]) -> Int {
            entries.reduce(12) { $0 + 30 + $1.heading.id.utf8.count + $1.heading.text.utf8.count + size($1.children) }
        }
        var html: [UInt8] = []
        html.reserveCapacity(size(entries))
        func list(_ entries: [Entry]) {
            html.append(contentsOf: "<ul>\n".utf8)
            for entry in entries {
                html.append(contentsOf: "<li><a href=\"#".utf8)
                html.append(contentsOf: Escaping.html(entry.heading.id).utf8)
                html.append(contentsOf: "\">".utf8)
                html.append(contentsOf: Escaping.html(entry.heading.text).utf8)
                html.append(contentsOf: "</a>".utf8)
                if !entry.children.isEmpty {
                    html.append(UInt8(ascii: "\n"))
                    list(entry.children)
                }
                html.append(contentsOf: "</li>\n".utf8)
            }
            html.append(contentsOf: "</ul>\n".utf8)
        }
        list(entries)
        return String(decoding: html, as: UTF8.self)
    }

    /// Where a body asks for its table of contents, once rendered: Python-Markdown's `[TOC]` paragraph,
    /// and what Hugo's `{{< toc >}}` shortcode writes (``shortcodeMark``).
    package static let pelicanMark = "<p>[TOC]</p>"
    /// What `{{< toc >}}` puts in a body, filled by ``fill(_:dialectMark:)``.
    package static let shortcodeMark = "<nav class=\"toc\" aria-label=\"Contents\"></nav>"
    /// The start of a table of contents in a body (``fill(_:dialectMark:)``): a theme shows no second one.
    package static let filledStart = "<nav class=\"toc\" aria-label=\"Contents\">\n"
    /// Where ``filledStart`` is looked for (``ByteSearch/contains(_:_:by:)``): its `C`, about one byte in 1,200 of
    /// the benchmark's bodies, where memmem read every byte of every body.
    package static let filledStartAnchor = 29

    /// `html` with each of `marks` that stands alone in it replaced by the table: a `<nav>` of its lists (an
    /// empty one for a table without entries). Nil when `html` has none.
    package func fill(_ html: String, marks: [String]) -> String? {
        let present = marks.filter { ByteSearch.contains(html, $0) }
        guard !present.isEmpty else { return nil }
        let nav = Self.filledStart + listHTML + "</nav>"
        var html = html
        for mark in present { html = html.replacingOccurrences(of: mark, with: nav) }
        return html
    }
}
