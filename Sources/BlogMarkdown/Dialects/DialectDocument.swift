import BlogCore
import CCmarkGFM

/// Something a pass noticed, at a byte offset of a line of the text it looked at.
struct LineNote {
    /// The 1-based line.
    var line: Int
    /// The byte offset in ``SourceLines/bytes``.
    var offset: Int
    /// What blog does and what the generator does.
    var message: String
}

/// A markdown text parsed by cmark-gfm as its dialect reads it (see ``MarkdownDialect``).
///
/// The text is parsed; passes look at the tree and at the lines it was made from, and rewrite the
/// few lines that the dialect reads otherwise than CommonMark (``HashHeadings``,
/// ``HTMLBlockEnds``, ``DefinitionLists``, ``ListsAfterParagraphs``, ``BlockQuotesAcrossBlankLines``,
/// ``LinkDestinationsWithSpaces``, ``KramdownRawSpans``, ``EmphasisRuns``); the text is parsed again, and the tree edited where
/// a rewrite asked for it, where Python-Markdown decides looseness item by item (``LooseItems``), and where
/// kramdown leaves a list item's first paragraph bare (``KramdownListItems``). What cmark made code is never
/// looked at. A rewrite can uncover
/// another (the markdown after an HTML line can hold a `##Heading`), so the passes run again on
/// the new tree, a few rounds at most. A text that needs no rewrite is parsed once.
struct DialectDocument {
    /// The document. The caller frees it with ``free()``.
    let document: CmarkNode
    /// Nodes taken out of the document whose text its nodes still use: freed with it.
    private var detached: [CmarkNode] = []
    /// What the dialect's generator renders and blog can't, by line of the given text.
    let warnings: [MarkdownWarning]
    /// For each line of the text parsed last (index 0 for line 1), the line of the given text it
    /// comes from; nil when that is the given text.
    private let from: [Int]?

    /// Whether the document was parsed in the thread's arena (``GFM/withArena(sized:_:)``), which frees it whole.
    private let inArena = GFM.inArena

    /// Frees the document and what was taken out of it; nothing to do in the arena, whose scope
    /// frees every node made in it (walking the tree to free no node cost 28M instructions at 1,000 posts).
    func free() {
        guard !inArena else { return }
        cmark_node_free(document.pointer)
        detached.forEach { cmark_node_free($0.pointer) }
    }

    /// The line of the given text that line `number` of the parsed text comes from.
    func originalLine(_ number: Int) -> Int {
        guard let from, number >= 1, number <= from.count else { return number }
        return from[number - 1]
    }

    /// Rounds of passes and parses, at most: each round but the last parses the text again.
    static let maxRounds = 4

    /// Parses `markdown` as `dialect` reads it, with smart punctuation when `smart`.
    static func parse(_ markdown: String, dialect: MarkdownDialect, smart: Bool = true) -> DialectDocument {
        // Every dialect reads GFM tables: rows too wide for cmark-gfm are text first (lines keep their numbers).
        let (markdown, tableWarnings) = WideTableRows.bound(markdown)
        var document = CmarkNode(pointer: GFM.parse(markdown, smart: smart))
        guard dialect.needsFixes else { return DialectDocument(document: document, warnings: tableWarnings, from: nil) }
        var text = markdown
        var from: [Int]?
        func original(_ number: Int) -> Int {
            guard let from, number >= 1, number <= from.count else { return number }
            return from[number - 1]
        }
        // Escaped tags and definition markers, by line of the given text.
        var tags: [Int: [UInt8]] = [:]
        var markers: Set<Int> = []
        // The lines whose element's content is markdown (`markdown="1"`), by line of the given text.
        var opened: Set<Int> = []
        var warnings: [MarkdownWarning] = []
        // The lines of `text` as the last round read them: the passes after the rounds read them again.
        var last: SourceLines?
        for round in 1...maxRounds {
            let lines = SourceLines(text)
            last = lines
            var found = Passes(lines: lines, dialect: dialect)
            // The `:` lines an earlier round made list items, by line of this text.
            if !markers.isEmpty { found.definitions = Set((1...max(lines.count, 1)).filter { markers.contains(original($0)) }) }
            if !opened.isEmpty { found.opened = Set((1...max(lines.count, 1)).filter { opened.contains(original($0)) }) }
            found.collect(in: document)
            // The last round's notes: the constructs still there.
            warnings = tableWarnings + found.notes.map {
                MarkdownWarning(line: original($0.line), column: lines.column(ofByte: $0.offset, inLine: $0.line), message: $0.message)
            }
            if found.edits.isEmpty || round == maxRounds { break }
            for (line, tag) in found.tags { tags[original(line)] = tag }
            for line in found.markers { markers.insert(original(line)) }
            for line in found.opened { opened.insert(original(line)) }
            let (edited, editedFrom) = found.edits.apply(to: lines)
            from = editedFrom.map(original)
            cmark_node_free(document.pointer)
            text = edited
            document = CmarkNode(pointer: GFM.parse(text, smart: smart))
        }
        var detached: [CmarkNode] = []
        if dialect.htmlBlocksKeepBlankLines, document.children.contains(where: { $0.type == CMARK_NODE_HTML_BLOCK }) {
            // Raw HTML across blank lines: what the regions hold is no longer parsed.
            let lines = last ?? SourceLines(text)
            let merged = HTMLBlocksAcrossBlankLines.merge(in: document, lines: lines, given: SourceLines(markdown), original: original, dialect: dialect,
                                                          opened: Set((1...max(lines.count, 1)).filter { opened.contains(original($0)) }))
            detached = merged.detached
            for range in merged.covered {
                tags = tags.filter { !range.contains($0.key) }
                markers = markers.filter { !range.contains($0) }
                warnings.removeAll { range.contains($0.line) && range.lowerBound != $0.line }
            }
        }
        if !tags.isEmpty {
            let restored = HTMLBlockEnds.restore(in: document.descendants(ofType: CMARK_NODE_TEXT), tags: tags, original: original)
            // Never silent: a tag that did not come back is shown as `<` (not met so far).
            for line in tags.keys where !restored.contains(line) {
                warnings.append(MarkdownWarning(line: line, column: 1, message: "blog could not render this HTML line as \(dialect.generatorName) does: its tag is lost, and `<` is shown"))
            }
        }
        if !markers.isEmpty {
            detached += DefinitionLists.build(from: document.lists, markers: markers,
                                             dialect: dialect, original: original)
        }
        if dialect.looseItemByItem {
            let lists = document.lists
            if !lists.isEmpty { LooseItems.apply(to: lists, lines: last ?? SourceLines(text)) }
        }
        // After the definition lists, which are made of lists.
        if dialect == .kramdown { detached += KramdownListItems.apply(in: document, text: text) }
        if dialect == .kramdown, smart { KramdownQuotes.apply(to: document) }
        return DialectDocument(document: document, detached: detached,
                               warnings: warnings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }, from: from)
    }

    /// One round of the passes over a tree and the lines it was parsed from.
    private struct Passes {
        let lines: SourceLines
        let dialect: MarkdownDialect
        var edits = LineEdits()
        var tags: [Int: [UInt8]] = [:]
        var markers: Set<Int> = []
        var notes: [LineNote] = []
        /// The lines of definitions that earlier rounds rewrote as list items (not lists to undo).
        var definitions: Set<Int> = []
        /// The lines of elements whose content is markdown (`markdown="1"`), this round's and earlier rounds'.
        var opened: Set<Int> = []
        /// What ``EmphasisRuns`` reuses from block to block.
        var emphasis = EmphasisRuns.Scratch()

        init(lines: SourceLines, dialect: MarkdownDialect) {
            self.lines = lines
            self.dialect = dialect
        }

        /// Runs the dialect's passes over the blocks of `document`, in document order.
        mutating func collect(in document: CmarkNode) {
            // Raw HTML across blank lines: the blocks inside are not looked at.
            let raw = dialect.htmlBlocksKeepBlankLines ? HTMLBlocksAcrossBlankLines.collect(in: document, lines: lines, dialect: dialect, opened: opened, edits: &edits) : []
            let (lists, quotes) = (!dialect.listsInterruptParagraphs, dialect.blockQuotesJoinAcrossBlankLines)
            let blocks = document.blocks { type in
                type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING || type == CMARK_NODE_HTML_BLOCK
                    || (type == CMARK_NODE_LIST && lists) || (type == CMARK_NODE_BLOCK_QUOTE && quotes)
            }
            for block in blocks where !raw.contains(where: { $0.contains(block.startLine) && $0.lowerBound != block.startLine }) {
                switch block.type {
                case CMARK_NODE_HTML_BLOCK where dialect.htmlBlocksEndWithTheirElement:
                    HTMLBlockEnds.collect(in: block, lines: lines, dialect: dialect, edits: &edits, tags: &tags, notes: &notes, opened: &opened)
                case CMARK_NODE_LIST:
                    ListsAfterParagraphs.collect(in: block, lines: lines, definitions: definitions, edits: &edits)
                case CMARK_NODE_BLOCK_QUOTE:
                    BlockQuotesAcrossBlankLines.collect(in: block, lines: lines, edits: &edits)
                case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
                    let before = edits.count
                    if dialect.hashHeadings { HashHeadings.collect(in: block, lines: lines, edits: &edits) }
                    // Terms that are about to become headings are not terms: the next round looks again.
                    if dialect.definitionLists, block.type == CMARK_NODE_PARAGRAPH, edits.count == before {
                        DefinitionLists.collect(in: block, lines: lines, dialect: dialect, edits: &edits, markers: &markers, notes: &notes)
                    }
                    if dialect.linkDestinationsWithSpaces {
                        LinkDestinationsWithSpaces.collect(in: block, lines: lines, edits: &edits)
                    }
                    if dialect == .kramdown {
                        KramdownRawSpans.collect(in: block, lines: lines, edits: &edits)
                        LinkDestinationsWithSpaces.collect(in: block, lines: lines, escapedParentheses: true, edits: &edits)
                    }
                    if dialect.emphasisByRuns { EmphasisRuns.collect(in: block, lines: lines, dialect: dialect, edits: &edits, scratch: &emphasis) }
                default:
                    break
                }
            }
        }
    }
}
