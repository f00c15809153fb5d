import BlogCore
import Mustache

/// A template as swift-mustache parsed it, in a form that renders without splitting a name or
/// casting a value to a protocol at every tag (see ``TemplateRenderer``).
///
/// swift-mustache stays the parser: its tokens, read once through reflection when a template is
/// registered, carry its own rules for whitespace, standalone lines, partial indentation, set
/// delimiters and inheritance. A token this reading does not know (another version of
/// swift-mustache) gives no compiled template (``Unreadable``, which says so), and ``TemplateLibrary``
/// renders with swift-mustache.
struct CompiledTemplate: @unchecked Sendable {
    /// The nodes, in order. (`@unchecked`: a content type node holds a `MustacheContentType`,
    /// which swift-mustache's own `Sendable` template holds too.)
    let nodes: [CompiledNode]
    /// The same nodes, each in an object of its own held here (``owners``), as the renderer walks them: without a
    /// reference count, since every core renders the same nodes at once (see ``WalkedNode``).
    let walked: [Unmanaged<WalkedNode>]
    private let owners: [WalkedNode]
    /// The number of its name (``TemplateNames``) when a library holds it by that name, where a render of it
    /// starts the chain of included templates; -1 for a section's or a block's.
    var id = -1

    /// Why a template could not be compiled: what in swift-mustache's tokens this reading does not know.
    struct Unreadable: Error {
        /// The token, as a message names it (`a "blockDefinition" token, which it does not know`).
        let what: String
    }

    /// `template`'s tokens as nodes; throws ``Unreadable`` when a token is not one this reading knows.
    init(_ template: MustacheTemplate) throws(Unreadable) {
        guard let tokens = Reflected.field("tokens", of: template) as? [Any] else {
            throw Unreadable(what: "a template without the list of tokens it reads")
        }
        var nodes: [CompiledNode] = []
        nodes.reserveCapacity(tokens.count)
        for token in tokens {
            nodes.append(try CompiledNode(token: token))
        }
        self.nodes = nodes
        owners = nodes.map(WalkedNode.init)
        walked = owners.map { Unmanaged.passUnretained($0) }
    }
}

/// A node as ``TemplateRenderer`` walks it. Taken from an array of nodes, a node is retained and released again, on
/// the object that every page's render of the template shares: two cores doing so at once wait for each other. Read
/// through an unretained reference its template holds (``CompiledTemplate/walked``), it is borrowed.
///
/// The commonest nodes, text and `{{name}}`, keep their parts in fields of their own, read in place: bound from the
/// enum's case, they were copied (retained) at every node.
final class WalkedNode {
    /// How the renderer reads it.
    enum Kind {
        /// Text: ``text``.
        case text
        /// `{{name}}` (``escaped``) or `{{{name}}}`: ``name``.
        case variable
        /// Another: ``node``.
        case other
    }

    let kind: Kind
    let node: CompiledNode
    /// A text node's text; empty for another.
    let text: String
    /// A variable's name, and whether it is escaped; `.` and false for another node.
    let name: TemplateName
    let escaped: Bool
    /// The number of the template a partial tag names (``TemplateNames``), by which the renderer finds it without
    /// hashing its name; -1 for another node or a partial named by a value (`{{>*name}}`).
    let partial: Int

    init(_ node: CompiledNode) {
        self.node = node
        switch node {
        case .text(let text):
            (kind, self.text, name, escaped) = (.text, text, TemplateName(".", transforms: []), false)
        case .variable(let name, let escaped):
            (kind, text, self.name, self.escaped) = (.variable, "", name, escaped)
        default:
            (kind, text, name, escaped) = (.other, "", TemplateName(".", transforms: []), false)
        }
        if case .partial(let name, dynamic: false, _, _) = node {
            partial = TemplateNames.id(name)
        } else {
            partial = -1
        }
    }
}

/// One token of a parsed template (swift-mustache's `MustacheTemplate.Token`, case for case).
/// Held by reference (`indirect`): a render that walks the nodes retains one box per node, where
/// an inline enum of these payloads was copied field by field (its value witness) at every node.
indirect enum CompiledNode {
    /// Text, printed as it is.
    case text(String)
    /// `{{name}}` (`escaped`) or `{{{name}}}` / `{{&name}}`.
    case variable(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}`.
    case section(TemplateName, CompiledTemplate)
    /// `{{^name}}…{{/name}}`.
    case invertedSection(TemplateName, CompiledTemplate)
    /// `{{>name}}` (`dynamic`: `{{>*name}}`, the partial whose name is the value of `name`), or
    /// `{{<name}}…{{/name}}` with the blocks it overrides.
    case partial(String, dynamic: Bool, indentation: String?, overrides: [String: CompiledTemplate]?)
    /// `{{$name}}…{{/name}}` in a template: an override's text when there is one, else its own.
    case block(String, default: CompiledTemplate, indentation: String?)
    /// `{{% CONTENT_TYPE: x }}`: how the following tags escape.
    case contentType(TemplateEscaper)

    /// The node of a swift-mustache token, read by reflection; throws ``CompiledTemplate/Unreadable``
    /// for an unknown shape.
    init(token: Any) throws(CompiledTemplate.Unreadable) {
        guard let (kind, payload) = Reflected.enumCase(token) else {
            throw CompiledTemplate.Unreadable(what: "a token that is not an enum case")
        }
        let unknown = CompiledTemplate.Unreadable(what: "a \"\(kind)\" token laid out otherwise")
        let parts = Reflected.tupleElements(payload)
        switch kind {
        case "text":
            guard let text = payload as? String else { throw unknown }
            self = .text(text)
        case "variable", "unescapedVariable":
            guard parts.count == 2, let name = parts[0] as? String, let transforms = parts[1] as? [String] else { throw unknown }
            self = .variable(TemplateName(name, transforms: transforms), escaped: kind == "variable")
        case "section", "invertedSection":
            guard parts.count == 3, let name = parts[0] as? String, let transforms = parts[1] as? [String],
                  let inner = parts[2] as? MustacheTemplate else { throw unknown }
            let template = try CompiledTemplate(inner)
            let tag = TemplateName(name, transforms: transforms)
            self = kind == "section" ? .section(tag, template) : .invertedSection(tag, template)
        case "partial", "dynamicNamePartial":
            guard parts.count == 3, let name = parts[0] as? String,
                  let indentation = Reflected.optional(parts[1], as: String.self),
                  let inherited = Reflected.optional(parts[2], as: [String: MustacheTemplate].self) else { throw unknown }
            var overrides: [String: CompiledTemplate]?
            if let inherited {
                var compiled: [String: CompiledTemplate] = [:]
                for (block, template) in inherited {
                    compiled[block] = try CompiledTemplate(template)
                }
                overrides = compiled
            }
            self = .partial(name, dynamic: kind == "dynamicNamePartial", indentation: indentation, overrides: overrides)
        case "blockExpansion":
            guard parts.count == 3, let name = parts[0] as? String, let inner = parts[1] as? MustacheTemplate,
                  let indentation = Reflected.optional(parts[2], as: String.self) else { throw unknown }
            self = .block(name, default: try CompiledTemplate(inner), indentation: indentation)
        case "contentType":
            guard let contentType = payload as? MustacheContentType else { throw unknown }
            self = .contentType(TemplateEscaper(contentType))
        default:
            // blockDefinition only appears inside `{{<name}}`, where it is read as an override.
            throw CompiledTemplate.Unreadable(what: "a \"\(kind)\" token, which it does not know")
        }
    }
}

/// A tag's name, split once: which object it starts from, the names it follows from there, and
/// its transforms (`empty(tags)`), innermost last as swift-mustache applies them.
struct TemplateName {
    /// Where a lookup starts.
    enum Start {
        /// `.`: the object on top of the stack.
        case top
        /// A name with transforms and nothing else (`first()`): the position in the list.
        case sequence
        /// `.x.y`: `x` in the object on top of the stack only.
        case topOnly
        /// `x.y`: `x` in the first object of the stack, from the top, that has it.
        case stack
    }

    let start: Start
    /// The names after the first dot split (`x.y` -> `x`, `y`).
    let names: [String]
    /// The first of ``names``, and the others: what a lookup on the stack reads, without slicing ``names``.
    let first: String?
    let rest: [String]
    /// The numbers of ``first`` (-1 without one) and of ``rest`` (``TemplateNames``): what a ``TemplateRecord`` is read by.
    let firstID: Int
    let restIDs: [Int]
    /// The numbers of ``names``.
    let nameIDs: [Int]
    /// The transforms, in the order they apply (the innermost first).
    let transforms: [String]

    /// The name of a tag `name` with `transforms`, as swift-mustache's `getChild` reads it.
    init(_ name: String, transforms: [String]) {
        if name == "." {
            start = .top
            names = []
        } else if name.isEmpty, !transforms.isEmpty {
            start = .sequence
            names = []
        } else {
            start = name.first == "." ? .topOnly : .stack
            names = name.split(separator: ".").map(String.init)
        }
        first = names.first
        rest = Array(names.dropFirst())
        nameIDs = names.map(TemplateNames.id)
        firstID = nameIDs.first ?? -1
        restIDs = Array(nameIDs.dropFirst())
        self.transforms = transforms.reversed()
    }
}

/// How `{{name}}` escapes what it prints, as the template's content type says.
enum TemplateEscaper {
    /// HTML, as swift-mustache's default and ``TemplateEscaping`` escape it (the same bytes).
    case html
    /// Another content type, asked each time.
    case other(OtherContentType)

    init(_ contentType: MustacheContentType) {
        self = contentType is TemplateEscaping ? .html : .other(OtherContentType(contentType))
    }

    /// The escaping as a render's scope holds it (see ``ScopeEscaper``).
    var unowned: ScopeEscaper {
        switch self {
        case .html: return .html
        case .other(let other): return ScopeEscaper(other: other)
        }
    }
}

/// A content type other than HTML, held by the node that names it.
final class OtherContentType {
    let contentType: MustacheContentType

    init(_ contentType: MustacheContentType) {
        self.contentType = contentType
    }
}

/// A ``TemplateEscaper`` without a reference count, as ``TemplateRenderer/Scope`` holds it: a scope is
/// copied at every section and list item, on every core at once. The content type is its node's, which
/// lives as long as the template does, longer than any render of it.
struct ScopeEscaper {
    /// Another content type's; nil for HTML.
    unowned(unsafe) let other: OtherContentType?

    static let html = ScopeEscaper(other: nil)

    /// `text` escaped.
    @inline(__always)
    func escape(_ text: String) -> String {
        guard let other else { return Escaping.template(text) }
        return other.contentType.escapeText(text)
    }

    /// `text` escaped, appended to `output`: as it is when HTML escaping leaves it so (most texts), without the escaped
    /// copy ``escape(_:)`` returns (about 130 of the 320 instructions of a short text's escaping, and two retains).
    @inline(__always)
    func write<Output: RenderOutput>(_ text: String, into output: inout Output) {
        if other == nil, !Escaping.templateMayChange(text) { return output.write(text) }
        output.write(escape(text))
    }
}

/// Reading another module's values through `Mirror`.
enum Reflected {
    /// The stored property `name` of `value`.
    static func field(_ name: String, of value: Any) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == name }?.value
    }

    /// An enum value's case name and its associated value(s); nil for a case without any.
    static func enumCase(_ value: Any) -> (String, Any)? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum, let only = mirror.children.first, let label = only.label else { return nil }
        return (label, only.value)
    }

    /// The elements of a tuple, in order; empty for a value that is not a tuple.
    static func tupleElements(_ value: Any) -> [Any] {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .tuple ? mirror.children.map(\.value) : []
    }

    /// `value`, an `Optional<T>`, as `.some(nil)` or `.some(wrapped)`; nil when it is not an
    /// optional of `T`.
    static func optional<T>(_ value: Any, as type: T.Type) -> T?? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return nil }
        guard let wrapped = mirror.children.first?.value else { return .some(nil) }
        guard let typed = wrapped as? T else { return nil }
        return .some(typed)
    }

    /// What swift-mustache prints for a value it knows nothing about: an optional's wrapped value,
    /// or the value itself (`unwrapIfAnyContainsOptional`).
    static func unwrapped(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value ?? value
    }
}
