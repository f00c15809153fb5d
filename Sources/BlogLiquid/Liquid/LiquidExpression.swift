import BlogCore

/// A Liquid expression: a value looked up or written, and the filters applied to it.
indirect enum LiquidExpression: Equatable, Sendable {
    /// A written value: `"text"`, `3`, `2.5`, `true`, `nil`.
    case literal(MetaValue)
    /// `empty` or `blank`, which compare specially.
    case special(String)
    /// `name`, `site.data.x`, `list[0]`, `page["key"]`: a variable and the members taken of it.
    case variable(String, [LiquidExpression])
    /// `(1..n)`.
    case range(LiquidExpression, LiquidExpression)
    /// `value | name: arg, key: arg`.
    case filtered(LiquidExpression, [LiquidFilterCall])

    /// Whether a `default` filter gives a value when the variable has none (then none is no news).
    var hasDefault: Bool {
        if case .filtered(_, let calls) = self { return calls.contains { $0.name == "default" } }
        return false
    }

    /// The variable an expression starts from (`site` for `site.data.x | size`), if any.
    var rootVariable: String? {
        switch self {
        case .variable(let name, _): return name
        case .filtered(let base, _): return base.rootVariable
        default: return nil
        }
    }
}

/// One filter of a chain: its name and arguments, positional and named.
struct LiquidFilterCall: Equatable, Sendable {
    var name: String
    var arguments: [LiquidExpression]
    var named: [String: LiquidExpression]
}

/// A condition of `if`, `elsif`, `unless`: comparisons joined by `and` / `or`, evaluated from the
/// right as Liquid does (`a or b and c` is `a or (b and c)`; `a and b or c` is `a and (b or c)`).
indirect enum LiquidCondition: Equatable, Sendable {
    case value(LiquidExpression)
    case compare(LiquidExpression, String, LiquidExpression)
    case and(LiquidCondition, LiquidCondition)
    case or(LiquidCondition, LiquidCondition)
    /// `unless`'s condition.
    case not(LiquidCondition)
}

/// The pieces of tag markup: words, strings, numbers and punctuation.
enum LiquidToken: Equatable {
    case identifier(String)
    case string(String)
    case number(String)
    case comparison(String)
    case punctuation(Character)
    case dotDot
}

/// Markup that does not read as Liquid.
struct LiquidSyntaxError: Error, Equatable {}

/// Reads tag markup into tokens, and tokens into expressions and conditions.
struct LiquidParser {
    private var tokens: [LiquidToken]
    private var index = 0
    /// How deep ranges and `[…]` nest here: past ``maxDepth`` the markup is refused, so that no
    /// markup can exhaust the stack.
    private var depth = 0
    /// The most nesting of ranges and `[…]`, and of `and`/`or` in a condition.
    static let maxDepth = 64

    /// A parser over `markup`; throws when it holds a character Liquid has no use for.
    init(_ markup: String) throws {
        tokens = try LiquidParser.tokenize(markup)
    }

    /// Whether every token has been read.
    var atEnd: Bool { index >= tokens.count }

    static func tokenize(_ markup: String) throws -> [LiquidToken] {
        var tokens: [LiquidToken] = []
        let chars = Array(markup)
        var i = 0
        func isIdentifierStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
        func isIdentifierPart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" || c == "?" }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "\"" || c == "'" {
                var j = i + 1
                while j < chars.count && chars[j] != c { j += 1 }
                guard j < chars.count else { throw LiquidSyntaxError() }
                tokens.append(.string(String(chars[(i + 1)..<j])))
                i = j + 1
            } else if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i + 1
                while j < chars.count && (chars[j].isNumber || (chars[j] == "." && j + 1 < chars.count && chars[j + 1].isNumber)) { j += 1 }
                tokens.append(.number(String(chars[i..<j])))
                i = j
            } else if isIdentifierStart(c) {
                var j = i + 1
                while j < chars.count && isIdentifierPart(chars[j]) { j += 1 }
                tokens.append(.identifier(String(chars[i..<j])))
                i = j
            } else if c == "." && i + 1 < chars.count && chars[i + 1] == "." {
                tokens.append(.dotDot)
                i += 2
            } else if "=!<>".contains(c) {
                var op = String(c)
                if i + 1 < chars.count && chars[i + 1] == "=" {
                    op.append("=")
                    i += 1
                } else if c == "<" && i + 1 < chars.count && chars[i + 1] == ">" {
                    op = "!="
                    i += 1
                }
                i += 1
                switch op {
                case "=": tokens.append(.punctuation("="))
                case "!": throw LiquidSyntaxError()
                default: tokens.append(.comparison(op))
                }
            } else if "|:,.[]()".contains(c) {
                tokens.append(.punctuation(c))
                i += 1
            } else {
                throw LiquidSyntaxError()
            }
        }
        return tokens
    }

    // MARK: - Reading tokens

    /// The next token, without taking it.
    var peek: LiquidToken? { index < tokens.count ? tokens[index] : nil }

    /// Takes the next token if it is `token`.
    mutating func take(_ token: LiquidToken) -> Bool {
        guard peek == token else { return false }
        index += 1
        return true
    }

    /// Takes the next token, which must be `token`.
    mutating func expect(_ token: LiquidToken) throws {
        guard take(token) else { throw LiquidSyntaxError() }
    }

    /// Takes an identifier.
    mutating func identifier() throws -> String {
        guard case .identifier(let name)? = peek else { throw LiquidSyntaxError() }
        index += 1
        return name
    }

    /// Throws unless every token has been read.
    func expectEnd() throws {
        guard atEnd else { throw LiquidSyntaxError() }
    }

    // MARK: - Expressions

    /// A value with its filters: `x | f: a, b | g`.
    mutating func filteredExpression() throws -> LiquidExpression {
        let base = try primary()
        var filters: [LiquidFilterCall] = []
        while take(.punctuation("|")) {
            let name = try identifier()
            var call = LiquidFilterCall(name: name, arguments: [], named: [:])
            if take(.punctuation(":")) {
                repeat {
                    if case .identifier(let key)? = peek, index + 1 < tokens.count, tokens[index + 1] == .punctuation(":") {
                        index += 2
                        call.named[key] = try primary()
                    } else {
                        call.arguments.append(try primary())
                    }
                } while take(.punctuation(","))
            }
            filters.append(call)
        }
        return filters.isEmpty ? base : .filtered(base, filters)
    }

    /// A literal, a variable with its members, or a range.
    mutating func primary() throws -> LiquidExpression {
        guard let token = peek, depth < Self.maxDepth else { throw LiquidSyntaxError() }
        depth += 1
        defer { depth -= 1 }
        index += 1
        switch token {
        case .string(let s):
            return .literal(.string(s))
        case .number(let n):
            if let i = Int(n) { return .literal(.int(i)) }
            if let d = Double(n) { return .literal(.double(d)) }
            throw LiquidSyntaxError()
        case .punctuation("("):
            let lower = try primary()
            try expect(.dotDot)
            let upper = try primary()
            try expect(.punctuation(")"))
            return .range(lower, upper)
        case .punctuation("["):
            // `["key"]` at the start: a variable named by a string.
            let key = try primary()
            try expect(.punctuation("]"))
            guard case .literal(.string(let name)) = key else { throw LiquidSyntaxError() }
            return .variable(name, try members())
        case .identifier(let name):
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "nil", "null": return .literal(.null)
            case "empty", "blank": return .special(name)
            default: return .variable(name, try members())
            }
        default:
            throw LiquidSyntaxError()
        }
    }

    /// `.name` and `[expression]` after a variable.
    private mutating func members() throws -> [LiquidExpression] {
        var path: [LiquidExpression] = []
        while true {
            if take(.punctuation(".")) {
                path.append(.literal(.string(try identifier())))
            } else if take(.punctuation("[")) {
                path.append(try primary())
                try expect(.punctuation("]"))
            } else {
                return path
            }
        }
    }

    // MARK: - Conditions

    /// `a == b and c contains "x" or d`, grouped from the right.
    mutating func condition() throws -> LiquidCondition {
        var parts: [LiquidCondition] = [try comparison()]
        var joins: [String] = []
        while case .identifier(let word)? = peek, word == "and" || word == "or" {
            index += 1
            joins.append(word)
            parts.append(try comparison())
            guard parts.count <= Self.maxDepth else { throw LiquidSyntaxError() }
        }
        var result = parts.removeLast()
        while let last = parts.popLast() {
            result = joins.removeLast() == "and" ? .and(last, result) : .or(last, result)
        }
        return result
    }

    private mutating func comparison() throws -> LiquidCondition {
        let left = try primary()
        if case .comparison(let op)? = peek {
            index += 1
            return .compare(left, op, try primary())
        }
        if case .identifier("contains")? = peek {
            index += 1
            return .compare(left, "contains", try primary())
        }
        return .value(left)
    }
}
