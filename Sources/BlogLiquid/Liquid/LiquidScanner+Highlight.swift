import BlogCore
import Foundation

/// `{% highlight %}` in the scan: the block becomes a fenced code block.
extension LiquidScanner {
    /// `{% highlight lang %}code{% endhighlight %}` becomes a fenced code block.
    mutating func handleHighlight(_ k: Int, end: Int, markup: String) {
        guard let close = findEndHighlight(from: end) else {
            warn(at: k, "{% highlight %} is never closed: expected {% endhighlight %} after the code; the tag is left as written")
            advance(to: end, copy: true)
            return
        }
        let language = markup.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first
            .map(String.init) ?? ""
        let validLanguage = !language.isEmpty && language.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "#") || c == UInt8(ascii: "-")
        }
        // The code, rendered apart so that, as Jekyll does, its leading and trailing line breaks can be dropped
        // (the ones after the opening tag and before the closing one, or around `{% raw %}` lines).
        var code: [UInt8] = []
        swap(&out, &code)
        inHighlight = true
        advance(to: end, copy: false)
        processCode(until: close.start, hugoEscapes: false)
        advance(to: close.end, copy: false)
        inHighlight = false
        swap(&out, &code)
        var lo = 0
        var hi = code.count
        while lo < hi && (code[lo] == lf || code[lo] == cr) { lo += 1 }
        while hi > lo && (code[hi - 1] == lf || code[hi - 1] == cr) { hi -= 1 }

        appendFencedBlock(code[lo..<hi], info: validLanguage ? language.lowercased() : "")
    }

    /// Writes `code` as a fenced code block with `info` after the opening fence, on lines of its own.
    mutating func appendFencedBlock(_ code: ArraySlice<UInt8>, info: String) {
        var longest = 0
        var run = 0
        for c in code {
            if c == backtick {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        let fence = [UInt8](repeating: backtick, count: max(3, longest + 1))
        if LiquidScanner.lastLineHasText(out) { out.append(lf) }
        out.append(contentsOf: fence)
        out.append(contentsOf: info.utf8)
        out.append(lf)
        out.append(contentsOf: code)
        if LiquidScanner.lastLineHasText(code) { out.append(lf) }
        out.append(contentsOf: fence)
        tracker.noteCodeLine()
        lineIsCode = false
        if !LiquidLine.isBlank(b, from: pos) { out.append(lf) }
    }
}
