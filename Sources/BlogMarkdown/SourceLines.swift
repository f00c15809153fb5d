import BlogCore
/// A text's lines as UTF-8 bytes: what cmark's tree does not keep (the characters a line starts
/// with, the raw HTML of a line) is read here, and a few lines are rewritten here.
struct SourceLines {
    /// The whole text.
    let bytes: [UInt8]
    /// Where each line starts, then where the text ends: line `n` (1-based) is
    /// `starts[n - 1] ..< starts[n]`, its line end included.
    private let starts: [Int]

    /// Splits `text` at `\n` (a `\r` before it belongs to the line end), in one scan: a `memchr` from
    /// line feed to line feed, which reads a line's bytes many at a time.
    init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        bytes.withUnsafeBufferPointer { bytes in
            var next = 0
            while let feed = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: next) {
                next = feed + 1
                starts.append(next)
            }
        }
        if starts.last != bytes.count { starts.append(bytes.count) }
        self.starts = starts
    }

    /// The number of lines.
    var count: Int { starts.count - 1 }

    /// Line `number` (1-based) without its line end; empty outside the text.
    subscript(number: Int) -> ArraySlice<UInt8> {
        guard number >= 1, number <= count else { return [] }
        var end = starts[number]
        if end > starts[number - 1], bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > starts[number - 1], bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[starts[number - 1]..<end]
    }

    /// The 1-based column (``TextPosition``'s) of byte `offset` of line `number`.
    func column(ofByte offset: Int, inLine number: Int) -> Int {
        let line = self[number]
        guard offset >= line.startIndex else { return 1 }
        return TextPosition.column(ofByte: min(offset, line.endIndex), lineStart: line.startIndex, in: bytes)
    }

    /// The offset just past the block quote markers (`>` with up to 3 spaces before it and one
    /// after) at the start of line `number`, `depth` of them at most.
    func afterBlockQuoteMarkers(line number: Int, depth: Int) -> Int {
        let line = self[number]
        var position = line.startIndex
        for _ in 0..<depth {
            var probe = position
            while probe < line.endIndex, probe - position < 3, line[probe] == UInt8(ascii: " ") { probe += 1 }
            guard probe < line.endIndex, line[probe] == UInt8(ascii: ">") else { break }
            position = probe + 1
            if position < line.endIndex, line[position] == UInt8(ascii: " ") { position += 1 }
        }
        return position
    }
}

/// Changes to some lines of a text, made at once by ``apply(to:)``.
struct LineEdits {
    /// New content for a line (1-based), its line end kept.
    package private(set) var replacements: [Int: [UInt8]] = [:]
    /// A line to insert after a line.
    private(set) var insertions: [Int: [UInt8]] = [:]

    /// Whether there is nothing to change.
    var isEmpty: Bool { replacements.isEmpty && insertions.isEmpty }

    /// How many lines are changed or inserted.
    var count: Int { replacements.count + insertions.count }

    /// Whether line `number` is already changed: one change per line.
    func touches(_ number: Int) -> Bool { replacements[number] != nil }

    /// Gives line `number` the content `bytes`.
    mutating func replace(line number: Int, with bytes: [UInt8]) { replacements[number] = bytes }

    /// Inserts a line holding `bytes` after line `number`.
    mutating func insert(_ bytes: [UInt8], afterLine number: Int) { insertions[number] = bytes }

    /// The edited text, and for each of its lines (index 0 for line 1) the line of `lines` it
    /// comes from (an inserted line: the line it follows).
    func apply(to lines: SourceLines) -> (text: String, from: [Int]) {
        var out: [UInt8] = []
        out.reserveCapacity(lines.bytes.count + insertions.count * 8 + replacements.count * 4)
        var from: [Int] = []
        from.reserveCapacity(lines.count + insertions.count)
        for number in stride(from: 1, through: lines.count, by: 1) {
            let content = lines[number]
            if let replacement = replacements[number] {
                out += replacement
            } else {
                out += content
            }
            let lineEnd = lines.bytes[content.endIndex..<(number < lines.count ? lines.start(of: number + 1) : lines.bytes.count)]
            out += lineEnd
            from.append(number)
            if let inserted = insertions[number] {
                if lineEnd.isEmpty { out.append(UInt8(ascii: "\n")) }
                out += inserted
                out.append(UInt8(ascii: "\n"))
                from.append(number)
            }
        }
        return (String(decoding: out, as: UTF8.self), from)
    }
}

extension SourceLines {
    /// The offset where line `number` starts.
    fileprivate func start(of number: Int) -> Int { starts[number - 1] }
}
