import BlogCore
import Foundation

/// What a body transform needs to know about the site.
package struct LiquidContext: Sendable {
    /// `{{ site.baseurl }}`: the base path without trailing slash ("" or "/blog").
    package var baseURL: String
    /// `{{ site.url }}`: scheme+host without trailing slash ("https://example.org"), "" if unknown.
    package var siteURL: String
    /// Resolves a `{% post_url 2010-07-21-name %}` argument (a Jekyll post's file name without extension,
    /// may include a subfolder) to a site URL path (with base path, e.g. "/blog/posts/name/"), nil if unknown.
    var resolvePost: @Sendable (String) -> String?
    /// Resolves a `{% link _posts/2016-07-26-name.md %}` / Hugo `ref`/`relref` argument (a path relative to the
    /// content folder, or a bare file name, or a path like "/news/0.120.0-relnotes/index.md") to a site URL path,
    /// nil if unknown.
    var resolvePath: @Sendable (String) -> String?
    /// Liquid's `site` in Jekyll-form posts: blog.yml's `params:` over a Jekyll `_config.yml`, `data`
    /// from `_data/`, and `baseurl`, `url`, `title`… from blog.yml (see ``LiquidSite``).
    package var site: [String: MetaValue]
    /// The zone dates are shown in (`date` filter).
    package var timeZone: TimeZone
    /// A Hugo shortcode through the site's or the theme's template (`shortcodes/<name>.mustache`); nil
    /// when there is none. Throws an error that says why (as its description) when the template can't be rendered.
    package var renderShortcode: @Sendable (ShortcodeCall) throws -> String?
    /// Whether the site's or the theme's template of a shortcode takes inner content up to a closing
    /// tag; nil when there is no template of that name.
    package var shortcodeTakesInner: @Sendable (String) -> Bool?

    /// Creates a context; by default nothing resolves.
    package init(
        baseURL: String = "",
        siteURL: String = "",
        resolvePost: @escaping @Sendable (String) -> String? = { _ in nil },
        resolvePath: @escaping @Sendable (String) -> String? = { _ in nil },
        site: [String: MetaValue] = [:],
        timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        renderShortcode: @escaping @Sendable (ShortcodeCall) throws -> String? = { _ in nil },
        shortcodeTakesInner: @escaping @Sendable (String) -> Bool? = { _ in nil }
    ) {
        self.renderShortcode = renderShortcode
        self.shortcodeTakesInner = shortcodeTakesInner
        self.baseURL = baseURL
        self.siteURL = siteURL
        self.resolvePost = resolvePost
        self.resolvePath = resolvePath
        self.site = site
        self.timeZone = timeZone
    }
}

/// The Jekyll Liquid tags and Hugo shortcodes that real blogs' posts use, rewritten into plain markdown.
///
/// What is understood everywhere: `{% highlight %}` (to a fenced code block), `{% raw %}`, `{% post_url %}`,
/// `{% link %}`, `{{ site.baseurl }}`, `{{ site.url }}`, Hugo `ref`/`relref` and Hugo's escaped shortcodes
/// (`{{</* x */>}}` shows as `{{< x >}}`). In Jekyll-form posts (given a `page`), the rest of Liquid is run
/// too, as Jekyll runs it before the markdown: ``LiquidScanner`` hands the tags and outputs to
/// ``LiquidTreeBuilder`` and ``LiquidEvaluator``. Anything else is left as written, with one warning per
/// file. Text in code (fenced, indented, inline, highlight) is never touched, except `raw` tags and Hugo
/// escapes, which both generators process everywhere and which authors write precisely so that the code
/// shows as they mean.
package enum Liquid {
    /// Rewrites Jekyll Liquid tags and Hugo shortcodes in `body`; returns the new markdown and warnings.
    /// `path` names the file in messages, `firstLine` is the file line of the body's first line
    /// (messages give FILE lines and columns). With `page` (the post's values, Liquid's `page`), the
    /// body is run as a Liquid template.
    package static func process(_ body: String, path: String, firstLine: Int, context: LiquidContext,
                                page: MetaValue? = nil) -> (String, [Diagnostic]) {
        let result = run(body, path: path, firstLine: firstLine, context: context, page: page, runsLiquid: page != nil)
        return (result.markdown, result.diagnostics)
    }

    /// What ``run(_:path:firstLine:context:page:runsLiquid:)`` makes of a body.
    package struct Output {
        /// The markdown, with marks where `{{< >}}` shortcodes' HTML goes.
        package var markdown: String
        /// Warnings.
        package var diagnostics: [Diagnostic]
        /// The HTML of each mark: put it in the rendered HTML with ``ShortcodeMarks/restore(_:fragments:)``.
        package var fragments: [String]
    }

    /// ``process(_:path:firstLine:context:page:)``, with the post's values (`page`) apart from whether
    /// the body is run as Liquid (`runsLiquid`: Jekyll-form posts), and the shortcodes' HTML apart.
    package static func run(_ body: String, path: String, firstLine: Int, context: LiquidContext,
                            page: MetaValue?, runsLiquid: Bool) -> Output {
        guard needsProcessing(body) else { return Output(markdown: body, diagnostics: [], fragments: []) }
        var scanner = LiquidScanner(Array(body.utf8), path: path, firstLine: firstLine, context: context, interprets: runsLiquid, page: page)
        scanner.run()
        var diagnostics = scanner.diagnostics
        var unsupported = scanner.unsupportedTags
        var output = scanner.out
        if runsLiquid, !scanner.pieces.isEmpty {
            let pieces = trimmed(scanner.pieces + [.text(scanner.out)])
            var builder = LiquidTreeBuilder(pieces)
            let tree = builder.build()
            var variables = context.site.isEmpty ? [:] : ["site": MetaValue.map(context.site)]
            variables["page"] = page ?? .map([:])
            let budget = LiquidEvaluator.budget(forBody: scanner.b.count)
            var evaluator = LiquidEvaluator(pieces: pieces, variables: variables,
                                            site: LiquidFilters.Site(baseURL: context.baseURL, siteURL: context.siteURL, timeZone: context.timeZone),
                                            budget: budget)
            evaluator.run(tree)
            output = evaluator.out
            func source(_ index: Int) -> LiquidTagSource? {
                switch pieces[index] {
                case .tag(let t), .output(let t): return t
                case .text: return nil
                }
            }
            unsupported += (builder.unsupported + evaluator.unsupported).compactMap(source)
            if let first = evaluator.undefined.compactMap({ entry in source(entry.piece).map { ($0, entry.name) } })
                .min(by: { ($0.0.line, $0.0.column) < ($1.0.line, $1.0.column) }) {
                let count = evaluator.undefined.count
                let what = count == 1 ? "1 template value missing (\(first.0.label))" : "\(count) template values missing (\(first.0.label) first)"
                diagnostics.append(.warning(path, line: first.0.line, column: first.0.column,
                    "\(what): `\(first.1)` has no value (`site.x` comes from `params:` in blog.yml or the Jekyll site's _config.yml and _data/, "
                        + "`page.x` from the post's header); an output of it alone is left as written, other uses read it as nil"))
            }
            if let deep = builder.tooDeep, let tag = source(deep) {
                diagnostics.append(.error(path, line: tag.line, column: tag.column,
                    "\(tag.label) is inside \(LiquidParser.maxDepth) other blocks: expected Liquid blocks (if, unless, case, for, capture) nested at most \(LiquidParser.maxDepth) deep"))
            }
            if evaluator.exceeded, let stopped = source(evaluator.stoppedAt ?? pieces.indices.first { source($0) != nil } ?? 0) {
                let why = evaluator.ranOutOfSteps
                    ? "after \(LiquidEvaluator.maxSteps) steps: expected loops that run fewer times (a loop too long?)"
                    : "after making and reading \(budget >> 20) MB (ten times the file's body, at least \(LiquidEvaluator.minimumBudget >> 20) MB): "
                        + "expected filters and loops that make less (a text doubled again and again?)"
                diagnostics.append(.error(path, line: stopped.line, column: stopped.column,
                    "the Liquid in this file stopped at \(stopped.label) \(why)"))
            }
        }
        if let first = unsupported.min(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            let what = unsupported.count == 1 ? "1 template tag left as written (\(first.label))"
                : "\(unsupported.count) template tags left as written (\(first.label) first)"
            diagnostics.append(.warning(path, line: first.line, column: first.column,
                "\(what): blog does not run Liquid or Hugo shortcodes other than \(runsLiquid ? interpretedList : supportedList)"))
        }
        let markdown = output == scanner.b ? body : String(decoding: output, as: UTF8.self)
        return Output(markdown: markdown, diagnostics: diagnostics, fragments: scanner.fragments)
    }

    /// `pieces` with Liquid's whitespace control applied: the whitespace (line breaks included) before a
    /// `{%-`/`{{-` and after a `-%}`/`-}}` goes.
    static func trimmed(_ pieces: [LiquidPiece]) -> [LiquidPiece] {
        var pieces = pieces
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        for index in pieces.indices {
            let source: LiquidTagSource
            switch pieces[index] {
            case .tag(let t), .output(let t): source = t
            case .text: continue
            }
            if source.trimBefore, index > 0, case .text(var text) = pieces[index - 1] {
                while let last = text.last, isSpace(last) { text.removeLast() }
                pieces[index - 1] = .text(text)
            }
            if source.trimAfter, index + 1 < pieces.count, case .text(let text) = pieces[index + 1] {
                pieces[index + 1] = .text(Array(text.drop(while: isSpace)))
            }
        }
        return pieces
    }

    /// Quick check so posts without any `{%` or `{{` skip the work.
    package static func needsProcessing(_ body: String) -> Bool {
        needsProcessing(bytes: body.utf8)
    }

    /// The same in bytes (a file's, not made a `String`).
    package static func needsProcessing<Bytes: Sequence<UInt8>>(bytes: Bytes) -> Bool {
        var afterBrace = false
        for byte in bytes {
            if afterBrace && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "%")) { return true }
            afterBrace = byte == UInt8(ascii: "{")
        }
        return false
    }

    /// The tags and outputs that `process` understands, as named in the warning about the others.
    static let supportedList = "highlight, raw, post_url, link, site.baseurl, site.url, ref, relref, "
        + "figure, youtube, gist, param and the site's shortcodes/"
    /// The same in Jekyll-form posts, where Liquid is run.
    static let interpretedList = "assign, capture, if, unless, case, for, comment, echo, highlight, raw, post_url, link, "
        + "their filters (see docs/content.md), ref, relref, figure, youtube, gist, param and the site's shortcodes/"
}
