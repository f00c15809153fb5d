import Foundation
import XCTest

/// What a reader who selects a code block of the default theme copies, in headless Chromium: the
/// code, without the line numbers, the console prompts or the language label.
final class CodeCopyTests: XCTestCase {
    func testCopyingCodeTakesNeitherLineNumbersNorPrompts() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("Chromium is not installed: apt-get install chromium")
        }
        let site = try TempSite()
        defer { site.remove() }
        try site.write("content/posts/code.md", """
            ---
            title: Code
            date: 2024-01-02
            ---
            ```console
            $ echo hi
            hi
            ```

                #!swift
                let a = 1
                print(a)

            ```python {hl_lines=[2]}
            x = 1
            y = 2
            ```
            """)
        // The output folder's own path as the base path: the pages then work from file:// URLs.
        let output = site.root.appendingPathComponent("public").standardizedFileURL
        try site.write("blog.yml", "title: T\nbase_url: \(output.path)/\n")
        let build = try BlogCLI.run(["build", "--no-cache", "--quiet"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let page = try XCTUnwrap(site.read("public/posts/code/index.html"))
        XCTAssertTrue(page.contains(#"<span class="ln">1</span>"#) && page.contains(#"<span class="gp">$ </span>"#), page)
        // Selects each <pre> as a reader would, and writes what the selection holds into the page.
        let script = """
            <script>
            const copied = [...document.querySelectorAll("pre")].map(pre => {
              const range = document.createRange(); range.selectNodeContents(pre);
              getSelection().removeAllRanges(); getSelection().addRange(range);
              return getSelection().toString();
            });
            const out = document.createElement("output"); out.id = "copied";
            out.textContent = JSON.stringify(copied); document.body.append(out);
            </script>
            """
        try site.write("public/posts/code/copy.html", page.replacingOccurrences(of: "</body>", with: script + "</body>"))
        let run = try BlogCLI.run(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                                   output.appendingPathComponent("posts/code/copy.html").absoluteString],
                                  in: site.root, program: URL(fileURLWithPath: chromium))
        let dom = run.stdout
        let start = try XCTUnwrap(dom.range(of: #"<output id="copied">"#), run.stderr)
        let end = try XCTUnwrap(dom.range(of: "</output>", range: start.upperBound..<dom.endIndex))
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let copied = try JSONDecoder().decode([String].self, from: Data(json.utf8))
        XCTAssertEqual(copied, ["echo hi\nhi", "let a = 1\nprint(a)", "x = 1\ny = 2"])
    }
}
