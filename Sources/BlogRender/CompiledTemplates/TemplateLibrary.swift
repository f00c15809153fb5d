import Foundation
import Mustache
import Synchronization

/// A set of named templates, rendered as swift-mustache renders them: what ``Theme``, the list
/// and page libraries (``ListSummaries``, ``SharedPartials``) and ``ShortcodeTemplates`` render with.
///
/// Each template is kept twice: as swift-mustache parsed it, and compiled from that
/// (``CompiledTemplate``). Pages are rendered from the compiled form by ``TemplateRenderer``; a
/// template that did not compile, or a value the renderer leaves to swift-mustache, is rendered by
/// swift-mustache, so the bytes are the same either way (`CompiledTemplatesTests` compares both on
/// every template of the default theme and on generated ones).
package struct TemplateLibrary: Sendable {
    /// The templates as swift-mustache parsed them.
    private(set) var mustache = MustacheLibrary()
    /// The same templates, compiled.
    private var compiled: [String: CompiledTemplate] = [:]
    /// The same, by the number of each name (``TemplateNames``): how a partial tag finds its template.
    private var numbered: [CompiledTemplate?] = []
    /// The size of each template's last render, by name (see ``OutputSize``).
    private var sizes: [String: OutputSize] = [:]
    /// Whether a template did not compile: then every render goes through swift-mustache, since a
    /// compiled template's partial may be that one.
    private var incomplete = false

    /// No templates.
    package init() {}

    /// Adds `template` as `name`, or replaces the template of that name. Returns why it could not be
    /// compiled (then every render of the library goes through swift-mustache: slower, the same bytes),
    /// or nil when it was.
    @discardableResult
    mutating func register(_ template: MustacheTemplate, named name: String) -> CompiledTemplate.Unreadable? {
        mustache.register(template, named: name)
        do {
            var made = try CompiledTemplate(template)
            made.id = TemplateNames.id(name)
            compiled[name] = made
            if numbered.count <= made.id { numbered += Array(repeating: nil, count: made.id + 1 - numbered.count) }
            numbered[made.id] = made
            sizes[name] = OutputSize()
            return nil
        } catch {
            incomplete = true
            return error
        }
    }

    /// Whether every template compiled, so ``render(_:withTemplate:)`` renders without swift-mustache
    /// when the values allow it.
    var isCompiled: Bool { !incomplete }

    /// The template `name` rendered with `object` on the stack; nil when there is no such template.
    /// Throws ``TemplateRenderer/Loop`` when a partial named by a value (`{{>*name}}`) is included
    /// inside itself or too deep. Rendered into a `String` (not ``RenderBuffer``): what is wanted is a `String`
    /// at once, which bytes would be checked as UTF-8 again to make.
    func render(_ object: Any, withTemplate name: String) throws -> String? {
        if !incomplete, let template = compiled[name] {
            var renderer = TemplateRenderer(templates: compiled, numbered: numbered, object: object, id: template.id)
            var output = ""
            // At the size of the last render (see renderBuffer).
            let size = sizes[name]
            if let size { output.reserveCapacity(size.expected) }
            do {
                try renderer.render(template, .start, into: &output)
                size?.record(output.utf8.count)
                return output
            } catch is TemplateRenderer.Unsupported {}
        }
        return mustache.render(object, withTemplate: name)
    }

    /// The template `name` rendered from its compiled form; nil when there is no such template, a
    /// template did not compile, or a value needs swift-mustache (a lambda, a template). Throws
    /// ``TemplateRenderer/Loop`` as ``render(_:withTemplate:)`` does. The text is in storage of its own size.
    func renderCompiled(_ object: Any, withTemplate name: String) throws -> String? {
        try renderBytes(object, withTemplate: name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 of ``renderCompiled(_:withTemplate:)``, in an array of its size: for a text kept and written as it
    /// is (``RenderedOnce``), which its `String` would be checked as UTF-8 to make.
    func renderBytes(_ object: Any, withTemplate name: String) throws -> [UInt8]? {
        try renderBuffer(object, withTemplate: name)?.array()
    }

    /// The bytes of ``render(_:withTemplate:)``, for a page's file: rendered from the compiled form, they are
    /// the render's own memory, not a copy of it.
    func renderData(_ object: Any, withTemplate name: String) throws -> Data? {
        if let buffer = try renderBuffer(object, withTemplate: name) { return buffer.data() }
        return mustache.render(object, withTemplate: name).map { Data($0.utf8) }
    }

    /// The bytes of ``renderData(_:withTemplate:)`` with each post body (``BodyMarker``) written in place and where
    /// it went; nil where ``renderCompiled(_:withTemplate:)`` is nil (then the page is rendered into text whose markers
    /// ``BodyMarks`` fills).
    func renderMarked(_ object: Any, withTemplate name: String) throws -> MarkedBuffer? {
        try renderBuffer(object, withTemplate: name, into: MarkedBuffer.self)
    }

    /// ``renderCompiled(_:withTemplate:)``'s bytes, in memory the caller hands on or frees.
    private func renderBuffer(_ object: Any, withTemplate name: String) throws -> RenderBuffer? {
        try renderBuffer(object, withTemplate: name, into: RenderBuffer.self)
    }

    private func renderBuffer<Output: SizedRenderOutput>(_ object: Any, withTemplate name: String, into _: Output.Type) throws -> Output? {
        guard !incomplete, let template = compiled[name] else { return nil }
        var renderer = TemplateRenderer(templates: compiled, numbered: numbered, object: object, id: template.id)
        // At the size of the template's last page at once: grown from nothing, a page of 13 KB was copied
        // into new storage about ten times on the way.
        let size = sizes[name]
        var output = Output(capacity: size?.expected ?? 0)
        do {
            try renderer.render(template, .start, into: &output)
        } catch {
            output.free()
            if error is TemplateRenderer.Unsupported { return nil }
            throw error
        }
        size?.record(output.count)
        return output
    }
}

/// The size of a template's last render, read by the next one (on any core) to reserve its page's
/// storage at once. A guess: a bigger page grows its storage as it would have anyway.
final class OutputSize: Sendable {
    private let bytes = Atomic<Int>(0)

    /// The bytes to reserve: the last page's, and an eighth more.
    var expected: Int {
        let last = bytes.load(ordering: .relaxed)
        return last + last / 8
    }

    func record(_ count: Int) {
        bytes.store(count, ordering: .relaxed)
    }
}
