/// Follows a markdown body line by line, well enough to know which lines are code (fenced or indented),
/// so that template-looking text in code is never touched.
///
/// This is an approximation of CommonMark's block structure, biased so that it never mistakes code for prose:
/// when unsure (a fence-looking line at any indentation, an indented line after anything but paragraph text),
/// the line is taken as code. Block quote markers (`>`) are looked through; list items are followed only to
/// know how deep their indented code starts.
package struct LiquidBlockTracker {
    /// What the previous line was, as far as indented code is concerned.
    private enum Previous {
        /// A blank line, or the start of the body: an indented line after it is code.
        case blank
        /// Paragraph (or list item) text: an indented line after it continues the paragraph.
        case paragraph
        /// A heading, a fence, code: an indented line after it is code.
        case other
    }

    /// The open fence (its character and length), if inside a fenced code block.
    private var fence: (char: UInt8, count: Int)?
    private var previous = Previous.blank
    /// The content columns of the list items the current line may belong to, innermost last.
    private var listIndents: [Int] = []

    package init() {}

    /// Classifies the line starting at `start` in `b`; returns true when the line is code.
    package mutating func classify(_ b: [UInt8], _ start: Int) -> Bool {
        let line = LiquidLine(b, start)
        if let open = fence {
            if !line.isBlank, let run = line.fenceRun(b), run.char == open.char, run.count >= open.count,
               LiquidLine.isBlank(b, from: line.restStart + run.count) {
                fence = nil
            }
            previous = .other
            return true
        }
        if line.isBlank {
            previous = .blank
            return false
        }
        if previous == .blank {
            while let last = listIndents.last, line.indent < last { listIndents.removeLast() }
        }
        if line.indent >= (listIndents.last ?? 0) + 4 && previous != .paragraph {
            previous = .other
            return true
        }
        if let run = line.fenceRun(b), run.count >= 3,
           run.char == UInt8(ascii: "~") || !LiquidLine.contains(UInt8(ascii: "`"), b, from: line.restStart + run.count) {
            fence = run
            previous = .other
            return true
        }
        let first = b[line.restStart]
        if first == UInt8(ascii: "#") {
            previous = .other
            return false
        }
        if let content = line.listContentColumn(b) {
            while let last = listIndents.last, last > line.indent { listIndents.removeLast() }
            listIndents.append(content)
        }
        previous = .paragraph
        return false
    }

    /// Notes a line that is code for another reason (inside `{% highlight %}`).
    mutating func noteCodeLine() {
        previous = .other
    }

    /// Whether the line starting at `start` ends a paragraph: blank, or a fence that interrupts it.
    /// Template tags and code spans never run past such a line.
    static func breaksParagraph(_ b: [UInt8], _ start: Int) -> Bool {
        let line = LiquidLine(b, start)
        if line.isBlank { return true }
        if let run = line.fenceRun(b), run.count >= 3 { return true }
        return false
    }
}

/// The shape of one line: where its text starts after block quote markers and indentation.
struct LiquidLine {
    /// The first byte after quote markers and indentation.
    var restStart: Int
    /// The indentation in columns (tabs to the next multiple of 4), after quote markers.
    var indent: Int
    /// Whether nothing but spaces, tabs and a line ending follows.
    var isBlank: Bool

    init(_ b: [UInt8], _ start: Int) {
        let n = b.count
        var i = start
        // Block quote markers: up to 3 spaces, `>`, one optional space; repeated.
        while true {
            var j = i
            var spaces = 0
            while j < n, b[j] == UInt8(ascii: " "), spaces < 3 { j += 1; spaces += 1 }
            guard j < n, b[j] == UInt8(ascii: ">") else { break }
            i = j + 1
            if i < n, b[i] == UInt8(ascii: " ") { i += 1 }
        }
        var column = 0
        while i < n {
            if b[i] == UInt8(ascii: " ") {
                column += 1
            } else if b[i] == UInt8(ascii: "\t") {
                column += 4 - column % 4
            } else {
                break
            }
            i += 1
        }
        restStart = i
        indent = column
        isBlank = LiquidLine.isBlank(b, from: i)
    }

    /// The run of backticks or tildes the text starts with, if any.
    func fenceRun(_ b: [UInt8]) -> (char: UInt8, count: Int)? {
        guard restStart < b.count else { return nil }
        let c = b[restStart]
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        var j = restStart
        while j < b.count, b[j] == c { j += 1 }
        return (c, j - restStart)
    }

    /// The column where a list item's content starts, if the text starts with a list marker (`-`, `*`, `+`, `1.`, `1)`).
    func listContentColumn(_ b: [UInt8]) -> Int? {
        let n = b.count
        var j = restStart
        guard j < n else { return nil }
        if b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: "*") || b[j] == UInt8(ascii: "+") {
            j += 1
        } else {
            let digits = j
            while j < n, j - digits < 10, b[j] >= UInt8(ascii: "0"), b[j] <= UInt8(ascii: "9") { j += 1 }
            guard j > digits, j - digits <= 9, j < n, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: ")") else { return nil }
            j += 1
        }
        let markerWidth = j - restStart
        if LiquidLine.isBlank(b, from: j) { return indent + markerWidth + 1 }
        guard b[j] == UInt8(ascii: " ") || b[j] == UInt8(ascii: "\t") else { return nil }
        var spaces = 0
        while j < n, b[j] == UInt8(ascii: " "), spaces < 5 { j += 1; spaces += 1 }
        if spaces == 0 || spaces > 4 { spaces = 1 }
        return indent + markerWidth + spaces
    }

    /// Whether only spaces, tabs and a line ending (or the end) follow `from`.
    static func isBlank(_ b: [UInt8], from: Int) -> Bool {
        var i = from
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\n"): return true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
            default: return false
            }
        }
        return true
    }

    /// Whether `byte` occurs between `from` and the end of the line.
    static func contains(_ byte: UInt8, _ b: [UInt8], from: Int) -> Bool {
        var i = from
        while i < b.count, b[i] != UInt8(ascii: "\n") {
            if b[i] == byte { return true }
            i += 1
        }
        return false
    }
}
