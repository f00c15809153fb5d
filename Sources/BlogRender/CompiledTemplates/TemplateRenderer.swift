import Mustache

/// Renders ``CompiledTemplate``s with swift-mustache's semantics, tag for tag as its
/// `MustacheTemplate.render` does (Template+Render.swift, Context.swift, Sequence.swift of 2.1.1),
/// at a fraction of the cost: names are split when the template is compiled, and the values blog
/// gives templates (dictionaries, arrays of them, strings, numbers, booleans) are recognised by
/// their type's identity rather than by casts to protocols, which go through the Swift runtime's
/// conformance cache, shared by all cores. Any other value takes swift-mustache's path, protocol
/// casts included. A lambda or a template as a value is not rendered here
/// (``TemplateRenderer/Unsupported``): blog never gives one, and the caller renders with swift-mustache.
struct TemplateRenderer {
    /// A value this renderer cannot render as swift-mustache would.
    struct Unsupported: Error {}

    /// A partial included inside itself, or deeper than ``TemplateCheck/maxPartialDepth``: `chain` is the
    /// templates being rendered, outermost first, then the one that was to be included. Only a partial named by
    /// a value (`{{>*name}}`) gets here: ``TemplateCheck/partialLoops(in:)`` refuses the others when the theme
    /// is loaded.
    struct Loop: Error, CustomStringConvertible {
        var chain: [String]

        var description: String {
            if chain.dropLast().contains(chain[chain.count - 1]) {
                return "partial includes itself through a partial named by a value (`{{>*name}}`): \(chain.joined(separator: " → ")) "
                    + "(expected templates that never include themselves, directly or through others)"
            }
            return "templates included one inside another more than \(TemplateCheck.maxPartialDepth) deep, through a partial named by a "
                + "value (`{{>*name}}`): \(chain.prefix(4).joined(separator: " → ")) → … → \(chain.last!)"
        }
    }

    /// Every template, by name, for partials named by a value.
    let templates: [String: CompiledTemplate]
    /// Every template, by the number of its name (``TemplateNames``), for partials.
    let numbered: [CompiledTemplate?]
    /// The context stack: the values sections entered, the last on top.
    private var stack: [Level]

    /// A value of the stack, and the same value as a record (where a name is found by its number) or a dictionary
    /// (by its text, hashed) when it is one, else nil: cast once when pushed, so that a lookup casts nothing. A
    /// record is read here without a reference count. One array of these rather than three (values, records,
    /// dictionaries): a push or a pop checks and grows one.
    private struct Level {
        /// The value; nil for a record pushed as one (``init(record:)``).
        private let value: Any?
        let record: Unmanaged<TemplateRecord>?
        let dictionary: [String: Any]?

        init(_ value: Any) {
            self.value = value
            record = TemplateRenderer.record(value)
            dictionary = TemplateRenderer.dictionary(value)
        }

        /// A record that what pushes it holds while it is on the stack (the list it is in, the value a section
        /// found): neither copied into an `Any` nor retained. A list of 10 records was copied and retained three times
        /// an item, on every core at once.
        init(record: Unmanaged<TemplateRecord>) {
            value = nil
            self.record = record
            dictionary = nil
        }

        /// The value, as a template's `{{.}}` sees it.
        var object: Any {
            if let value { return value }
            return record!.takeUnretainedValue()
        }
    }

    /// The templates being rendered, the outermost first: the one rendered, then the partials and parents in it;
    /// by the numbers of their names (``TemplateNames``).
    private var including: [Int]
    /// The frames of the partials and blocks being rendered that indent or override (see ``Scope``): the first
    /// is a render's start, without either.
    private var frames: [Frame] = [Frame(indentation: nil, overrides: nil)]

    /// A renderer of `templates` (also `numbered`, by the numbers of their names) whose stack holds `object`,
    /// rendering the template whose name is numbered `id`.
    init(templates: [String: CompiledTemplate], numbered: [CompiledTemplate?], object: Any, id: Int) {
        self.templates = templates
        self.numbered = numbered
        // Each made at the room it mostly needs at once: a literal of one element, grown, was made twice.
        stack = []
        stack.reserveCapacity(8)
        stack.append(Level(object))
        including = []
        including.reserveCapacity(8)
        including.append(id)
    }

    /// What a render carries besides the stack (swift-mustache's `MustacheContext`, less its stack). Copied
    /// at every template, section and list item, so it holds no reference: what partials and blocks set
    /// (their indentation, the blocks overridden) is one of the renderer's ``frames``, by its index, and the
    /// content type is held unowned (its node holds it).
    struct Scope {
        /// The position in the list a section repeats for, while in it.
        var sequence: SequencePosition?
        /// The indentation and the overridden blocks of the partials this is in: ``TemplateRenderer/frames``[frame].
        var frame: Int
        /// How `{{name}}` escapes.
        var escaper: ScopeEscaper

        /// At the start of a render.
        static let start = Scope(sequence: nil, frame: 0, escaper: .html)
    }

    /// The indentation and the overridden blocks of a partial or a block, and of the partials it is in.
    struct Frame {
        /// The indentation of the partials this is in.
        var indentation: String?
        /// The blocks overridden by the `{{<parent}}` tags this is in.
        var overrides: [String: CompiledTemplate]?

        /// In a partial (`withPartial`).
        func partial(indented: String?, overriding: [String: CompiledTemplate]?) -> Frame {
            var overrides = self.overrides
            if let overriding {
                // An outer template's override wins over an inner one's.
                overrides = overrides?.merging(overriding) { outer, _ in outer } ?? overriding
            }
            return Frame(indentation: indentation(adding: indented), overrides: overrides)
        }

        /// The indentation inside a partial or block tag indented by `indented` (nil: not standalone).
        func indentation(adding indented: String?) -> String? {
            indented.map { (indentation ?? "") + $0 } ?? indentation
        }
    }

    /// `template` rendered, appended to `output`.
    mutating func render<Output: RenderOutput>(_ template: CompiledTemplate, _ scope: Scope, into output: inout Output) throws {
        var scope = scope
        let nodes = template.walked
        if let indentation = frames[scope.frame].indentation, !indentation.isEmpty {
            // As swift-mustache: a token's non-empty text after a line feed of this template's own
            // text starts with the indentation.
            var text = Output()
            defer { text.free() }
            var piece = Output()
            defer { piece.free() }
            for index in nodes.indices {
                piece.clear()
                try nodes[index]._withUnsafeGuaranteedRef { try render($0, &scope, into: &piece) }
                if !piece.isEmpty, text.endsWithLineFeed { text.write(indentation) }
                text.write(piece)
            }
            output.write(text)
        } else {
            // Borrowed (see WalkedNode).
            for index in nodes.indices {
                try nodes[index]._withUnsafeGuaranteedRef { try render($0, &scope, into: &output) }
            }
        }
    }

    /// `walked` rendered: its text and its variable read in place, another node through its case.
    @inline(__always)
    private mutating func render<Output: RenderOutput>(_ walked: WalkedNode, _ scope: inout Scope, into output: inout Output) throws {
        switch walked.kind {
        case .text:
            output.write(walked.text)
        case .variable:
            try variable(walked.name, escaped: walked.escaped, scope, into: &output)
        case .other:
            try render(walked.node, partial: walked.partial, &scope, into: &output)
        }
    }

    /// `template` rendered in `frame`, a partial's or a block's: kept on ``frames`` while it renders, unless it
    /// is the frame of `scope` already (no indentation, no override: most partials).
    private mutating func render<Output: RenderOutput>(_ template: CompiledTemplate, in frame: Frame?, _ scope: Scope,
                                                       escaper: ScopeEscaper,
                                                       into output: inout Output) throws {
        guard let frame else {
            return try render(template, Scope(sequence: nil, frame: scope.frame, escaper: escaper), into: &output)
        }
        frames.append(frame)
        defer { frames.removeLast() }
        try render(template, Scope(sequence: nil, frame: frames.count - 1, escaper: escaper), into: &output)
    }

    /// `node`; `partial` is the number of the template a partial tag names (``WalkedNode/partial``).
    private mutating func render<Output: RenderOutput>(_ node: CompiledNode, partial number: Int, _ scope: inout Scope,
                                                       into output: inout Output) throws {
        switch node {
        case .text(let text):
            output.write(text)
        case .variable(let name, let escaped):
            try variable(name, escaped: escaped, scope, into: &output)
        case .section(let name, let template):
            // A record, a flag or a list of records read in its slot, entered as ``section(_:_:_:into:)`` enters it.
            switch found(name) {
            case .record(let record): try inside(Level(record: record), template, scope, into: &output)
            case .flag(let flag): if flag { try render(template, scope, into: &output) }
            case .records(let list): try repeating(records: list, template, scope, into: &output)
            case .nothing: return
            case .text, .other: try section(try lookup(name, scope), template, scope, into: &output)
            }
        case .invertedSection(let name, let template):
            // As ``invertedSection(_:_:_:into:)``; an empty list takes its way (it is pushed).
            switch found(name) {
            case .record: return
            case .flag(let flag): if !flag { try render(template, scope, into: &output) }
            case .records(let list) where !list.isEmpty: return
            case .nothing: try render(template, scope, into: &output)
            case .text, .records, .other: try invertedSection(try lookup(name, scope), template, scope, into: &output)
            }
        case .partial(let name, let dynamic, let indentation, let overrides):
            var partial = number
            if dynamic {
                guard let value = try lookup(TemplateName(name, transforms: []), scope), let named = value as? String else { return }
                guard templates[named] != nil else { return }
                partial = TemplateNames.id(named)
            }
            guard partial >= 0, partial < numbered.count, let template = numbered[partial] else { return }
            // Rendered inside itself, it would be again and again until the stack ran out.
            guard !including.contains(partial), including.count < TemplateCheck.maxPartialDepth else {
                throw Loop(chain: (including + [partial]).map(TemplateNames.name))
            }
            including.append(partial)
            defer { including.removeLast() }
            // A partial on a line of its own at the start of it (indented by "") renders as one inline: no
            // indentation is added. Only an indented or a parent one needs a frame.
            let frame = indentation?.isEmpty != false && overrides == nil ? nil
                : frames[scope.frame].partial(indented: indentation, overriding: overrides)
            // HTML escaping again, until the partial's own pragma.
            try render(template, in: frame, scope, escaper: .html, into: &output)
        case .block(let name, let template, let indentation):
            let shown = frames[scope.frame].overrides?[name] ?? template
            let frame = indentation?.isEmpty != false ? nil
                : Frame(indentation: frames[scope.frame].indentation(adding: indentation), overrides: frames[scope.frame].overrides)
            try render(shown, in: frame, scope, escaper: scope.escaper, into: &output)
        case .contentType(let escaper):
            scope.escaper = escaper.unowned
        }
    }

    /// `{{name}}` (`escaped`) or `{{{name}}}`: a text ``found(_:)`` finds in a record written from there, any other
    /// value looked up and printed.
    @inline(__always)
    private func variable<Output: RenderOutput>(_ name: TemplateName, escaped: Bool, _ scope: Scope, into output: inout Output) throws {
        switch found(name) {
        case .text(let text):
            write(text, escaped: escaped, scope, into: &output)
        case .nothing:
            return
        case .record, .flag, .records, .other:
            guard let value = try lookup(name, scope) else { return }
            try print(value, escaped: escaped, scope, into: &output)
        }
    }

    /// What ``found(_:)`` finds.
    private enum Found {
        case text(String)
        /// A record, unretained: the record it was found in holds it, and the stack that record.
        case record(Unmanaged<TemplateRecord>)
        case flag(Bool)
        case records([TemplateRecord])
        /// No value.
        case nothing
        /// Another value, or a name it does not read: ``lookup(_:_:)`` finds it.
        case other
    }

    /// The value `name` names, as ``lookup(_:_:)`` finds it, when each level of the stack it looks in is a record and
    /// the value is a text, a record, a flag or a list of records in one (`title`, `post`, `draft`, `tags`), or in a
    /// record in one (`post.title`, `config.title`), without transforms: read from the record's slot
    /// (``TemplateRecord/peek(id:)``) rather than copied out of it as an `Any` and cast back.
    @inline(__always)
    private func found(_ name: TemplateName) -> Found {
        guard name.start == .stack, name.transforms.isEmpty, name.first != nil, name.restIDs.count <= 1 else { return .other }
        var level = stack.count - 1
        while level >= 0 {
            guard let record = stack[level].record else { return .other }
            switch record._withUnsafeGuaranteedRef({ $0.peek(id: name.firstID) }) {
            case .absent:
                level -= 1
            case .text(let text):
                return name.restIDs.isEmpty ? .text(text) : .other
            case .record(let inner):
                // Held by the record found, which the stack holds.
                guard !name.restIDs.isEmpty else { return .record(inner) }
                switch inner._withUnsafeGuaranteedRef({ $0.peek(id: name.restIDs[0]) }) {
                case .absent: return .nothing
                case .text(let text): return .text(text)
                case .record(let record): return .record(record)
                case .flag(let flag): return .flag(flag)
                case .records(let records): return .records(records)
                case .other: return .other
                }
            case .flag(let flag):
                return name.restIDs.isEmpty ? .flag(flag) : .other
            case .records(let records):
                return name.restIDs.isEmpty ? .records(records) : .other
            case .other:
                return .other
            }
        }
        // No level has it: as `find`, nothing.
        return .nothing
    }

    /// `text` printed, escaped by the scope's escaper or not.
    @inline(__always)
    private func write<Output: RenderOutput>(_ text: String, escaped: Bool, _ scope: Scope, into output: inout Output) {
        if escaped { scope.escaper.write(text, into: &output) } else { output.write(text) }
    }

    /// `{{name}}` and `{{{name}}}` of a present value.
    private func print<Output: RenderOutput>(_ value: Any, escaped: Bool, _ scope: Scope, into output: inout Output) throws {
        let text: String
        if let string = Self.exactly(value, String.self) {
            text = string
        } else if let int = Self.exactly(value, Int.self) {
            text = String(int)
        } else if let bool = Self.exactly(value, Bool.self) {
            text = bool ? "true" : "false"
        } else if let once = Self.exactly(value, RenderedOnce.self) {
            // A post's part rendered once for every page (`MustacheCustomRenderable`), known without a protocol cast;
            // its bytes written as they are where not escaped.
            guard escaped else { return once.write(into: &output) }
            text = once.renderText
        } else if let body = Self.exactly(value, BodyMarker.self) {
            // A post's body where the incremental layer renders: the output writes it (see ``MarkedBuffer``).
            return output.write(body: body, escaped: escaped, escaper: scope.escaper)
        } else if value is MustacheTemplate || value is MustacheLambda {
            throw Unsupported()
        } else if let renderable = value as? MustacheCustomRenderable {
            text = renderable.renderText
        } else {
            text = String(describing: Reflected.unwrapped(value))
        }
        write(text, escaped: escaped, scope, into: &output)
    }

    /// `{{#name}}…{{/name}}` for `value`.
    private mutating func section<Output: RenderOutput>(_ value: Any?, _ template: CompiledTemplate, _ scope: Scope,
                                                        into output: inout Output) throws {
        guard let value else { return }
        let type = Self.typeHeld(value)
        if let record = Self.record(value) {
            // Held by `value` while inside.
            try inside(Level(record: record), template, scope, into: &output)
        } else if type == [String: Any].self || type == String.self || type == Int.self {
            try inside(value, template, scope, into: &output)
        } else if let list = Self.exactly(value, [TemplateRecord].self) {
            try repeating(records: list, template, scope, into: &output)
        } else if let list = Self.exactly(value, [[String: Any]].self) {
            try repeating(list, template, scope, into: &output)
        } else if let bool = Self.exactly(value, Bool.self) {
            if bool { try render(template, scope, into: &output) }
        } else if value is MustacheLambda {
            throw Unsupported()
        } else if let sequence = value as? any MustacheSequence {
            try repeating(Self.elements(of: sequence), template, scope, into: &output)
        } else if let bool = value as? Bool {
            // An optional Bool: a cast looks through it, a type's identity does not.
            if bool { try render(template, scope, into: &output) }
        } else if let renderable = value as? MustacheCustomRenderable, renderable.isNull {
            return
        } else {
            try inside(value, template, scope, into: &output)
        }
    }

    /// `{{^name}}…{{/name}}` for `value`.
    private mutating func invertedSection<Output: RenderOutput>(_ value: Any?, _ template: CompiledTemplate, _ scope: Scope,
                                                                into output: inout Output) throws {
        guard let value else { return try render(template, scope, into: &output) }
        let type = Self.typeHeld(value)
        if type == TemplateRecord.self || type == [String: Any].self || type == String.self || type == Int.self {
            return
        } else if let list = Self.exactly(value, [TemplateRecord].self) {
            if list.isEmpty { try inside(value, template, scope, into: &output) }
        } else if let list = Self.exactly(value, [[String: Any]].self) {
            if list.isEmpty { try inside(value, template, scope, into: &output) }
        } else if let bool = Self.exactly(value, Bool.self) {
            if !bool { try render(template, scope, into: &output) }
        } else if let sequence = value as? any MustacheSequence {
            if Self.isEmpty(sequence) { try inside(value, template, scope, into: &output) }
        } else if let bool = value as? Bool {
            if !bool { try render(template, scope, into: &output) }
        } else if let renderable = value as? MustacheCustomRenderable, renderable.isNull {
            try render(template, scope, into: &output)
        }
    }

    /// `template` with `value` on top of the stack.
    private mutating func inside<Output: RenderOutput>(_ value: Any, _ template: CompiledTemplate, _ scope: Scope,
                                                       into output: inout Output) throws {
        try inside(Level(value), template, scope, into: &output)
    }

    /// `template` with `level` on top of the stack (moved there, not copied).
    private mutating func inside<Output: RenderOutput>(_ level: consuming Level, _ template: CompiledTemplate, _ scope: Scope,
                                                       into output: inout Output) throws {
        stack.append(level)
        defer { pop() }
        var scope = scope
        scope.sequence = nil
        try render(template, scope, into: &output)
    }

    /// `template` once for each of `elements`, each on top of the stack in turn, with its position.
    private mutating func repeating<C: Collection, Output: RenderOutput>(_ elements: C, _ template: CompiledTemplate, _ scope: Scope,
                                                   into output: inout Output) throws {
        var scope = scope
        var position = SequencePosition(first: true, last: false, index: 0)
        let count = elements.count
        for element in elements {
            position.last = position.index == count - 1
            scope.sequence = position
            push(element)
            defer { pop() }
            try render(template, scope, into: &output)
            position.first = false
            position.index += 1
        }
    }

    /// `template` once for each record of `list`, each on top of the stack in turn (as ``Level/init(record:)``, held by
    /// `list`), with its position.
    private mutating func repeating<Output: RenderOutput>(records list: [TemplateRecord], _ template: CompiledTemplate, _ scope: Scope,
                                                          into output: inout Output) throws {
        var scope = scope
        var position = SequencePosition(first: true, last: false, index: 0)
        let count = list.count
        for index in 0..<count {
            position.last = index == count - 1
            position.index = index
            scope.sequence = position
            stack.append(Level(record: Unmanaged.passUnretained(list[index])))
            defer { pop() }
            try render(template, scope, into: &output)
            position.first = false
        }
    }

    /// Puts `value` on top of the stack.
    private mutating func push(_ value: Any) {
        stack.append(Level(value))
    }

    /// Takes the top of the stack off.
    private mutating func pop() {
        stack.removeLast()
    }

    /// `value` when it is a record, unretained (the stack holds it).
    @inline(__always)
    fileprivate static func record(_ value: Any) -> Unmanaged<TemplateRecord>? {
        exactly(value, TemplateRecord.self).map { Unmanaged.passUnretained($0) }
    }

    /// `value` when it is a dictionary of blog's values, else nil.
    @inline(__always)
    fileprivate static func dictionary(_ value: Any) -> [String: Any]? {
        exactly(value, [String: Any].self)
    }

    /// `value` as a `T` when its type is `T` itself (not a subclass, not an optional of it), else nil: a
    /// comparison of the type's identity and a copy, where `as? T` would ask the runtime to cast (which
    /// for these values cost as much as the dictionary lookup that found them).
    @inline(__always)
    static func exactly<T>(_ value: Any, _ type: T.Type) -> T? {
        // The type compared first, from the container: the compiler then specializes `open` for `T` and inlines it.
        // Compared inside `open`, which is generic over both types, it was a call of the unspecialized function
        // (~60 instructions, its `T?` returned through the type's witnesses) at every check, a match or not.
        guard typeHeld(value) == T.self else { return nil }
        // `value` opened: `Value` is its dynamic type, here `T`, so the bits are a `T`'s. (Passed as it is, an `Any`
        // is not opened: `Value` would be `Any`.)
        func open<Value>(_ value: Value) -> T { unsafeBitCast(value, to: T.self) }
        return _openExistential(value, do: open)
    }

    /// The type of the value `value` holds, read from its container: what `type(of:)` gives for blog's values, without
    /// asking the runtime (which looks through a class instance to its dynamic class, ~50 instructions at every lookup,
    /// section and print). A type compared with it is one of blog's own, a final class or a value type.
    @inline(__always)
    static func typeHeld(_ value: Any) -> Any.Type {
        func open<Value>(_: Value) -> Any.Type { Value.self }
        return _openExistential(value, do: open)
    }

    private static func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 as Any } }

    private static func isEmpty<S: Sequence>(_ sequence: S) -> Bool {
        var iterator = sequence.makeIterator()
        return iterator.next() == nil
    }

    /// The value `name` names, its transforms applied (swift-mustache's `getChild`).
    private func lookup(_ name: TemplateName, _ scope: Scope) throws -> Any? {
        guard let found = try find(name, scope) else { return nil }
        // Most names: a value of blog's, no transform. Returned as found, not copied through the steps below.
        if name.transforms.isEmpty, Self.isPlain(found) { return found }
        var value = found
        if !Self.isPlain(value) {
            if let lazy = Self.exactly(value, LazyValue.self) {
                // Blog's own representation, known without a protocol cast.
                value = lazy.value
            } else if let custom = value as? MustacheCustomRepresentation {
                guard let represented = custom.representation else { return nil }
                value = represented
            }
        }
        for transform in name.transforms {
            guard let transformed = Self.transform(value, transform) else { return nil }
            value = transformed
        }
        return value
    }

    /// The value `name` names before its representation and transforms. Each path returns what it found
    /// as it is: an `Any?` kept in a variable on the way was copied (through its type's value witness) and
    /// destroyed again at every step.
    @inline(__always)
    private func find(_ name: TemplateName, _ scope: Scope) throws -> Any? {
        switch name.start {
        case .top:
            return stack[stack.count - 1].object
        case .sequence:
            return scope.sequence
        case .topOnly:
            return try follow(name.names, name.nameIDs, from: stack[stack.count - 1].object)
        case .stack:
            guard let first = name.first else { return stack[stack.count - 1].object }
            var level = stack.count - 1
            while level >= 0 {
                if let record = stack[level].record {
                    if let child = record._withUnsafeGuaranteedRef({ $0.value(id: name.firstID) }) {
                        if name.rest.isEmpty { return child }
                        // `page.url`, `config.title`, `post.title`: a record's value in a record, read at once.
                        if name.restIDs.count == 1, let inner = Self.exactly(child, TemplateRecord.self) {
                            return inner.value(id: name.restIDs[0])
                        }
                        return try follow(name.rest, name.restIDs, from: child)
                    }
                } else if let dictionary = stack[level].dictionary {
                    if let child = dictionary[first] {
                        return name.rest.isEmpty ? child : try follow(name.rest, name.restIDs, from: child)
                    }
                } else if let child = Self.child(first, id: name.firstID, of: stack[level].object) {
                    return name.rest.isEmpty ? child : try follow(name.rest, name.restIDs, from: child)
                }
                level -= 1
            }
            return nil
        }
    }

    /// `value` transformed by `name` (`empty(list)`, `first()`…), nil when it cannot be: the values blog
    /// gives templates, recognised by their type, call their transform directly; any other is cast to
    /// `MustacheTransformable` as swift-mustache casts it.
    @inline(__always)
    private static func transform(_ value: Any, _ name: String) -> Any? {
        if let list = exactly(value, [[String: Any]].self) { return list.transform(name) }
        if let list = exactly(value, [TemplateRecord].self) { return list.transform(name) }
        if let record = exactly(value, TemplateRecord.self) { return record.transform(name) }
        if let position = exactly(value, SequencePosition.self) { return position.transform(name) }
        if let string = exactly(value, String.self) { return string.transform(name) }
        if let int = exactly(value, Int.self) { return int.transform(name) }
        if let dictionary = exactly(value, [String: Any].self) { return dictionary.transform(name) }
        return (value as? MustacheTransformable)?.transform(name)
    }

    /// `names` followed from `object` (`_getChild`); `ids` are their numbers (``TemplateNames``).
    private func follow(_ names: [String], _ ids: [Int], from object: Any) throws -> Any? {
        var object = object
        for index in names.indices {
            if !Self.isPlain(object), object is MustacheLambda { throw Unsupported() }
            guard let child = Self.child(names[index], id: ids[index], of: object) else { return nil }
            object = child
        }
        return object
    }

    /// `object`'s child `name`, numbered `id` (`_getImmediateChild`).
    private static func child(_ name: String, id: Int, of object: Any) -> Any? {
        if let record = exactly(object, TemplateRecord.self) { return record.value(id: id) }
        if let dictionary = exactly(object, [String: Any].self) { return dictionary[name] }
        // A string, number, boolean or list of blog's has no child: no representation, not a parent, and
        // its mirror has no labelled child (asked through casts and a Mirror, ~10,000 instructions each time).
        let type = Self.typeHeld(object)
        if type == String.self || type == Int.self || type == Bool.self || type == [[String: Any]].self
            || type == [TemplateRecord].self { return nil }
        var object: Any? = object
        if let custom = object as? MustacheCustomRepresentation { object = custom.representation }
        if let parent = object as? MustacheParent { return parent.child(named: name) }
        guard let object, let match = Mirror(reflecting: object).children.first(where: { $0.label == name }) else { return nil }
        let mirror = Mirror(reflecting: match.value)
        guard mirror.displayStyle == .optional else { return match.value }
        return mirror.children.first?.value
    }

    /// Whether `value` is of a type blog's values use that has no protocol swift-mustache asks of
    /// it, but the ones this renderer handles by its type: no custom representation, no lambda.
    @inline(__always)
    private static func isPlain(_ value: Any) -> Bool {
        let type = Self.typeHeld(value)
        return type == String.self || type == TemplateRecord.self || type == [String: Any].self || type == [[String: Any]].self
            || type == [TemplateRecord].self || type == Int.self || type == Bool.self || type == RenderedOnce.self
    }
}

/// Where a section is in the list it repeats for: what `first()`, `last()`, `index()`, `even()`
/// and `odd()` read (swift-mustache's `MustacheSequenceContext`, which it keeps internal).
struct SequencePosition: MustacheTransformable {
    var first: Bool
    var last: Bool
    var index: Int

    func transform(_ name: String) -> Any? {
        switch name {
        case "first": return first
        case "last": return last
        case "index": return index
        case "even": return (index & 1) == 0
        case "odd": return (index & 1) == 1
        default: return nil
        }
    }
}
