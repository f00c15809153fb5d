/// What a token is, and the class its `<span>` gets. The names are Pygments' short class names, so a
/// Pygments stylesheet styles them too; docs/templates.md lists them for theme authors.
package enum TokenClass: UInt8, Sendable, CaseIterable {
    /// A keyword: `if`, `def`, `func`, `return`; also `true`, `false`, `nil` (`k`).
    case keyword
    /// A type name: `int`, `String`, a declared class (`kt`).
    case type
    /// A function name where it is declared (`nf`).
    case function
    /// A string or character literal (`s`).
    case string
    /// An escape in a string: `\n`, `\"` (`se`).
    case escape
    /// The delimiters of an interpolation in a string: `\(` `)`, `{` `}`, `${` `}` (`si`).
    case interpolation
    /// A number (`m`).
    case number
    /// A comment (`c`).
    case comment
    /// A documentation comment or a docstring (`cd`).
    case docComment
    /// An operator: `+`, `=`, `->`, `&&` (`o`).
    case `operator`
    /// Punctuation: brackets, `,`, `;`, `.` where the language calls it so (`p`).
    case punctuation
    /// An attribute, decorator or annotation: `@objc`, `@property`, `#[derive]` (`nd`).
    case attribute
    /// A preprocessor line: `#include <stdio.h>` (`cp`).
    case preprocessor
    /// A built-in function, constant or name: `print`, `len`, `self`, `echo` (`nb`).
    case builtin
    /// A variable marked as such: `$HOME`, `$x`, `@name` (`nv`).
    case variable
    /// A markup tag name, or a key in JSON, YAML and TOML (`nt`).
    case tag
    /// A markup attribute name (`na`).
    case attributeName
    /// A line added in a diff (`gi`).
    case inserted
    /// A line removed in a diff (`gd`).
    case deleted
    /// A diff's header lines and hunk markers (`gu`).
    case heading
    /// A console prompt (`gp`).
    case prompt
    /// A command's output in a console session (`go`).
    case output

    /// The class attribute's value.
    package var name: StaticString {
        switch self {
        case .keyword: return "k"
        case .type: return "kt"
        case .function: return "nf"
        case .string: return "s"
        case .escape: return "se"
        case .interpolation: return "si"
        case .number: return "m"
        case .comment: return "c"
        case .docComment: return "cd"
        case .operator: return "o"
        case .punctuation: return "p"
        case .attribute: return "nd"
        case .preprocessor: return "cp"
        case .builtin: return "nb"
        case .variable: return "nv"
        case .tag: return "nt"
        case .attributeName: return "na"
        case .inserted: return "gi"
        case .deleted: return "gd"
        case .heading: return "gu"
        case .prompt: return "gp"
        case .output: return "go"
        }
    }
}

/// A run of bytes of the code and its class.
package struct Token: Equatable, Sendable {
    /// The first byte.
    package var start: Int
    /// The byte after the last.
    package var end: Int
    /// The class.
    package var kind: TokenClass
}
