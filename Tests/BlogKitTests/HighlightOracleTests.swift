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

    /// The family of each byte of `code` as blog highlights it in `language`.
    static func families(_ code: String, _ language: Language) -> [UInt8] {
        var byByte = [UInt8](repeating: UInt8(ascii: "."), count: code.utf8.count)
        for token in Highlighter.tokens(code, language: language) {
            let letter = family(token.kind).asciiValue ?? 0
            for index in token.start..<token.end { byByte[index] = letter }
        }
        return byByte
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
        // Pygments runs while blog highlights the same blocks.
        let output = input.appendingPathExtension("out")
        try Data().write(to: output)
        defer { try? FileManager.default.removeItem(at: output) }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", FeedTestSite.fixture("pygments_tokens.py").path, input.path]
        python.standardOutput = try FileHandle(forWritingTo: output)
        try python.run()
        let ours = blocks.map { block in Highlighter.language(named: block.language).map { Self.families(block.code, $0) } ?? [] }
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, "Fixtures/pygments_tokens.py failed")
        let oracle = try JSONDecoder().decode([String?].self, from: Data(contentsOf: output))
        XCTAssertEqual(oracle.count, blocks.count)

        // Per language (its first name): blocks, characters compared, characters agreeing, and
        // what disagreed most (ours → Pygments').
        var table: [String: (blocks: Int, compared: Int, agreed: Int, misses: [String: Int])] = [:]
        for ((block, theirs), ours) in zip(zip(blocks, oracle), ours) {
            guard let theirs, let language = Highlighter.language(named: block.language) else { continue }
            // Ours is by byte, Pygments' by character: compared at each character's first byte.
            let pygmentsFamilies = Array(theirs.utf8)
            let bytes = Array(block.code.utf8)
            var starts: [Int] = []
            starts.reserveCapacity(pygmentsFamilies.count)
            for (index, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { starts.append(index) }
            guard starts.count == pygmentsFamilies.count else { continue }
            if ProcessInfo.processInfo.environment["HIGHLIGHT_ORACLE_SHOW"] == language.names[0] {
                // For tuning a language: each line that differs, then ours and Pygments' families under it.
                var lineStart = 0
                for (character, start) in starts.enumerated() where bytes[start] == 0x0A || character == starts.count - 1 {
                    let end = bytes[start] == 0x0A ? character : character + 1
                    let mine = String(decoding: starts[lineStart..<end].map { ours[$0] }, as: UTF8.self)
                    let theirs = String(decoding: pygmentsFamilies[lineStart..<end], as: UTF8.self)
                    if mine != theirs {
                        let line = String(decoding: bytes[starts[lineStart]..<(end < starts.count ? starts[end] : bytes.count)], as: UTF8.self)
                        print("   |" + line + "\nours|" + mine + "\npyg |" + theirs)
                    }
                    lineStart = character + 1
                }
            }
            var row = table[language.names[0]] ?? (0, 0, 0, [:])
            row.blocks += 1
            for (character, start) in starts.enumerated() where !Bytes.isSpace(bytes[start]) {
                row.compared += 1
                if ours[start] == pygmentsFamilies[character] {
                    row.agreed += 1
                } else {
                    row.misses["\(Character(UnicodeScalar(ours[start])))→\(Character(UnicodeScalar(pygmentsFamilies[character])))", default: 0] += 1
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

    /// Swift's closure arguments (`$0`, `$12`) are one name, as Pygments' SwiftLexer reads them, not `$` and a number.
    func testSwiftClosureArgumentsAreOneNameAsInPygments() throws {
        guard try FeedTestSite.run(["python3", "-c", "import pygments"]).status == 0 else {
            throw XCTSkip("Pygments is not installed (apt-get install python3-pygments): the comparison needs it")
        }
        let code = "let sorted = xs.sorted { $0.date > $1.date }\nlet sums = pairs.map { $0 + $12 * 2 }\nprint(\"$0\")\n"
        let blocks = [Block(language: "swift", code: code)]
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-dollar-\(UUID().uuidString).json")
        try JSONEncoder().encode(blocks).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let result = try FeedTestSite.run(["python3", FeedTestSite.fixture("pygments_tokens.py").path, input.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let theirs = try XCTUnwrap(try JSONDecoder().decode([String?].self, from: result.stdout).first ?? nil)
        let ours = String(decoding: Self.families(code, try XCTUnwrap(Highlighter.language(named: "swift"))), as: UTF8.self)
        // Each `$` and its digits: one family, Pygments' (the code is ASCII: bytes are characters).
        let bytes = Array(code.utf8)
        var checked = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "$") {
            var end = index + 1
            while end < bytes.count, Bytes.isDigit(bytes[end]) { end += 1 }
            let mine = Array(ours.utf8)[index..<end], pygments = Array(theirs.utf8)[index..<end]
            XCTAssertEqual(String(decoding: mine, as: UTF8.self), String(decoding: pygments, as: UTF8.self),
                           String(decoding: bytes[index..<end], as: UTF8.self))
            checked += 1
        }
        XCTAssertEqual(checked, 5)
        XCTAssertTrue(ours.contains(".vvo.....o.vvo") && ours.contains(".vv.o.vvv.o"), ours)
    }
}
