import Foundation
import XCTest

/// Issue 30, item 3, through the real `blog` binary: YAML and header mistakes reported where they are
/// fixed, and misspellings with the word meant.
final class MessagesTests: BuiltSiteTestCase {
    /// `blog build` fails with exit 1, prints `stderr` exactly, and leaves the output folder as it was.
    func assertBuildFails(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = site.snapshot("public")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, stderr, file: file, line: line)
        XCTAssertEqual(site.snapshot("public"), before, "a failed build writes nothing", file: file, line: line)
    }

    /// A blog with one post, `content/posts/a.md`, whose text is `post`.
    func writeBlog(post: String, config: String = "title: T\nbase_url: https://example.org/\n") throws {
        try site.write("blog.yml", config)
        try site.write("content/posts/a.md", post)
    }

    static let failed = "blog: error: build failed; the output folder was not changed\n"

    // MARK: 3. YAML and header mistakes

    func testAnUnclosedBracketIsReportedWhereItOpens() throws {
        try writeBlog(post: "---\ntitle: A\ndate: 2024-01-02\ntags: [swift, yaml\n---\n\nBody.\n")
        try assertBuildFails("content/posts/a.md:4:7: error: invalid YAML: this `[` is never closed (still open at line 5); add its `]`\n" + Self.failed)
        // The same for a brace, a quote, and in blog.yml, whatever line YAML gives up on.
        try writeBlog(post: "---\ntitle: A\nparams: {a: 1\ndate: 2024-01-02\n---\n\nBody.\n")
        try assertBuildFails("content/posts/a.md:3:9: error: invalid YAML: this `{` is never closed (still open at line 4); add its `}`\n" + Self.failed)
        try writeBlog(post: "Title: A\nDate: 2024-01-02\n\nBody.\n", config: "title: \"My blog\nbase_url: https://example.org/\n")
        try assertBuildFails("blog.yml:1:8: error: invalid YAML: this quoted value is never closed (still open at line 3); add its closing quote\n" + Self.failed)
    }

    func testAValueWithAColonSaysToQuoteIt() throws {
        try writeBlog(post: "---\ntitle: My first post: a story #1\ndate: 2024-01-02\n---\n\nBody.\n")
        try assertBuildFails("content/posts/a.md:2:21: error: invalid YAML: a value with `: ` in it reads as a second key; put the value in quotes: "
                             + "`title: \"My first post: a story #1\"`\n" + Self.failed)
        // The line it shows is one YAML reads as meant.
        try writeBlog(post: "---\ntitle: \"My first post: a story #1\"\ndate: 2024-01-02\n---\n\nBody.\n")
        try build()
        XCTAssertTrue(try page("posts/a/index.html").contains("My first post: a story #1"))
    }

    func testMisspelledHeaderKeysAreWarningsNamingTheKeyMeant() throws {
        try writeBlog(post: "---\ntitel: Hello\ndtae: 2024-01-02\ntgas:\n  - a\n---\n\nBody.\n")
        // The `tgas:` list starts on the next line: the warning is at the key.
        XCTAssertEqual(try build().stderr, """
            content/posts/a.md:1:1: warning: missing date: the post is listed after every dated post and shows no date; add a `date: YYYY-MM-DD` header line
            content/posts/a.md:1:1: warning: missing title: using "A" from the file name
            content/posts/a.md:2:1: warning: unknown header key `titel` (no part of blog reads it): did you mean `title`?
            content/posts/a.md:3:1: warning: unknown header key `dtae` (no part of blog reads it): did you mean `date`?
            content/posts/a.md:4:1: warning: unknown header key `tgas` (no part of blog reads it): did you mean `tags`?

            """)
        // Keys of Pelican, Jekyll and Hugo, and a blog's own fields near no known key, stay quiet.
        try writeBlog(post: "---\ntitle: A\ndate: 2024-01-02\nlayout: post\nweight: 3\nlinkTitle: A\nlast_modified_at: 2024-02-01\n"
                      + "mood: happy\nreading_time: 4\n---\n\nBody.\n")
        XCTAssertEqual(try build().stderr, "")
        // A Pelican header too; `--strict` makes the warning fail the build.
        try writeBlog(post: "Title: A\nDate: 2024-01-02\nCatgory: notes\n\nBody.\n")
        let strict = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.hasPrefix("content/posts/a.md:3:1: warning: unknown header key `catgory` (no part of blog reads it): did you mean `category`?\n"),
                      strict.stderr)
    }

    func testBlogYAMLMisspellingsNameWhatWasMeant() throws {
        let post = "Title: A\nDate: 2024-01-02\n\nBody.\n"
        try writeBlog(post: post, config: "titel: T\nbase_url: https://example.org/\n")
        XCTAssertEqual(try build().stderr, "blog.yml:1:1: warning: unknown setting `titel`: did you mean `title`? ignored\n")
        // A key near none still lists them all.
        try writeBlog(post: post, config: "colour_scheme: dark\nbase_url: https://example.org/\n")
        XCTAssertTrue(try build().stderr.hasPrefix("blog.yml:1:1: warning: unknown setting `colour_scheme` (known: author, base_url, "))
        try writeBlog(post: post, config: "timezone: Europe/Pariss\nbase_url: https://example.org/\n")
        try assertBuildFails("blog.yml:1:11: error: `timezone` must be a time zone name such as Europe/Paris or UTC, got \"Europe/Pariss\"; "
                             + "did you mean `Europe/Paris`?\n" + Self.failed)
        try writeBlog(post: post, config: "permalinks: jekyl\nbase_url: https://example.org/\n")
        try assertBuildFails("blog.yml:1:13: error: unknown permalink preset \"jekyl\": did you mean `jekyll`?\n" + Self.failed)
        try writeBlog(post: post, config: "permalinks:\n  preset: pelcan\nbase_url: https://example.org/\n")
        try assertBuildFails("blog.yml:2:11: error: unknown permalink preset \"pelcan\": did you mean `pelican`?\n" + Self.failed)
        try writeBlog(post: post, config: "theme: defualt\nbase_url: https://example.org/\n")
        try assertBuildFails("error: missing theme \"defualt\": expected a folder themes/defualt/ with templates/; did you mean `default`?\n" + Self.failed)
        try site.write("themes/minimal/static/x.css", "")
        try writeBlog(post: post, config: "theme: minimall\nbase_url: https://example.org/\n")
        try assertBuildFails("error: missing theme \"minimall\": expected a folder themes/minimall/ with templates/; did you mean `minimal`?\n" + Self.failed)
    }
}
