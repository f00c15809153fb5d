import BlogCore
import Foundation
import Mustache

/// Checks of a theme's templates that make mistakes fail the build instead of rendering empty pages.
enum TemplateCheck {
    /// What swift-mustache's parser error means, as "what was expected".
    static func describe(_ error: Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect?: return "this end tag does not close the section that is open"
        case .unfinishedName?: return "unfinished tag: expected a name and then `}}`"
        case .expectedSectionEnd?: return "unclosed section: expected its end tag `{{/name}}` before the end of the file"
        case .invalidSetDelimiter?: return "invalid set-delimiter tag: expected `{{=<% %>=}}`"
        case .transformAppliedToInheritanceSection?: return "a transform cannot apply to a parent or block tag"
        case .illegalTokenInsideInheritSection?: return "only blocks `{{$name}}...{{/name}}` may be inside a parent tag `{{<name}}`"
        case .textInsideInheritSection?: return "only blocks `{{$name}}...{{/name}}` may be inside a parent tag `{{<name}}`, not text"
        case .invalidConfigVariableSyntax?: return "invalid pragma: expected `{{% NAME: value}}`"
        case .unrecognisedConfigVariable?: return "unknown pragma: expected CONTENT_TYPE"
        case nil: return "invalid template: \(error)"
        }
    }

    /// The warning at `path`, a template the compiled renderer cannot read (``CompiledTemplate/Unreadable``:
    /// another swift-mustache than the one Package.swift pins): its library renders every page through
    /// swift-mustache, with the same bytes, more slowly.
    static func notCompiled(_ unreadable: CompiledTemplate.Unreadable, path: String) -> Diagnostic {
        .warning(path, "this template cannot take the compiled renderer: swift-mustache gave \(unreadable.what) "
            + "(expected the tokens of swift-mustache 2.1.1, the version Package.swift pins); "
            + "its pages are rendered by swift-mustache instead, the same bytes, more slowly")
    }

    /// An error for every partial (`{{>name}}`) or parent (`{{<name}}`) that `exists` doesn't know:
    /// Mustache would render nothing in its place. Dynamic names (`{{>*name}}`) can't be checked,
    /// and nothing is checked after a set-delimiter tag.
    static func unknownPartials(in text: String, path: String, exists: (String) -> Bool) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for tag in TemplateTags.read(text).tags where tag.kind == ">" || tag.kind == "<" {
            let name = tag.name
            if name.hasPrefix("*") || exists(name) { continue }
            diagnostics.append(error(at: tag, in: text, path: path, "unknown partial \"\(name)\": expected a template templates/\(name).mustache"))
        }
        return diagnostics
    }

    /// How many templates may be rendered one inside another (a template, the partials `{{>x}}` and parents
    /// `{{<x}}` in it, theirs…): a longer chain is an error when the theme is loaded, and one that a partial
    /// named by a value (`{{>*name}}`) makes stops the render (``TemplateRenderer/Loop``).
    static let maxPartialDepth = 64

    /// An error for each loop of templates including one another (`{{>a}}` in `a`; `{{>b}}` in `a` and `{{>a}}`
    /// in `b`), at the tag that closes it: Mustache would include them forever, and the build crashed when
    /// the stack ran out. And one for a chain of templates longer than ``maxPartialDepth``.
    ///
    /// A loop is refused wherever its tags are, in a section too. Mustache allows a partial that includes itself
    /// in a section, for data nested as deep as the data goes; but a name a section doesn't find is looked up in
    /// the sections around it (`{{#children}}` in a child without children finds its parent's), so such a
    /// partial runs forever on the first item that lacks the value, and blog's values (a post, its tags, a
    /// site's `params:`) have no tree that needs one.
    ///
    /// `templates` are the texts by name (`post`, `partials/x`), each with the path messages name. A partial or
    /// parent tag in a block that a parent tag fills (`{{<base}}{{$content}}{{>x}}{{/content}}{{/base}}`) is
    /// shown where a template expands that block, so it counts as included by each template that expands a
    /// block of that name. Partials named by values (`{{>*name}}`) and tags after a set-delimiter tag can't be
    /// known here: ``TemplateRenderer`` stops those.
    static func partialLoops(in templates: [String: (path: String, text: String)]) -> [Diagnostic] {
        /// A tag of the template `written` that includes the template `name`.
        typealias Include = (name: String, tag: TemplateTag, written: String)
        var includes: [String: [Include]] = [:]
        var expanders: [String: [String]] = [:]  // by block name, the templates that expand it
        var filled: [(block: String, include: Include)] = []
        for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
            includes[name] = []
            let tags = TemplateTags.read(template.text).tags
            for (tag, open) in zip(tags, TemplateTags.enclosing(tags)) {
                let parent = open.lastIndex { $0.kind == "<" }
                if tag.kind == "$", parent == nil, expanders[tag.name]?.last != name { expanders[tag.name, default: []].append(name) }
                guard tag.kind == ">" || tag.kind == "<", !tag.name.hasPrefix("*"), templates[tag.name] != nil else { continue }
                let include = (name: tag.name, tag: tag, written: name)
                includes[name]!.append(include)
                if let parent, parent + 1 < open.count, open[parent + 1].kind == "$" { filled.append((open[parent + 1].name, include)) }
            }
        }
        for (block, include) in filled {
            for expander in expanders[block] ?? [] { includes[expander]!.append(include) }
        }

        var diagnostics: [Diagnostic] = []
        func report(_ include: Include, _ message: String) {
            let template = templates[include.written]!
            diagnostics.append(error(at: include.tag, in: template.text, path: template.path, message))
        }
        // A walk along the includes from each template in turn, without recursion (a chain may be long): the
        // templates being followed, each with the next of its includes to follow; then, for each template
        // followed to its end, the longest chain from it (in templates) and the include it starts with.
        var following: [(name: String, next: Int)] = []
        var longest: [String: (length: Int, first: Include?)] = [:]
        for root in templates.keys.sorted() where longest[root] == nil {
            following = [(root, 0)]
            while let (name, next) = following.last {
                let list = includes[name]!
                guard next < list.count else {
                    following.removeLast()
                    var best: (length: Int, first: Include?) = (1, nil)
                    for include in list {
                        if let length = longest[include.name]?.length, length + 1 > best.length { best = (length + 1, include) }
                    }
                    longest[name] = best
                    continue
                }
                following[following.count - 1].next += 1
                let include = list[next]
                if let open = following.firstIndex(where: { $0.name == include.name }) {
                    let loop = [name] + following[open...].map(\.name)
                    report(include, "partial includes itself: \(loop.joined(separator: " → ")) (expected templates that never include "
                        + "themselves, directly or through others, in a section or not)")
                } else if longest[include.name] == nil {
                    following.append((include.name, 0))
                }
            }
        }
        if diagnostics.isEmpty, let (root, deepest) = longest.max(by: { ($0.value.length, $1.key) < ($1.value.length, $0.key) }),
           deepest.length > maxPartialDepth, let first = deepest.first {
            var chain = [root]
            while let next = longest[chain.last!]?.first, chain.count <= maxPartialDepth { chain.append(next.name) }
            report(first, "templates included one inside another \(deepest.length) deep: \(chain.joined(separator: " → ")) …; "
                + "expected at most \(maxPartialDepth)")
        }
        return diagnostics
    }

    /// The error of a render that `loop` stopped, at the first partial named by a value (`{{>*name}}`) of the
    /// template that was including the last of the chain, whose text is in `texts` and whose file is `folder` +
    /// name + `.mustache` (at the file when the tag isn't there: in a block another template fills).
    static func error(_ loop: TemplateRenderer.Loop, texts: [String: String], folder: String) -> Diagnostic {
        let name = loop.chain[max(0, loop.chain.count - 2)]
        let path = folder + name + ".mustache", text = texts[name] ?? ""
        guard let tag = TemplateTags.read(text).tags.first(where: { $0.kind == ">" && $0.name.hasPrefix("*") }) else {
            return .error(path, "\(loop)")
        }
        return error(at: tag, in: text, path: path, "\(loop)")
    }

    /// An error at `tag` of `text`, the template at `path`.
    private static func error(at tag: TemplateTag, in text: String, path: String, _ message: String) -> Diagnostic {
        let offset = text.utf8.distance(from: text.startIndex, to: tag.range.lowerBound)
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: text)
        return .error(path, line: line, column: column, message)
    }
}
