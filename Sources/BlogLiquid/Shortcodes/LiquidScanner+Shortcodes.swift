import BlogCore
import Foundation

/// Hugo's shortcodes in the scan: `{{< >}}` and `{{% %}}`, with their arguments and inner content, and the
/// escaped `{{</* */>}}` form.
extension LiquidScanner {
    /// `{{< name args >}}` or `{{% name args %}}`.
    mutating func handleShortcode(_ k: Int) {
        if handleEscapedShortcode(k) { return }
        let markdown = b[k + 2] == percent
        let limit = paragraphLimit(from: k)
        let found = markdown ? markdownShortcodeClose.next(in: b, from: k + 3) : shortcodeClose.next(in: b, from: k + 3)
        guard let close = found, close + 3 <= limit else {
            advance(to: k + 1, copy: true)
            return
        }
        let end = close + 3
        let (lo, hi) = trim(k + 3, close, dashes: false)
        var nameEnd = lo
        while nameEnd < hi && !isSpace(b[nameEnd]) && b[nameEnd] != UInt8(ascii: "\"") { nameEnd += 1 }
        let name = text(lo, nameEnd)
        let shown = markdown ? "{{% \(name) %}}" : "{{< \(name) >}}"
        let arguments = shortcodeArguments(nameEnd, hi)
        guard name == "ref" || name == "relref" else {
            if !name.hasPrefix("/"), renderShortcode(name, arguments, markdown: markdown, at: k, end: end) { return }
            unsupportedTags.append(LiquidTagSource(name: shown, markup: "", written: [], line: firstLine + line, column: column(of: k),
                                                   trimBefore: false, trimAfter: false))
            advance(to: end, copy: true)
            return
        }
        let target = arguments.first { $0.key == "path" }?.value ?? arguments.first { $0.key == nil }?.value ?? ""
        var url: String?
        if let hash = target.firstIndex(of: "#") {
            let file = String(target[..<hash])
            let fragment = String(target[hash...])
            url = file.isEmpty ? fragment : context.resolvePath(file).map { $0 + fragment }
        } else if !target.isEmpty {
            url = context.resolvePath(target)
        }
        guard let url else {
            warn(at: k, "unknown post \"\(target)\" in \(shown): expected the path of a post in the content folder (posts/slug.md), or its file name")
            advance(to: end, copy: true)
            return
        }
        replace(upTo: end, with: name == "ref" && url.hasPrefix("/") ? context.siteURL + url : url)
    }

    /// A shortcode other than `ref`: through the site's or theme's template, else a built-in. One that takes
    /// inner content (a template naming `inner`, `highlight`) runs to its closing tag. Returns false
    /// (consuming nothing) when there is neither template nor built-in. A template that can't be rendered (its
    /// partials named by values include one another in a loop) is an error at `k`, and the shortcode stays as written.
    mutating func renderShortcode(_ name: String, _ arguments: [(key: String?, value: String)], markdown: Bool, at k: Int,
                                          end: Int) -> Bool {
        guard let takesInner = context.shortcodeTakesInner(name) ?? (HugoShortcodes.builtIn.contains(name) ? name == "highlight" : nil) else {
            return false
        }
        var call = ShortcodeCall(name: name, positional: [], named: [], inner: nil, markdown: markdown)
        for argument in arguments {
            if let key = argument.key {
                call.named.append(ShortcodeArgument(key: key, value: argument.value))
            } else if argument.value != "/" {  // `{{< x />}}` closes itself
                call.positional.append(argument.value)
            }
        }
        let closing = takesInner ? closingShortcode(name, markdown: markdown, from: end) : nil
        if let closing { call.inner = text(end, closing.start) }
        let after = closing?.end ?? end
        let rendered: String?
        do {
            rendered = try context.renderShortcode(call)
        } catch {
            let shown = markdown ? "{{% \(name) %}}" : "{{< \(name) >}}"
            diagnostics.append(.error(path, line: firstLine + line, column: column(of: k), "\(shown) can't be rendered: \(error)"))
            advance(to: after, copy: true)
            return true
        }
        if let html = rendered {
            if markdown {
                replace(upTo: after, with: html)
            } else {
                out.append(contentsOf: ShortcodeMarks.mark(fragments.count).utf8)
                fragments.append(html)
                advance(to: after, copy: false)
            }
            return true
        }
        if name == "highlight", let inner = call.inner {
            var info = call.positional.first.map { $0.lowercased() } ?? ""
            if call.positional.count > 1 { info += " {" + call.positional[1] + "}" }
            var code = ArraySlice(inner.utf8)
            while code.first == lf || code.first == cr { code = code.dropFirst() }
            while code.last == lf || code.last == cr { code = code.dropLast() }
            advance(to: after, copy: false)
            appendFencedBlock(code, info: info)
            return true
        }
        guard let html = HugoShortcodes.html(call, page: page, site: context.site, timeZone: context.timeZone) else { return false }
        out.append(contentsOf: ShortcodeMarks.mark(fragments.count).utf8)
        fragments.append(html)
        advance(to: after, copy: false)
        return true
    }

    /// The closing tag `{{< /name >}}` (or `{{% /name %}}`) at or after `p`, spaces allowed inside.
    mutating func closingShortcode(_ name: String, markdown: Bool, from p: Int) -> (start: Int, end: Int)? {
        let key = (markdown ? "%" : "<") + name
        if let memo = closingMemo[key], p >= memo.from, p <= (memo.found?.start ?? n) { return memo.found }
        let delimiter = markdown ? percent : less
        let opener: [UInt8] = [openBrace, openBrace, delimiter]
        let closer: [UInt8] = [markdown ? percent : UInt8(ascii: ">"), closeBrace, closeBrace]
        let nameBytes = Array(name.utf8)
        var i = p
        var found: (start: Int, end: Int)?
        while let k = ByteSearch.firstIndex(of: opener, in: b, from: i) {
            var j = k + 3
            while j < n && isSpace(b[j]) { j += 1 }
            if j < n && b[j] == UInt8(ascii: "/") {
                j += 1
                while j < n && isSpace(b[j]) { j += 1 }
                if j + nameBytes.count <= n && b[j..<(j + nameBytes.count)].elementsEqual(nameBytes) {
                    j += nameBytes.count
                    while j < n && isSpace(b[j]) { j += 1 }
                    if j + 3 <= n && b[j..<(j + 3)].elementsEqual(closer) {
                        found = (k, j + 3)
                        break
                    }
                }
            }
            i = k + 3
        }
        closingMemo[key] = (p, found)
        return found
    }

    /// Hugo's escaped shortcode `{{</* x */>}}` (or `{{%/* x */%}}`), which Hugo shows as `{{< x >}}` everywhere,
    /// code included. Returns false (consuming nothing) when `k` does not start one.
    mutating func handleEscapedShortcode(_ k: Int) -> Bool {
        guard k + 4 < n, b[k + 1] == openBrace, b[k + 2] == less || b[k + 2] == percent,
              b[k + 3] == UInt8(ascii: "/"), b[k + 4] == UInt8(ascii: "*") else { return false }
        let delimiter = b[k + 2]
        let limit = paragraphLimit(from: k)
        let found = delimiter == less
            ? escapedShortcodeClose.next(in: b, from: k + 5)
            : escapedMarkdownShortcodeClose.next(in: b, from: k + 5)
        guard let close = found, close + 5 <= limit else { return false }
        out.append(contentsOf: [openBrace, openBrace, delimiter])
        advance(to: k + 5, copy: false)
        advance(to: close, copy: true)
        out.append(contentsOf: [delimiter == less ? UInt8(ascii: ">") : percent, closeBrace, closeBrace])
        advance(to: close + 5, copy: false)
        return true
    }

    /// The arguments of a shortcode: `"x"`, `'x'`, `` `x` ``, `x`, or `name="x"`.
    func shortcodeArguments(_ from: Int, _ to: Int) -> [(key: String?, value: String)] {
        var result: [(key: String?, value: String)] = []
        var i = from
        while i < to {
            while i < to && isSpace(b[i]) { i += 1 }
            if i >= to { break }
            var key: String?
            var j = i
            while j < to && (isWordByte(b[j])) { j += 1 }
            if j > i && j < to && b[j] == UInt8(ascii: "=") {
                key = text(i, j)
                i = j + 1
            }
            if i >= to {
                result.append((key, ""))
                break
            }
            let quote = b[i]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") || quote == backtick {
                var e = i + 1
                while e < to && b[e] != quote {
                    if b[e] == backslash && quote != backtick { e += 1 }
                    e += 1
                }
                var value = text(i + 1, min(e, to))
                if quote == UInt8(ascii: "\""), value.contains("\\") {
                    // Go's string escapes, as Hugo reads them: `\"` is `"`, `\\` is `\`.
                    value = value.replacingOccurrences(of: "\\\\", with: "\u{0}").replacingOccurrences(of: "\\\"", with: "\"")
                        .replacingOccurrences(of: "\u{0}", with: "\\")
                }
                result.append((key, value))
                i = e + 1
            } else {
                var e = i
                while e < to && !isSpace(b[e]) { e += 1 }
                result.append((key, text(i, e)))
                i = e
            }
        }
        return result
    }
}
