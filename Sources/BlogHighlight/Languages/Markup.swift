extension Languages {
    /// HTML: tags, attributes, comments, doctype; `<script>` read as JavaScript, `<style>` as CSS.
    static let html = Language(["html", "htm", "xhtml"]) { MarkupLexer(template: nil).run(&$0) }

    /// XML (and SVG, plists): tags, attributes, comments, `<?…?>` and `<!…>` declarations, CDATA.
    static let xml = Language(["xml", "svg", "xsd", "xsl", "xslt", "rss", "atom", "plist", "wsdl"]) {
        MarkupLexer(template: nil, scriptsAndStyles: false).run(&$0)
    }

    /// HTML templates: HTML with `{{ … }}` actions (Go templates, Hugo), and `{% … %}` tags and
    /// `{# … #}` comments too (Jinja, Django, Liquid). The delimiters are marked as preprocessor
    /// lines are, the code inside by ``templateRules``.
    static let htmlTemplate = Language([
        "go-html-template", "gohtml", "go-template", "gotmpl", "html+go", "jinja2", "jinja", "j2", "django",
        "html+django", "html+jinja", "htmldjango", "liquid", "html+liquid", "njk", "nunjucks", "twig", "handlebars",
        "hbs", "mustache",
    ]) { MarkupLexer(template: CodeLexer(templateRules)).run(&$0) }

    /// The code inside a template's delimiters.
    private static let templateRules = CodeRules(
        words: WordTable([
            (.keyword, """
                if else elif elsif end endif for endfor in range with block define template partial include extends
                set endset macro endmacro call filter endblock unless endunless case when capture endcapture assign
                raw endraw comment endcomment and or not eq ne lt le gt ge nil true false none True False None break
                continue return len index printf print default where first last
                """),
        ]),
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        strings: [StringRule("\""), StringRule("'"), StringRule("`", escapes: false)],
        variablePrefixes: [UInt8(ascii: "$")],
        operators: Array("|=<>!+-*/%:.".utf8),
        punctuation: Array("()[],".utf8)
    )
}

/// Reads markup; with a template lexer, template delimiters too, in text and in attribute values.
struct MarkupLexer {
    /// The lexer of the code inside template delimiters, or nil for plain markup.
    let template: CodeLexer?
    /// Whether `<script>` and `<style>` hold JavaScript and CSS (HTML).
    var scriptsAndStyles = true

    func run(_ s: inout Scanner) {
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if template != nil, byte == UInt8(ascii: "{"), readTemplate(&s) { continue }
            if byte == UInt8(ascii: "<") {
                if s.at(Self.commentStart) {
                    readUntil(&s, Self.commentEnd, as: .comment)
                } else if s.at(Self.cdataStart) {
                    readUntil(&s, Self.cdataEnd, as: .string)
                } else if s.peek(1) == UInt8(ascii: "!") || s.peek(1) == UInt8(ascii: "?") {
                    readUntil(&s, s.peek(1) == UInt8(ascii: "?") ? Self.processingEnd : Self.declarationEnd, as: .preprocessor)
                } else if Bytes.isIdentifierStart(s.peek(1)) || s.peek(1) == UInt8(ascii: "/") {
                    readTag(&s)
                } else {
                    s.pos += 1
                }
                continue
            }
            s.pos += 1
        }
    }

    /// Reads up to and including `end`, marking it all as `kind`.
    private func readUntil(_ s: inout Scanner, _ end: [UInt8], as kind: TokenClass) {
        let start = s.pos
        s.pos += 1
        while s.pos < s.end, !s.at(end) { s.pos += 1 }
        s.pos = min(s.pos + end.count, s.end)
        s.mark(kind, from: start)
    }

    /// Reads a tag: `<`, its name, attributes and values, `>`; then a script's or style's content.
    private func readTag(_ s: inout Scanner) {
        s.take(s.peek(1) == UInt8(ascii: "/") ? 2 : 1, as: .punctuation)
        let closing = s.byte(at: s.pos - 1) == UInt8(ascii: "/")
        let nameStart = s.pos
        s.skip { Bytes.isIdentifier($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        s.mark(.tag, from: nameStart)
        let name = s.text(nameStart..<s.pos).lowercased()
        while s.pos < s.end {
            let byte = s.bytes[s.pos]
            if byte == UInt8(ascii: ">") || (byte == UInt8(ascii: "/") && s.peek(1) == UInt8(ascii: ">")) {
                s.take(byte == UInt8(ascii: ">") ? 1 : 2, as: .punctuation)
                if !closing, scriptsAndStyles, name == "script" || name == "style" {
                    readEmbedded(&s, name == "script" ? Languages.javaScript : Languages.css, closer: name)
                }
                return
            }
            if template != nil, byte == UInt8(ascii: "{"), readTemplate(&s) { continue }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                readValue(&s, quote: byte)
            } else if byte == UInt8(ascii: "=") {
                s.take(1, as: .operator)
            } else if Bytes.isIdentifierStart(byte) || byte == UInt8(ascii: "@") || byte == UInt8(ascii: ":") {
                let start = s.pos
                s.skip { !Bytes.isSpace($0) && !"=>/\"'{".utf8.contains($0) }
                s.mark(.attributeName, from: start)
            } else if byte == UInt8(ascii: "<") {
                return
            } else {
                s.pos += 1
            }
        }
    }

    /// Reads a quoted attribute value, with template actions in it.
    private func readValue(_ s: inout Scanner, quote: UInt8) {
        var textStart = s.pos
        s.pos += 1
        while s.pos < s.end, s.bytes[s.pos] != quote {
            if template != nil, s.bytes[s.pos] == UInt8(ascii: "{") {
                let before = s.pos
                s.mark(.string, textStart, before)
                if readTemplate(&s) {
                    textStart = s.pos
                    continue
                }
            }
            s.pos += 1
        }
        s.pos = min(s.pos + 1, s.end)
        s.mark(.string, textStart, s.pos)
    }

    /// Reads the content of a `<script>` or `<style>` element as `language`, up to its end tag.
    private func readEmbedded(_ s: inout Scanner, _ language: Language, closer: String) {
        let endTag = Array("</\(closer)".utf8)
        var end = s.pos
        while end < s.end {
            if s.bytes[end] == UInt8(ascii: "<"), s.at(endTag, end) || s.at(Array("</\(closer.uppercased())".utf8), end) { break }
            end += 1
        }
        var inner = Scanner(UnsafeBufferPointer(rebasing: s.bytes[..<end]))
        inner.pos = s.pos
        language.lex(&inner)
        for token in inner.tokens { s.mark(token.kind, token.start, token.end) }
        s.pos = end
    }

    /// Reads a template action or comment at the cursor (`{{ … }}`, `{% … %}`, `{# … #}`), if one is there.
    private func readTemplate(_ s: inout Scanner) -> Bool {
        guard let template else { return false }
        let next = s.peek(1)
        let closer: [UInt8]
        switch next {
        case UInt8(ascii: "{"): closer = Self.actionEnd
        case UInt8(ascii: "%"): closer = Self.tagEnd
        case UInt8(ascii: "#"): closer = Self.commentTagEnd
        default: return false
        }
        var end = s.pos + 2
        while end < s.end, !s.at(closer, end) { end += 1 }
        let start = s.pos
        if next == UInt8(ascii: "#") {
            s.pos = min(end + 2, s.end)
            s.mark(.comment, from: start)
            return true
        }
        // `{{-`, `{%-`: trimming markers belong to the delimiter; so do `-}}`, `-%}`.
        var open = 2
        if s.byte(at: start + 2) == UInt8(ascii: "-") || s.byte(at: start + 2) == UInt8(ascii: "+") { open = 3 }
        s.take(open, as: .preprocessor)
        var codeEnd = end
        if codeEnd > s.pos, s.byte(at: codeEnd - 1) == UInt8(ascii: "-") { codeEnd -= 1 }
        if codeEnd > s.pos {
            var inner = Scanner(UnsafeBufferPointer(rebasing: s.bytes[..<codeEnd]))
            inner.pos = s.pos
            template.run(&inner)
            for token in inner.tokens { s.mark(token.kind, token.start, token.end) }
            s.pos = codeEnd
        }
        let close = s.pos
        s.pos = min(end + 2, s.end)
        s.mark(.preprocessor, from: close)
        return true
    }

    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let actionEnd = Array("}}".utf8)
    private static let tagEnd = Array("%}".utf8)
    private static let commentTagEnd = Array("#}".utf8)
    private static let processingEnd = Array("?>".utf8)
    private static let declarationEnd = Array(">".utf8)
}
