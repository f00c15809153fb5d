@testable import BlogRender
import BlogSite
import Foundation
@testable import Mustache
import XCTest

/// ``TemplateLibrary`` renders pages from its compiled templates (``CompiledTemplate``,
/// ``TemplateRenderer``) instead of swift-mustache: the String must be exactly swift-mustache's,
/// for every template and every value. Generated templates and values compare both renders; the
/// default theme must compile; lambdas fall back to swift-mustache; corners found on the way are
/// pinned by name.
final class CompiledTemplatesTests: XCTestCase {
    // MARK: - Generated templates against swift-mustache

    /// How many libraries the generator makes, and how many value trees each is rendered with.
    static let generatedLibraries = 3000
    static let valuesPerLibrary = 3
    /// The seed of the first library; library `i` uses `baseSeed + i` (see ``GeneratedCase/init(seed:)``).
    static let baseSeed: UInt64 = 0x5EED_B106_0000_0000

    func testGeneratedTemplatesRenderAsSwiftMustache() throws {
        var stats: [String: Int] = [:]
        var skipped = 0
        var compared = 0
        var mismatches = 0
        var mismatchesWithOptionalBool = 0
        var reports: [String] = []
        for index in 0..<Self.generatedLibraries {
            let seed = Self.baseSeed &+ UInt64(index)
            var generated = GeneratedCase(seed: seed)
            guard let library = generated.library() else {
                skipped += 1
                continue
            }
            guard library.isCompiled else {
                XCTFail("seed \(hex(seed)): a template did not compile\n\(generated.templatesDescription)")
                continue
            }
            stats.merge(generated.templateFeatures(library)) { $0 + $1 }
            for _ in 0..<Self.valuesPerLibrary {
                var kinds: Set<String> = []
                let values = generated.values.root(&kinds)
                let expected = library.mustache.render(values, withTemplate: "t0")
                let compiled = try library.renderCompiled(values, withTemplate: "t0")
                // The same render into a String (a page whose markers are filled, or swift-mustache's when the
                // compiled renderer leaves it).
                let viaString = try library.render(values, withTemplate: "t0")
                if viaString != expected {
                    mismatches += 1
                    if reports.count < 8 {
                        reports.append("seed \(hex(seed)): rendered into a String: \(viaString.map(\.debugDescription) ?? "nil")")
                    }
                }
                compared += 1
                for kind in kinds { stats["value: " + kind, default: 0] += 1 }
                if expected?.isEmpty == false { stats["non-empty output", default: 0] += 1 }
                if compiled == nil || compiled != expected {
                    mismatches += 1
                    if kinds.contains("optional bool") { mismatchesWithOptionalBool += 1 }
                    if reports.count < 8 {
                        reports.append("""
                            seed \(hex(seed)) (library \(index))
                            \(generated.templatesDescription)
                            values: \(Describe.value(values))
                            swift-mustache: \(expected.map(\.debugDescription) ?? "nil")
                            compiled:       \(compiled.map(\.debugDescription) ?? "nil")
                            """)
                    }
                }
            }
        }
        XCTAssertEqual(mismatches, 0, "\(mismatches) of \(compared) renders differ from swift-mustache (\(mismatchesWithOptionalBool) "
            + "of them have an Optional<Bool> among their values, see testAnOptionalBoolInADictionary); the first ones:\n\n"
            + reports.joined(separator: "\n\n"))
        // The generator must have made what it is meant to make: templates that parse, and of each kind.
        XCTAssertLessThan(skipped, Self.generatedLibraries / 50, "too many generated templates don't parse")
        XCTAssertGreaterThan(compared, Self.generatedLibraries * Self.valuesPerLibrary * 9 / 10)
        let minimums: [String: Int] = [
            "partial": 1500, "indented partial": 400, "inline partial": 400, "dynamic partial": 200,
            "inheritance": 400, "indented inheritance": 100, "nested inheritance": 60, "block": 800, "indented block": 150,
            "section": 2000, "inverted section": 1000, "sequence position": 800, "transform": 1500, "nested transform": 200,
            "dotted name": 1000, "top-only name": 400, "dot": 600, "unescaped": 1000, "content type": 300,
            "blog pragma": 1000, "set delimiters": 300, "crlf": 1000, "html special in text": 2000,
            "value: optional": 2000, "value: optional bool": 500, "value: record": 800, "value: renderable": 1000,
            "value: null renderable": 400, "value: representation": 1000, "value: parent": 800, "value: set": 800,
            "value: mixed array": 1500, "value: empty array": 1500, "value: strings": 1500, "value: dictionaries": 3000,
            "value: nsnull": 300, "value: marker": 300, "value: template record": 1000, "non-empty output": 5000,
        ]
        for (feature, minimum) in minimums.sorted(by: { $0.key < $1.key }) {
            XCTAssertGreaterThanOrEqual(stats[feature, default: 0], minimum, "generated cases with \(feature)")
        }
        print("CompiledTemplatesTests: \(Self.generatedLibraries) libraries (\(skipped) skipped), \(compared) renders compared, "
            + "\(mismatches) differ; " + stats.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    }

    // MARK: - The default theme

    func testTheDefaultThemeCompiles() throws {
        let site = try TempSite()
        defer { site.remove() }
        let theme = try Theme.load(name: "default", siteRoot: site.root)
        XCTAssertTrue(theme.library.isCompiled, "a template of the default theme did not compile: swift-mustache's tokens changed?")
        XCTAssertTrue(theme.pageLibrary.isCompiled)
        if let summaries = theme.listSummaries {
            XCTAssertTrue(summaries.listLibrary.isCompiled)
            XCTAssertTrue(summaries.pageLibrary.isCompiled)
        }
        XCTAssertFalse(theme.templateTexts.isEmpty)
        XCTAssertEqual(theme.warnings.map(\.description), [], "loading the default theme warns of nothing, a template the compiled renderer cannot read included")
        for (name, text) in theme.templateTexts.sorted(by: { $0.key < $1.key }) {
            XCTAssertNoThrow(try CompiledTemplate(try TemplateEscaping.template(text)), "\(name) did not compile")
            // Rendered with nothing, and with generated values: the same text as swift-mustache's.
            XCTAssertEqual(try theme.library.renderCompiled([String: Any](), withTemplate: name),
                           theme.library.mustache.render([String: Any](), withTemplate: name), name)
            var values = ValueGenerator(rng: SplitMix64(seed: 7), leaf: "post-meta")
            for _ in 0..<5 {
                var kinds: Set<String> = []
                let value = values.root(&kinds)
                XCTAssertEqual(try theme.library.renderCompiled(value, withTemplate: name),
                               theme.library.mustache.render(value, withTemplate: name), "\(name) with \(Describe.value(value))")
            }
        }
        // The fixture site's pages with the values blog gives them (as SiteRenderer picks the template).
        let fixture = RenderFixture.site()
        let context = TemplateContext(site: fixture)
        XCTAssertFalse(fixture.pages.isEmpty)
        for page in fixture.pages {
            var (template, values) = context.page(page)
            if template == "page", !theme.hasPageTemplate { template = "post" }
            if let fallback = theme.fallback(for: template) {
                template = fallback
                if fallback == "tags" { values["tags"] = values["terms"] }
            }
            let record = values.record
            let compiled = try theme.library.renderCompiled(record, withTemplate: template)
            XCTAssertNotNil(compiled, page.outputPath)
            let theirs = theme.library.mustache.render(record, withTemplate: template)
            XCTAssertEqual(compiled, theirs, page.outputPath)
            // A page's file: the bytes of the same render.
            XCTAssertEqual(try theme.library.renderData(record, withTemplate: template), theirs.map { Data($0.utf8) }, page.outputPath)
            // The page's record renders as the dictionary of the same values.
            XCTAssertEqual(theme.library.mustache.render(record.dictionary, withTemplate: template), theirs, page.outputPath)
        }
    }

    /// The term records (the tags index's `tags`, a term page's `terms`) hold `count` and `linked` set typed: they read
    /// back as an `Int` and a `Bool`, and render as the same values set through `Any` and as their dictionaries.
    func testTermRecordsSetTypedRenderAsTheValuesThroughAny() throws {
        let site = RenderFixture.site()
        let context = TemplateContext(site: site)
        let page = try XCTUnwrap(site.pages.first { page in
            if case .termIndex(.tag) = page.kind { return true }
            return false
        })
        let records = try XCTUnwrap(context.page(page).values["tags"] as? [TemplateRecord])
        XCTAssertEqual(records.count, site.tags.count)
        XCTAssertFalse(records.isEmpty)
        for (record, group) in zip(records, site.tags) {
            XCTAssertEqual(record["count"] as? Int, group.posts.count, group.tag.name)
            XCTAssertEqual(record["linked"] as? Bool, true, group.tag.name)
        }
        let throughAny = records.map { record -> TemplateRecord in
            var builder = TemplateRecord.Builder(record.layout)
            record.forEach { key, value in builder[key] = value }
            return builder.record
        }
        var library = TemplateLibrary()
        library.register(try TemplateEscaping.template(
            "{{#tags}}{{name}}|{{slug}}|{{href}}|{{count}}|{{#count}}n{{/count}}|{{#linked}}yes{{/linked}}{{^linked}}no{{/linked}};{{/tags}}"),
                         named: "t")
        let typed = try XCTUnwrap(library.renderCompiled(["tags": records] as [String: Any], withTemplate: "t"))
        XCTAssertEqual(try library.renderCompiled(["tags": throughAny] as [String: Any], withTemplate: "t"), typed)
        XCTAssertEqual(library.mustache.render(["tags": records.map { $0.dictionary }] as [String: Any], withTemplate: "t"), typed)
        XCTAssertTrue(typed.contains("|\(site.tags[0].posts.count)|n|yes;"), typed)
    }

    /// A page's values are a record in one layout for every page; its digest (``PageInputs``, what `blog serve` compares)
    /// counts the values by their keys: the same values in another layout, and a page's values with a key its template
    /// does not read changed, give the same digest; a value it reads changed gives another.
    func testAPagesDigestIsOfItsValuesWhateverTheirSlots() throws {
        let site = RenderFixture.site()
        let context = TemplateContext(site: site, digests: true, pageKeys: ["__blog_shared_x"])
        var checked = 0
        for page in site.pages {
            let (template, values) = context.page(page)
            let record = values.record
            XCTAssertTrue(record.layout === context.pageLayout, page.outputPath)
            let digest = context.inputs(of: page, template: template, values: record, reads: nil)
            // The same keys and values, in slots of another order.
            let reordered = TemplateRecord(record.dictionary)
            XCTAssertEqual(Set(reordered.layout.keys), Set(record.dictionary.keys))
            XCTAssertEqual(context.inputs(of: page, template: template, values: reordered, reads: nil), digest, page.outputPath)
            var other = values
            other["__blog_shared_x"] = "text"
            XCTAssertEqual(context.inputs(of: page, template: template, values: other.record, reads: ["page", "config"]),
                           context.inputs(of: page, template: template, values: record, reads: ["page", "config"]), page.outputPath)
            XCTAssertNotEqual(context.inputs(of: page, template: template, values: other.record, reads: nil), digest, page.outputPath)
            checked += 1
        }
        XCTAssertEqual(checked, site.pages.count)
        XCTAssertGreaterThan(checked, 3)
    }

    // MARK: - A page's bytes

    /// ``TemplateLibrary/renderData(_:withTemplate:)`` (a page's file) gives the UTF-8 of swift-mustache's text:
    /// a page far bigger than the last one of its template (its memory grows from the last page's size), one
    /// smaller, an empty one, multibyte and escaped text, an indented partial (rendered in pieces), and a value
    /// left to swift-mustache (a lambda).
    func testAPagesBytesAreSwiftMustachesText() throws {
        var library = TemplateLibrary()
        let page = "<p>{{title}}</p>\n{{#items}}  {{>item}}\n{{/items}}{{{raw}}}{{#lambda}}x{{/lambda}}"
        library.register(try TemplateEscaping.template(page), named: "page")
        library.register(try TemplateEscaping.template("<li>{{name}}</li>\r\n<i>{{{name}}}</i>\n"), named: "item")
        XCTAssertTrue(library.isCompiled)
        func items(_ count: Int, _ name: String) -> [[String: Any]] { (0..<count).map { ["name": "\(name) \($0) <é&'\">"] } }
        let lambda = MustacheLambda { (text: String) in "[" + text + "]" }
        let cases: [(String, [String: Any])] = [
            ("small", ["title": "Small", "items": items(2, "a")]),
            ("big", ["title": "Big é", "items": items(3000, "ünïcödé"), "raw": String(repeating: "<b>ß</b>", count: 20_000)]),
            ("small again", ["title": "x", "items": items(1, "b"), "raw": "🙂"]),
            ("empty", ["items": [[String: Any]]()]),
            ("lambda", ["title": "L", "items": items(2, "c"), "lambda": lambda]),
        ]
        for (name, values) in cases {
            let theirs = try XCTUnwrap(library.mustache.render(values, withTemplate: "page"), name)
            XCTAssertEqual(try library.renderData(values, withTemplate: "page"), Data(theirs.utf8), name)
            XCTAssertEqual(try library.renderCompiled(values, withTemplate: "page"), values["lambda"] == nil ? theirs : nil, name)
            XCTAssertEqual(try library.render(values, withTemplate: "page"), theirs, name)
        }
        XCTAssertGreaterThan(try XCTUnwrap(library.renderData(cases[1].1, withTemplate: "page")).count, 400_000)
        XCTAssertNil(try library.renderData([String: Any](), withTemplate: "missing"))
    }

    // MARK: - Lambdas fall back to swift-mustache

    func testLambdasAndTemplateValuesFallBackToSwiftMustache() throws {
        let sources = [
            "section": "[{{#wrapped}}{{name}} is <b>{{/wrapped}}]",
            "variable": "[{{lambda}}|{{{lambda}}}|{{&lambda}}]",
            "through": "[{{lambda.name}}|{{#items}}{{wrapped}}{{/items}}]",
            "list": "{{#items}}<{{#wrapped}}{{name}}{{/wrapped}}>{{/items}}",
            "partial": "a\n  {{>list}}\nb",
            "template": "[{{inner}}]",
        ]
        var library = TemplateLibrary()
        for (name, text) in sources {
            library.register(try TemplateEscaping.template(text), named: name)
        }
        XCTAssertTrue(library.isCompiled)
        let wrapped = MustacheLambda { (text: String) in "<i>" + text + "</i>" }
        let lambda = MustacheLambda { () in "x & y" }
        let values: [String: Any] = [
            "name": "Ann & Bob", "wrapped": wrapped, "lambda": lambda,
            "items": [["name": "one"], ["name": "<two>"]] as [[String: Any]],
            "inner": try MustacheTemplate(string: "{{name}}!"),
        ]
        for name in sources.keys.sorted() {
            XCTAssertNil(try library.renderCompiled(values, withTemplate: name), "\(name): a lambda or a template is left to swift-mustache")
            let expected = library.mustache.render(values, withTemplate: name)
            XCTAssertNotNil(expected)
            XCTAssertEqual(try library.render(values, withTemplate: name), expected, name)
        }
        XCTAssertEqual(try library.render(values, withTemplate: "section"), "[<i>Ann &amp; Bob is <b></i>]")
        XCTAssertEqual(try library.render(values, withTemplate: "template"), "[Ann &amp; Bob!]")
        // A lambda the template never reaches does not stop the compiled render.
        XCTAssertEqual(try library.renderCompiled(["name": "n", "lambda": lambda, "items": [[String: Any]]()], withTemplate: "list"), "")
        // Nor does one in an inverted section, which swift-mustache never calls.
        var inverted = TemplateLibrary()
        inverted.register(try MustacheTemplate(string: "[{{^lambda}}none{{/lambda}}]"), named: "t")
        XCTAssertEqual(try inverted.renderCompiled(["lambda": lambda], withTemplate: "t"), "[]")
        XCTAssertEqual(inverted.mustache.render(["lambda": lambda], withTemplate: "t"), "[]")
        // A template that does not compile makes every render swift-mustache's: there is none here,
        // but a missing template is nil both ways.
        XCTAssertNil(try library.renderCompiled(values, withTemplate: "missing"))
        XCTAssertNil(try library.render(values, withTemplate: "missing"))
    }

    // MARK: - A template the compiled renderer cannot read

    /// swift-mustache 2.1.1's parser gives no token the compiled renderer does not know (the generated
    /// templates above all compile), but another version could: a template with such a token is rendered
    /// by swift-mustache, the same text, and registering it says why, which a theme load prints as a
    /// warning naming the file. The token here is a block definition outside a parent tag, which the
    /// parser never makes; swift-mustache never reaches it (the section is empty), so the page is whole.
    func testATemplateTheCompiledRendererCannotReadIsRenderedBySwiftMustacheWithAWarning() throws {
        let block = MustacheTemplate([.text("never")], text: "never")
        let template = MustacheTemplate([
            .text("<h1>"), .variable(name: "title"), .text("</h1>\n"),
            .section(name: "missing", template: MustacheTemplate([.blockDefinition(name: "b", template: block)], text: "")),
            .text("{{>partial}}: "), .partial("partial", indentation: nil, inherits: nil),
        ], text: "")
        var library = TemplateLibrary()
        XCTAssertNil(library.register(try MustacheTemplate(string: "<p>{{title}}</p>"), named: "partial"))
        XCTAssertTrue(library.isCompiled)
        let unreadable = try XCTUnwrap(library.register(template, named: "post"))
        XCTAssertEqual(unreadable.what, "a \"blockDefinition\" token, which it does not know")
        XCTAssertFalse(library.isCompiled)
        let values: [String: Any] = ["title": "Ann & Bob"]
        // Every template of the library, the one that compiled too, is now swift-mustache's to render.
        XCTAssertNil(try library.renderCompiled(values, withTemplate: "post"))
        XCTAssertNil(try library.renderCompiled(values, withTemplate: "partial"))
        XCTAssertEqual(try library.render(values, withTemplate: "post"), "<h1>Ann &amp; Bob</h1>\n{{>partial}}: <p>Ann &amp; Bob</p>")
        XCTAssertEqual(try library.render(values, withTemplate: "partial"), "<p>Ann &amp; Bob</p>")
        XCTAssertEqual(TemplateCheck.notCompiled(unreadable, path: "themes/mine/templates/post.mustache").description,
                       "themes/mine/templates/post.mustache:1:1: warning: this template cannot take the compiled renderer: "
                           + "swift-mustache gave a \"blockDefinition\" token, which it does not know (expected the tokens of "
                           + "swift-mustache 2.1.1, the version Package.swift pins); its pages are rendered by swift-mustache "
                           + "instead, the same bytes, more slowly")
        // A token of a known kind laid out otherwise, and one that is not an enum case, are named as such.
        enum OtherToken { case text(Int) }
        for (token, what) in [(OtherToken.text(1) as Any, "a \"text\" token laid out otherwise"), (1, "a token that is not an enum case")] {
            do {
                _ = try CompiledNode(token: token)
                XCTFail("\(token) compiled")
            } catch {
                XCTAssertEqual(error.what, what)
            }
        }
    }

    // MARK: - Corners, each against swift-mustache and its exact text

    /// Renders `templates` (the first is rendered) with `values` both ways; checks both give `expected`.
    private func assertRenders(_ templates: [(String, String)], _ values: Any, _ expected: String, pragma: Bool = false,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        var library = TemplateLibrary()
        for (name, text) in templates {
            library.register(pragma ? try TemplateEscaping.template(text) : try MustacheTemplate(string: text), named: name)
        }
        XCTAssertTrue(library.isCompiled, file: file, line: line)
        let root = templates[0].0
        let theirs = library.mustache.render(values, withTemplate: root)
        XCTAssertEqual(theirs, expected, "swift-mustache", file: file, line: line)
        XCTAssertEqual(try library.renderCompiled(values, withTemplate: root), theirs, "compiled", file: file, line: line)
        XCTAssertEqual(try library.render(values, withTemplate: root), theirs, "compiled into a String", file: file, line: line)
        XCTAssertEqual(try library.renderData(values, withTemplate: root), theirs.map { Data($0.utf8) }, "compiled into bytes",
                       file: file, line: line)
    }

    func testAnIndentedStandalonePartialIndentsEachOfItsLines() throws {
        try assertRenders([("t", "<ul>\n  {{>p}}\n</ul>\n"), ("p", "<li>{{a}}</li>\n<li>\n{{b}}\n</li>\n")],
                          ["a": "x\ny", "b": "<z>"] as [String: Any],
                          "<ul>\n  <li>x\ny</li>\n  <li>\n  &lt;z&gt;\n  </li>\n</ul>\n")
        // Nested: indentations add up; an empty line of the partial is indented too (swift-mustache
        // indents any non-empty piece that follows a line feed, "\n" included).
        try assertRenders([("t", "\t{{>p}}\n"), ("p", "p1\n\n {{>q}}\np2"), ("q", "q1\nq2\n")], [String: Any](),
                          "\tp1\n\t\n\t q1\n\t q2\n\tp2")
    }

    func testAPartialsCRLFLinesAreNotIndented() throws {
        // swift-mustache indents after a "\n" Character only; "\r\n" is one Character.
        try assertRenders([("t", "  {{>p}}\r\n"), ("p", "a\r\nb\r\nc\nd\n")], [String: Any](), "  a\r\nb\r\nc\n  d\n")
    }

    func testASectionOverAnEmptyListInsideAnInvertedSection() throws {
        try assertRenders([("t", "{{^none}}[{{#items}}<{{.}}>{{/items}}|{{^items}}empty{{/items}}|{{count(items)}}]{{/none}}")],
                          ["items": [String]()] as [String: Any], "[|empty|0]")
        // The inverted section puts the empty list on the stack: `.` is the list.
        try assertRenders([("t", "{{^items}}{{count(.)}}{{empty(.)}}{{/items}}")], ["items": [Any]()] as [String: Any], "0true")
    }

    func testDotInAListOfStrings() throws {
        try assertRenders([("t", "{{#list}}{{.}}{{^last()}}, {{/last()}}{{/list}}|{{#reversed(list)}}{{{.}}}{{/reversed(list)}}")],
                          ["list": ["a&b", "é", "<c>"]] as [String: Any], "a&amp;b, é, &lt;c&gt;|<c>éa&b", pragma: true)
    }

    func testSequencePositionsReachOnlyTheInnermostList() throws {
        try assertRenders([("t", "{{#rows}}{{index()}}:{{#cells}}{{index()}}{{first()}}{{/cells}};{{#name}}{{index()}}{{/name}}{{#odd()}}odd{{/odd()}}{{/rows}}")],
                          ["rows": [["cells": [1, 2], "name": "n"], ["cells": [3]]]] as [String: Any],
                          "0:0true1false;1:0true;odd")
        // A partial or a dictionary section starts without a position; a true Bool keeps it.
        try assertRenders([("t", "{{#list}}{{>p}}{{#.}}{{index()}}{{/.}}{{#flag}}{{index()}}{{/flag}}{{/list}}"), ("p", "({{index()}})")],
                          ["list": [["a": 1], ["a": 2]], "flag": true] as [String: Any], "()0()1")
    }

    func testInheritanceWithIndentedBlocks() throws {
        try assertRenders([
            ("t", "<body>\n  {{<parent}}\n  {{$main}}\n    one\n    two\n  {{/main}}\n  {{/parent}}\n</body>\n"),
            ("parent", "<main>\n  {{$main}}default{{/main}}\n</main>\n{{$foot}}\n  foot\n{{/foot}}\n"),
        ], [String: Any](), "<body>\n  <main>\n    one\n    two\n  \n  </main>\n    foot\n</body>\n")
    }

    func testNestedInheritanceTheOuterOverrideWins() throws {
        try assertRenders([
            ("t", "{{<mid}}{{$a}}T{{/a}}{{/mid}}"),
            ("mid", "{{<base}}{{$a}}M{{/a}}{{$b}}M{{/b}}{{/base}}"),
            ("base", "[{{$a}}A{{/a}}|{{$b}}B{{/b}}|{{$c}}C{{/c}}]"),
        ], [String: Any](), "[T|M|C]")
    }

    func testContentTypesAndPartials() throws {
        // TEXT until the partial, which starts over with HTML; back in the template, TEXT again.
        try assertRenders([("t", "{{a}}{{%CONTENT_TYPE:TEXT}}{{a}}{{>p}}{{a}}{{#list}}{{a}}{{/list}}"), ("p", "({{a}})")],
                          ["a": "<&>", "list": [["a": "\"'"]]] as [String: Any], "&lt;&amp;&gt;<&>(&lt;&amp;&gt;)<&>\"'", pragma: true)
    }

    func testDynamicPartialsAndSetDelimiters() throws {
        try assertRenders([("t", "{{=<% %>=}}<%>*name%>|<%#list%><%>*.%><%/list%>|<%{name%>}"), ("p", "P"), ("q", "Q")],
                          ["name": "p", "list": ["q", "missing", "p"]] as [String: Any], "P|QP|p")
    }

    func testCustomValues() throws {
        let values: [String: Any] = [
            "record": GeneratedRecord(a: "<a>", b: 2, c: false, items: ["x", "y"], s: nil, n: ["a": "inner"]),
            "shown": GeneratedRenderable("<shown>", isNull: false), "null": GeneratedRenderable("<null>", isNull: true),
            "rep": GeneratedRepresentation(representation: ["a": "represented"] as [String: Any]),
            "gone": GeneratedRepresentation(representation: nil), "box": GeneratedParent(children: ["a": "boxed", "b": 3]),
            "set": Set(["one"]), "some": Optional("s") as Any, "none": String?.none as Any, "nsnull": NSNull(),
        ]
        try assertRenders([("t", """
            {{record.a}}{{#record}}{{b}}{{c}}{{#items}}{{.}}{{/items}}{{^s}}-{{/s}}{{n.a}}{{/record}}|\
            {{shown}}{{#shown}}in{{/shown}}{{null}}{{#null}}no{{/null}}{{^null}}yes{{/null}}|\
            {{rep.a}}{{#rep}}{{a}}{{/rep}}{{gone}}{{^gone}}gone{{/gone}}|{{box.a}}{{#box}}{{b}}{{/box}}|\
            {{#set}}{{.}}{{/set}}{{count(set)}}|{{some}}{{#some}}{{.}}{{/some}}{{none}}{{#none}}?{{/none}}|{{nsnull}}{{^nsnull}}n{{/nsnull}}
            """)], values, "&lt;a&gt;2falsexy-inner|&lt;shown&gt;in&lt;null&gt;yes|representedrepresentedgone|boxed3|one1|ss"
                + "nil?|n")
    }

    /// An optional Bool stored as `Any` (in a dictionary, an `[Any]`, a representation):
    /// swift-mustache's `case let bool as Bool` looks through the optional, so `false` hides the
    /// section and shows the inverted one, and `true` renders the section without pushing a value.
    /// The compiled renderer checks `type(of:) == Bool.self`, which an `Optional<Bool>` is not.
    func testAnOptionalBoolInADictionary() throws {
        let values: [String: Any] = ["no": Bool?.some(false) as Any, "yes": Bool?.some(true) as Any]
        try assertRenders([("t", "[{{#no}}A{{/no}}|{{^no}}B{{/no}}|{{#yes}}C{{/yes}}|{{^yes}}D{{/yes}}|{{no}}]")], values,
                          "[|B|C||false]")
    }

    /// A true optional Bool: swift-mustache renders the section in place (the list's position and
    /// top of the stack stay); the compiled renderer pushes the optional and drops the position.
    func testATrueOptionalBoolKeepsTheSequencePosition() throws {
        let values: [String: Any] = ["list": [["yes": Bool?.some(true) as Any, "name": "n"]] as [[String: Any]]]
        try assertRenders([("t", "{{#list}}{{#yes}}{{index()}}{{name}}{{/yes}}{{/list}}")], values, "0n")
    }

    func testEnumeratedDictionariesAndTransformsOnOptionals() throws {
        try assertRenders([("t", "{{#enumerated(d)}}{{key}}={{value}}{{/enumerated(d)}}|{{uppercased(o)}}|{{#empty(o)}}e{{/empty(o)}}")],
                          ["d": ["k": "<v>"], "o": String?.some("é") as Any] as [String: Any], "k=&lt;v&gt;|É|")
    }

    /// A post's part rendered once (``RenderedOnce``), read by its type: printed escaped and as it is (its bytes
    /// written as they are, into bytes and into a `String`), in a section and an inverted one, with a transform and a name below it, as swift-mustache renders it.
    func testATextRenderedOnceRendersAsSwiftMustache() throws {
        let table = PostTable()
        table.posts = [TemplateRecord(["title": "R & D"]), TemplateRecord(["title": "é'"])]
        let bold: (Any) -> [UInt8] = { Array("<b>\(($0 as! TemplateRecord)["title"]!)</b>".utf8) }
        let values: [String: Any] = ["once": RenderedOnce(bold, post: 0, of: table),
                                     "list": [["once": RenderedOnce({ Array("\(($0 as! TemplateRecord)["title"]!)".utf8) }, post: 1, of: table)]] as [[String: Any]]]
        try assertRenders([("t", "{{once}}|{{{once}}}|{{#once}}in{{/once}}|{{^once}}out{{/once}}|{{uppercased(once)}}|{{once.x}}|"
                                 + "{{#list}}{{once}}{{{once}}}{{/list}}")], values, "&lt;b&gt;R &amp; D&lt;/b&gt;|<b>R & D</b>|in||||é&#39;é'")
    }

    /// A value made when read (``LazyValue``: a post's `meta`, `toc`, `headings`), below a name, opened and
    /// transformed, and the transforms of blog's own values (lists of dictionaries, dictionaries, strings,
    /// numbers, a list's positions), which the renderer calls without a protocol cast, as swift-mustache renders them;
    /// and names looked up past a string, a number or a list on the stack, which have no children.
    func testALazyValueAndTransformsOfBlogsValuesRenderAsSwiftMustache() throws {
        let values: [String: Any] = [
            "lazy": LazyValue { ["a": "<x>", "list": [["n": 1]] as [[String: Any]]] as [String: Any] },
            "list": [["n": 1], ["n": 2]] as [[String: Any]], "s": "ab", "n": 4, "d": ["k": "v"] as [String: Any],
        ]
        try assertRenders([("t", "{{lazy.a}}|{{#lazy}}{{a}}{{/lazy}}|{{count(lazy)}}|{{^empty(lazy.list)}}L{{/empty(lazy.list)}}|"
                                 + "{{#first(list)}}{{n}}{{/first(list)}}|{{count(list)}}|{{uppercased(s)}}|{{plusone(n)}}|{{count(d)}}|"
                                 + "{{#list}}{{#first()}}F{{/first()}}{{index()}}{{/list}}|{{sorted(list)}}x|"
                                 + "{{#s}}{{n}}{{x}}{{/s}}|{{#list}}{{#n}}{{s}}{{/n}}{{/list}}|{{#n}}{{#list}}{{#first()}}{{n}}{{/first()}}{{/list}}{{/n}}")],
                          values, "&lt;x&gt;|&lt;x&gt;|2|L|1|2|AB|5|1|F01|x|4|abab|1")
    }

    /// A ``TemplateRecord`` (a post's values) renders as the dictionary of the same values, both ways: names found
    /// at their slot, a key without a value absent (found further down the stack), nested records and lists of them
    /// (`.` of a record a section or a list put on the stack, which the renderer holds without a reference count),
    /// dotted names into and past them, transforms, and a name numbered only after the layout was made. Its digest
    /// (``PageInputs``) is the dictionary's.
    func testATemplateRecordRendersAsTheDictionaryOfItsValues() throws {
        let layout = RecordLayout(keys: ["title", "url", "tags", "missing", "inner", "n"])
        func record(_ values: [String: Any]) -> TemplateRecord {
            var builder = TemplateRecord.Builder(layout)
            for (key, value) in values { builder[key] = value }
            return builder.record
        }
        let tags: [[String: Any]] = [["name": "a<b"], ["name": "c"]]
        let inner: [String: Any] = ["title": "Inner", "n": 0]
        let post: [String: Any] = ["title": "T & U", "url": "/t/", "tags": tags, "inner": record(inner), "n": 2]
        let posts = [record(post), record(["title": "Second", "url": "/s/"])]
        let template = "{{#post}}{{title}}|{{{title}}}|{{url}}|{{missing}}|{{#tags}}{{name}}{{^last()}},{{/last()}}{{/tags}}|"
            + "{{inner.title}}|{{inner.n}}|{{#inner}}{{title}}{{url}}{{/inner}}|{{count(.)}}|{{plusone(n)}}|{{nowhere.x}}"
            + "|{{post.title}}|{{title.x}}|{{#missing}}M{{/missing}}{{^missing}}m{{/missing}}|{{^inner}}I{{/inner}}{{/post}}"
            + "|{{#posts}}{{title}}{{#first()}}!{{/first()}}{{url}}{{n}}{{/posts}}|{{count(posts)}}{{^empty(posts)}}+{{/empty(posts)}}"
            + "|{{#first(posts)}}{{title}}{{/first(posts)}}|{{#enumerated(post)}}{{/enumerated(post)}}|{{#sorted(post)}}{{key}};{{/sorted(post)}}"
            + "|{{#posts}}{{count(.)}}{{#.}}{{title}}{{/.}}{{/posts}}"
        let expected = "T &amp; U|T & U|/t/|fallback|a&lt;b,c|Inner|0|Inner/t/|5|3||T &amp; U||M"
            + "||Second!/s/fallback-n|1+|Second||inner;n;tags;title;url;|2Second"
        // `missing` and `n` are not in the second post: found on the page below it.
        let page: [String: Any] = ["post": posts[0], "posts": [posts[1]], "missing": "fallback", "n": "fallback-n"]
        try assertRenders([("t", template)], page, expected)
        // The same values as dictionaries, through the renderers' dictionary paths: the same text.
        let dictionaries: [String: Any] = ["post": post.merging(["inner": inner]) { $1 }, "posts": [posts[1].dictionary],
                                           "missing": "fallback", "n": "fallback-n"]
        try assertRenders([("t", template)], dictionaries, expected)
        // A name no template had when the layout was made, and one no layout holds.
        let late = "late" + String(UInt64.random(in: 0...UInt64.max))
        let lateLayout = RecordLayout(keys: [late])
        var builder = TemplateRecord.Builder(lateLayout)
        builder[late] = "found"
        try assertRenders([("t", "{{\(late)}}|{{#r}}{{\(late)}}{{title}}{{/r}}|{{r.\(late)}}|{{#post}}{{\(late)}}{{/post}}")],
                          ["r": builder.record, "title": "below", "post": posts[0]] as [String: Any], "|foundbelow|found|")
        // Digests: the record's is its dictionary's, and a list of records the list of dictionaries'.
        XCTAssertEqual(PageInputs.digest(posts[0]), PageInputs.digest(posts[0].dictionary))
        XCTAssertEqual(PageInputs.digest(posts), PageInputs.digest(posts.map(\.dictionary)))
        XCTAssertNotEqual(PageInputs.digest(posts[0]), PageInputs.digest(posts[1]))
        XCTAssertEqual(posts[0].count, 5)
        XCTAssertEqual(posts[1].count, 2)
    }

    /// `{{name}}` of a text in a record is printed from the record's slot (``TemplateRecord/peek(id:)``), not looked up
    /// as an `Any`: found on a lower level of records, in a record in a record, absent there, or another value (a number,
    /// a record, a list, a dictionary on the way, a transform, `a.b.c`) that takes the general lookup, it prints what
    /// swift-mustache prints.
    func testATextInARecordIsPrintedAsSwiftMustachePrintsIt() throws {
        let layout = RecordLayout(keys: ["title", "inner", "n", "list", "dict", "deep", "absent"])
        func record(_ values: [String: Any]) -> TemplateRecord {
            var builder = TemplateRecord.Builder(layout)
            for (key, value) in values { builder[key] = value }
            return builder.record
        }
        let deep = record(["inner": record(["title": "deepest"])])
        let inner = record(["title": "In <ner>", "n": 7])
        let top = record(["title": "T & U", "inner": inner, "n": 3, "list": ["a", "b"], "dict": ["title": "from a dictionary"],
                          "deep": deep])
        let below = record(["absent": "found below", "title": "shadowed"])
        let template = "{{#top}}{{title}}|{{{title}}}|{{inner.title}}|{{{inner.title}}}|{{inner.absent}}|{{inner.n}}|{{n}}"
            + "|{{inner}}|{{list}}|{{dict.title}}|{{deep.inner.title}}|{{absent}}|{{nowhere}}|{{title.x}}|{{inner.nowhere}}"
            + "|{{#inner}}{{title}}{{absent}}{{n}}{{/inner}}|{{uppercased(title)}}{{/top}}"
        let page = record(["title": "page", "inner": below, "deep": top])
        var values = TemplateRecord.Builder(RecordLayout(keys: ["top", "absent", "title"]))
        values["top"] = top
        values["absent"] = "page's absent"
        let expected = "T &amp; U|T & U|In &lt;ner&gt;|In <ner>||7|3|" + inner.description.replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            + "|[&quot;a&quot;, &quot;b&quot;]|from a dictionary|deepest|page&#39;s absent||||In &lt;ner&gt;page&#39;s absent7|T &amp; U"
        try assertRenders([("t", template)], values.record, expected)
        // The same with a dictionary at the bottom of the stack, and a record on a record (`{{#inner}}` of `page`).
        let mixed: [String: Any] = ["top": top, "absent": "page's absent"]
        try assertRenders([("t", template)], mixed, expected)
        try assertRenders([("t", "{{#inner}}{{absent}}|{{title}}|{{deep.title}}{{/inner}}|{{#deep}}{{inner.title}}{{/deep}}")], page,
                          "found below|shadowed|T &amp; U|In &lt;ner&gt;")
        guard case .text("T & U") = top.peek(id: TemplateNames.id("title")) else { return XCTFail("a text") }
        guard case .record(let found) = top.peek(id: TemplateNames.id("inner")), found.takeUnretainedValue() === inner else {
            return XCTFail("a record")
        }
        guard case .other = top.peek(id: TemplateNames.id("n")) else { return XCTFail("another value") }
        guard case .absent = top.peek(id: TemplateNames.id("absent")) else { return XCTFail("no value") }
        guard case .absent = top.peek(id: TemplateNames.id("not a key of the layout")) else { return XCTFail("no key") }
    }

    /// A section or an inverted section over a record, a flag or a list of records read in its slot where every level
    /// of the stack is a record (``TemplateRecord/peek(id:)``), a value one level down, in a record in a record
    /// (`rec.flag`), on a lower level, or absent everywhere, enters as swift-mustache enters it; the same values as
    /// dictionaries (the renderer's general path) render the same.
    func testSectionsOverFlagsRecordsAndListsInSlotsRenderAsSwiftMustache() throws {
        let layout = RecordLayout(keys: ["title", "flag", "off", "list", "none", "rec", "missing", "text", "n", "self"])
        func record(_ values: [String: Any]) -> TemplateRecord {
            var builder = TemplateRecord.Builder(layout)
            for (key, value) in values { builder[key] = value }
            return builder.record
        }
        let a = record(["title": "a"]), b = record(["title": "b"])
        let rec = record(["title": "In", "flag": false, "list": [a], "self": b])
        let top = record(["flag": true, "off": false, "list": [a, b], "none": [TemplateRecord](), "rec": rec, "text": "T", "n": 3])
        let template = "{{#flag}}F{{/flag}}{{^flag}}f{{/flag}}|{{#off}}O{{/off}}{{^off}}o{{/off}}|{{#list}}{{title}}{{/list}}{{^list}}L{{/list}}"
            + "|{{#none}}N{{/none}}{{^none}}n{{/none}}|{{#rec}}{{title}}{{#flag}}!{{/flag}}{{^flag}}?{{/flag}}{{#off}}x{{/off}}{{/rec}}{{^rec}}R{{/rec}}"
            + "|{{#missing}}M{{/missing}}{{^missing}}m{{/missing}}|{{#rec.flag}}RF{{/rec.flag}}{{^rec.flag}}rf{{/rec.flag}}"
            + "|{{#rec.list}}{{title}}{{/rec.list}}{{^rec.list}}rl{{/rec.list}}|{{#rec.missing}}X{{/rec.missing}}{{^rec.missing}}rm{{/rec.missing}}"
            + "|{{#rec.self}}{{title}}{{/rec.self}}{{^rec.self}}S{{/rec.self}}|{{#text}}{{.}}{{/text}}{{^text}}t{{/text}}|{{#n}}{{.}}{{/n}}"
            + "|{{#list}}{{#flag}}+{{/flag}}{{^off}}-{{/off}}{{#first()}}<{{/first()}}{{/list}}|{{#rec.title}}{{.}}{{/rec.title}}"
        let expected = "F|o|ab|n|In?|m|rf|a|rm|b|T|3|+-<+-|In"
        try assertRenders([("t", template)], top, expected)
        let dictionaries: [String: Any] = ["flag": true, "off": false, "list": [a.dictionary, b.dictionary], "none": [[String: Any]](),
                                           "rec": ["title": "In", "flag": false, "list": [a.dictionary], "self": b.dictionary] as [String: Any],
                                           "text": "T", "n": 3]
        try assertRenders([("t", template)], dictionaries, expected)
    }

    /// A value set with its static type (``TemplateRecord/Builder/set(_:_:)``, by key or by slot) goes into the case
    /// `self[key] = value` sorts it into through `Any`: a text, a record, an `Any` holding either (sorted by the type it
    /// holds), an optional of one, a number, a flag, a list, a dictionary, a lazy value and nil (absent; on a copied
    /// record it clears the key). Both records render as swift-mustache renders them, and every slot is read the same.
    func testAValueSetWithItsTypeIsHeldAsOneSetThroughAny() throws {
        let keys = ["text", "record", "anyText", "anyRecord", "optionalText", "n", "flag", "list", "dict", "lazy", "none", "cleared"]
        let layout = RecordLayout(keys: keys)
        var inner = TemplateRecord.Builder(layout)
        inner.set("text", "Inner & <b>")
        let record = inner.record
        let anyText: Any = "in an Any", anyRecord: Any = record, optionalText: String? = "optional"
        let list = [record, record], dict: [String: Any] = ["text": "from a dictionary"]
        let lazy = LazyValue { "lazy <text>" }
        var typed = TemplateRecord.Builder(copying: record), untyped = TemplateRecord.Builder(copying: record)
        typed.set("text", "T & U")
        typed.set("record", record)
        typed.set("anyText", anyText)
        typed.set("anyRecord", anyRecord)
        typed.set("optionalText", optionalText)
        typed.set(slot: 5, 7)
        typed.set(slot: 6, true)
        typed.set("list", list)
        typed.set("dict", dict)
        typed.set("lazy", lazy)
        typed.set("none", nil as String?)
        typed.set("cleared", "set")
        typed.set("cleared", nil as TemplateRecord?)
        let values: [(String, Any?)] = [("text", "T & U"), ("record", record), ("anyText", anyText), ("anyRecord", anyRecord),
                                        ("optionalText", optionalText), ("n", 7), ("flag", true), ("list", list), ("dict", dict),
                                        ("lazy", lazy), ("none", nil), ("cleared", "set"), ("cleared", nil)]
        for (key, value) in values { untyped[key] = value }
        let (a, b) = (typed.record, untyped.record)
        for key in keys {
            let id = TemplateNames.id(key)
            XCTAssertEqual(String(describing: a.peek(id: id)), String(describing: b.peek(id: id)), key)
            XCTAssertEqual(a[key].map { String(reflecting: $0) }, b[key].map { String(reflecting: $0) }, key)
        }
        guard case .text("T & U") = a.peek(id: TemplateNames.id("text")), case .text("in an Any") = a.peek(id: TemplateNames.id("anyText")),
              case .text("optional") = a.peek(id: TemplateNames.id("optionalText")),
              case .record(let found) = a.peek(id: TemplateNames.id("anyRecord")), found.takeUnretainedValue() === record,
              case .flag(true) = a.peek(id: TemplateNames.id("flag")), case .other = a.peek(id: TemplateNames.id("n")),
              case .records(let records) = a.peek(id: TemplateNames.id("list")), records.count == 2,
              case .other = a.peek(id: TemplateNames.id("lazy")), case .absent = a.peek(id: TemplateNames.id("cleared")) else {
            return XCTFail("\(a)")
        }
        let template = "{{text}}|{{{text}}}|{{record.text}}|{{anyText}}|{{#anyRecord}}{{text}}{{/anyRecord}}|{{optionalText}}|{{n}}"
            + "|{{#flag}}yes{{/flag}}|{{#list}}{{text}};{{/list}}|{{dict.text}}|{{lazy}}|{{none}}{{^none}}no{{/none}}|{{cleared}}"
        let expected = "T &amp; U|T & U|Inner &amp; &lt;b&gt;|in an Any|Inner &amp; &lt;b&gt;|optional|7|yes"
            + "|Inner &amp; &lt;b&gt;;Inner &amp; &lt;b&gt;;|from a dictionary|lazy &lt;text&gt;|no|"
        try assertRenders([("t", template)], a, expected)
        try assertRenders([("t", template)], b, expected)
        XCTAssertEqual(PageInputs.digest(a), PageInputs.digest(b))
    }

    /// The renderer reads blog's values (strings, numbers, booleans, dictionaries, lists of them) by their type's
    /// identity, without the runtime's cast: the value itself when its type is the one asked for, and nothing for an
    /// optional of it, another type or a subclass (those take swift-mustache's path, casts included).
    func testValuesAreReadByTheirTypesIdentityOnly() {
        let dictionary: [String: Any] = ["title": "<T>", "n": 3]
        XCTAssertEqual(TemplateRenderer.exactly("é<" as Any, String.self), "é<")
        XCTAssertEqual(TemplateRenderer.exactly(String(repeating: "long text ", count: 10) as Any, String.self)?.count, 100)
        XCTAssertEqual(TemplateRenderer.exactly(42 as Any, Int.self), 42)
        XCTAssertEqual(TemplateRenderer.exactly(false as Any, Bool.self), false)
        XCTAssertEqual(TemplateRenderer.exactly(dictionary as Any, [String: Any].self)?["title"] as? String, "<T>")
        XCTAssertEqual(TemplateRenderer.exactly([dictionary, dictionary] as Any, [[String: Any]].self)?.count, 2)
        XCTAssertNil(TemplateRenderer.exactly(String?.some("x") as Any, String.self))
        XCTAssertNil(TemplateRenderer.exactly(Bool?.some(true) as Any, Bool.self))
        XCTAssertNil(TemplateRenderer.exactly(42 as Any, String.self))
        XCTAssertNil(TemplateRenderer.exactly(["k": "v"] as [String: String] as Any, [String: Any].self))
        XCTAssertNil(TemplateRenderer.exactly(GeneratedRenderable("x", isNull: false) as Any, String.self))
    }
}

private func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }

// MARK: - Values swift-mustache reads through Mirror and its protocols

/// A struct whose stored properties swift-mustache finds through Mirror.
struct GeneratedRecord {
    let a: String
    let b: Int
    let c: Bool
    let items: [String]
    let s: String?
    let n: [String: Any]?
}

/// Prints its own text; `isNull` hides sections.
final class GeneratedRenderable: MustacheCustomRenderable {
    let renderText: String
    let isNull: Bool

    init(_ text: String, isNull: Bool) {
        renderText = text
        self.isNull = isNull
    }
}

/// Stands for another value (or for nothing).
struct GeneratedRepresentation: MustacheCustomRepresentation {
    let representation: Any?
}

/// Finds its children itself.
struct GeneratedParent: MustacheParent {
    let children: [String: Any]

    func child(named name: String) -> Any? { children[name] }
}

/// Printed as a marker, transformed as a string (as blog's `BodyMarker`).
struct GeneratedMarker: MustacheCustomRenderable, MustacheTransformable {
    let marker: String
    let text: String

    var renderText: String { marker }
    var isNull: Bool { false }
    func transform(_ name: String) -> Any? { text.transform(name) }
}

// MARK: - The generator

/// SplitMix64: a small deterministic generator, so that a seed reproduces a case.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count`.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// True `percent` times in 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// One of `choices`, each as likely as its weight.
    mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
        var roll = below(choices.reduce(0) { $0 + $1.0 })
        for (weight, choice) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[choices.count - 1].1
    }
}

/// One generated case: 1 to 4 templates, `t0` the root; `t<i>` includes only `t<j>`, j > i.
struct GeneratedCase {
    let seed: UInt64
    var rng: SplitMix64
    /// The templates' texts, `t0` first, and whether each is parsed with the theme's pragma.
    var texts: [(text: String, pragma: Bool)] = []
    /// What the generator put in the texts that the tokens don't show.
    var generatorFeatures: Set<String> = []
    var values: ValueGenerator

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        let count = 1 + rng.below(4)
        var templates = TemplateGenerator(rng: SplitMix64(seed: rng.next()), count: count)
        texts = Array(repeating: ("", false), count: count)
        for index in (0..<count).reversed() {
            texts[index] = (templates.template(index), rng.chance(50))
        }
        generatorFeatures = templates.features
        values = ValueGenerator(rng: SplitMix64(seed: rng.next()), leaf: "t\(count - 1)")
    }

    /// The library of the texts; nil when one doesn't parse.
    func library() -> TemplateLibrary? {
        var library = TemplateLibrary()
        for (index, entry) in texts.enumerated() {
            guard let template = try? (entry.pragma ? TemplateEscaping.template(entry.text) : MustacheTemplate(string: entry.text)) else {
                return nil
            }
            library.register(template, named: "t\(index)")
        }
        return library
    }

    var templatesDescription: String {
        texts.enumerated().map { "t\($0.offset)\($0.element.pragma ? " (TemplateEscaping.template)" : ""): \($0.element.text.debugDescription)" }
            .joined(separator: "\n")
    }

    /// Which kinds of tags the compiled templates hold, one count each.
    func templateFeatures(_ library: TemplateLibrary) -> [String: Int] {
        var found = generatorFeatures
        var compiled: [String: CompiledTemplate] = [:]
        for (index, entry) in texts.enumerated() {
            if entry.pragma { found.insert("blog pragma") }
            if entry.text.contains("\r\n") { found.insert("crlf") }
            if entry.text.contains(where: { "<>&\"'".contains($0) }) { found.insert("html special in text") }
            if let template = try? (entry.pragma ? TemplateEscaping.template(entry.text) : MustacheTemplate(string: entry.text)) {
                compiled["t\(index)"] = try? CompiledTemplate(template)
            }
        }
        var inheriting: Set<String> = []
        func names(_ name: TemplateName) {
            switch name.start {
            case .sequence: found.insert("sequence position")
            case .top: found.insert("dot")
            case .topOnly: found.insert("top-only name")
            case .stack: break
            }
            if name.names.count > 1 { found.insert("dotted name") }
            if !name.transforms.isEmpty { found.insert("transform") }
            if name.transforms.count > 1 { found.insert("nested transform") }
        }
        func walk(_ template: CompiledTemplate, inOverride: Bool) {
            for node in template.nodes {
                switch node {
                case .text: break
                case .variable(let name, let escaped):
                    names(name)
                    if !escaped { found.insert("unescaped") }
                case .section(let name, let inner):
                    names(name)
                    found.insert("section")
                    walk(inner, inOverride: inOverride)
                case .invertedSection(let name, let inner):
                    names(name)
                    found.insert("inverted section")
                    walk(inner, inOverride: inOverride)
                case .partial(let name, let dynamic, let indentation, let overrides):
                    found.insert(dynamic ? "dynamic partial" : "partial")
                    if let overrides {
                        found.insert("inheritance")
                        if inOverride { found.insert("nested inheritance") }
                        if indentation?.isEmpty == false { found.insert("indented inheritance") }
                        if !dynamic { inheriting.insert(name) }
                        for override in overrides.values { walk(override, inOverride: true) }
                    } else if indentation?.isEmpty == false {
                        found.insert("indented partial")
                    } else if indentation == nil {
                        found.insert("inline partial")
                    }
                case .block(_, let inner, let indentation):
                    found.insert("block")
                    if indentation?.isEmpty == false { found.insert("indented block") }
                    walk(inner, inOverride: inOverride)
                case .contentType(let escaper):
                    if case .other = escaper { found.insert("content type") }
                }
            }
        }
        for template in compiled.values { walk(template, inOverride: false) }
        // A parent that is itself a child: `{{<t1}}` where t1 holds `{{<t2}}`.
        for name in inheriting {
            guard let template = compiled[name] else { continue }
            var again: Set<String> = []
            swap(&again, &inheriting)
            walk(template, inOverride: false)
            swap(&again, &inheriting)
            if !again.isEmpty { found.insert("nested inheritance") }
        }
        return Dictionary(uniqueKeysWithValues: found.map { ($0, 1) })
    }
}

/// Writes valid mustache text, with every kind of tag, that cannot recurse forever.
///
/// Templates are written from the last to the first. A template's partials have a higher number.
/// A block's override is text of a template rendered inside a later one, and overrides pass down
/// to partials: an override that expands a block, itself or through a partial, could expand
/// itself again. So an override expands only `aside`, a block no tag overrides, and includes
/// only templates that expand nothing else.
struct TemplateGenerator {
    var rng: SplitMix64
    let count: Int
    /// The block names each template expands, itself or through its partials (known for those written).
    var expands: [Set<String>]
    var features: Set<String> = []
    private var current = 0
    private var expanded: Set<String> = []

    static let keys = ["a", "b", "c", "s", "n", "items", "pn", "key", "value"]
    /// The blocks a parent tag overrides; `aside` never is.
    static let blockNames = ["head", "main", "foot"]
    static let neverOverridden: Set<String> = ["aside"]
    static let transforms = ["empty", "count", "first", "last", "uppercased", "lowercased", "reversed", "capitalized",
                             "sorted", "plusone", "even", "odd", "enumerated"]
    static let positions = ["first()", "last()", "index()", "even()", "odd()", "plusone(index())", "empty(reversed(first()))"]
    static let delimiters = [("{{", "}}"), ("<%", "%>"), ("[[", "]]"), ("{{", "}}")]
    static let fragments = ["a", "b c", " ", "  ", "\t", "\n", "\n", "\r\n", "\r\n", "<", ">", "&", "\"", "'", "é", "e\u{301}",
                            "&amp;", "x\ty", "<p>", "-", "\r"]
    static let indents = [" ", "  ", "\t", " \t", "    "]

    init(rng: SplitMix64, count: Int) {
        self.rng = rng
        self.count = count
        expands = Array(repeating: [], count: count)
    }

    /// Where in the text a piece goes.
    struct Context {
        var open = "{{"
        var close = "}}"
        var depth = 0
        /// Whether this text is in a block's override.
        var inOverride = false
    }

    mutating func template(_ index: Int) -> String {
        current = index
        expanded = []
        var context = Context()
        let text = body(&context, pieces: 1 + rng.below(7))
        expands[index] = expanded
        return text
    }

    private mutating func body(_ context: inout Context, pieces: Int) -> String {
        var text = ""
        for _ in 0..<pieces { text += piece(&context) }
        return text
    }

    private var newline: String { mutating get { rng.chance(75) ? "\n" : "\r\n" } }

    /// The templates after this one that a partial may include here.
    private func partials(_ context: Context) -> [Int] {
        (current + 1..<max(count, current + 1)).filter { !context.inOverride || expands[$0].isSubset(of: Self.neverOverridden) }
    }

    /// Whether `{{>*pn}}` may be here: `pn` names the last template, or none.
    private func dynamicAllowed(_ context: Context) -> Bool {
        current < count - 1 && (!context.inOverride || expands[count - 1].isSubset(of: Self.neverOverridden))
    }

    private mutating func piece(_ context: inout Context) -> String {
        let deep = context.depth >= 3
        let kind = rng.weighted([
            (30, "text"), (22, "variable"), (6, "position"), (deep ? 0 : 12, "section"), (deep ? 0 : 6, "inverted"), (4, "comment"),
            (partials(context).isEmpty ? 0 : 12, "partial"), (dynamicAllowed(context) ? 4 : 0, "dynamic"),
            (deep || partials(context).isEmpty ? 0 : 7, "inheritance"), (deep ? 0 : 5, "block"), (3, "delimiters"), (3, "content type"),
        ])
        switch kind {
        case "text":
            return text()
        case "variable":
            let name = self.name()
            switch rng.below(4) {
            case 0: features.insert("triple"); return context.open + "{" + spaced(name) + context.close + "}"
            case 1: return tag(context, "&", name)
            default: return tag(context, "", name)
            }
        case "position":
            let name = rng.pick(Self.positions)
            return rng.chance(70) ? tag(context, "", name) : section(&context, rng.chance(60) ? "#" : "^", name)
        case "section":
            return section(&context, "#", rng.chance(85) ? self.name() : rng.pick(Self.positions))
        case "inverted":
            return section(&context, "^", self.name())
        case "comment":
            let comment = context.open + "!" + (0..<rng.below(4)).map { _ in rng.pick(Self.fragments + ["{", "}", "{{x}"]) }.joined() + context.close
            return rng.chance(40) ? line(comment) : comment
        case "partial":
            let target = rng.chance(5) ? "missing" : "t\(rng.pick(partials(context)))"
            if let index = Int(target.dropFirst()) { expanded.formUnion(expands[index]) }
            let partial = context.open + ">" + (rng.chance(20) ? " " : "") + target + (rng.chance(20) ? " " : "") + context.close
            return rng.chance(55) ? line(partial, indented: rng.chance(80)) : partial
        case "dynamic":
            expanded.formUnion(expands[count - 1])
            let partial = context.open + ">" + (rng.chance(30) ? " *" : "*") + "pn" + context.close
            return rng.chance(50) ? line(partial, indented: rng.chance(70)) : partial
        case "inheritance":
            return inheritance(&context)
        case "block":
            let name = context.inOverride || rng.chance(20) ? "aside" : rng.pick(Self.blockNames)
            expanded.insert(name)
            return section(&context, "$", name)
        case "delimiters":
            let (open, close) = rng.pick(Self.delimiters)
            let tag = context.open + "=" + (rng.chance(30) ? " " : "") + open + " " + close + (rng.chance(30) ? " " : "") + "=" + context.close
            context.open = open
            context.close = close
            features.insert("set delimiters")
            return rng.chance(50) ? line(tag) : tag
        default:
            let type = rng.pick(["TEXT", "TEXT", "HTML", "BLOG_HTML"])
            let tag = context.open + "%" + rng.pick(["", " "]) + "CONTENT_TYPE:" + rng.pick(["", " "]) + type + rng.pick(["", " "]) + context.close
            return rng.chance(50) ? line(tag) : tag
        }
    }

    private mutating func text() -> String {
        (0..<1 + rng.below(4)).map { _ in rng.pick(Self.fragments) }.joined()
    }

    /// A tag's name: a key, a dotted name, `.`, with transforms.
    private mutating func name() -> String {
        let key = rng.pick(Self.keys)
        var name: String = rng.weighted([
            (50, key), (10, "."), (12, key + "." + rng.pick(Self.keys)), (4, key + "." + rng.pick(Self.keys) + "." + rng.pick(Self.keys)),
            (10, "." + key), (4, "." + key + "." + rng.pick(Self.keys)), (1, ""), (1, ".."),
        ])
        for _ in 0..<rng.weighted([(60, 0), (30, 1), (10, 2)]) {
            name = rng.pick(Self.transforms) + "(" + name + ")"
        }
        return name
    }

    private mutating func spaced(_ name: String) -> String {
        rng.chance(15) ? " " + name + " " : name
    }

    private mutating func tag(_ context: Context, _ sigil: String, _ name: String) -> String {
        context.open + sigil + spaced(name) + context.close
    }

    /// `text` on a line of its own, maybe indented.
    private mutating func line(_ text: String, indented: Bool = false) -> String {
        newline + (indented ? rng.pick(Self.indents) : "") + text + newline
    }

    /// `{{#name}}…{{/name}}` (or `^`, `$`): inline, or each tag on a line of its own.
    private mutating func section(_ context: inout Context, _ sigil: String, _ name: String) -> String {
        var inner = context
        inner.depth += 1
        let standalone = rng.chance(40)
        let indent = standalone && rng.chance(50) ? rng.pick(Self.indents) : ""
        let body = self.body(&inner, pieces: rng.below(4))
        let open = tag(context, sigil, name)
        let close = tag(inner, "/", name)
        if standalone {
            return newline + indent + open + newline + body + newline + indent + close + newline
        }
        return open + body + close
    }

    /// `{{<tN}}{{$block}}…{{/block}}{{/tN}}`: inline, or on lines of their own, indented.
    private mutating func inheritance(_ context: inout Context) -> String {
        let dynamic = dynamicAllowed(context) && rng.chance(15)
        let candidates = partials(context)
        let withBlocks = candidates.filter { !expands[$0].isSubset(of: Self.neverOverridden) }
        let target = dynamic ? count - 1 : rng.pick(withBlocks.isEmpty || rng.chance(10) ? candidates : withBlocks)
        let name = dynamic ? "*pn" : "t\(target)"
        expanded.formUnion(expands[target])
        var blocks = Array(expands[target].subtracting(Self.neverOverridden)).sorted()
        if blocks.isEmpty || rng.chance(20) { blocks.append(rng.pick(Self.blockNames)) }
        let overridden = Set((0..<1 + rng.below(2)).map { _ in rng.pick(blocks) })
        let standalone = rng.chance(50)
        let indent = standalone && rng.chance(60) ? rng.pick(Self.indents) : ""
        var inner = context
        inner.depth += 1
        inner.inOverride = true
        var text = standalone ? newline + indent : ""
        text += context.open + "<" + name + context.close
        for block in overridden.sorted() {
            // Text between block definitions is dropped; comments too.
            text += standalone ? newline + indent + rng.pick(["", " ", "  "]) : rng.pick(["", "", " ", "ignored", context.open + "! c " + context.close])
            var body = inner
            let content = self.body(&body, pieces: rng.below(4))
            text += context.open + "$" + block + context.close
            text += standalone ? newline + content + newline + indent : content
            text += body.open + "/" + block + body.close
        }
        text += standalone ? newline + indent : ""
        text += context.open + "/" + name + context.close
        return standalone ? text + newline : text
    }
}

/// Random value trees: dictionaries, lists, strings, numbers, optionals, and values swift-mustache
/// reads through its protocols. `pn` always names the last template (or none), for `{{>*pn}}`.
struct ValueGenerator {
    var rng: SplitMix64
    /// The template `{{>*pn}}` may include.
    let leaf: String

    static let strings = ["", "plain", "<b>&amp;</b>", "a&b", "\"q\" 'x'", "é", "e\u{301}", "&\u{301}", "line\nnext", "cr\r\nlf",
                          "  indented", "Kyoto (京都)", "<\u{338}", "t1"]

    /// The object a template is rendered with.
    mutating func root(_ kinds: inout Set<String>) -> Any {
        switch rng.below(20) {
        case 0: kinds.insert("record"); return record(0, &kinds)
        case 1: kinds.insert("parent"); return GeneratedParent(children: dictionary(0, &kinds))
        case 3: kinds.insert("template record"); return templateRecord(0, &kinds)
        case 2: kinds.insert("representation"); return GeneratedRepresentation(representation: dictionary(0, &kinds))
        default: kinds.insert("dictionaries"); return dictionary(0, &kinds)
        }
    }

    private mutating func dictionary(_ depth: Int, _ kinds: inout Set<String>) -> [String: Any] {
        var values: [String: Any] = [:]
        for key in TemplateGenerator.keys where rng.chance(depth == 0 ? 75 : 45) {
            values[key] = key == "pn" ? partialName(&kinds) : value(depth + 1, &kinds)
        }
        return values
    }

    private mutating func partialName(_ kinds: inout Set<String>) -> Any {
        switch rng.below(10) {
        case 0: return "missing"
        case 1: return ""
        case 2: kinds.insert("optional"); return Optional(leaf) as Any
        case 3: return 7
        default: return leaf
        }
    }

    private mutating func string() -> String { rng.pick(Self.strings) }

    /// Two layouts of the keys templates name, in other orders, with a key no template names.
    static let layouts = [RecordLayout(keys: TemplateGenerator.keys + ["unnamed"]),
                          RecordLayout(keys: ["unnamed"] + TemplateGenerator.keys.reversed())]

    /// A ``TemplateRecord`` (blog's post values) of a generated dictionary.
    private mutating func templateRecord(_ depth: Int, _ kinds: inout Set<String>) -> TemplateRecord {
        var builder = TemplateRecord.Builder(rng.pick(Self.layouts))
        for (key, value) in dictionary(depth, &kinds) { builder[key] = value }
        if rng.chance(20) { builder["unnamed"] = string() }
        return builder.record
    }

    private mutating func record(_ depth: Int, _ kinds: inout Set<String>) -> GeneratedRecord {
        GeneratedRecord(a: string(), b: rng.below(5) - 1, c: rng.chance(50), items: (0..<rng.below(3)).map { _ in string() },
                        s: rng.chance(50) ? string() : nil, n: rng.chance(50) && depth < 3 ? dictionary(depth + 1, &kinds) : nil)
    }

    private mutating func value(_ depth: Int, _ kinds: inout Set<String>) -> Any {
        let leaves = depth >= 3
        let kind = rng.weighted([
            (18, "string"), (6, "int"), (8, "bool"), (2, "double"), (4, "optional string"), (2, "optional bool"), (1, "optional int"),
            (3, "renderable"), (2, "null renderable"), (1, "nsnull"), (2, "set"), (3, "representation"), (4, "empty array"), (2, "marker"),
            (leaves ? 0 : 10, "dictionary"), (leaves ? 0 : 10, "dictionaries"), (leaves ? 0 : 6, "mixed array"),
            (leaves ? 0 : 5, "strings"), (leaves ? 0 : 2, "ints"), (leaves ? 0 : 4, "record"), (leaves ? 0 : 3, "parent"),
            (leaves ? 0 : 2, "string dictionary"), (leaves ? 0 : 1, "optional dictionary"),
            (leaves ? 0 : 6, "template record"), (leaves ? 0 : 4, "template records"),
        ])
        switch kind {
        case "string": return string()
        case "int": return rng.below(5) - 1
        case "bool": return rng.chance(50)
        case "double": return 1.5
        case "optional string":
            kinds.insert("optional")
            return rng.chance(60) ? Optional(string()) as Any : String?.none as Any
        case "optional bool":
            kinds.insert("optional")
            kinds.insert("optional bool")
            return rng.weighted([(2, Bool?.some(false)), (2, Bool?.some(true)), (1, Bool?.none)]) as Any
        case "optional int":
            kinds.insert("optional")
            return rng.chance(70) ? Int?.some(rng.below(3)) as Any : Int?.none as Any
        case "renderable":
            kinds.insert("renderable")
            return GeneratedRenderable(string(), isNull: false)
        case "null renderable":
            kinds.insert("renderable")
            kinds.insert("null renderable")
            return GeneratedRenderable(string(), isNull: true)
        case "nsnull":
            kinds.insert("nsnull")
            return NSNull()
        case "set":
            kinds.insert("set")
            return Set([string()])
        case "representation":
            kinds.insert("representation")
            return GeneratedRepresentation(representation: rng.chance(25) ? nil : value(depth + 1, &kinds))
        case "empty array":
            kinds.insert("empty array")
            return rng.pick([[Any]() as Any, [[String: Any]]() as Any, [String]() as Any])
        case "marker":
            kinds.insert("marker")
            return GeneratedMarker(marker: "<!--m-->", text: string())
        case "dictionary":
            return dictionary(depth, &kinds)
        case "dictionaries":
            return (0..<rng.below(4)).map { _ in dictionary(depth, &kinds) }
        case "mixed array":
            kinds.insert("mixed array")
            return (0..<rng.below(4)).map { _ in value(depth + 1, &kinds) } as [Any]
        case "strings":
            kinds.insert("strings")
            return (0..<rng.below(4)).map { _ in string() }
        case "ints":
            return (0..<rng.below(4)).map { _ in rng.below(4) }
        case "record":
            kinds.insert("record")
            return record(depth, &kinds)
        case "parent":
            kinds.insert("parent")
            return GeneratedParent(children: dictionary(depth, &kinds))
        case "string dictionary":
            return ["a": string(), "b": string()] as [String: String]
        case "template record":
            kinds.insert("template record")
            return templateRecord(depth, &kinds)
        case "template records":
            kinds.insert("template record")
            return (0..<rng.below(4)).map { _ in templateRecord(depth, &kinds) }
        default:
            kinds.insert("optional")
            return rng.chance(70) ? [String: Any]?.some(dictionary(depth, &kinds)) as Any : [String: Any]?.none as Any
        }
    }
}

/// A value tree as text, with the types that matter (`Optional<Bool>.some(false)`), for failure messages.
enum Describe {
    static func value(_ value: Any) -> String {
        let type = Swift.type(of: value)
        if type == String.self { return (value as! String).debugDescription }
        if type == Int.self || type == Bool.self || type == Double.self { return "\(value)" }
        if let renderable = value as? GeneratedRenderable {
            return "GeneratedRenderable(\(renderable.renderText.debugDescription), isNull: \(renderable.isNull))"
        }
        if value is NSNull { return "NSNull()" }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "\(type).none" }
            return "\(type).some(\(Self.value(wrapped)))"
        case .dictionary:
            let pairs = mirror.children.map { pair -> String in
                let parts = Mirror(reflecting: pair.value).children.map(\.value)
                return "\(Self.value(parts[0])): \(Self.value(parts[1]))"
            }.sorted()
            return pairs.isEmpty ? "[:] as \(type)" : "[" + pairs.joined(separator: ", ") + "] as \(type)"
        case .collection, .set:
            return "[" + mirror.children.map { Self.value($0.value) }.joined(separator: ", ") + "] as \(type)"
        default:
            let fields = mirror.children.map { "\($0.label ?? "_"): \(Self.value($0.value))" }
            return "\(type)(" + fields.joined(separator: ", ") + ")"
        }
    }
}
