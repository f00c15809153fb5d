import BlogCore
import Mustache

/// HTML escaping for `{{name}}` tags, byte for byte the same as swift-mustache's own, at a tenth
/// of its cost (swift-mustache escapes one `Character` at a time through a dictionary). Templates
/// get this escaping through swift-mustache's extension point, a content type named by a
/// pragma that ``Theme`` puts on a line of its own before every template's text.
struct TemplateEscaping: MustacheContentType {
    /// The pragma line; reading it registers the content type once.
    static let pragma: String = {
        MustacheContentTypes.register(TemplateEscaping(), named: "BLOG_HTML")
        return "{{% CONTENT_TYPE: BLOG_HTML }}\n"
    }()

    /// A theme's template parsed with this escaping; throws the parser's error at the author's own
    /// line and column (the pragma line shifts them by one).
    static func template(_ text: String) throws -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: pragma + text)
        } catch {
            _ = try MustacheTemplate(string: text)
            throw error
        }
    }

    /// `text` escaped as swift-mustache's `htmlEscape()` escapes it (see ``Escaping/template(_:)``).
    func escapeText(_ text: String) -> String {
        Escaping.template(text)
    }
}

/// Template values are mostly strings. swift-mustache prints a value it knows nothing about with
/// `String(describing:)` after trying it as a lambda and as an optional, each a dynamic cast;
/// a `MustacheCustomRenderable` value is printed directly. For a string both give the string
/// itself, so pages are the same bytes; sections and transforms treat strings as before
/// (`isNull` is false, as it is for any value that is present).
extension String: @retroactive MustacheCustomRenderable {
    public var renderText: String { self }
    public var isNull: Bool { false }
}
