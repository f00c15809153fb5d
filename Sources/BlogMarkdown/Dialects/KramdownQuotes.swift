import CCmarkGFM

/// kramdown's typographic quote after markup: kramdown decides each quote by itself from the text
/// around it (its `SQ_RULES`), and a quote right after a span (code, emphasis, a link, an HTML tag) has
/// no character before it to look at: followed by `s` ending a word, by white space or by the end of the
/// text, it is a closing one (`` `Mirror`'s `` is `Mirror’s`). cmark-gfm's smart punctuation reads such
/// a quote as an opening one when a later quote closes it (`Mirror‘s … Swift’s`). Only that case is
/// set here (the text node that starts with `‘` after an inline that is not text); the rest of cmark-gfm's
/// quotes stand in for kramdown's.
enum KramdownQuotes {
    /// Sets the quotes of `document` (parsed with smart punctuation) that kramdown closes after markup.
    static func apply(to document: CmarkNode) {
        for text in document.descendants(ofType: CMARK_NODE_TEXT) {
            guard let previous = text.previous, previous.type != CMARK_NODE_TEXT,
                  previous.type != CMARK_NODE_SOFTBREAK, previous.type != CMARK_NODE_LINEBREAK,
                  let literal = text.literal, literal.hasPrefix("\u{2018}") else { continue }
            let rest = literal.unicodeScalars.dropFirst()
            // `s` ending a word, or white space (a quote alone before more markup is kramdown's `‘`).
            guard let next = rest.first, next.properties.isWhitespace
                    || (next == "s" && !(rest.dropFirst().first.map(isWordCharacter) ?? false)) else { continue }
            cmark_node_set_literal(text.pointer, "\u{2019}" + String(rest))
        }
    }

    /// Ruby's `\w` (letters, digits, `_`), as kramdown's `\b` reads it.
    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
    }
}
