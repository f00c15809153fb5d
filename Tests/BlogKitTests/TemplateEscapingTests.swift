@testable import BlogRender
import Mustache
import XCTest

/// Theme templates escape `{{name}}` with ``TemplateEscaping``; the pages must not change by a byte.
final class TemplateEscapingTests: XCTestCase {
    /// Texts where escaping is easy to get wrong: every special character, none, non-ASCII text
    /// around them, a combining mark that makes `&` or `<` part of one Character, CR LF, emoji.
    let samples = [
        "", "plain text", "<script>alert('x') & \"y\"</script>", "a&b", "&&&", "'quoted'",
        "Kyoto (京都) <b>", "café & crème", "München > Zürich", "&\u{301} and <\u{338}", "x\u{301}<y",
        "line\r\nbreak & more", "🎉 <party> 👩‍👩‍👧 & family", "tab\there", "é", "<", ">é",
        "\u{600}<b>", "<\u{200D}>", "a<\u{903}", "&\u{FE0F}", "é'é", "日本'語\"", "\u{1F1EB}&\u{1F1F7}", "<\r\n>", "x\r\n&",
    ]

    func testEscapesExactlyAsSwiftMustache() throws {
        let theirs = try MustacheTemplate(string: "[{{value}}]")
        let ours = try MustacheTemplate(string: TemplateEscaping.pragma + "[{{value}}]")
        for sample in samples {
            XCTAssertEqual(ours.render(["value": sample]), theirs.render(["value": sample]), sample.debugDescription)
        }
        XCTAssertEqual(ours.render(["value": "<a href=\"x\">&'</a>"]), "[&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;]")
        XCTAssertEqual(ours.render(["value": "&\u{301}<"]), "[&\u{301}&lt;]", "a combining mark makes `&` part of another Character")
    }

    func testThePragmaLineLeavesNoTraceInPartialsSectionsAndLayouts() throws {
        let sources = [
            "base": "{{! layout }}\n<title>{{title}}</title>\n{{$content}}{{/content}}\n",
            "page": "{{<base}}\n{{$content}}\n{{#items}}\n{{>item}}\n{{/items}}\n{{{raw}}}\n{{/content}}\n{{/base}}\n",
            "item": "<li>{{name}}</li>\n",
        ]
        var theirs = MustacheLibrary()
        var ours = MustacheLibrary()
        for (name, text) in sources {
            theirs.register(try MustacheTemplate(string: text), named: name)
            ours.register(try MustacheTemplate(string: TemplateEscaping.pragma + text), named: name)
        }
        let values: [String: Any] = ["title": "A & B", "items": [["name": "<x>"], ["name": "y's"]], "raw": "<b>kept</b>"]
        let page = ours.render(values, withTemplate: "page")
        XCTAssertEqual(page, theirs.render(values, withTemplate: "page"))
        XCTAssertEqual(page, "<title>A &amp; B</title>\n<li>&lt;x&gt;</li>\n<li>y&#39;s</li>\n<b>kept</b>\n\n")
    }

    /// Strings print themselves (String is a MustacheCustomRenderable here); sections, inverted
    /// sections and transforms must treat them as swift-mustache always has.
    func testStringsInSectionsAndTransforms() throws {
        let template = try MustacheTemplate(string: TemplateEscaping.pragma
            + "[{{s}}|{{{s}}}|{{#s}}<{{.}}>{{/s}}|{{^s}}none{{/s}}|{{uppercased(s)}}|{{#e}}e={{.}}{{/e}}|{{^missing}}-{{/missing}}]")
        XCTAssertEqual(template.render(["s": "a&b", "e": ""]), "[a&amp;b|a&b|<a&amp;b>||A&amp;B|e=|-]")
        XCTAssertEqual(template.render(["s": "x", "e": ""] as [String: Any]), "[x|x|<x>||X|e=|-]")
    }
}
