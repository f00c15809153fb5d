import BlogConfig
import Foundation

/// The files `blog init` writes: a blog that builds at once, and says how to change it.
enum StarterFiles {
    /// `blog.yml`: every setting `blog` reads, each with its default and what it does, and `base_url` (the default,
    /// a path, makes feeds with paths only). Loading it gives the defaults of ``SiteConfig`` but for `base_url` (a
    /// test checks both).
    static func config(baseURL: String) -> String {
        configTemplate.replacingOccurrences(of: "base_url: \(ConfigLoader.initPlaceholderBaseURL)", with: "base_url: \(baseURL)")
    }

    /// ``config(baseURL:)`` with `blog init`'s placeholder, which `blog build --strict` refuses.
    static let configTemplate = """
    # blog.yml: the settings of this blog. Every setting is shown with its default value;
    # docs/configuration.md of blog's source explains each one.

    # The site's name, shown in the header and in feeds.
    title: My Blog
    # One line about the site (the home page and <meta name="description">).
    description: ""
    # The default author of every post.
    author: ""
    # Where the site is published (https://example.org/blog/ for a site under /blog/). Feeds and the
    # sitemap need the whole URL; every link starts with its path. The default is / (links only, with
    # a warning that feeds need the whole URL). blog build --strict refuses the placeholder of blog init,
    # \(ConfigLoader.initPlaceholderBaseURL); the publish workflow passes GitHub Pages' address with --base-url.
    base_url: \(ConfigLoader.initPlaceholderBaseURL)
    # <html lang>.
    language: en
    # The time zone of dates written without an offset, e.g. Europe/Paris.
    timezone: UTC
    # A folder under themes/; `default` is built into blog (a file in themes/default/ replaces its own).
    theme: default
    # Posts per list page (home, tag pages).
    paginate: 10
    # How pages show dates, strftime style (%-d: the day without a leading zero).
    date_format: "%a %-d %B %Y"
    # The output folder, relative to this folder.
    output: public
    # true: every link relative to its page (folders with index.html), so the site also works opened
    # from the disk (file://); feeds and the sitemap keep whole URLs. blog build --relative-urls does it once.
    relative_urls: false
    # The folder of posts, relative to this folder.
    content: content
    # The build cache's folder, relative to this folder.
    cache_dir: .blog-cache
    # URL patterns. post: {year} {month} {day} {slug} {category} {categories} {folder}; must hold {slug}.
    # Or another generator's URLs, so old links keep working: `permalinks: pelican` (or jekyll,
    # jekyll-pretty, hugo), or `preset: pelican` in this mapping with some patterns overridden.
    permalinks:
      post: posts/{slug}/
      tag: tags/{slug}/
      page: "{slug}/"
      # Where the post list goes when a page of content/ takes the home page (save_as: index.html).
      home_list: blog/
    # Redirect pages at old URLs, e.g. `old-name.html: /posts/new-name/` or `old/: posts/a-post.md`
    # (a post's file: the redirect follows the post if its URL changes).
    redirects: {}
    # Raw HTML in posts: trusted (as written), tagfilter (<script>, <iframe>, <style>… escaped) or
    # sanitize (only an allow-list of elements, attributes and URLs: for posts you did not write).
    html: trusted
    # How many of the newest posts each feed holds.
    feed_limit: 20
    # full: feeds carry each post's whole body; summary: only its summary.
    feed_content: full
    # Highlight code blocks in a known language at build time (false: plain code).
    highlight: true
    # The theme's palette for highlighted code: default (follows the reader's light or dark scheme) or contrast.
    highlight_style: default
    # The category of posts that name none (Pelican's DEFAULT_CATEGORY); null: none.
    default_category: null
    # Content files published at another path, e.g. `extra/CNAME: CNAME` (Pelican's EXTRA_PATH_METADATA).
    file_paths: {}
    # Copy each post's and page's file beside its page, as x.text for x.html (Pelican's OUTPUT_SOURCES).
    output_sources: false
    output_sources_extension: .text
    # Reading time: words a reader reads in a minute (Chinese and Japanese count by character).
    words_per_minute: 200
    # The heading levels a table of contents lists (a post shows one from 3 headings, or with `toc: true`).
    toc_levels: 1-3
    # How many related posts (most tags in common) show under each post; 0 for none.
    related_posts: 5
    # Scripts that draw ```mermaid diagrams and $math$, loaded only on pages that have them (empty: none).
    mermaid_script: ""
    math_script: ""
    # A search index of the posts, for the theme's search box (false: none, and no box).
    search: true
    # `blog check` warns about images under content/ larger than this.
    image_size_warning: 1MB
    # Curly quotes, dashes and ellipses: auto (as each post's generator: none in Pelican-form posts), true or false.
    markdown:
      smart_punctuation: auto
    # The header `blog new` writes: auto (the form most posts use), pelican, yaml or toml.
    new_post_format: auto
    # Values Liquid reads as {{ site.x }} in Jekyll-form posts (over a Jekyll _config.yml), e.g. repository: https://github.com/me/blog
    params: {}

    """

    /// `.gitignore`: what a build makes, which is never committed.
    static let gitignore = """
    # Made by `blog build`: the site, the previous site kept for a safe swap, the build cache.
    /public/
    /.public.blog-spare/
    /.blog-cache/

    """

    /// The welcome post, dated `date` (`YYYY-MM-DD`).
    static func welcomePost(date: String) -> String {
        """
        ---
        title: Welcome to your blog
        date: \(date)
        tags: [meta]
        ---

        This is your first post. It is a markdown file in `content/posts/`, with a header
        between the `---` lines: its title, its date and its tags.

        <!-- more -->

        Everything above the `<!-- more -->` line is the post's summary, shown on the home page
        and in feeds. Below it, write as you would anywhere markdown is read:

        ```swift
        let greeting = "Hello, world"
        print(greeting)
        ```

        To write the next post, run `blog new "A title"`: it prints the new file's path.
        Then `blog build` writes the site into `public/`.

        """
    }

    /// Where blog's source and releases are on GitHub (owner/name): the publish workflow uses its action.
    package static let blogRepository = "blog-swift/blog"

    /// A GitHub Actions workflow that builds the blog with blog's own action (a release binary, downloaded and
    /// checked in seconds), checks its links and publishes it on GitHub Pages at the address Pages gives.
    static func workflow(version: String) -> String {
        """
        # Builds the blog on every push to main, checks its links and publishes it on GitHub Pages.
        # GitHub Pages must publish from GitHub Actions: the repository's Settings > Pages > Source.
        name: publish
        on:
          push:
            branches: [main]
          workflow_dispatch:
        permissions:
          contents: read
          pages: write
          id-token: write
        concurrency:
          group: pages
          cancel-in-progress: false
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v5
              - id: pages
                uses: actions/configure-pages@v6
              - uses: \(blogRepository)@v\(version)
                with:
                  version: \(version)
                  args: build --strict --base-url ${{ steps.pages.outputs.base_url }}/
              - uses: actions/upload-pages-artifact@v4
                with:
                  path: public
          deploy:
            needs: build
            runs-on: ubuntu-latest
            environment:
              name: github-pages
              url: ${{ steps.deployment.outputs.page_url }}
            steps:
              - id: deployment
                uses: actions/deploy-pages@v5

        """
    }
}
