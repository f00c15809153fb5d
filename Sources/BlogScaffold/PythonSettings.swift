import BlogCore

/// A value of a Python settings file (`pelicanconf.py`) as ``PythonSettings`` reads it: a literal,
/// or a sum of literals and settings assigned before it.
enum PythonValue: Equatable, Sendable {
    case string(String)
    /// A number as written (`10`, `1.5`, `-3`), `_` separators left out.
    case number(String)
    case bool(Bool)
    case none
    /// A list, tuple or set.
    case list([PythonValue])
    /// A dict's entries, in order.
    case dict([Entry])

    /// One entry of a dict.
    struct Entry: Equatable, Sendable {
        var key: PythonValue
        var value: PythonValue
    }

    /// A string, a number or a boolean as blog.yml writes it (`True` as `True`); nil for the rest.
    var text: String? {
        switch self {
        case .string(let s), .number(let s): return s
        case .bool(let flag): return flag ? "True" : "False"
        default: return nil
        }
    }

    /// The value of `key` in a dict (compared as a string key).
    subscript(key: String) -> PythonValue? {
        guard case .dict(let entries) = self else { return nil }
        return entries.last { $0.key == .string(key) }?.value
    }
}

/// The top-level assignments of a Python settings file, read without running Python: `NAME = value`
/// (also `A = B = value` and `NAME += value`), where the value is a literal (strings with `u`, `r`,
/// `b`, `f` prefixes, triple quotes, escapes and adjacent literals joined; numbers; `True`, `False`,
/// `None`; lists, tuples, sets and dicts over several lines, with comments), a setting assigned
/// before it, or a `+` of those (`SITEURL + '/images/x.png'`). Imports, `if` blocks, subscripted
/// assignments and the like are passed over; an assignment whose value is anything else (a call,
/// `%`, an attribute) makes its setting unknown, with the line and column of what could not be read.
///
/// Bounded: one pass over the text, nesting at most ``depthLimit`` deep, and no value weighs more
/// than ``weightLimit`` (bytes of text plus one per item), however the settings reuse each other.
struct PythonSettings {
    /// A setting's value and where its assignment starts (1-based).
    struct Setting: Equatable {
        var value: PythonValue
        var line: Int
        var column: Int
    }

    /// Why a setting's last assignment could not be read, and where.
    struct Unreadable: Error, Equatable {
        var line: Int
        var column: Int
        var reason: String
    }

    /// The settings read, by name (the last assignment of each).
    private(set) var settings: [String: Setting]
    /// The settings whose last assignment could not be read, by name.
    private(set) var unreadable: [String: Unreadable] = [:]

    static let depthLimit = 64
    static let weightLimit = 1 << 22

    /// The settings of `text`, read on top of `start` (the ones a `from pelicanconf import *` brings).
    init(_ text: String, start: [String: Setting] = [:]) {
        settings = start
        var reader = Reader(bytes: Array(text.utf8), known: start.mapValues { Weighed($0.value) })
        while let statement = reader.nextStatement() {
            switch statement {
            case .assigned(let names, let value, let line, let column):
                for name in names {
                    settings[name] = Setting(value: value, line: line, column: column)
                    unreadable[name] = nil
                }
            case .failed(let names, let problem):
                for name in names {
                    settings[name] = nil
                    unreadable[name] = problem
                }
            }
        }
    }

    /// The value of `name`, when it was read.
    subscript(name: String) -> PythonValue? { settings[name]?.value }

    /// The text of `name` (a string, number or boolean), when it was read.
    func text(_ name: String) -> String? { settings[name]?.value.text }

    /// A value with its weight (bytes of text plus one per item), to keep sums bounded.
    fileprivate struct Weighed {
        var value: PythonValue
        var weight: Int

        init(_ value: PythonValue, weight: Int) {
            self.value = value
            self.weight = weight
        }

        init(_ value: PythonValue) {
            func weigh(_ value: PythonValue) -> Int {
                switch value {
                case .string(let s), .number(let s): return s.utf8.count + 1
                case .bool, .none: return 1
                case .list(let items): return items.reduce(1) { $0 + weigh($1) }
                case .dict(let entries): return entries.reduce(1) { $0 + weigh($1.key) + weigh($1.value) }
                }
            }
            self.init(value, weight: weigh(value))
        }
    }

    fileprivate enum Statement {
        case assigned([String], PythonValue, line: Int, column: Int)
        case failed([String], Unreadable)
    }

    /// Reads the statements one by one over the UTF-8 of the file.
    fileprivate struct Reader {
        let bytes: [UInt8]
        var known: [String: Weighed]
        var i = 0

        init(bytes: [UInt8], known: [String: Weighed]) {
            self.bytes = bytes
            self.known = known
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }

        func peek(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

        /// The first byte of each line (after a byte order mark on the first).
        lazy var lineStarts: [Int] = {
            var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
            var k = 0
            while k < bytes.count {
                if bytes[k] == 0x0D, k + 1 < bytes.count, bytes[k + 1] == 0x0A { k += 1 }
                if bytes[k] == 0x0A || bytes[k] == 0x0D { starts.append(k + 1) }
                k += 1
            }
            return starts
        }()
        /// The last position found, from which a later one on its line is counted on.
        var cursor = (offset: 0, line: 0, column: 1)

        /// The line and column of the byte at `offset`, as ``TextPosition`` counts them, without
        /// counting the text before it again for each one.
        mutating func position(_ offset: Int) -> (line: Int, column: Int) {
            let starts = lineStarts
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            var from = starts[low], column = 1
            if cursor.line == low + 1, cursor.offset >= from, cursor.offset <= offset { (from, column) = (cursor.offset, cursor.column) }
            column += String(decoding: bytes[from..<max(from, offset)], as: UTF8.self).count
            cursor = (offset, low + 1, column)
            return (low + 1, column)
        }

        mutating func problem(at offset: Int, _ reason: String) -> Unreadable {
            let (line, column) = position(offset)
            return Unreadable(line: line, column: column, reason: reason)
        }

        static func isNameStart(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80 }
        static func isNameByte(_ b: UInt8) -> Bool { isNameStart(b) || (b >= 0x30 && b <= 0x39) }

        /// Skips spaces, tabs, a `\` that continues the line, comments and (inside brackets) line ends.
        mutating func skipSpace(inBrackets: Bool) {
            while let b = peek() {
                if b == 0x20 || b == 0x09 || b == 0x0C {
                    i += 1
                } else if b == 0x5C, peek(1) == 0x0A || peek(1) == 0x0D {
                    i += 2
                    if bytes[i - 1] == 0x0D, peek() == 0x0A { i += 1 }
                } else if b == 0x23 {
                    while let c = peek(), c != 0x0A, c != 0x0D { i += 1 }
                } else if inBrackets, b == 0x0A || b == 0x0D {
                    i += 1
                } else {
                    return
                }
            }
        }

        /// A name at `i`, consumed; nil (nothing consumed) when there is none.
        mutating func name() -> String? {
            guard let b = peek(), Self.isNameStart(b) else { return nil }
            let start = i
            while let c = peek(), Self.isNameByte(c) { i += 1 }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        /// The next top-level assignment, or nil at the end of the text.
        mutating func nextStatement() -> Statement? {
            while i < bytes.count {
                let startsLine = i == 0 || bytes[i - 1] == 0x0A || bytes[i - 1] == 0x0D || (i == 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]))
                if let b = peek(), b == 0x20 || b == 0x09, startsLine {
                    // An indented line: the body of a block (`if`, `try`), or a blank line. A setting
                    // assigned there may or may not be set: it is unknown.
                    skipSpace(inBrackets: false)
                    guard let c = peek(), c != 0x0A, c != 0x0D else { endLine(); continue }
                    let at = i
                    if let target = name() {
                        skipSpace(inBrackets: false)
                        if (peek() == 0x3D && peek(1) != 0x3D) || (peek() == 0x2B && peek(1) == 0x3D) {
                            i = at
                            skipStatement()
                            known[target] = nil
                            return .failed([target], problem(at: at, "assigned inside a block (`if`, `try`, …), which may not run"))
                        }
                    }
                    i = at
                    skipStatement()
                    continue
                }
                skipSpace(inBrackets: false)
                guard let b = peek() else { return nil }
                if b == 0x0A || b == 0x0D || b == 0x3B { i += 1; continue }
                let column = position(i)
                var targets: [String] = []
                var augmented = false
                while true {
                    let before = i
                    guard let target = name() else { i = before; break }
                    skipSpace(inBrackets: false)
                    if peek() == 0x3D, peek(1) != 0x3D {
                        i += 1
                        targets.append(target)
                        skipSpace(inBrackets: false)
                    } else if peek() == 0x2B, peek(1) == 0x3D, targets.isEmpty {
                        i += 2
                        targets.append(target)
                        augmented = true
                        skipSpace(inBrackets: false)
                        break
                    } else {
                        i = before
                        break
                    }
                }
                guard !targets.isEmpty else {
                    skipStatement()
                    continue
                }
                let valueStart = i
                do {
                    var value = try expression(depth: 0)
                    if augmented {
                        guard let old = known[targets[0]] else {
                            throw problem(at: valueStart, "`\(targets[0]) +=` adds to a setting that has no value read before it")
                        }
                        value = try sum(old, value, at: valueStart)
                    }
                    skipSpace(inBrackets: false)
                    if let c = peek(), c != 0x0A, c != 0x0D, c != 0x3B {
                        throw problem(at: i, "`\(Character(UnicodeScalar(c)))` after the value: only literals, settings and `+` are read")
                    }
                    for target in targets { known[target] = value }
                    return .assigned(targets, value.value, line: column.line, column: column.column)
                } catch let failure as Unreadable {
                    i = valueStart
                    skipStatement()
                    for target in targets { known[target] = nil }
                    return .failed(targets, failure)
                } catch {
                    return nil
                }
            }
            return nil
        }

        /// Past the line end at `i`.
        mutating func endLine() {
            if peek() == 0x0D { i += 1 }
            if peek() == 0x0A { i += 1 }
        }

        /// Past the statement at `i`: to the line end (or `;`) outside brackets and strings.
        mutating func skipStatement() {
            var depth = 0
            while let b = peek() {
                switch b {
                case 0x27, 0x22:
                    skipString()
                    continue
                case 0x23:
                    while let c = peek(), c != 0x0A, c != 0x0D { i += 1 }
                    continue
                case 0x5C:
                    i += 2
                    if bytes[i - 1] == 0x0D, peek() == 0x0A { i += 1 }
                    continue
                case 0x28, 0x5B, 0x7B: depth += 1
                case 0x29, 0x5D, 0x7D: depth = max(0, depth - 1)
                case 0x0A, 0x0D, 0x3B:
                    if depth == 0 {
                        if b == 0x3B { i += 1 } else { endLine() }
                        return
                    }
                default: break
                }
                i += 1
            }
        }

        /// Past the string whose quote is at `i` (to the end of the text when it is not closed).
        mutating func skipString() {
            let quote = bytes[i]
            let triple = peek(1) == quote && peek(2) == quote
            i += triple ? 3 : 1
            while let b = peek() {
                if b == 0x5C { i += 2; continue }
                if b == quote, !triple || (peek(1) == quote && peek(2) == quote) {
                    i += triple ? 3 : 1
                    return
                }
                if !triple, b == 0x0A || b == 0x0D { return }
                i += 1
            }
        }

        /// `a + b + …`, each a literal or a setting.
        mutating func expression(depth: Int) throws -> Weighed {
            guard depth < PythonSettings.depthLimit else { throw problem(at: i, "nested more than \(PythonSettings.depthLimit) deep") }
            let inBrackets = depth > 0
            var value = try term(depth: depth)
            while true {
                let before = i
                skipSpace(inBrackets: inBrackets)
                guard peek() == 0x2B, peek(1) != 0x3D else { i = before; return value }
                let at = i
                i += 1
                skipSpace(inBrackets: inBrackets)
                value = try sum(value, try term(depth: depth), at: at)
            }
        }

        /// `a + b`: strings joined, lists (or tuples) put end to end.
        mutating func sum(_ a: Weighed, _ b: Weighed, at offset: Int) throws -> Weighed {
            guard a.weight + b.weight <= PythonSettings.weightLimit else { throw problem(at: offset, "a value larger than \(PythonSettings.weightLimit) bytes") }
            switch (a.value, b.value) {
            case (.string(let x), .string(let y)): return Weighed(.string(x + y), weight: a.weight + b.weight - 1)
            case (.list(let x), .list(let y)): return Weighed(.list(x + y), weight: a.weight + b.weight - 1)
            default: throw problem(at: offset, "`+` of values other than two strings or two lists")
            }
        }

        /// One literal, a setting's name, or a bracketed value, with adjacent string literals joined.
        mutating func term(depth: Int) throws -> Weighed {
            let inBrackets = depth > 0
            guard let b = peek() else { throw problem(at: i, "no value after `=`") }
            let start = i
            var value: Weighed
            if let literal = try strings(inBrackets: inBrackets) {
                value = literal
            } else if (b >= 0x30 && b <= 0x39) || b == 0x2D || (b == 0x2E && peek(1).map { $0 >= 0x30 && $0 <= 0x39 } == true) {
                i += b == 0x2D ? 1 : 0
                skipSpace(inBrackets: inBrackets)
                let digits = i
                while let c = peek(), Self.isNameByte(c) || c == 0x2E || ((c == 0x2B || c == 0x2D) && (bytes[i - 1] | 0x20) == 0x65) { i += 1 }
                let text = String(decoding: bytes[digits..<i], as: UTF8.self).replacingOccurrences(of: "_", with: "")
                guard text.first.map({ $0.isNumber || $0 == "." }) == true, Int(text) != nil || Double(text) != nil || text.lowercased().hasPrefix("0x") || text.lowercased().hasPrefix("0o") || text.lowercased().hasPrefix("0b")
                else { throw problem(at: start, "the number `\(String(decoding: bytes[start..<i], as: UTF8.self))`") }
                value = Weighed(.number((b == 0x2D ? "-" : "") + text))
            } else if b == 0x28 || b == 0x5B || b == 0x7B {
                value = try bracketed(depth: depth)
            } else if let word = name() {
                switch word {
                case "True": value = Weighed(.bool(true))
                case "False": value = Weighed(.bool(false))
                case "None": value = Weighed(.none)
                default:
                    guard let setting = known[word] else {
                        skipSpace(inBrackets: inBrackets)
                        let computed = peek() == 0x28 || peek() == 0x2E || peek() == 0x5B
                        throw problem(at: start, computed ? "`\(word)…`, a call or attribute" : "`\(word)` is no setting assigned a value before it")
                    }
                    value = setting
                }
            } else {
                throw problem(at: start, "`\(Character(UnicodeScalar(b)))` starts no value that can be read without running Python")
            }
            let before = i
            skipSpace(inBrackets: inBrackets)
            if let c = peek(), c == 0x28 || c == 0x5B || c == 0x2E {
                throw problem(at: i, c == 0x28 ? "a call" : c == 0x5B ? "a subscript" : "an attribute or method")
            }
            i = before
            return value
        }

        /// `( … )`, `[ … ]` or `{ … }` at `i`: a tuple (or a value in parentheses), a list, a dict or a set.
        mutating func bracketed(depth: Int) throws -> Weighed {
            let open = bytes[i]
            let start = i
            let close: UInt8 = open == 0x28 ? 0x29 : open == 0x5B ? 0x5D : 0x7D
            i += 1
            var items: [PythonValue] = []
            var entries: [PythonValue.Entry] = []
            var weight = 1
            var sawComma = false
            var isDict: Bool?
            while true {
                skipSpace(inBrackets: true)
                guard let b = peek() else { throw problem(at: start, "`\(Character(UnicodeScalar(open)))` is never closed") }
                if b == close { i += 1; break }
                let item = try expression(depth: depth + 1)
                skipSpace(inBrackets: true)
                if open == 0x7B, isDict ?? true, peek() == 0x3A {
                    if isDict == nil { isDict = true }
                    i += 1
                    skipSpace(inBrackets: true)
                    let entry = try expression(depth: depth + 1)
                    entries.append(PythonValue.Entry(key: item.value, value: entry.value))
                    weight += item.weight + entry.weight
                } else {
                    if isDict == true { throw problem(at: i, "a dict entry without `:`") }
                    isDict = false
                    items.append(item.value)
                    weight += item.weight
                }
                guard weight <= PythonSettings.weightLimit else { throw problem(at: start, "a value larger than \(PythonSettings.weightLimit) bytes") }
                skipSpace(inBrackets: true)
                if peek() == 0x2C {
                    i += 1
                    sawComma = true
                } else if peek() != close {
                    let shown = peek().map { String(Character(UnicodeScalar($0))) } ?? "the end of the file"
                    throw problem(at: i, "`\(shown)` where `,` or `\(Character(UnicodeScalar(close)))` was expected (only literals, settings and `+` are read)")
                }
            }
            if open == 0x28, items.count == 1, !sawComma { return Weighed(items[0], weight: weight - 1) }
            if isDict == true { return Weighed(.dict(entries), weight: weight) }
            if open == 0x7B, isDict == nil { return Weighed(.dict([]), weight: 1) }
            return Weighed(.list(items), weight: weight)
        }

        /// String literals at `i`, adjacent ones joined (`'a' 'b'`, and across lines inside brackets);
        /// nil when none starts there.
        mutating func strings(inBrackets: Bool) throws -> Weighed? {
            var text: String?
            while true {
                let before = i
                guard let piece = try string() else { i = before; break }
                text = (text ?? "") + piece
                guard text!.utf8.count <= PythonSettings.weightLimit else { throw problem(at: before, "a value larger than \(PythonSettings.weightLimit) bytes") }
                let after = i
                skipSpace(inBrackets: inBrackets)
                if peek() != 0x27, peek() != 0x22, !(peek().map(Self.isNameStart) ?? false) { i = after; break }
                // A prefix letter starts a string only when a quote follows it.
            }
            return text.map { Weighed(.string($0)) }
        }

        /// One string literal at `i` (with its prefix), or nil (nothing consumed) when none starts there.
        mutating func string() throws -> String? {
            let start = i
            var raw = false, formatted = false
            var prefix = 0
            while prefix < 2, let b = peek(prefix), "rRuUbBfF".utf8.contains(b) { prefix += 1 }
            guard let quote = peek(prefix), quote == 0x27 || quote == 0x22 else {
                // A name such as `u` or `rb` without a quote is no string.
                return nil
            }
            for b in bytes[i..<i + prefix] {
                if b | 0x20 == 0x72 { raw = true }
                if b | 0x20 == 0x66 { formatted = true }
            }
            i += prefix
            let triple = peek(1) == quote && peek(2) == quote
            i += triple ? 3 : 1
            var out: [UInt8] = []
            while true {
                guard let b = peek() else { throw problem(at: start, "a string that is never closed") }
                if b == quote, !triple || (peek(1) == quote && peek(2) == quote) {
                    i += triple ? 3 : 1
                    break
                }
                if !triple, b == 0x0A || b == 0x0D { throw problem(at: start, "a string that is not closed on its line") }
                if b == 0x5C, let next = peek(1) {
                    if raw {
                        out += [b, next]
                        i += 2
                        continue
                    }
                    i += 2
                    switch next {
                    case 0x0A: continue
                    case 0x0D: if peek() == 0x0A { i += 1 }; continue
                    case 0x5C, 0x27, 0x22: out.append(next)
                    case 0x61: out.append(0x07)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x76: out.append(0x0B)
                    case 0x78, 0x75, 0x55:
                        let count = next == 0x78 ? 2 : next == 0x75 ? 4 : 8
                        guard i + count <= bytes.count, let code = UInt32(String(decoding: bytes[i..<i + count], as: UTF8.self), radix: 16),
                              let scalar = UnicodeScalar(code) else { throw problem(at: i - 2, "a broken `\\\(Character(UnicodeScalar(next)))` escape") }
                        out += Array(String(Character(scalar)).utf8)
                        i += count
                    case 0x30...0x37:
                        var code = UInt32(next - 0x30)
                        var digits = 1
                        while digits < 3, let d = peek(), d >= 0x30, d <= 0x37 { code = code * 8 + UInt32(d - 0x30); i += 1; digits += 1 }
                        out += Array(String(Character(UnicodeScalar(code)!)).utf8)
                    case 0x4E: throw problem(at: i - 2, "a `\\N{…}` escape")
                    default: out += [b, next]
                    }
                    continue
                }
                out.append(b)
                i += 1
            }
            if formatted, out.contains(0x7B) || out.contains(0x7D) { throw problem(at: start, "an f-string") }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
