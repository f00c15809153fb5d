extension Languages {
    /// Swift: `"\(x)"` interpolation, `"""` and `#"…"#` strings, nested block comments, `///` doc
    /// comments, `@attributes`, `#if` lines; the standard library's types as builtins (as Pygments).
    static let swift = Language(["swift"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                associatedtype class deinit enum extension fileprivate func import init inout internal let open
                operator private precedencegroup protocol public rethrows static struct subscript typealias var
                break case catch continue default defer do else fallthrough for guard if in repeat return throw
                switch where while as Any false is nil super self Self throws true try await async actor some any
                convenience dynamic final indirect lazy mutating nonmutating optional override required unowned
                weak willSet didSet get set consuming borrowing nonisolated isolated package macro each
                """),
            (.builtin, """
                Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64 Double Float Float80 Bool String
                Character Array Dictionary Set Optional Result Void Never Error Sequence Collection Equatable
                Hashable Comparable Codable Decodable Encodable Identifiable CustomStringConvertible
                print debugPrint fatalError precondition assert min max abs zip stride type
                """),
        ]),
        declarations: WordTable([
            (.function, "func"),
            (.type, "class struct enum protocol actor import typealias associatedtype"),
            (.variable, "let var"),
        ]),
        lineComments: ["//"].map { Array($0.utf8) },
        docLineComments: ["///"].map { Array($0.utf8) },
        blockComment: (Array("/*".utf8), Array("*/".utf8)),
        docBlockComments: ["/**"].map { Array($0.utf8) },
        nestedComments: true,
        strings: [
            StringRule("\"\"\"", interpolation: .backslashParen, multiline: true),
            StringRule("\"", interpolation: .backslashParen),
        ],
        hashRawStrings: true,
        atAttributes: true,
        preprocessor: true,
        dollarArguments: true,
        operators: Array("+-*/%=<>!&|^~?.".utf8),
        punctuation: Array("()[]{},;:".utf8)
    ))
}
