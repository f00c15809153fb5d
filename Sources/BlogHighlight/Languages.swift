/// The languages the highlighter knows, one file of rules each under Languages/. To add one, write
/// its file (a ``CodeRules`` for C-like, Python-like and Ruby-like languages, or a small lexer of its
/// own) and list it in ``all``.
enum Languages {
    /// Every language.
    static let all: [Language] = [
        python, swift, shell, console, c, cpp, objectiveC, javaScript, typeScript, json, yaml, toml, html, xml,
        htmlTemplate, css, rust, go, ruby, php, java, kotlin, sql, dockerfile, diff, makefile,
    ]

    /// Each name of each language, and the language.
    static let byName: [String: Language] = {
        var table: [String: Language] = [:]
        for language in all {
            for name in language.names {
                precondition(table[name] == nil, "two languages are named \(name)")
                table[name] = language
            }
        }
        return table
    }()
}
