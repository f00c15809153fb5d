/// kramdown's raw span elements: the text of `<code>`, `<kbd>`, `<samp>` and `<var>` written as HTML in
/// a paragraph or heading is not markdown (kramdown's HTML content model `raw`), so
/// ``<code>`Sequence`</code>`` shows its backticks and `<code>a_b *c*</code>` its underscores and
/// asterisks, where CommonMark makes a code span or emphasis inside the element. The line is rewritten
/// with those characters escaped (`` \` ``, `\*`, `\_`, `\[`, `\]`, `\~`) before the text is parsed again.
/// An element that closes on a later line, and one inside a code span, are left.
enum KramdownRawSpans {
    private static let names: [[UInt8]] = ["code", "kbd", "samp", "var"].map { Array($0.utf8) }
    private static let escaped: Set<UInt8> = Set("`*_[]~".utf8)

    /// Adds to `edits` the lines of `block` (a paragraph or heading) holding such an element.
    static func collect(in block: CmarkNode, lines: SourceLines, edits: inout LineEdits) {
        for number in block.startLine...max(block.startLine, block.endLine) where !edits.touches(number) {
            if let line = rewritten(lines[number]) { edits.replace(line: number, with: line) }
        }
    }

    /// `line` with the markdown characters in its raw elements escaped; nil when it has none to escape.
    /// One pass over the line and one more at most per element name (searches that failed are not
    /// made again), so a long line costs little.
    static func rewritten(_ line: ArraySlice<UInt8>) -> [UInt8]? {
        let tick = UInt8(ascii: "`")
        guard line.contains(UInt8(ascii: "<")) else { return nil }
        // Where the last run of backticks of each length starts: no closer after it.
        var lastRun: [Int: Int] = [:]
        var scan = line.startIndex
        while scan < line.endIndex {
            guard line[scan] == tick else { scan += 1; continue }
            var stop = scan
            while stop < line.endIndex, line[stop] == tick { stop += 1 }
            lastRun[stop - scan] = scan
            scan = stop
        }
        var unclosed: Set<[UInt8]> = []
        var out: [UInt8] = []
        var changed = false
        var i = line.startIndex
        while i < line.endIndex {
            let byte = line[i]
            if byte == tick {
                // A code span: copied as it is, up to the next run of as many backticks (else the run is text).
                var run = i
                while run < line.endIndex, line[run] == tick { run += 1 }
                var upTo = run
                if let last = lastRun[run - i], last > i {
                    var probe = run
                    while probe < line.endIndex {
                        guard line[probe] == tick else { probe += 1; continue }
                        var stop = probe
                        while stop < line.endIndex, line[stop] == tick { stop += 1 }
                        if stop - probe == run - i { upTo = stop; break }
                        probe = stop
                    }
                }
                out += line[i..<upTo]
                i = upTo
                continue
            }
            if byte == UInt8(ascii: "<"), let (contentStart, contentEnd, closeEnd) = element(in: line, at: i, unclosed: &unclosed) {
                out += line[i..<contentStart]
                var previous: UInt8 = 0
                for character in line[contentStart..<contentEnd] {
                    if escaped.contains(character), previous != UInt8(ascii: "\\") {
                        out.append(UInt8(ascii: "\\"))
                        changed = true
                    }
                    out.append(character)
                    previous = character
                }
                out += line[contentEnd..<closeEnd]
                i = closeEnd
                continue
            }
            out.append(byte)
            i += 1
        }
        return changed ? out : nil
    }

    /// The raw element opening at `start` (`<code>`, `<kbd class="x">`…) and closing on the same line:
    /// where its text starts and ends, and where its closing tag ends.
    /// `unclosed`: the names with no closing tag further on (found so, never looked for again).
    private static func element(in line: ArraySlice<UInt8>, at start: Int, unclosed: inout Set<[UInt8]>) -> (Int, Int, Int)? {
        for name in names where !unclosed.contains(name) {
            let nameEnd = start + 1 + name.count
            guard nameEnd < line.endIndex, line[(start + 1)..<nameEnd].elementsEqual(name),
                  line[nameEnd] == UInt8(ascii: ">") || line[nameEnd] == UInt8(ascii: " ") else { continue }
            guard let tagEnd = line[nameEnd...].firstIndex(of: UInt8(ascii: ">")) else {
                unclosed.insert(name)
                return nil
            }
            let close = [UInt8(ascii: "<"), UInt8(ascii: "/")] + name + [UInt8(ascii: ">")]
            var probe = tagEnd + 1
            while probe + close.count <= line.endIndex {
                if line[probe..<(probe + close.count)].elementsEqual(close) {
                    return (tagEnd + 1, probe, probe + close.count)
                }
                probe += 1
            }
            unclosed.insert(name)
            return nil
        }
        return nil
    }
}
