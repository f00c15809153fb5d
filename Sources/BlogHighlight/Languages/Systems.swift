extension Languages {
    /// Go: raw strings in backquotes, runes in single quotes; `func` and `type` declare.
    static let go = Language(["go", "golang"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                break case chan const continue default defer else fallthrough for func go goto if import interface
                map package range return select struct switch type var true false nil iota
                """),
            (.type, """
                bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint
                uint8 uint16 uint32 uint64 uintptr any
                """),
            (.builtin, "append cap close complex copy delete imag len make new panic print println real recover"),
        ]),
        declarations: WordTable([(.function, "func")]),
        lineComments: ["//"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        strings: [StringRule("`", escapes: false, multiline: true), StringRule("\""), StringRule("'")],
        operators: Array("+-*/%=<>!&|^~:".utf8),
        punctuation: Array("()[]{},;.".utf8)
    ))

    /// Rust: nested block comments, `///` and `//!` doc comments, `r#"…"#` raw strings, lifetimes
    /// (`'a` is no character), `#[attributes]`; `fn`, `struct`, `enum`, `trait` declare.
    static let rust = Language(["rust", "rs"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                as async await break const continue crate dyn else enum extern false fn for if impl in let loop match
                mod move mut pub ref return self Self static struct super trait true type unsafe use where while
                union macro_rules
                """),
            (.type, """
                bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64
                """),
            (.builtin, "String Vec Option Result Box Some None Ok Err Rc Arc HashMap"),
        ]),
        declarations: WordTable([(.function, "fn"), (.type, "struct enum trait union type")]),
        lineComments: ["//"].map { Array($0.utf8) },
        docLineComments: ["///", "//!"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        docBlockComments: ["/**", "/*!"].map { Array($0.utf8) },
        nestedComments: true,
        strings: [StringRule("\"", multiline: true), StringRule("'")],
        stringPrefixes: Array("b".utf8),
        hashRawStrings: true,
        shortCharacterLiterals: true,
        hashBracketAttributes: true,
        operators: Array("+-*/%=<>!&|^~?:.@".utf8),
        punctuation: Array("()[]{},;".utf8)
    ))

    /// Java: `@Annotations`, text blocks `"""`, `/** */` doc comments.
    static let java = Language(["java"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                abstract assert break case catch class const continue default do else enum extends final finally for
                goto if implements import instanceof interface native new package private protected public return
                static strictfp super switch synchronized this throw throws transient try volatile while var record
                sealed permits yield true false null
                """),
            (.type, "boolean byte char double float int long short void"),
        ]),
        declarations: WordTable([(.type, "class interface enum record")]),
        lineComments: ["//"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        docBlockComments: ["/**"].map { Array($0.utf8) },
        strings: [StringRule("\"\"\"", multiline: true), StringRule("\""), StringRule("'")],
        atAttributes: true,
        declarationsBeforeParentheses: true,
        operators: Array("+-*/%=<>!&|^~?:".utf8),
        punctuation: Array("()[]{},;.".utf8)
    ))

    /// Kotlin: `"$name"` and `"${…}"` templates, nested comments, `@Annotations`; `fun` declares.
    static let kotlin = Language(["kotlin", "kt", "kts"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                as break class continue do else false for fun if in interface is null object package return super this
                throw true try typealias typeof val var when while by catch constructor delegate dynamic field file
                finally get import init param property receiver set setparam where abstract actual annotation
                companion const crossinline data enum expect external final infix inline inner internal lateinit
                noinline open operator out override private protected public reified sealed suspend tailrec vararg
                value
                """),
            (.builtin, "Int Long Short Byte Double Float Boolean Char String Unit Any Nothing List Map Set Array println print"),
        ]),
        declarations: WordTable([(.function, "fun"), (.type, "class interface object typealias")]),
        lineComments: ["//"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        docBlockComments: ["/**"].map { Array($0.utf8) },
        nestedComments: true,
        strings: [
            StringRule("\"\"\"", interpolation: .dollarBrace(dollarNames: true), multiline: true),
            StringRule("\"", interpolation: .dollarBrace(dollarNames: true)), StringRule("'"),
        ],
        atAttributes: true,
        operators: Array("+-*/%=<>!&|^~?:".utf8),
        punctuation: Array("()[]{},;.".utf8)
    ))

    /// Ruby: `#{}` interpolation, `:symbols`, `@instance` variables, `?`/`!` method names;
    /// `def`, `class` and `module` declare. Heredocs and `%w[]` literals are not told apart.
    static let ruby = Language(["ruby", "rb", "jruby", "gemfile", "podfile", "rake"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                BEGIN END alias and begin break case class def defined? do else elsif end ensure false for if in module
                next nil not or redo rescue retry return self super then true undef unless until when while yield
                __FILE__ __LINE__ require require_relative include extend attr_accessor attr_reader attr_writer
                private protected public raise puts lambda proc loop
                """),
        ]),
        declarations: WordTable([(.function, "def"), (.type, "class module")]),
        lineComments: ["#"].map { Array($0.utf8) },
        strings: [
            StringRule("\"", interpolation: .hashBrace, multiline: true), StringRule("'", multiline: true),
            StringRule("`", interpolation: .hashBrace),
        ],
        variablePrefixes: Array("@$".utf8),
        capitalizedTypes: true,
        identifierSuffixes: Array("?!".utf8),
        symbols: true,
        operators: Array("+-*/%=<>!&|^~?:.".utf8),
        punctuation: Array("()[]{},;".utf8)
    ))

    /// SQL: keywords in any case, `--` and `/* */` comments, quoted strings and names.
    static let sql = Language(["sql", "mysql", "postgresql", "postgres", "psql", "sqlite", "plsql", "tsql"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                select from where and or not insert into values update set delete create table drop alter add column
                index view primary key foreign references unique null default check constraint join inner left right
                outer full cross on as order by group having limit offset union all distinct case when then else end
                in is like between exists begin commit rollback transaction if returns return declare grant revoke
                with recursive asc desc true false cascade database schema trigger function procedure language
                replace temporary temp using over partition window count sum avg min max coalesce
                """),
            (.type, """
                int integer bigint smallint tinyint serial bigserial decimal numeric real float double precision
                char varchar text boolean bool date time timestamp timestamptz interval uuid json jsonb blob bytea
                """),
        ], ignoringCase: true),
        lineComments: ["--"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        strings: [StringRule("'", escapes: false, multiline: true), StringRule("\"", escapes: false, kind: .variable)],
        operators: Array("+-*/%=<>!|".utf8),
        punctuation: Array("()[],;.".utf8)
    ))
}
