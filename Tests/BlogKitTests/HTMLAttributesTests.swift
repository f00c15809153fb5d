@testable import BlogCore
import Foundation
import XCTest

/// ``HTMLAttributes`` keeps its own fast walker (for URLs made absolute in every feed entry, content links and
/// `blog check`), but reads what ``HTMLTokenizer`` reads, as a browser does: checked here on the known cases, then
/// differentially on every HTML file of the built sample blog, of the real blogs of `../shared/corpora` when
/// present, and on generated hostile snippets.
final class HTMLAttributesTests: XCTestCase {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = tests.deletingLastPathComponent().deletingLastPathComponent()
    static let corpora = repository.deletingLastPathComponent().appendingPathComponent("shared/corpora")

    /// The first `perBlog` files of each real blog of `../shared/corpora` whose extension is one of `extensions`, with
    /// their bytes; skips the calling test when the corpora are absent.
    static func corporaPosts(perBlog: Int = 60, extensions: Set<String>) throws -> [(url: URL, data: Data)] {
        guard FileManager.default.fileExists(atPath: corpora.path) else {
            throw XCTSkip("\(corpora.path) is absent: the real-blog part needs the shared corpora beside the repository")
        }
        var posts: [(url: URL, data: Data)] = []
        for blog in try FileManager.default.contentsOfDirectory(at: corpora, includingPropertiesForKeys: nil) {
            let all = try XCTUnwrap(FileManager.default.enumerator(at: blog, includingPropertiesForKeys: nil))
            var read = 0
            for case let url as URL in all where read < perBlog && extensions.contains(url.pathExtension) {
                guard let data = try? Data(contentsOf: url) else { continue }
                posts.append((url, data))
                read += 1
            }
        }
        return posts
    }

    private let html = "<pre><a href=\"x\"></pre><a href=\"a\" HREF=\"b\"><iframe><a href=\"in\"></iframe>"
        + "<!--><a href=\"c\"> --><img src = 'd' srcset=\"e 2x\"><a href=\"cut"

    func testAttributesAreThoseABrowserReads() {
        let bytes = Array(html.utf8)
        var seen: [String] = []
        HTMLAttributes.scan(bytes) { attribute in
            seen.append("\(attribute.element).\(attribute.name)=\(String(decoding: bytes[attribute.value], as: UTF8.self))"
                        + (attribute.inCode ? " (code)" : ""))
        }
        // A repeated attribute: the first; an iframe's content is text; `<!-->` is a whole comment; a tag cut off is none.
        XCTAssertEqual(seen, ["a.href=x (code)", "a.href=a", "a.href=c", "img.src=d", "img.srcset=e 2x"])
        XCTAssertEqual(Self.walked(html), Self.tokenized(html))
    }

    func testURLsAreRewrittenOutsideCodeOnly() {
        XCTAssertEqual(HTMLAttributes.rewriteURLs(in: html) { "[\($0.text)\($0.isSrcset ? " set" : "")]" },
                       "<pre><a href=\"x\"></pre><a href=\"[a]\" HREF=\"b\"><iframe><a href=\"in\"></iframe>"
                        + "<!--><a href=\"[c]\"> --><img src = '[d]' srcset=\"[e 2x set]\"><a href=\"cut")
        // Values given back as they were, or some of them: the same text.
        XCTAssertEqual(HTMLAttributes.rewriteURLs(in: html) { $0.text }, html)
        XCTAssertEqual(HTMLAttributes.rewriteURLs(in: html) { $0.text == "c" ? "[c]" : $0.text },
                       html.replacingOccurrences(of: "href=\"c\"", with: "href=\"[c]\""))
    }

    /// Further places where the walker once read otherwise than the tokenizer.
    func testEdgesReadAsTheTokenizerReads() {
        let cases = [
            "<a href>x</a><a href href=\"y\">",  // a valueless first of a repeated name wins
            "<a href=\"x\" title=\"cut",  // a tag cut off: none of its attributes
            "<a href=x",  // an unquoted value cut off
            "<!--- --><a href=1><!-- --!><a href=2>",  // `<!--->` whole, `--!>` an end
            "<noscript><a href=n></noscript><a href=s>",  // raw text elements the walker did not know
            "<script></scripts><a href=q></script><a href=r>",  // an end tag is `</name` then a space, `/` or `>`
            "</a title=\">\"><a href=t>",  // an end tag's quoted `>` does not end it
            "</ <a href=u>",  // `</` and no letter: a bogus comment to `>`
            "<plaintext><a href=v>",  // after plaintext, all is text
            "<code/><a href=w></code><a href=z>",  // a self-closed code opens nothing
        ]
        for text in cases { XCTAssertEqual(Self.walked(text), Self.tokenized(text), text) }
    }

    /// Every HTML file of the sample blog, built.
    func testSampleBlogReadsAsTheTokenizerReads() throws {
        let site = try TempSite()
        defer { site.remove() }
        for item in ["blog.yml", "content", "themes"] {
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(item),
                                             to: site.root.appendingPathComponent(item))
        }
        let build = try BlogCLI.run(["build", "--drafts", "--future", "--no-cache", "--output", "public"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertGreaterThan(try compareHTMLFiles(under: site.root.appendingPathComponent("public")), 10)
    }

    /// Every HTML file of each real blog of `../shared/corpora`, built as CorporaEndToEndTests builds them.
    func testCorporaReadAsTheTokenizerReads() throws {
        guard FileManager.default.fileExists(atPath: Self.corpora.path) else {
            throw XCTSkip("\(Self.corpora.path) is absent: the real-blog test needs the shared corpora beside the repository")
        }
        let corpora = ["swift-org-blog": "_posts", "jekyll-docs-posts": "docs/_posts", "fullstackpython-pelican": "content",
                       "hugodocs-news": "content", "jessfraz-hugo": "content"]
        for (name, content) in corpora.sorted(by: { $0.key < $1.key }) {
            let site = try TempSite()
            defer { site.remove() }
            try site.write("blog.yml", "title: \(name)\nbase_url: https://example.org/blog/\ntimezone: America/New_York\n")
            try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("content"),
                                                       withDestinationURL: Self.corpora.appendingPathComponent(name)
                                                        .appendingPathComponent(content))
            let build = try BlogCLI.run(["build", "--drafts", "--future", "--no-cache", "--output", "public"], in: site.root)
            XCTAssertEqual(build.status, 0, "\(name): \(build.stderr)")
            XCTAssertGreaterThan(try compareHTMLFiles(under: site.root.appendingPathComponent("public")), 50, name)
        }
    }

    /// Generated hostile snippets: tags, quotes, comments, raw text elements, entities, repeated attributes,
    /// `<!-->`, unclosed tags, mixed at random from a fixed seed.
    func testHostileSnippetsReadAsTheTokenizerReads() {
        var random = SplitMix64(seed: 28)  // CompiledTemplatesTests' generator
        let pieces = [
            "<a", "<A", "<img", "<pre", "<PRE", "<code", "<code/>", "</code>", "</pre>", "</CODE >", "<script", "</script>",
            "</scriptx>", "<style>", "</style", "<textarea>", "</textarea>", "<title>", "</title>", "<iframe>", "</iframe>",
            "<xmp>", "</xmp>", "<noembed>", "</noembed>", "<noframes>", "</noframes>", "<noscript>", "</noscript>",
            "<plaintext>", "<!-->", "<!--->", "<!--", "-->", "--!>", "--", "<!", "<!DOCTYPE html>", "<?", "<?php ?>",
            "</", "</>", "</ ", "</a>", "</a title='>'>", "<", ">", "/>", "/", " ", "\n", "\t", "=", " = ", "\"", "'",
            " href", " HREF", " src", " srcset", " poster", " title", " alt", " =x", " href=", "=\"a b\"", "='c>d'",
            "=e", "=f/", "=>", "=\"\"", "&amp;", "&#x3C;", "&lt;a href=x&gt;", "text", "é", "<b>", "</b>", "<p/>",
            " href=\"/one\"", " href='two'", " href=three", " src=\"//x\"", "<a href=\"/p\">", "<img src=i.png alt=\"\">",
        ]
        var mismatches = 0
        for round in 0..<20_000 {
            var text = ""
            for _ in 0..<(1 + random.below(24)) { text += pieces[random.below(pieces.count)] }
            let walked = Self.walked(text), tokenized = Self.tokenized(text)
            if walked != tokenized {
                mismatches += 1
                if mismatches <= 5 { XCTFail("snippet \(round) \(text.debugDescription):\nwalker    \(walked)\ntokenizer \(tokenized)") }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// Compares the two readers on every `.html` file under `folder`; how many files there were.
    private func compareHTMLFiles(under folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        var count = 0
        let files = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "html" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let walked = Self.walked(text), tokenized = Self.tokenized(text)
            XCTAssertFalse(walked.isEmpty && !tokenized.isEmpty, url.path, file: file, line: line)
            if walked != tokenized {
                let first = zip(walked, tokenized).first { $0 != $1 }
                XCTFail("\(url.path): walker \(walked.count), tokenizer \(tokenized.count), first difference \(String(describing: first))",
                        file: file, line: line)
            }
            count += 1
        }
        return count
    }

    /// (element, name, value range, value, in code) for each attribute with a value, as the walker reads them.
    static func walked(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var seen: [String] = []
        HTMLAttributes.scan(bytes) { seen.append(describe(bytes, $0.element, $0.name, $0.value, $0.inCode)) }
        return seen
    }

    /// The same, from the tokenizer's start tags: `<pre>`/`<code>` open code unless self-closed, their end tags close it.
    static func tokenized(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var seen: [String] = []
        var codeDepth = 0
        HTMLTokenizer.tokenize(bytes) { token in
            switch token.kind {
            case .startTag:
                for attribute in token.attributes {
                    if let value = attribute.value { seen.append(describe(bytes, token.name, attribute.name, value, codeDepth > 0)) }
                }
                if token.name == "pre" || token.name == "code", !token.selfClosing { codeDepth += 1 }
            case .endTag where token.name == "pre" || token.name == "code":
                codeDepth = max(0, codeDepth - 1)
            default:
                break
            }
        }
        return seen
    }

    private static func describe(_ bytes: [UInt8], _ element: String, _ name: String, _ value: Range<Int>, _ inCode: Bool) -> String {
        "\(element) \(name) \(value.lowerBound)..<\(value.upperBound) \(String(decoding: bytes[value], as: UTF8.self).debugDescription)"
            + (inCode ? " code" : "")
    }
}
