extension Languages {
    /// JavaScript's keywords.
    private static let javaScriptKeywords = """
        await break case catch class const continue debugger default delete do else export extends finally for
        function if import in instanceof let new return super switch this throw try typeof var void while with
        yield async of static get set from as true false null undefined NaN Infinity
        """

    /// JavaScript's rules: template literals with `${}`; `function` and `class` declare.
    private static var javaScriptRules: CodeRules {
        CodeRules(
            words: WordTable([
                (.keyword, javaScriptKeywords),
                (.builtin, """
                    console window document Object Array String Number Boolean Promise Math JSON Date RegExp Map Set
                    Symbol Error require module exports process globalThis
                    """),
            ]),
            declarations: WordTable([(.function, "function"), (.type, "class")]),
            lineComments: ["//"].map { Array($0.utf8) },
            blockComment: (Array("/*".utf8), Array("*/".utf8)),
            docBlockComments: ["/**"].map { Array($0.utf8) },
            strings: [
                StringRule("`", interpolation: .dollarBrace(dollarNames: false), multiline: true),
                StringRule("\""), StringRule("'"),
            ],
            atAttributes: true,
            identifierExtras: [UInt8(ascii: "$")],
            operators: Array("+-*/%=<>!&|^~?:".utf8),
            punctuation: Array("()[]{},;.".utf8)
        )
    }

    /// JavaScript.
    static let javaScript = Language(["javascript", "js", "jsx", "mjs", "cjs", "node"], rules: javaScriptRules)

    /// TypeScript: JavaScript with types.
    static let typeScript = Language(["typescript", "ts", "tsx"], rules: {
        var rules = javaScriptRules
        rules.words = WordTable([
            (.keyword, javaScriptKeywords + """
                 interface type enum implements declare namespace module abstract private protected public readonly
                 keyof infer is satisfies
                """),
            (.type, "string number boolean any unknown never void object symbol bigint"),
        ])
        rules.declarations = WordTable([(.function, "function"), (.type, "class interface type enum")])
        return rules
    }())

    /// CSS: selectors, properties, values; `@media` rules.
    static let css = Language(["css"], rules: CodeRules(
        words: WordTable([(.keyword, "important inherit initial unset none auto")]),
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        strings: [StringRule("\""), StringRule("'")],
        atAttributes: true,
        identifierExtras: [UInt8(ascii: "-")],
        operators: Array("+>~*=!".utf8),
        punctuation: Array("()[]{},;:.#".utf8)
    ))

    /// PHP: `$variables`, interpolating double-quoted strings, `#` and `//` comments. Code outside
    /// `<?php … ?>` is not told apart.
    static let php = Language(["php", "php3", "php4", "php5", "php7", "php8"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                abstract and array as break callable case catch class clone const continue declare default do echo
                else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for
                foreach function global goto if implements include include_once instanceof insteadof interface isset
                list match namespace new or print private protected public readonly require require_once return
                static switch throw trait try unset use var while xor yield true false null TRUE FALSE NULL
                """),
            (.type, "int float bool string void mixed iterable object"),
        ]),
        declarations: WordTable([(.function, "function"), (.type, "class interface trait")]),
        lineComments: ["//", "#"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        docBlockComments: ["/**"].map { Array($0.utf8) },
        strings: [StringRule("\"", interpolation: .variables, multiline: true), StringRule("'", multiline: true)],
        variablePrefixes: [UInt8(ascii: "$")],
        operators: Array("+-*/%=<>!&|^~?:.@".utf8),
        punctuation: Array("()[]{},;".utf8)
    ))
}
