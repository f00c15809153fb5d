import BlogCore

/// Where Python-Markdown reads a link or image whose destination holds spaces.
///
/// CommonMark allows no space in a bare destination: `[x](/my file.png)` and
/// `[x]({filename}/Folder With Spaces/post.md)` stay text. Python-Markdown takes everything up to
/// the `)` that closes the `(` (counting the parentheses between) as the destination, less a
/// quoted title at its end (`LinkInlineProcessor.getLink`). Each such destination on a line of a
/// paragraph or heading is put between `<` and `>` (`[x](</my file.png> "title")`), which is
/// CommonMark's form of a destination with spaces; code spans are skipped. A destination that
/// goes on past its line, or holds `<`, `>` or a quote before its title, is left as it is.
///
/// kramdown counts the parentheses the same way, backslashes or not, and keeps the backslashes in the
/// address: `[boxing](https://…/Object_type_(object-oriented_programming\)#Boxing)` is a link to
/// `…programming\)#Boxing`, where CommonMark reads `\)` as an escaped `)`, finds the parentheses
/// unbalanced and leaves the text. With `escapedParentheses`, each destination without a title that
/// holds `\(` or `\)` is put between `<` and `>` with its backslashes doubled, which keeps them.
enum LinkDestinationsWithSpaces {
    /// Adds to `edits` the rewritten lines of `block` (a paragraph or heading): destinations with
    /// spaces, or (`escapedParentheses`, kramdown) with `\(` or `\)`.
    static func collect(in block: CmarkNode, lines: SourceLines, escapedParentheses: Bool = false, edits: inout LineEdits) {
        for number in block.startLine...max(block.startLine, block.endLine) where !edits.touches(number) {
            let line = lines[number]
            if let rewritten = rewrite(line, escapedParentheses: escapedParentheses) { edits.replace(line: number, with: rewritten) }
        }
    }

    /// Whether `line` holds `\(` or `\)`: every line that ``rewrite(_:escapedParentheses:)`` changes
    /// for kramdown has one.
    private static func mayHoldEscapedParenthesis(_ line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { line in
            var position = 0
            while position + 1 < line.count, let found = ByteSearch.firstIndex(of: UInt8(ascii: "\\"), in: line, from: position) {
                if found + 1 < line.count, line[found + 1] == UInt8(ascii: "(") || line[found + 1] == UInt8(ascii: ")") { return true }
                position = found + 2
            }
            return false
        }
    }

    /// Whether a `](` in `line` is followed by a space or tab before the next `)` that does not start
    /// a title: every line that ``rewrite(_:)`` changes has one.
    static func mayHoldSpacedDestination(_ line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { line in
            var position = 0
            // Each `]`, found by memchr: most lines have none.
            while position + 1 < line.count, let found = ByteSearch.firstIndex(of: UInt8(ascii: "]"), in: line, from: position) {
                position = found + 1
                guard position < line.count, line[position] == UInt8(ascii: "(") else { continue }
                var probe = position + 1
                while probe < line.count, line[probe] != UInt8(ascii: ")") {
                    if line[probe] == UInt8(ascii: " ") || line[probe] == UInt8(ascii: "\t") {
                        // A space before a title (`"t"`, `'t'`, `(t)`) is CommonMark's, which cmark reads.
                        var next = probe
                        while next < line.count, line[next] == UInt8(ascii: " ") || line[next] == UInt8(ascii: "\t") { next += 1 }
                        guard next < line.count, line[next] == UInt8(ascii: "\"") || line[next] == UInt8(ascii: "'")
                                || line[next] == UInt8(ascii: "(") else { return true }
                        break
                    }
                    probe += 1
                }
                position = probe
            }
            return false
        }
    }

    /// `line` with its destinations with spaces (or, `escapedParentheses`, with `\(` or `\)`) in pointy
    /// brackets; nil when it has none.
    static func rewrite(_ line: ArraySlice<UInt8>, escapedParentheses: Bool = false) -> [UInt8]? {
        // Quick checks: a `](` with a space before the next `)` (most links have none, and most
        // lines no link), then the same outside code spans.
        if escapedParentheses {
            guard mayHoldEscapedParenthesis(line), !openings(in: line).isEmpty else { return nil }
        } else {
            guard mayHoldSpacedDestination(line), let first = openings(in: line).first, line[first...].contains(UInt8(ascii: " ")) else { return nil }
        }
        var out: [UInt8] = []
        var copied = line.startIndex
        var position = line.startIndex
        /// Open `[` on this line, outside code spans, not escaped.
        var brackets = 0
        while position < line.endIndex {
            let byte = line[position]
            switch byte {
            case UInt8(ascii: "\\"):
                position += 2
                continue
            case UInt8(ascii: "`"):
                // A code span: to the next run of as many backticks (none: the backticks are text).
                var run = position
                while run < line.endIndex, line[run] == UInt8(ascii: "`") { run += 1 }
                let length = run - position
                var probe = run
                var closed: Int?
                while probe < line.endIndex {
                    guard line[probe] == UInt8(ascii: "`") else { probe += 1; continue }
                    var end = probe
                    while end < line.endIndex, line[end] == UInt8(ascii: "`") { end += 1 }
                    if end - probe == length { closed = end; break }
                    probe = end
                }
                position = closed ?? run
                continue
            case UInt8(ascii: "["):
                brackets += 1
            case UInt8(ascii: "]"):
                guard brackets > 0 else { break }
                brackets -= 1
                guard position + 1 < line.endIndex, line[position + 1] == UInt8(ascii: "("),
                      let (destination, end) = destination(in: line, from: position + 2, escapedParentheses: escapedParentheses) else { break }
                out += line[copied..<(position + 2)]
                out += destination
                copied = end
                position = end
                continue
            default:
                break
            }
            position += 1
        }
        guard copied > line.startIndex else { return nil }
        out += line[copied...]
        return out
    }

    /// Where `](` is on `line`.
    private static func openings(in line: ArraySlice<UInt8>) -> [Int] {
        var found: [Int] = []
        var position = line.startIndex
        while position + 1 < line.endIndex {
            if line[position] == UInt8(ascii: "]"), line[position + 1] == UInt8(ascii: "(") { found.append(position + 2) }
            position += 1
        }
        return found
    }

    /// The destination (and title) that starts at `start` (just after `](`), rewritten as
    /// `<destination> "title")`, and the offset just past its `)`; nil when it holds no space or
    /// is not one Python-Markdown and cmark would read alike once rewritten. With `escapedParentheses`:
    /// the destination holding `\(` or `\)`, without a title, its backslashes doubled.
    private static func destination(in line: ArraySlice<UInt8>, from start: Int, escapedParentheses: Bool) -> ([UInt8], Int)? {
        var depth = 1
        var position = start
        var quoteAt: Int?
        while position < line.endIndex {
            let byte = line[position]
            if byte == UInt8(ascii: "\""), quoteAt == nil { quoteAt = position }
            if byte == UInt8(ascii: "'"), quoteAt == nil, position > start, line[position - 1] == UInt8(ascii: " ") { quoteAt = position }
            if quoteAt == nil {
                if byte == UInt8(ascii: "(") { depth += 1 }
                if byte == UInt8(ascii: ")") { depth -= 1 }
            } else if byte == UInt8(ascii: ")"), position > start, line[position - 1] == line[quoteAt!] {
                depth = 0
            }
            if depth == 0 { break }
            position += 1
        }
        guard depth == 0 else { return nil }
        let inner = line[start..<position]
        let space: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var hrefEnd = position
        var title: ArraySlice<UInt8> = []
        if let quoteAt {
            // A title: the quoted text at the end, after white space.
            guard quoteAt > start, space(line[quoteAt - 1]), line[position - 1] == line[quoteAt], position - 1 > quoteAt else { return nil }
            hrefEnd = quoteAt
            title = line[quoteAt..<position]
        }
        var href = line[start..<hrefEnd]
        while let last = href.last, space(last) { href.removeLast() }
        while let firstByte = href.first, space(firstByte) { href.removeFirst() }
        guard !href.contains(UInt8(ascii: "<")), !href.contains(UInt8(ascii: ">")), !inner.isEmpty else { return nil }
        if escapedParentheses {
            let backslash = UInt8(ascii: "\\")
            // `\)` inside, or a `\` before the closing `)` (`[b](/x\)y)` is a link to `/x\` there).
            guard quoteAt == nil, !href.contains(where: space), href.last == backslash
                    || zip(href, href.dropFirst()).contains(where: { $0 == backslash && ($1 == UInt8(ascii: "(") || $1 == UInt8(ascii: ")")) })
            else { return nil }
            href = ArraySlice(href.flatMap { $0 == backslash ? [backslash, backslash] : [$0] })
        } else {
            guard href.contains(where: space) else { return nil }
        }
        var out: [UInt8] = [UInt8(ascii: "<")] + href + [UInt8(ascii: ">")]
        if !title.isEmpty { out += [UInt8(ascii: " ")] + title }
        out.append(UInt8(ascii: ")"))
        return (out, position + 1)
    }
}
