import Foundation
import XCTest

/// The default theme on a 390 px phone screen, laid out by headless Chromium, and its body face on Linux.
final class ThemeNarrowTests: BuiltSiteTestCase {
    /// An inline code span is one box: `---` is never cut at its hyphens between two lines, and a span longer than
    /// the line wraps inside the text's width.
    func testInlineCodeIsNeverCutAtTheEndOfANarrowLine() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("Chromium is not installed: apt-get install chromium")
        }
        // `---` after 0 to 119 letters in words of 1 to 7: some paragraph puts it at the end of a line.
        var paragraphs: [String] = []
        for letters in 0..<120 {
            var words: [String] = [], left = letters
            while left > 0 {
                let length = min(left, 1 + (left * 7 + letters) % 7)
                words.append(String(repeating: "x", count: length))
                left -= length
            }
            paragraphs.append((words + ["`---` then more words to fill the line."]).joined(separator: " "))
        }
        paragraphs.append("Long: `a-very-long-inline-code-span-with-many-hyphens-that-is-longer-than-the-line-itself` ends.")
        paragraphs.append("Unbroken: `averyveryverylonginlinecodespanwithnohyphenatallthatislongerthanthelineitselfbyfar` ends.")
        try site.write("content/posts/wrap.md", "---\ntitle: Wrap\ndate: 2024-01-02\n---\n\n" + paragraphs.joined(separator: "\n\n") + "\n")
        let output = site.root.appendingPathComponent("public").standardizedFileURL
        try site.write("blog.yml", "title: T\nbase_url: \(output.path)/\n")
        try build(["--quiet"])
        // The post in a 390 px frame; the frame's page measures each inline code span.
        try site.write("public/posts/wrap/narrow.html", """
            <!doctype html><html><body style="margin:0"><iframe id="f" src="index.html" style="width:390px;height:4000px;border:0"></iframe>
            <script>
            document.getElementById("f").addEventListener("load", () => {
              const page = document.getElementById("f").contentDocument;
              const codes = [...page.querySelectorAll(":not(pre) > code")];
              const width = page.documentElement.clientWidth;
              const result = {
                width, codes: codes.length,
                cut: codes.filter(c => c.getClientRects().length > 1).map(c => c.textContent),
                wider: codes.filter(c => c.getBoundingClientRect().right > width + 0.5 || c.scrollWidth > c.clientWidth + 1).map(c => c.textContent),
              };
              const out = document.createElement("output"); out.id = "probe"; out.textContent = JSON.stringify(result); document.body.append(out);
            });
            </script></body></html>
            """)
        let run = try BlogCLI.run(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
                                   "--window-size=800,1000", "--dump-dom", output.appendingPathComponent("posts/wrap/narrow.html").absoluteString],
                                  in: site.root, program: URL(fileURLWithPath: chromium), timeLimit: 120)
        let dom = run.stdout
        let start = try XCTUnwrap(dom.range(of: #"<output id="probe">"#), run.stderr)
        let end = try XCTUnwrap(dom.range(of: "</output>", range: start.upperBound..<dom.endIndex))
        struct Probe: Decodable { var width: Int; var codes: Int; var cut: [String]; var wider: [String] }
        let probe = try JSONDecoder().decode(Probe.self, from: Data(dom[start.upperBound..<end.lowerBound].utf8))
        XCTAssertEqual(probe.width, 390)
        XCTAssertEqual(probe.codes, 122)
        XCTAssertEqual(probe.cut, [], "code spans cut between two lines")
        XCTAssertEqual(probe.wider, [], "code spans wider than the text")
    }

    /// On this Linux machine the body's serif stack reaches an installed face it names, before the generic `serif`
    /// (which Chromium and Firefox make Times-like: Liberation Serif, Nimbus Roman).
    func testTheSerifStackNamesAFaceLinuxHas() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fc-list") else { throw XCTSkip("no fc-list (fontconfig)") }
        try site.write("blog.yml", "title: T\n")
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-01-02\n\nA.\n")
        try build(["--quiet"])
        let css = try page("style.css")
        let start = try XCTUnwrap(css.range(of: "--serif:"))
        let end = try XCTUnwrap(css.range(of: ";", range: start.upperBound..<css.endIndex))
        let stack = css[start.upperBound..<end.lowerBound].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        XCTAssertEqual(stack.last, "serif")
        let fonts = try BlogCLI.run([":", "family"], in: site.root, program: URL(fileURLWithPath: "/usr/bin/fc-list"))
        let installed = Set(fonts.stdout.split(separator: "\n").flatMap { $0.split(separator: ",") }.map(String.init))
        let used = stack.first { installed.contains($0) }
        XCTAssertNotNil(used, "none of \(stack.dropLast()) is installed: the body would be the generic serif")
        XCTAssertFalse(["Liberation Serif", "Nimbus Roman", "Times New Roman", "Tinos"].contains(used ?? ""))
    }
}
