import Foundation
import XCTest

/// Small Jekyll, Hugo and Pelican blogs built by the real `blog` binary: what each tool's content
/// means (bundles, aliases, links between files, pages, translations) shows in the files written.
final class MigrationEndToEndTests: BuiltSiteTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try site.write("blog.yml", "title: Moved\nbase_url: https://example.org/blog/\ntimezone: UTC\n")
    }

    // MARK: Hugo

    func testPageBundleFilesGoBesideThePageAndDraftBundlesStayOut() throws {
        try site.write("content/posts/my trip/index.md", "---\ntitle: My trip\ndate: 2020-05-01\n---\n![Sea](photos/sea.jpg)\n")
        try site.write("content/posts/my trip/photos/sea.jpg", "JPEG")
        try site.write("content/posts/secret/index.md", "---\ntitle: Secret\ndate: 2020-05-02\ndraft: true\n---\nHidden.\n")
        try site.write("content/posts/secret/plan.pdf", "PDF")
        try site.write("content/images/logo.png", "PNG")
        _ = try build()
        let files = site.files(under: "public")
        XCTAssertTrue(files.contains("posts/my-trip/photos/sea.jpg"), "\(files)")
        XCTAssertFalse(files.contains { $0.contains("plan.pdf") }, "a draft bundle's files are not published")
        XCTAssertTrue(files.contains("images/logo.png"), "files outside bundles keep their path")
        XCTAssertTrue(try page("posts/my-trip/index.html").contains("<img src=\"photos/sea.jpg\" alt=\"Sea\""))
        // The relative link works from the page's folder: blog check finds no broken link.
        try assertCheckIsClean()
    }

    func testAliasesWriteRedirectPagesAndSectionIndexIsAPage() throws {
        try site.write("content/news/0.19/index.md", "---\ntitle: Hugo 0.19\ndate: 2017-02-27T13:53:58-04:00\naliases: [/0-19/, old/news.html]\n---\nNews.\n")
        try site.write("content/news/_index.md", "---\ntitle: Hugo News\naliases: [/release-notes/]\n---\nAll the releases.\n")
        _ = try build()
        let redirect = try page("0-19/index.html")
        XCTAssertTrue(redirect.contains("<meta http-equiv=\"refresh\" content=\"0; url=https://example.org/blog/posts/0.19/\">"), redirect)
        XCTAssertTrue(redirect.contains("<link rel=\"canonical\" href=\"https://example.org/blog/posts/0.19/\">"), redirect)
        XCTAssertTrue(try page("old/news.html").contains("url=https://example.org/blog/posts/0.19/"))
        XCTAssertTrue(try page("release-notes/index.html").contains("url=https://example.org/blog/news/"))
        // The section page: its own page at the folder's URL, no date, in no list.
        let section = try page("news/index.html")
        XCTAssertTrue(section.contains("All the releases.") && section.contains("<article class=\"page\""), section)
        XCTAssertFalse(section.contains("<time"), section)
        let home = try page("index.html")
        XCTAssertTrue(home.contains("Hugo 0.19"))
        XCTAssertFalse(home.contains("Hugo News"), "a section page is not a post")
        XCTAssertFalse(try page("feed.xml").contains("Hugo News"))
    }

    /// `redirects:` in blog.yml: the same redirect pages as aliases, to a post's file or a URL, in no
    /// sitemap, feed or list; one that takes a page's URL is an error at its line of blog.yml.
    func testRedirectsMapOfBlogYMLWritesRedirectPagesListedNowhere() throws {
        try site.write("content/posts/new-name.md", "---\ntitle: New name\ndate: 2020-01-01\n---\nN\n")
        try site.write("blog.yml", "title: Moved\nbase_url: https://example.org/blog/\nredirects:\n  old-name.html: content/posts/new-name.md\n  /2019/talk/: /posts/new-name/\n")
        _ = try build()
        let old = try page("old-name.html")
        XCTAssertTrue(old.contains("<meta http-equiv=\"refresh\" content=\"0; url=https://example.org/blog/posts/new-name/\">"), old)
        XCTAssertTrue(old.contains("<link rel=\"canonical\" href=\"https://example.org/blog/posts/new-name/\">"), old)
        XCTAssertTrue(old.contains("<title>New name</title>"), old)
        XCTAssertTrue(try page("2019/talk/index.html").contains("url=https://example.org/blog/posts/new-name/"))
        for listing in ["sitemap.xml", "feed.xml", "index.html", "archives/index.html"] {
            let text = try page(listing)
            XCTAssertFalse(text.contains("old-name") || text.contains("2019/talk"), listing)
        }
        try assertCheckIsClean()

        try site.write("blog.yml", "title: Moved\nbase_url: https://example.org/blog/\nredirects:\n  posts/new-name/: /elsewhere/\n")
        let clash = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("blog.yml:4:3: error: URL /posts/new-name/ is also wanted by content/posts/new-name.md: two pages can't share a URL; change or remove this `redirects` entry"), clash.stderr)
    }

    func testAnAliasThatTakesAnotherPagesURLIsAnError() throws {
        try site.write("content/a.md", "---\ntitle: A\ndate: 2020-01-01\n---\nA\n")
        try site.write("content/b.md", "---\ntitle: B\ndate: 2020-01-02\naliases: [/posts/a/]\n---\nB\n")
        let result = try BlogCLI.run(["build"], in: site.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("content/b.md (alias /posts/a/): error: URL /posts/a/ is also wanted by content/a.md")
                      || result.stderr.contains("URL /posts/a/ is also wanted by content/a.md"), result.stderr)
    }

    func testUndatedPostIsListedLastAndInNoFeed() throws {
        try site.write("content/dated.md", "---\ntitle: Dated\ndate: 2020-01-01\n---\nD\n")
        try site.write("content/undated.md", "---\ntitle: Undated one\n---\nU\n")
        let result = try build()
        XCTAssertTrue(result.stderr.contains("content/undated.md:1:1: warning: missing date"), result.stderr)
        let home = try page("index.html")
        let dated = try XCTUnwrap(home.range(of: "Dated")), undated = try XCTUnwrap(home.range(of: "Undated one"))
        XCTAssertLessThan(dated.lowerBound, undated.lowerBound)
        XCTAssertTrue(try page("posts/undated/index.html").contains("<span class=\"undated\">Undated</span>"))
        XCTAssertFalse(try page("feed.xml").contains("Undated one"))
        XCTAssertFalse(try page("archives/index.html").contains("1970"))
        // --strict turns the warning into a failure, for CI.
        XCTAssertEqual(try BlogCLI.run(["build", "--strict"], in: site.root).status, 1)
    }

    // MARK: Jekyll

    func testJekyllPostsLiquidAndPermalinks() throws {
        try site.write("content/_posts/2016-1-05-first.md", """
        ---
        title: First
        ---
        Read [the second]({% post_url 2016-02-10-second %}) and [again]({% link _posts/2016-02-10-second.md %}).
        Logo: {{ site.baseurl }}/logo.png on {{ site.url }}.
        {% highlight ruby %}
        puts "{{ not.liquid }}"
        {% endhighlight %}
        {% include note.html %}
        """)
        try site.write("content/_posts/2016-02-10-second.md", "---\ntitle: Second\npermalink: /about/second/\n---\nTwo.\n")
        let result = try build()
        let first = try page("posts/first/index.html")
        XCTAssertTrue(first.contains("href=\"/blog/about/second/\">the second</a>"), first)
        XCTAssertTrue(first.contains("href=\"/blog/about/second/\">again</a>"), first)
        // GFM's autolink then makes the site's address a link.
        XCTAssertTrue(first.contains("Logo: /blog/logo.png on <a href=\"https://example.org\">https://example.org</a>."), first)
        XCTAssertTrue(first.contains("<code class=\"language-ruby\"><span class=\"k\">puts</span> <span class=\"s\">&quot;{{ not.liquid }}&quot;</span>"), first)
        XCTAssertTrue(first.contains("{% include note.html %}"), "an unknown tag stays as written")
        XCTAssertTrue(result.stderr.contains("content/_posts/2016-1-05-first.md:9:1: warning: 1 template tag left as written ({% include %})"), result.stderr)
        XCTAssertTrue(first.contains("datetime=\"2016-01-05T00:00:00+00:00\"") || first.contains("datetime=\"2016-01-05T00:00:00Z\""), first)
        XCTAssertTrue(site.exists("public/about/second/index.html"))
    }

    func testAJekyllSiteAsItIsWithContentSetToPosts() throws {
        try site.write("blog.yml", "title: Jekyll as it is\ncontent: _posts\n")
        try site.write("_posts/2020-02-03-hello.md", "---\ntitle: Hello\ncategories: news\n---\nHi. [Older]({% link _posts/2019/2019-01-01-old.md %})\n")
        try site.write("_posts/2019/2019-01-01-old.md", "---\ntitle: Old\n---\nOld.\n")
        try site.write("_config.yml", "title: ignored\n")
        _ = try build()
        XCTAssertTrue(try page("posts/hello/index.html").contains("Hi. <a href=\"/posts/old/\">Older</a>"))
        // The output may not go inside the posts folder.
        let inside = try BlogCLI.run(["build", "--output", "_posts/out"], in: site.root)
        XCTAssertEqual(inside.status, 1)
        XCTAssertTrue(inside.stderr.contains("the output folder is inside _posts/"), inside.stderr)
    }

    // MARK: Pelican

    func testPelicanLinkWarningNamesTheContentFolderAsConfigured() throws {
        try site.write("blog.yml", "title: Moved\nbase_url: https://example.org/blog/\ncontent: articles\n")
        try site.write("articles/first.md", "Title: First\nDate: 2020-01-01\n\nSee [gone]({filename}missing.md).\n")
        let result = try build()
        XCTAssertTrue(result.stderr.contains("articles/first.md:4:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("no post or page articles/missing.md in the site"), result.stderr)
        XCTAssertFalse(result.stderr.contains("content/"), result.stderr)
    }

    func testPelicanLinksSaveAsPagesAndTranslations() throws {
        try site.write("content/posts/first.md", """
        Title: First
        Date: 2020-01-01
        Slug: first

        See [the other]({filename}other.md), [about]({filename}/pages/about.md),
        ![chart]({static}/images/chart.png), [data]({attach}data/file.csv) and [gone]({filename}missing.md).
        """)
        try site.write("content/posts/other.md", "Title: Other\nDate: 2020-01-02\nURL: custom/other.html\nSave_as: custom/other.html\n\nOther.\n")
        try site.write("content/posts/data/file.csv", "a,b\n")
        try site.write("content/images/chart.png", "PNG")
        try site.write("content/pages/about.md", "Title: About me\nSlug: about\n\nI write.\n")
        try site.write("content/posts/first-fr.md", "Title: Premier\nDate: 2020-01-01\nSlug: first\nLang: fr\n\nBonjour.\n")
        let result = try build()
        let first = try page("posts/first/index.html")
        XCTAssertTrue(first.contains("href=\"/blog/custom/other.html\">the other</a>"), first)
        XCTAssertTrue(first.contains("href=\"/blog/about/\">about</a>"), first)
        XCTAssertTrue(first.contains("src=\"/blog/images/chart.png\""), first)
        XCTAssertTrue(first.contains("href=\"/blog/posts/first/file.csv\">data</a>"), first)
        XCTAssertTrue(site.exists("public/posts/first/file.csv"), "{attach} puts the file beside the post")
        XCTAssertFalse(site.exists("public/posts/data/file.csv"))
        XCTAssertTrue(result.stderr.contains("content/posts/first.md:6:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: link {filename}missing.md: no post or page content/posts/missing.md in the site; left as written"), result.stderr)
        XCTAssertTrue(site.exists("public/custom/other.html"), "Save_as is honoured")
        // Pages: their own page, the page template, in no list.
        XCTAssertTrue(try page("about/index.html").contains("I write."))
        XCTAssertFalse(try page("index.html").contains("About me"))
        // The translation: under /fr/, in no list; the site's language owns the URL.
        XCTAssertTrue(try page("fr/posts/first/index.html").contains("Bonjour."))
        XCTAssertTrue(try page("posts/first/index.html").contains("See "))
        XCTAssertFalse(try page("index.html").contains("Premier"))
        // Pelican posts are never read as Liquid.
        XCTAssertFalse(result.stderr.contains("template tag"), result.stderr)
    }

    func testJSONListingShowsKindsCategoriesAndLanguages() throws {
        try site.write("content/pages/about.md", "Title: About\n\nMe.\n")
        try site.write("content/python/a.md", "Title: A\nDate: 2020-01-01\nLang: en\n\nA.\n")
        let list = try BlogCLI.run(["list", "--format", "json"], in: site.root)
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let about = try XCTUnwrap(entries.first { $0["title"] as? String == "About" })
        XCTAssertEqual(about["kind"] as? String, "page")
        XCTAssertTrue(about["date"] is NSNull)
        let a = try XCTUnwrap(entries.first { $0["title"] as? String == "A" })
        XCTAssertEqual(a["categories"] as? [String], ["python"])
        XCTAssertEqual(a["lang"] as? String, "en")
    }
}
