@testable import BlogBuild
@testable import BlogLiquid
@testable import BlogMarkdown
import Foundation
import XCTest

/// Runs the Liquid/shortcode transform over real blogs (Jekyll, Hugo, Pelican) checked out next to the repository,
/// with resolvers that know nothing: it must not crash, and fenced code must come out byte for byte
/// (but for `{% raw %}` tags and Hugo's `{{</* */>}}` escapes, which the generators process in code too).
final class LiquidCorpusTests: XCTestCase {
    /// `<repository>/../shared/corpora`.
    private var corpora: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // BlogKitTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // the repository
            .deletingLastPathComponent()
            .appendingPathComponent("shared/corpora")
    }

    func testRealBlogsKeepTheirCode() throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: corpora.path) else {
            throw XCTSkip("no real blogs at \(corpora.path) (the folder of corpora next to the repository); nothing to check")
        }
        let rawTag = try Regex(#"\{%-?\s*(?:end)?raw\s*-?%\}"#)
        let nothing = LiquidContext()
        // LIQUID_CORPUS_VERBOSE=1 prints every warning, to review them by eye.
        let verbose = ProcessInfo.processInfo.environment["LIQUID_CORPUS_VERBOSE"] != nil
        for corpus in try fm.contentsOfDirectory(atPath: corpora.path).sorted() {
            let root = corpora.appendingPathComponent(corpus)
            guard let walker = fm.enumerator(atPath: root.path) else { continue }
            var files = 0
            var changed = 0
            var warnings: [String: Int] = [:]
            var tagsLeft = 0
            for case let relative as String in walker where relative.hasSuffix(".md") || relative.hasSuffix(".markdown") {
                guard let text = try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8) else { continue }
                files += 1
                let (body, firstLine) = Self.splitHeader(text)
                let (out, diagnostics) = Liquid.process(body, path: relative, firstLine: firstLine, context: nothing)
                // Run as a Jekyll-form post too: whatever the text, the interpreter finishes, and a body
                // without tags comes back as it is.
                let run = Liquid.run(body, path: relative, firstLine: firstLine, context: nothing, page: .map([:]), runsLiquid: true)
                if !Liquid.needsProcessing(body) { XCTAssertEqual(run.markdown, body, "\(corpus)/\(relative)") }
                if out != body { changed += 1 }
                for diagnostic in diagnostics {
                    let kind = Self.kind(of: diagnostic.message)
                    warnings[kind, default: 0] += 1
                    if kind == "tags left as written" {
                        tagsLeft += Int(diagnostic.message.prefix { $0.isNumber }) ?? 0
                    }
                    if verbose { print("\(corpus)/\(diagnostic)") }
                    XCTAssertGreaterThanOrEqual(diagnostic.line, firstLine, "\(corpus)/\(relative): \(diagnostic)")
                }

                let expected = Self.fencedBlocks(body).map { block in
                    block.replacing(rawTag, with: "")
                        .replacingOccurrences(of: "{{</*", with: "{{<").replacingOccurrences(of: "*/>}}", with: ">}}")
                        .replacingOccurrences(of: "{{%/*", with: "{{%").replacingOccurrences(of: "*/%}}", with: "%}}")
                }
                var matched = 0
                for block in Self.fencedBlocks(out) where matched < expected.count && block == expected[matched] {
                    matched += 1
                }
                if matched < expected.count {
                    XCTFail("\(corpus)/\(relative): fenced block \(matched + 1) changed:\n\(expected[matched].prefix(500))")
                }
            }
            let summary = warnings.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("Liquid corpus \(corpus): \(files) files, \(changed) changed; warnings: \(summary.isEmpty ? "none" : summary); \(tagsLeft) tags left as written")
        }
    }

    /// The body after a `---` (YAML) or `+++` (TOML) header, and the file line it starts on.
    /// Files without such a header (Pelican's `Key: value` lines) are all body: the header has no tags.
    static func splitHeader(_ text: String) -> (String, Int) {
        for marker in ["---", "+++"] where text.hasPrefix(marker + "\n") || text.hasPrefix(marker + "\r\n") {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for i in 1..<lines.count where lines[i].trimmingCharacters(in: .whitespacesAndNewlines) == marker {
                return (lines[(i + 1)...].joined(separator: "\n"), i + 2)
            }
        }
        return (text, 1)
    }

    /// The contents of the top-level fenced code blocks (fences indented 0-3 spaces), written independently of
    /// the transform's own block tracking.
    static func fencedBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var open: (char: Character, count: Int)?
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let rest = line.drop { $0 == " " }
            let indent = line.count - rest.count
            if let fence = open {
                let run = rest.prefix { $0 == fence.char }.count
                if indent <= 3 && run >= fence.count && rest.dropFirst(run).allSatisfy({ $0.isWhitespace }) {
                    blocks.append(current.joined(separator: "\n"))
                    open = nil
                    current = []
                } else {
                    current.append(line)
                }
            } else if indent <= 3, let c = rest.first, c == "`" || c == "~" {
                let run = rest.prefix { $0 == c }.count
                if run >= 3 && !(c == "`" && rest.dropFirst(run).contains("`")) {
                    open = (c, run)
                }
            }
        }
        if open != nil { blocks.append(current.joined(separator: "\n")) }
        return blocks
    }

    /// A short name for the kind of a warning.
    static func kind(of message: String) -> String {
        if message.contains("template tag") { return "tags left as written" }
        if message.hasPrefix("unknown post") {
            if message.contains("{% post_url %}") { return "unknown post_url" }
            if message.contains("{% link %}") { return "unknown link" }
            return "unknown ref/relref"
        }
        if message.hasPrefix("{% raw %}") { return "unclosed raw" }
        if message.hasPrefix("{% highlight %}") { return "unclosed highlight" }
        return "other: \(message)"
    }
}
