/// One piece of a body as ``LiquidScanner`` hands it to the interpreter: text (already
/// rewritten: code, `raw`, `highlight`, `post_url`… done) or a tag or output to interpret.
enum LiquidPiece {
    case text([UInt8])
    case tag(LiquidTagSource)
    case output(LiquidTagSource)
}

/// A `{% name markup %}` or `{{ markup }}` as written, and where.
struct LiquidTagSource {
    /// The tag's name (`if`, `for`); empty for an output.
    var name: String
    /// What follows the name (an output's whole expression).
    var markup: String
    /// The tag as written, to put back when it is not understood.
    var written: [UInt8]
    /// Its file line and column, for messages.
    var line: Int
    var column: Int
    /// `{%-` / `-%}`: the whitespace before / after it goes.
    var trimBefore: Bool
    var trimAfter: Bool

    /// How messages name it: `{% include %}`, `{{ page.title }}` (up to its first filter, at most 40
    /// characters), or a shortcode's own label (`{{< gh >}}`, kept in ``name``).
    var label: String {
        if name.hasPrefix("{") { return name }
        if !name.isEmpty { return "{% \(name) %}" }
        var shown = String(markup.prefix(while: { $0 != "|" && $0 != "\n" }))
        while shown.last == " " { shown.removeLast() }
        if shown.count > 40 { shown = String(shown.prefix(39)) + "…" }
        return "{{ \(shown) }}"
    }
}

/// The template a body's pieces make: the tree the evaluator walks.
indirect enum LiquidNode {
    /// Text, written out as it is.
    case text([UInt8])
    /// A tag put back as written (the piece's index): not understood.
    case written(Int)
    /// `{{ expression }}` (and `{% echo %}`), with its piece.
    case output(LiquidExpression, piece: Int)
    /// `{% assign name = expression %}`.
    case assign(String, LiquidExpression, piece: Int)
    /// `{% capture name %}…{% endcapture %}`.
    case capture(String, [LiquidNode])
    /// `if`/`elsif`/`else` and `unless`: the first branch whose condition holds (nil: `else`).
    case branches([(LiquidCondition?, [LiquidNode])])
    /// `{% case x %}{% when a, b %}…{% else %}…{% endcase %}`.
    case cases(LiquidExpression, [([LiquidExpression], [LiquidNode])], otherwise: [LiquidNode]?)
    /// `{% for %}`.
    case loop(LiquidLoop, piece: Int)
    /// `{% break %}`, `{% continue %}`.
    case stop(continues: Bool)
}

/// A `{% for name in collection limit: n offset: n reversed %}…{% else %}…{% endfor %}`.
struct LiquidLoop {
    var variable: String
    var collection: LiquidExpression
    var limit: LiquidExpression?
    var offset: LiquidExpression?
    var reversed: Bool
    var body: [LiquidNode]
    /// Rendered when there is nothing to loop over.
    var otherwise: [LiquidNode]
}

/// Builds the tree from the pieces: blocks are matched first (in one pass with a stack), so a block
/// never closed, or a closing tag without its block, is put back as written and the rest still reads.
struct LiquidTreeBuilder {
    /// Tags that open a block, and the tag that closes each.
    static let blocks: [String: String] = ["if": "endif", "unless": "endunless", "for": "endfor", "capture": "endcapture",
                                           "comment": "endcomment", "case": "endcase"]
    /// Tags that split a block into branches.
    static let branchTags: Set<String> = ["else", "elsif", "when"]

    private let pieces: [LiquidPiece]
    /// For each opening tag (by piece), the piece of its closing tag.
    private var closer: [Int: Int] = [:]
    private var i = 0
    /// The pieces put back as written because they are not understood, in order.
    private(set) var unsupported: [Int] = []
    /// The first block opened inside ``LiquidParser/maxDepth`` others (its piece), if any.
    private(set) var tooDeep: Int?

    init(_ pieces: [LiquidPiece]) {
        self.pieces = pieces
        matchBlocks()
    }

    /// The whole template.
    mutating func build() -> [LiquidNode] {
        i = 0
        return parseNodes(until: pieces.count)
    }

    private func tag(_ index: Int) -> LiquidTagSource? {
        if case .tag(let t) = pieces[index] { return t }
        return nil
    }

    private mutating func matchBlocks() {
        var stack: [(name: String, piece: Int)] = []
        var index = 0
        while index < pieces.count {
            defer { index += 1 }
            guard let t = tag(index) else { continue }
            if t.name == "comment" {
                // Nothing in a comment counts: jump to its end.
                var j = index + 1
                while j < pieces.count && tag(j)?.name != "endcomment" { j += 1 }
                if j < pieces.count { closer[index] = j; index = j }
                continue
            }
            if Self.blocks[t.name] != nil {
                // Blocks nest at most this deep (the tree is built and run recursively); a deeper one stays as
                // written, and is an error (``tooDeep``).
                if stack.count < LiquidParser.maxDepth {
                    stack.append((t.name, index))
                } else if tooDeep == nil {
                    tooDeep = index
                }
            } else if t.name.hasPrefix("end"), let open = stack.lastIndex(where: { Self.blocks[$0.name] == t.name }) {
                closer[stack[open].piece] = index
                stack.removeSubrange(open...)
            }
        }
    }

    /// Nodes from `i` up to `end` (a closing tag's piece) or the first branch tag of this level.
    private mutating func parseNodes(until end: Int) -> [LiquidNode] {
        var nodes: [LiquidNode] = []
        while i < end {
            switch pieces[i] {
            case .text(let bytes):
                nodes.append(.text(bytes))
                i += 1
            case .output(let t):
                if let expression = try? Self.expression(t.markup) {
                    nodes.append(.output(expression, piece: i))
                } else {
                    nodes.append(writtenNode(i))
                }
                i += 1
            case .tag(let t):
                if Self.branchTags.contains(t.name) && end < pieces.count && isBranchOf(end) { return nodes }
                nodes.append(parseTag(t))
            }
        }
        return nodes
    }

    /// Whether a branch tag here belongs to the block closed at `end` (always, once nested blocks are skipped).
    private func isBranchOf(_ end: Int) -> Bool {
        guard let t = tag(end) else { return false }
        return t.name == "endif" || t.name == "endunless" || t.name == "endfor" || t.name == "endcase"
    }

    private mutating func writtenNode(_ piece: Int) -> LiquidNode {
        unsupported.append(piece)
        return .written(piece)
    }

    /// The tag at `i`, and for a block everything up to its closing tag; moves `i` past it.
    private mutating func parseTag(_ t: LiquidTagSource) -> LiquidNode {
        let start = i
        i += 1
        if Self.blocks[t.name] != nil {
            guard let end = closer[start], let node = parseBlock(t, start: start, end: end) else {
                i = start + 1
                return writtenNode(start)
            }
            i = end + 1
            return node
        }
        do {
            var parser = try LiquidParser(t.markup)
            switch t.name {
            case "assign":
                let name = try parser.identifier()
                try parser.expect(.punctuation("="))
                let value = try parser.filteredExpression()
                try parser.expectEnd()
                return .assign(name, value, piece: start)
            case "echo":
                let value = try parser.filteredExpression()
                try parser.expectEnd()
                return .output(value, piece: start)
            case "break", "continue":
                try parser.expectEnd()
                return .stop(continues: t.name == "continue")
            default:
                return writtenNode(start)
            }
        } catch {
            return writtenNode(start)
        }
    }

    /// A block from its opening tag at `start` to its closing tag at `end`; nil when its markup doesn't read
    /// (the caller puts the opening tag back, and what follows reads as if it were not there).
    private mutating func parseBlock(_ t: LiquidTagSource, start: Int, end: Int) -> LiquidNode? {
        do {
            switch t.name {
            case "comment":
                return .text([])
            case "capture":
                var parser = try LiquidParser(t.markup)
                let name = try parser.identifier()
                try parser.expectEnd()
                return .capture(name, parseNodes(until: end))
            case "if", "unless":
                var condition = try Self.condition(t.markup)
                if t.name == "unless" { condition = .not(condition) }
                var branches: [(LiquidCondition?, [LiquidNode])] = [(condition, parseNodes(until: end))]
                while i < end, let branch = tag(i) {
                    i += 1
                    if branch.name == "elsif" {
                        branches.append((try Self.condition(branch.markup), parseNodes(until: end)))
                    } else if branch.name == "else" {
                        branches.append((nil, parseNodes(until: end)))
                    } else {
                        return nil
                    }
                }
                return .branches(branches)
            case "case":
                let subject = try Self.expression(t.markup)
                _ = parseNodes(until: end)  // text before the first `when` is not shown
                var whens: [([LiquidExpression], [LiquidNode])] = []
                var otherwise: [LiquidNode]?
                while i < end, let branch = tag(i) {
                    i += 1
                    if branch.name == "when" {
                        var parser = try LiquidParser(branch.markup)
                        var values = [try parser.primary()]
                        while parser.take(.punctuation(",")) || parser.take(.identifier("or")) { values.append(try parser.primary()) }
                        try parser.expectEnd()
                        whens.append((values, parseNodes(until: end)))
                    } else if branch.name == "else" {
                        otherwise = parseNodes(until: end)
                    } else {
                        return nil
                    }
                }
                return .cases(subject, whens, otherwise: otherwise)
            case "for":
                var loop = try Self.loopHeader(t.markup)
                loop.body = parseNodes(until: end)
                if i < end, let branch = tag(i) {
                    guard branch.name == "else" else { return nil }
                    i += 1
                    loop.otherwise = parseNodes(until: end)
                }
                guard i >= end else { return nil }
                return .loop(loop, piece: start)
            default:
                return nil
            }
        } catch {
            return nil
        }
    }

    /// `{{ x | f }}`'s expression.
    static func expression(_ markup: String) throws -> LiquidExpression {
        var parser = try LiquidParser(markup)
        let expression = try parser.filteredExpression()
        try parser.expectEnd()
        return expression
    }

    static func condition(_ markup: String) throws -> LiquidCondition {
        var parser = try LiquidParser(markup)
        let condition = try parser.condition()
        try parser.expectEnd()
        return condition
    }

    /// `name in collection limit: n offset: n reversed`.
    static func loopHeader(_ markup: String) throws -> LiquidLoop {
        var parser = try LiquidParser(markup)
        let variable = try parser.identifier()
        try parser.expect(.identifier("in"))
        var loop = LiquidLoop(variable: variable, collection: try parser.primary(), limit: nil, offset: nil, reversed: false,
                              body: [], otherwise: [])
        while !parser.atEnd {
            let word = try parser.identifier()
            switch word {
            case "reversed":
                loop.reversed = true
            case "limit", "offset":
                try parser.expect(.punctuation(":"))
                let value = try parser.primary()
                if word == "limit" { loop.limit = value } else { loop.offset = value }
            default:
                throw LiquidSyntaxError()
            }
            _ = parser.take(.punctuation(","))
        }
        return loop
    }
}
