import BlogCore
import Foundation
import XCTest

/// Issue 30, items 3, 4 and 7, through the real `blog` binary: YAML and header mistakes reported where they are
/// fixed, misspellings with the word meant, shell completions, and coloured messages on a terminal only.
/// swiftc's and clang's escape codes.
private let red = "\u{1B}[1;31m", yellow = "\u{1B}[1;33m", bold = "\u{1B}[1m", reset = "\u{1B}[0m"

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

    // MARK: 4. Shell completions

    func testCompletionScriptsAreValidShell() throws {
        let bash = try BlogCLI.run(["--generate-completion-script", "bash"], in: site.root)
        XCTAssertEqual(bash.status, 0, bash.stderr)
        XCTAssertTrue(bash.stdout.contains("complete -o filenames -F _blog blog"), bash.stdout)
        for option in ["--drafts", "--color", "--strict"] { XCTAssertTrue(bash.stdout.contains(option), option) }
        let script = try site.write("blog.bash", bash.stdout)
        let check = try BlogCLI.run(["-n", script.path], in: site.root, program: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(check.status, 0, check.stderr)
        // Sourced, it completes `blog bu` to `build`.
        let complete = try BlogCLI.run(["-c", "source \(script.path); COMP_WORDS=(blog bu); COMP_CWORD=1; COMP_LINE='blog bu'; COMP_POINT=7; "
                                        + "_blog blog bu blog; printf '%s\\n' \"${COMPREPLY[@]}\""],
                                       in: site.root, program: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(complete.stdout.split(separator: "\n"), ["build"], complete.stderr)
        for shell in ["zsh", "fish"] {
            let result = try BlogCLI.run(["--generate-completion-script", shell], in: site.root)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("blog"), shell)
        }
    }

    // MARK: 7. Colour

    /// A blog whose build prints one warning and one error.
    func writeBrokenBlog() throws {
        try site.write("blog.yml", "titel: T\nbase_url: https://example.org/\n")
        try site.write("content/posts/a.md", "Title: A\nDate: 2024-13-02\n\nBody.\n")
    }

    func testColourIsForTerminalsOrWhenAsked() throws {
        try writeBrokenBlog()
        let coloured = bold + "blog.yml:1:1:" + reset + " " + yellow + "warning:" + reset + " unknown setting `titel`: did you mean `title`? ignored\n"
            + bold + "content/posts/a.md:2:7:" + reset + " " + red + "error:" + reset + " "
        let plain = "blog.yml:1:1: warning: unknown setting `titel`: did you mean `title`? ignored\ncontent/posts/a.md:2:7: error: "
        let cases: [(arguments: [String], environment: [String: String], coloured: Bool)] = [
            (["build"], [:], false),  // a file, not a terminal
            (["build", "--color", "always"], [:], true),
            (["build", "--color=always"], ["NO_COLOR": "1"], true),  // the option wins over the environment
            (["build"], ["CLICOLOR_FORCE": "1"], true),
            (["build"], ["CLICOLOR_FORCE": "0"], false),
            (["build"], ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"], false),  // NO_COLOR wins
            (["build"], ["CLICOLOR_FORCE": "1", "NO_COLOR": ""], true),  // an empty NO_COLOR is unset
            (["build", "--color", "never"], ["CLICOLOR_FORCE": "1"], false),
        ]
        for (arguments, environment, isColoured) in cases {
            var environment = environment
            for name in ["NO_COLOR", "CLICOLOR_FORCE"] where environment[name] == nil { environment[name] = "" }
            let result = try BlogCLI.run(arguments, in: site.root, environment: environment)
            XCTAssertEqual(result.status, 1, "\(arguments) \(environment)")
            XCTAssertTrue(result.stderr.hasPrefix(isColoured ? coloured : plain), "\(arguments) \(environment): \(result.stderr)")
            XCTAssertEqual(result.stderr.contains("\u{1B}"), isColoured, "\(arguments) \(environment)")
            if isColoured {
                XCTAssertTrue(result.stderr.hasSuffix(bold + "blog:" + reset + " " + red + "error:" + reset + " build failed; the output folder was not changed\n"),
                              result.stderr)
            }
        }
        let bad = try BlogCLI.run(["build", "--color", "sometimes"], in: site.root)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("sometimes"), bad.stderr)
    }

    /// `serve` colours lines it gets as text: the first severity word is the message's, whatever the message quotes.
    func testALineOfTextIsColouredAtItsOwnSeverity() {
        let color = MessageColor(enabled: true)
        XCTAssertEqual(color.text(line: "content/a.md:3:1: warning: the value \"x: error: y\" is cut"),
                       bold + "content/a.md:3:1:" + reset + " " + yellow + "warning:" + reset + " the value \"x: error: y\" is cut")
        XCTAssertEqual(color.text(line: "error: cannot listen on evil"), red + "error:" + reset + " cannot listen on evil")
        XCTAssertEqual(color.text(line: "Rebuilt in 0.1 s: 3 files written"), "Rebuilt in 0.1 s: 3 files written")
        XCTAssertEqual(MessageColor(enabled: false).text(line: "error: x"), "error: x")
    }

    /// Under a real terminal (`script` gives the command a pty): coloured, unless `NO_COLOR` or `TERM=dumb`.
    func testATerminalGetsColour() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1) to make a terminal") }
        try writeBrokenBlog()
        func underTerminal(_ environment: [String: String]) throws -> String {
            var environment = environment
            for name in ["NO_COLOR", "CLICOLOR_FORCE"] where environment[name] == nil { environment[name] = "" }
            let command = "'\(BlogCLI.executable.path)' build"
            let result = try BlogCLI.run(["-qec", command, "/dev/null"], in: site.root, environment: environment,
                                         program: URL(fileURLWithPath: "/usr/bin/script"), timeLimit: 60)
            XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
            return result.stdout
        }
        let terminal = try underTerminal(["TERM": "xterm-256color"])
        XCTAssertTrue(terminal.contains(bold + "content/posts/a.md:2:7:" + reset + " " + red + "error:" + reset), terminal)
        XCTAssertFalse(try underTerminal(["TERM": "xterm-256color", "NO_COLOR": "1"]).contains("\u{1B}"))
        XCTAssertFalse(try underTerminal(["TERM": "dumb"]).contains("\u{1B}"))
    }
}
