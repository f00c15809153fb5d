import Foundation
import XCTest

/// Pelican itself as the oracle: a small blog of our own Pelican posts, full of the constructs
/// where Python-Markdown and CommonMark part (headings without a space, HTML lines followed by
/// markdown, an inline tag alone on its line, a list right after a paragraph line, definition lists, CodeHilite markers, quotes and dashes), built by `blog` and read by Pelican's own
/// reader; each body's block structure and text must be the same (see
/// `Fixtures/pelican_compare.py` for what is compared).
final class PelicanComparisonTests: XCTestCase {
    /// File name -> the post, each with a title whose slug names its page.
    static let posts: [String: String] = [
        "headings.md": """
        Title: Headings
        Date: 2021-01-01

        ##Let's begin
        Some text.
        #hashtag
        ###Closed###

        A paragraph
        ##Splits it
        and goes on.

        - ##Step one
        - plain item

        > ##Quoted
        > text

            ##not a heading: code

        ```
        ##not a heading: fenced
        ```
        """,
        "html-lines.md": """
        Title: HTML lines
        Date: 2021-01-02

        Intro.

        <img src="/blog/images/pic.svg" alt="First">
        See [the headings](/blog/posts/headings/) and *this*.

        <img src="/blog/images/pic.svg" alt="Second">
        ```python
        print("one")
        ```
        Between.
        ```python
        print("two")
        ```

        <div class="note"></div>
        **After the div.**

        <p>A raw paragraph.</p>
        Then *markdown*.

        <br>
        After a break.
        """,
        "definitions.md": """
        Title: Definitions
        Date: 2021-01-03

        Apple
        :   A fruit with *pips*.
        :   A company.

        Orange
        :   A citrus.

        Kiwi

        :   Loose, after a blank line.

        Tools
        :   - a list
            - in a definition
        """,
        "code-markers.md": """
        Title: Code markers
        Date: 2021-01-04

        Two colons:

            ::python
            print('two')

        Three:

            :::bash
            echo three

        More after the language:

            ::swift::
            let a = 1

        Spaces after it:

            :::swift   
            let b = 2

        Lines to highlight:

            :::python hl_lines="1"
            print('hl')

        A space before it:

            ::: python
            print('kept')
        """,
        "typography.md": """
        Title: Typography
        Date: 2021-01-05

        "Don't," she said -- it's 1999---and then... nothing.

        ## It's 'quoted' -- "twice"

        > A quote's "quotes"...
        """,
        "inline-html-lines.md": """
        Title: Inline HTML lines
        Date: 2021-01-06

        Intro.

        <img src="/blog/images/pic.svg" alt="Alone">

        <a href="/blog/images/pic.svg"><img src="/blog/images/pic.svg" alt="Linked"></a>

        <span class="note">A span.</span>

        <br>

        <div class="box"></div>

        <iframe src="https://video.example.com/embed"></iframe>

        > <img src="/blog/images/pic.svg" alt="Quoted">

        Outro.
        """,
        "lists-after-paragraphs.md": """
        Title: Lists after paragraphs
        Date: 2021-01-07

        Steps:
        * one
        * two

        * a list after the blank line

        Numbered:
        1. first
        2. second

        > Quoted:
        > - a
        > - b

        * An item

            With a paragraph:
            * and a list

        Last: a nested list under an item's own line

        * item
            * nested
        """,
    ]

    func testBodiesMatchPelicans() throws {
        try compare(Self.posts)
    }

    /// Issue 29, classes 4, 5, 6, 8 and 9: link destinations with spaces (to a file, and through
    /// `{filename}` and `{static}` to a post and a file in folders with spaces), looseness item by
    /// item, block quotes parted by blank lines, raw HTML blocks holding blank lines, and attribute
    /// lists (their text gone where Python-Markdown takes them, kept where it keeps it). `--strict` and `blog check` pass:
    /// every such link resolved.
    func testBlocksAndLinksMatchPelicans() throws {
        try compare(Self.blockPosts, files: [
            "content/images/my pic.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "content/Folder With Spaces/target.md": "Title: Target\nDate: 2021-02-01\n\nThe target.\n",
        ])
    }

    static let blockPosts: [String: String] = [
        "link-destinations.md": """
        Title: Link destinations
        Date: 2021-02-02

        See [the picture](/blog/images/my pic.svg) and ![a picture](/blog/images/my pic.svg "With a title").

        A post: [the target]({filename}/Folder With Spaces/target.md), and
        [again]({filename}../Folder%20With%20Spaces/target.md); a file: [it]({static}/images/my pic.svg).

        ## A heading [with a link](/blog/images/my pic.svg)

        > Quoted: [a link](  /blog/images/my pic.svg  ).

        - An item: [a link](/blog/images/my pic.svg)

        Code is left alone: `[x](/no such file)`.
        """,
        "attribute-lists.md": """
        Title: Attribute lists
        Date: 2021-02-05

        ## A heading {: .wide #first }

        ### Another {.narrow} ###

        A paragraph
        {: .lead }

        ![A picture](/blog/images/pic.svg){: .shot width=50} and [a link](/blog/images/pic.svg){.more} in text.

        Left as text: {.nothing} here, and a line of its own:

        {: .alone }
        """,
        "loose-items.md": """
        Title: Loose items
        Date: 2021-02-06

        * One
        * Two, before a blank line
          and its second line.

        * Three, after it
        * Four

        Numbered:

        1. First
        2. Second

            Its own second paragraph.

        3. Third
            * nested
            * list
        4. Fourth
        5. Fifth

        * Bullets right after, a blank line between: the numbered list goes on
        - and another marker
        """,
        "quotes-across-blank-lines.md": """
        Title: Quotes across blank lines
        Date: 2021-02-03

        > First paragraph of the quote.

        > Second, after a blank line.
        > Still the second.
         
        > Third, after a line holding a space.


        > Fourth, after two blank lines.

        A paragraph between.

        > A quote of its own.
        >
        > > Nested one.
        >
        > > Nested two.
        """,
        "raw-html-blocks.md": """
        Title: Raw HTML blocks
        Date: 2021-02-04

        Intro.

        <div class="row">
        <div class="c6">
        <p>First.</p>

        <p>Second, after a blank line.</p>
        </div>

            <p>Indented, still raw.</p>

        </div>
        After the div, *markdown*.

        <div class="outer">

        *Not emphasis.*

        </div>

        <div class="note" markdown="1">
        *Markdown* inside, with [a link](/blog/images/pic.svg).

        - and a list
        </div>

        Outro with *emphasis*.
        """,
    ]

    /// Issue 29, class 7: `*` and `**` beside CJK (and ASCII) punctuation, which Python-Markdown pairs
    /// and CommonMark's flanking rules leave as written; underscores next to CJK and an escaped `\_`.
    /// The `<em>` and `<strong>` elements are compared too.
    func testEmphasisMatchesPelicans() throws {
        try compare(Self.emphasisPosts, emphasis: true)
    }

    static let emphasisPosts: [String: String] = [
        "emphasis.md": """
        Title: Emphasis
        Date: 2021-03-01

        これは**「大事な」**ことです。そして*『本』*を読む。

        文の途中の**…**で止まる、**（注）**も同じ。

        Latin too: a**(note)**b and x*[y]*z, and **plain** words.

        Left alone: 2 * 3 * 4, a ** b, snake_case_name and 2*3*4.

        Underscores by CJK: これは_「例」_です, __「例」__ も。

        Debugging names (\\__LINE__, etc) and (__LINE__) again.

        ## 見出しの**「強調」**も

        > 引用の中の**「強調」**です。

        - 項目の**「強調」**です。

        `code **「not」** here` and [a **「link」**](/blog/images/pic.svg).
        """,
    ]

    /// With `smarty` in Pelican's MARKDOWN and `markdown.smart_punctuation: true` in blog.yml (as `blog init
    /// --from` writes it for such a blog), both make curly quotes, dashes and ellipses.
    func testSmartyMatchesSmartPunctuation() throws {
        try compare(["typography.md": Self.posts["typography.md"]!], blogYML: "markdown:\n  smart_punctuation: true\n", smarty: true)
    }

    /// Builds `posts` with blog (and `files`, not compared; `blogYML` added to its settings) and compares each body with Pelican's,
    /// with `smarty` enabled in Pelican when asked, and `<em>`/`<strong>` compared when `emphasis`.
    func compare(_ posts: [String: String], files: [String: String] = [:], blogYML: String = "", smarty: Bool = false,
                 emphasis: Bool = false) throws {
        // The python3 on PATH, where `python3 -m pip install` puts Pelican.
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let probe = try BlogCLI.run(["python3", "-c", "import pelican.readers"], in: URL(fileURLWithPath: "/"), program: python)
        guard probe.status == 0 else {
            throw XCTSkip("Pelican is needed to compare with: python3 -m pip install pelican (\(probe.stderr.suffix(200)))")
        }
        let site = try TempSite()
        defer { site.remove() }
        try site.write("blog.yml", "title: Compared\nbase_url: https://example.org/blog/\ntimezone: UTC\n" + blogYML)
        try site.write("content/images/pic.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        for (name, text) in posts { try site.write("content/posts/\(name)", text + "\n") }
        for (path, text) in files { try site.write(path, text) }

        let build = try BlogCLI.run(["build", "--strict"], in: site.root)
        XCTAssertEqual(build.status, 0, build.stderr)
        let check = try BlogCLI.run(["check"], in: site.root)
        XCTAssertEqual(check.status, 0, check.stderr)

        let pairs = posts.keys.sorted().map { name in
            "posts/\(name)=" + site.root.appendingPathComponent("public/posts/\(name.dropLast(3))/index.html").path
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pelican_compare.py")
        let compare = try BlogCLI.run(["python3", script.path] + (smarty ? ["--smarty"] : []) + [site.root.appendingPathComponent("content").path] + pairs,
                                      in: site.root, program: python)
        XCTAssertEqual(compare.status, 0, "bodies that differ from Pelican's:\n\(compare.stdout)\(compare.stderr)")
    }
}
