import BlogCore
import Foundation

/// The scan's look-aheads (a line's end, a paragraph's, closing backticks, `{% endraw %}`, `{% endhighlight %}`),
/// each remembering its last answer so that repeated unclosed openers do not make the scan quadratic.
extension LiquidScanner {
    /// The end of the line containing `p` (its `\n`, or the end).
    func lineEnd(from p: Int) -> Int {
        var i = p
        while i < n && b[i] != lf { i += 1 }
        return i
    }

    /// The end of the paragraph containing `p`: the `\n` before the next blank or fence line (or the end).
    /// Tags and code spans never reach past it.
    mutating func paragraphLimit(from p: Int) -> Int {
        if p >= paragraphMemo.from && p < paragraphMemo.limit { return paragraphMemo.limit }
        var e = lineEnd(from: p)
        while e < n {
            let next = e + 1
            if next >= n || LiquidBlockTracker.breaksParagraph(b, next) { break }
            e = lineEnd(from: next)
        }
        paragraphMemo = (p, e)
        return e
    }

    /// The next run of exactly `length` backticks at or after `p`.
    mutating func nextBacktickRun(length: Int, from p: Int) -> Int? {
        if let memo = backtickMemo[length], p >= memo.from && p <= memo.found {
            return memo.found < n ? memo.found : nil
        }
        var i = p
        var found = n
        while i < n {
            if b[i] == backtick {
                var e = i
                while e < n && b[e] == backtick { e += 1 }
                if e - i == length {
                    found = i
                    break
                }
                i = e
            } else {
                i += 1
            }
        }
        backtickMemo[length] = (p, found)
        return found < n ? found : nil
    }

    /// The next `{% endraw %}` at or after `p`.
    mutating func nextEndRaw(from p: Int) -> (start: Int, end: Int)? {
        if let known = endRawMemo.answer(for: p, n) { return known }
        var i = p
        var result: (start: Int, end: Int)?
        while let k = tagOpen.next(in: b, from: i) {
            if let tag = simpleTag(at: k), tag.is("endraw", in: b) {
                result = (k, tag.end)
                break
            }
            i = k + 2
        }
        endRawMemo.remember(p, result)
        return result
    }

    /// The `{% endhighlight %}` that closes a highlight opened before `p`, skipping `{% raw %}` regions.
    mutating func findEndHighlight(from p: Int) -> (start: Int, end: Int)? {
        if let known = endHighlightMemo.answer(for: p, n) { return known }
        var i = p
        var result: (start: Int, end: Int)?
        search: while let k = tagOpen.next(in: b, from: i) {
            if let tag = simpleTag(at: k) {
                if tag.is("endhighlight", in: b) {
                    result = (k, tag.end)
                    break
                }
                if tag.is("raw", in: b) {
                    guard let close = nextEndRaw(from: tag.end) else { break search }
                    i = close.end
                    continue
                }
            }
            i = k + 2
        }
        endHighlightMemo.remember(p, result)
        return result
    }

    /// A tag without arguments at `k` (`{% raw %}`, `{%- endraw -%}`): its name and end.
    func simpleTag(at k: Int) -> SimpleTag? {
        guard k + 1 < n, b[k] == openBrace, b[k + 1] == percent else { return nil }
        var i = k + 2
        if i < n && b[i] == UInt8(ascii: "-") { i += 1 }
        while i < n && isSpace(b[i]) { i += 1 }
        let nameStart = i
        while i < n && isWordByte(b[i]) { i += 1 }
        let nameEnd = i
        guard nameEnd > nameStart else { return nil }
        while i < n && isSpace(b[i]) { i += 1 }
        if i < n && b[i] == UInt8(ascii: "-") { i += 1 }
        guard i + 1 < n, b[i] == percent, b[i + 1] == closeBrace else { return nil }
        return SimpleTag(nameStart: nameStart, nameEnd: nameEnd, end: i + 2)
    }
}

/// A `{% name %}` tag without arguments.
struct SimpleTag {
    var nameStart: Int
    var nameEnd: Int
    var end: Int

    func `is`(_ name: StaticString, in b: [UInt8]) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return b[nameStart..<nameEnd].elementsEqual(expected)
    }
}

/// The last answer of a forward search for a tag: valid for any later start up to the tag found.
struct TagMemo {
    private var from = Int.max
    private var found: (start: Int, end: Int)?

    /// The remembered answer when it holds for a search from `p` (itself nil when no tag was found), else nil.
    func answer(for p: Int, _ n: Int) -> (start: Int, end: Int)?? {
        guard p >= from, p <= (found?.start ?? n) else { return nil }
        return .some(found)
    }

    mutating func remember(_ p: Int, _ result: (start: Int, end: Int)?) {
        from = p
        found = result
    }
}

/// Finds the next occurrence of a byte string, remembering its last answer so that searches from growing
/// positions cost, together, one pass over the text.
struct LiquidFinder {
    private let needle: [UInt8]
    private var from = Int.max
    private var found = 0

    init(_ needle: String) {
        self.needle = Array(needle.utf8)
    }

    /// The first index at or after `p` where the needle starts, nil if none.
    mutating func next(in b: [UInt8], from p: Int) -> Int? {
        if p >= from && p <= found { return found < b.count ? found : nil }
        from = p
        found = ByteSearch.firstIndex(of: needle, in: b, from: p) ?? b.count
        return found < b.count ? found : nil
    }
}
