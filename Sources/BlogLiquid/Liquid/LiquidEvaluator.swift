import BlogCore

/// Runs a template (``LiquidNode``s) over plain values, writing the text it makes.
///
/// Liquid's rules: only `nil` and `false` are false; an unknown variable is `nil`; `assign` and
/// `capture` set variables for the rest of the body; a `for` loop's variable and `forloop` last
/// for the loop only. But a blog moved from Jekyll more likely lacks a `_config.yml` or `_data/`
/// value than means it to be empty: an output of a bare unknown variable is put back as written,
/// and each unknown `site.x` or `page.x` an output, `assign` or `for` reads is reported (a
/// condition's is not: `{% if page.image %}` is how a post asks whether it has one).
struct LiquidEvaluator {
    /// The most nodes a body may run (loops count each time): a loop over `(1..100000000)` stops there.
    /// At 200,000, seven nested loops over a split list took 1.5 s in the fuzzer's build (issue 18);
    /// a post's loops (an issue list, a table of links) run hundreds.
    static let maxSteps = 50_000
    /// The least a body may spend (see ``budget(forBody:)``).
    static let minimumBudget = 8 << 20

    /// What a body of `bytes` bytes may spend: ten times its size, at least ``minimumBudget``. A body spends the
    /// bytes it writes (text, outputs, captures), and the weight (``MetaValue/weight(upTo:)``: bytes of text,
    /// one per other value) of every value a filter, a comparison or a loop reads or makes; so its cost is
    /// bounded by its size, whatever it does: a text doubled by `append` in a loop, or filters run 40,000 times
    /// on 8 MB, stop there, where counting steps alone let them run for hours.
    static func budget(forBody bytes: Int) -> Int {
        max(10 * bytes, minimumBudget)
    }

    private let pieces: [LiquidPiece]
    private var variables: [String: MetaValue]
    private let site: LiquidFilters.Site
    /// The text made.
    private(set) var out: [UInt8] = []
    /// Pieces put back as written because a filter is unknown, in order.
    private(set) var unsupported: [Int] = []
    /// Unknown `site.x` and `page.x` read by an output, `assign` or `for`: the piece and the variable's name.
    private(set) var undefined: [(piece: Int, name: String)] = []
    /// The piece whose output, `assign` or `for` is being read, for ``undefined``.
    private var reading: Int?
    /// Whether the body ran into ``maxSteps`` or spent its budget.
    private(set) var exceeded = false {
        didSet { if exceeded && !oldValue { stoppedAt = running } }
    }
    /// Where the body stopped, when it did: the piece of the innermost output, `assign` or `for` running then
    /// (nil when none was).
    private(set) var stoppedAt: Int?
    /// Whether it was ``maxSteps`` that stopped the body (else the budget).
    private(set) var ranOutOfSteps = false
    /// The piece of the innermost output, `assign` or `for` running.
    private var running: Int?
    private var steps = 0
    /// What the body may still spend (see ``budget(forBody:)``).
    private var remaining: Int
    /// A `break` or `continue` on its way out to its loop.
    private var stopping: Bool?

    /// An evaluator over `pieces` (for text put back as written), with the variables `site`, `page`, that may
    /// spend `budget` (see ``budget(forBody:)``).
    init(pieces: [LiquidPiece], variables: [String: MetaValue], site: LiquidFilters.Site, budget: Int) {
        self.pieces = pieces
        self.variables = variables
        self.site = site
        remaining = budget
    }

    /// Runs `nodes`, appending to ``out``.
    mutating func run(_ nodes: [LiquidNode]) {
        for node in nodes {
            if stopping != nil || exceeded { return }
            steps += 1
            if steps > Self.maxSteps {
                ranOutOfSteps = !exceeded
                exceeded = true
                return
            }
            run(node)
        }
    }

    private mutating func run(_ node: LiquidNode) {
        switch node {
        case .text(let bytes):
            write(bytes)
        case .written(let piece):
            putBack(piece)
        case .output(let expression, let piece):
            reading = expression.hasDefault ? nil : piece
            let outer = running
            running = piece
            defer { reading = nil; running = outer }
            if case .variable(let name, let path) = expression, lookup(name, path) == nil {
                putBack(piece)
                return
            }
            guard let value = evaluate(expression, piece: piece) else { return }
            write(value.text(timeZone: site.timeZone).utf8)
        case .assign(let name, let expression, let piece):
            reading = expression.hasDefault ? nil : piece
            let outer = running
            running = piece
            defer { reading = nil; running = outer }
            guard let value = evaluate(expression, piece: piece) else { return }
            variables[name] = value
        case .capture(let name, let body):
            var captured: [UInt8] = []
            swap(&out, &captured)
            run(body)
            swap(&out, &captured)
            variables[name] = .string(String(decoding: captured, as: UTF8.self))
        case .branches(let branches):
            for (condition, body) in branches {
                if let condition, !holds(condition) { continue }
                run(body)
                return
            }
        case .cases(let subject, let whens, let otherwise):
            let value = (try? value(subject)) ?? .null
            var matched = false
            for (candidates, body) in whens {
                var matches = false
                for candidate in candidates {
                    let other = (try? self.value(candidate)) ?? .null
                    if (try? reading(value)) != nil, (try? reading(other)) != nil, MetaValue.equal(value, other) { matches = true }
                }
                guard matches else { continue }
                run(body)
                matched = true
            }
            if !matched, let otherwise { run(otherwise) }
        case .loop(let loop, let piece):
            runLoop(loop, piece: piece)
        case .stop(let continues):
            stopping = continues
        }
    }

    private mutating func runLoop(_ loop: LiquidLoop, piece: Int) {
        let outer = running
        running = piece
        defer { running = outer }
        reading = piece
        let collection = try? value(loop.collection)
        reading = nil
        guard var items = collection?.items else {
            unsupported.append(piece)
            putBack(piece)
            return
        }
        guard spend(items.count) else { return }
        if let offset = loop.offset, let count = (try? value(offset))?.number { items = Array(items.dropFirst(max(0, MetaValue.whole(count)))) }
        if let limit = loop.limit, let count = (try? value(limit))?.number { items = Array(items.prefix(max(0, MetaValue.whole(count)))) }
        if loop.reversed { items.reverse() }
        guard !items.isEmpty else {
            run(loop.otherwise)
            return
        }
        let saved = (variables[loop.variable], variables["forloop"])
        for (index, item) in items.enumerated() {
            variables[loop.variable] = item
            variables["forloop"] = .map([
                "index": .int(index + 1), "index0": .int(index), "rindex": .int(items.count - index),
                "rindex0": .int(items.count - index - 1), "first": .bool(index == 0), "last": .bool(index == items.count - 1),
                "length": .int(items.count),
            ])
            run(loop.body)
            if let continues = stopping {
                stopping = nil
                if !continues { break }
            }
            if exceeded { break }
        }
        variables[loop.variable] = saved.0
        variables["forloop"] = saved.1
    }

    /// The value of the expression of `piece`; nil when it can't be had: a filter is unknown (the piece is
    /// put back as written) or made a text too long (the body stops).
    private mutating func evaluate(_ expression: LiquidExpression, piece: Int) -> MetaValue? {
        do {
            return try value(expression)
        } catch is LiquidTooLong {
            exceeded = true
        } catch {
            unsupported.append(piece)
            putBack(piece)
        }
        return nil
    }

    private mutating func putBack(_ piece: Int) {
        switch pieces[piece] {
        case .text(let bytes): write(bytes)
        case .tag(let t), .output(let t): write(t.written)
        }
    }

    // MARK: - The budget

    /// Appends `bytes` to ``out`` (or to the text a `capture` makes), when the budget allows.
    private mutating func write<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if spend(bytes.count) { out.append(contentsOf: bytes) }
    }

    /// Takes `amount` from the budget; false (and the body stops) when that is more than is left.
    private mutating func spend(_ amount: Int) -> Bool {
        remaining -= amount
        if remaining < 0 { exceeded = true }
        return !exceeded
    }

    /// Takes the weight of `value` from the budget, before it is read or once it is made; throws
    /// ``LiquidTooLong`` when that is more than is left.
    private mutating func reading(_ value: MetaValue) throws {
        guard spend(value.weight(upTo: max(0, remaining))) else { throw LiquidTooLong() }
    }

    /// `site.data.x` for messages.
    private static func describe(_ name: String, _ path: [LiquidExpression]) -> String {
        var text = name
        for member in path {
            if case .literal(.string(let key)) = member { text += "." + key } else { text += "[…]" }
        }
        return text
    }

    // MARK: - Values

    /// A variable and its members; nil when any of them is missing (noted in ``undefined`` for
    /// `site` and `page` while ``reading``).
    private mutating func lookup(_ name: String, _ path: [LiquidExpression]) -> MetaValue? {
        var current = variables[name]
        for member in path {
            guard let value = current, let key = try? self.value(member) else {
                current = nil
                break
            }
            // A text's `size` counts its characters.
            if case .string = value, (try? reading(value)) == nil {
                current = nil
                break
            }
            current = value.member(key)
        }
        if current == nil, let reading, name == "site" || name == "page" {
            undefined.append((reading, Self.describe(name, path)))
        }
        return current
    }

    /// The value of `expression`; throws ``LiquidUnknownFilter``.
    private mutating func value(_ expression: LiquidExpression) throws -> MetaValue {
        switch expression {
        case .literal(let value):
            return value
        case .special:
            return .string("")
        case .variable(let name, let path):
            return lookup(name, path) ?? .null
        case .range(let lower, let upper):
            guard let from = try value(lower).number, let to = try value(upper).number, from <= to else { return .list([]) }
            let (first, last) = (MetaValue.whole(from), MetaValue.whole(to))
            let count = min(last - first + 1, Self.maxSteps)
            guard spend(count) else { throw LiquidTooLong() }
            return .list((0..<count).map { .int(first + $0) })
        case .filtered(let base, let calls):
            var result = try value(base)
            for call in calls {
                var arguments: [MetaValue] = []
                for argument in call.arguments { arguments.append(try value(argument)) }
                // Named arguments (`allow_false: true`) follow the others.
                for key in call.named.keys.sorted() { arguments.append(try value(call.named[key]!)) }
                try reading(result)
                for argument in arguments { try reading(argument) }
                result = try LiquidFilters.apply(call.name, result, arguments, site: site, limit: max(0, remaining))
                try reading(result)
                if case .list(let items) = result, items.count > Self.maxSteps { throw LiquidTooLong() }
            }
            return result
        }
    }

    /// Whether `condition` holds.
    private mutating func holds(_ condition: LiquidCondition) -> Bool {
        guard !exceeded else { return false }
        switch condition {
        case .value(let expression):
            return ((try? value(expression)) ?? .null).isTruthy
        case .and(let a, let b):
            return holds(a) && holds(b)
        case .or(let a, let b):
            return holds(a) || holds(b)
        case .not(let a):
            return !holds(a)
        case .compare(let left, let op, let right):
            if case .special(let word) = right { return compareSpecial(left, word, op) }
            if case .special(let word) = left { return compareSpecial(right, word, op) }
            let a = (try? value(left)) ?? .null
            let b = (try? value(right)) ?? .null
            guard (try? reading(a)) != nil, (try? reading(b)) != nil else { return false }
            switch op {
            case "==": return MetaValue.equal(a, b)
            case "!=": return !MetaValue.equal(a, b)
            case "<": return MetaValue.less(a, b) ?? false
            case ">": return MetaValue.less(b, a) ?? false
            case "<=": return MetaValue.less(a, b) == true || (MetaValue.less(b, a) == false)
            case ">=": return MetaValue.less(b, a) == true || (MetaValue.less(a, b) == false)
            case "contains":
                switch a {
                case .string(let s): return s.contains(b.text(timeZone: site.timeZone))
                case .list(let items): return items.contains { MetaValue.equal($0, b) }
                case .map(let m): return m[b.text(timeZone: site.timeZone)] != nil
                default: return false
                }
            default: return false
            }
        }
    }

    /// `x == empty`, `x != blank`.
    private mutating func compareSpecial(_ expression: LiquidExpression, _ word: String, _ op: String) -> Bool {
        let v = (try? value(expression)) ?? .null
        guard (try? reading(v)) != nil else { return false }
        let matches = word == "empty" ? v.isEmpty : v.isBlank
        switch op {
        case "==": return matches
        case "!=": return !matches
        default: return false
        }
    }
}
