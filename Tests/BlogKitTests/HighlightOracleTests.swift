@testable import BlogHighlight
@testable import BlogMarkdown
import Foundation
import XCTest

/// Compares blog's highlighter with Pygments (the highlighter Pelican uses) on every code block with
/// a language in the sample blog and the shared corpora: each non-space character's class family,
/// Pygments' token types mapped onto blog's families by Fixtures/pygments_tokens.py and blog's
/// classes by ``family(_:)``. For each language with at least 20 blocks, at least 90% of the
/// characters must agree. Prints the table per language.
final class HighlightOracleTests: XCTestCase {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = tests.deletingLastPathComponent().deletingLastPathComponent()
    static let corpora = repository.deletingLastPathComponent().appendingPathComponent("shared/corpora")

    /// A code block and the language its info string names.
    struct Block: Encodable {
        var language: String
        var code: String
    }

    /// The family letter of blog's class (see FAMILIES in Fixtures/pygments_tokens.py).
    static func family(_ kind: TokenClass?) -> Character {
        switch kind {
        case nil: return "."
        case .keyword: return "k"
        case .type: return "t"
        case .function: return "f"
        case .string, .escape, .interpolation: return "s"
        case .number: return "m"
        case .comment, .docComment: return "c"
        case .operator, .punctuation: return "o"
        case .attribute, .preprocessor: return "a"
        case .builtin: return "b"
        case .variable: return "v"
        case .tag: return "g"
        case .attributeName: return "n"
        case .inserted: return "i"
        case .deleted: return "d"
        case .heading: return "h"
        case .prompt: return "p"
        case .output: return "O"
        }
    }

    /// The family of each character (Unicode scalar) of `code` as blog highlights it in `language`.
    static func families(_ code: String, _ language: Language) -> [Character] {
        let tokens = Highlighter.tokens(code, language: language)
        var byByte = [Character](repeating: ".", count: code.utf8.count)
        for token in tokens {
            for index in token.start..<token.end { byByte[index] = family(token.kind) }
        }
        var result: [Character] = []
        var offset = 0
        for scalar in code.unicodeScalars {
            result.append(byByte[offset])
            offset += String(scalar).utf8.count
        }
        return result
    }

    /// Every code block with a language in the markdown files under `folder`, as the Markdown
    /// stage reads them (fences and CodeHilite markers).
    static func blocks(under folder: URL) -> [Block] {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [Block] = []
        let paths = files.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".md") || $0.hasSuffix(".markdown") }.sorted()
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let html = MarkdownRenderer.render(body: text, summary: nil).html
            var rest = html[...]
            while let open = rest.range(of: "<code class=\"language-") {
                let afterName = rest[open.upperBound...]
                guard let quote = afterName.firstIndex(of: "\""), let close = afterName.range(of: "</code></pre>") else { break }
                let language = String(afterName[..<quote])
                let code = afterName[afterName.index(quote, offsetBy: 2)..<close.lowerBound]
                found.append(Block(language: language, code: unescape(code)))
                rest = afterName[close.upperBound...]
            }
        }
        return found
    }

    /// `html` with cmark's four entities turned back into characters.
    static func unescape(_ html: Substring) -> String {
        html.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    func testAgreesWithPygments() throws {
        let pygments = try FeedTestSite.run(["python3", "-c", "import pygments"])
        if pygments.status != 0 {
            throw XCTSkip("Pygments is not installed (apt-get install python3-pygments): the comparison needs it")
        }
        var all = Self.blocks(under: Self.repository.appendingPathComponent("content"))
        if FileManager.default.fileExists(atPath: Self.corpora.path) {
            all += Self.blocks(under: Self.corpora)
        }
        let blocks = all.filter { Highlighter.language(named: $0.language) != nil }
        XCTAssertGreaterThan(blocks.count, 20, "the sample blog alone has more code blocks than this")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-oracle-\(UUID().uuidString).json")
        try JSONEncoder().encode(blocks).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try FeedTestSite.run(["python3", FeedTestSite.fixture("pygments_tokens.py").path, input.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let oracle = try JSONDecoder().decode([String?].self, from: run.stdout)
        XCTAssertEqual(oracle.count, blocks.count)

        // Per language (its first name): blocks, characters compared, characters agreeing, and
        // what disagreed most (ours → Pygments').
        var table: [String: (blocks: Int, compared: Int, agreed: Int, misses: [String: Int])] = [:]
        for (block, theirs) in zip(blocks, oracle) {
            guard let theirs, let language = Highlighter.language(named: block.language) else { continue }
            let ours = Self.families(block.code, language)
            let scalars = Array(block.code.unicodeScalars)
            let pygmentsFamilies = Array(theirs)
            guard pygmentsFamilies.count == ours.count else { continue }
            if ProcessInfo.processInfo.environment["HIGHLIGHT_ORACLE_SHOW"] == language.names[0], ours != pygmentsFamilies {
                // For tuning a language: each line that differs, then ours and Pygments' families under it.
                var start = 0
                for line in block.code.split(separator: "\n", omittingEmptySubsequences: false) {
                    let count = line.unicodeScalars.count
                    let mine = String(ours[start..<start + count]), theirs = String(pygmentsFamilies[start..<start + count])
                    if mine != theirs { print("   |" + line + "\nours|" + mine + "\npyg |" + theirs) }
                    start += count + 1
                }
            }
            var row = table[language.names[0]] ?? (0, 0, 0, [:])
            row.blocks += 1
            for index in 0..<ours.count where !scalars[index].properties.isWhitespace {
                row.compared += 1
                if ours[index] == pygmentsFamilies[index] {
                    row.agreed += 1
                } else {
                    row.misses["\(ours[index])→\(pygmentsFamilies[index])", default: 0] += 1
                }
            }
            table[language.names[0]] = row
        }
        var report = "language           blocks  chars  agree  (most frequent differences, ours→Pygments')\n"
        for (name, row) in table.sorted(by: { $0.value.blocks > $1.value.blocks }) {
            let share = row.compared == 0 ? 1 : Double(row.agreed) / Double(row.compared)
            let misses = row.misses.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            report += name.padding(toLength: 18, withPad: " ", startingAt: 0)
                + String(format: " %6d %6d %5.1f%%  ", row.blocks, row.compared, share * 100) + misses + "\n"
            if row.blocks >= 20 {
                XCTAssertGreaterThanOrEqual(share, 0.9, "\(name): \(row.agreed) of \(row.compared) characters agree with Pygments")
            }
        }
        print(report)
    }
}
