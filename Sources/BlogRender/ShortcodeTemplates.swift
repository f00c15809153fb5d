import Mustache

/// Hugo shortcodes a site defines, as Mustache templates (`shortcodes/<name>.mustache` in the theme
/// or the blog folder), rendered where a post has `{{< name args >}}` or `{{% name %}}…{{% /name %}}`.
///
/// A template sees: `{{name}}`; the arguments without a name as `{{0}}`, `{{1}}`… and as the list
/// `{{#positional}}{{.}}{{/positional}}`; each named argument by its name (`{{src}}`), and all of
/// them as `{{#named}}{{key}}={{value}}{{/named}}`; `{{{inner}}}`, what is between the opening and
/// the closing tag as written (markdown for `{{% %}}`, whose output the post's markdown renders;
/// HTML for `{{< >}}`, whose output goes into the page as it is), and `{{#inner}}` to ask whether
/// there is any. A template that names `inner` takes a closing tag (as a Hugo template using
/// `.Inner` does); one that doesn't stands alone. `{{x}}` is HTML-escaped, `{{{x}}}` is not.
package struct ShortcodeTemplates: Sendable {
    private var library = TemplateLibrary()
    /// The template names, and their texts (a build in place digests them: a change is a full build).
    package private(set) var texts: [String: String] = [:]

    /// No templates.
    package init() {}

    /// Parses `text` as the template of the shortcode `name`; throws the parser's error. Returns why the
    /// compiled renderer cannot read it, or nil (see ``TemplateLibrary/register(_:named:)``).
    @discardableResult
    mutating func register(_ text: String, named name: String) throws -> CompiledTemplate.Unreadable? {
        let unreadable = library.register(try TemplateEscaping.template(text), named: name)
        texts[name] = text
        return unreadable
    }

    /// Whether the template of `name` takes inner content (it names `inner`); nil when there is none.
    package func takesInner(_ name: String) -> Bool? {
        texts[name].map { $0.contains("inner") }
    }

    /// The output of the shortcode `name` with these arguments and inner content; nil when the site
    /// has no template of that name. Throws ``TemplateRenderer/Loop`` when its partials named by values
    /// (`{{>*name}}`) include one another in a loop.
    package func render(name: String, positional: [String], named: [(key: String, value: String)], inner: String?) throws -> String? {
        guard texts[name] != nil else { return nil }
        var values: [String: Any] = ["name": name, "positional": positional,
                                     "named": named.map { ["key": $0.key, "value": $0.value] }]
        for (index, value) in positional.enumerated() { values[String(index)] = value }
        for argument in named { values[argument.key] = argument.value }
        if let inner { values["inner"] = inner }
        return try library.render(values, withTemplate: name)
    }
}
