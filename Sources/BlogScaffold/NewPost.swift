import BlogConfig
import BlogContent
import BlogCore
import Foundation

/// `blog new`: a new post file, with its header written in the blog's form.
public struct NewPost: Sendable {
    /// The post's title.
    public var title: String
    /// Its tags, in order.
    public var tags: [String] = []
    /// Its category.
    public var category: String?
    /// Whether it is a draft (left out of builds without `--drafts`).
    public var draft = false
    /// The header form; nil: `new_post_format` of blog.yml, else the form most posts of the blog use.
    public var format: NewPostFormat?
    /// Whether the post is a folder of its own (`slug/index.md`), so its images can sit beside it.
    public var bundle = false

    /// A post titled `title`, with no tags, category or draft status, in the blog's form.
    public init(title: String) {
        self.title = title
    }

    /// Writes the post into the content folder of the blog folder `source` and returns its path as the user
    /// can open it (relative to the working folder when `source` is).
    ///
    /// The post is dated `now` in the blog's time zone and named by its title's slug, in the folder where most
    /// posts are (`posts/` in a new blog), named as most files there are (with Jekyll's `YYYY-MM-DD-` prefix when
    /// they have one).
    /// - Throws: ``BuildFailure`` when blog.yml does not read, the title gives no slug, another post has that
    ///   slug, or the file exists or can't be written. Nothing is written then.
    public func create(source: String, now: Date) throws -> String {
        try checkOneLineValues()
        let folder = BlogFolder(source)
        let (config, _) = try ConfigLoader.load(path: folder.url.appendingPathComponent("blog.yml").path,
                                                displayPath: folder.display + "blog.yml")
        let (contentURL, contentDisplay) = folder.resolve(config.content)
        let title = self.title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw BuildFailure([.error("blog new: expected a title, such as blog new \"My first post\"")]) }
        let slug = Slug.make(title)
        guard !slug.isEmpty else {
            throw BuildFailure([.error("blog new: the title \"\(title)\" has no letter or digit to make the post's file name from")])
        }
        let existing = BlogPosts(contentURL, display: contentDisplay, timeZone: config.timeZone)
        if let other = existing.posts.first(where: { $0.slug == slug }) {
            throw BuildFailure([.error(other.source, "this post already has the slug `\(slug)` that \"\(title)\" gives; choose another title, or set a `slug` in one of the headers")])
        }
        let form = format ?? config.newPostFormat ?? existing.mostUsedFormat ?? .yaml
        let place = existing.placeForNewPost
        let dated = place.datePrefix ? DateText.day(now, in: config.timeZone) + "-" + slug : slug
        let relative = (place.folder.isEmpty ? "" : place.folder + "/") + (bundle ? dated + "/index.md" : dated + ".md")
        let header = PostHeader(title: title, date: now, timeZone: config.timeZone, tags: tags, category: category, draft: draft)
        let url = contentURL.appendingPathComponent(relative)
        let shown = contentDisplay + "/" + relative
        try FileCreation.createNew(url, contents: Data((header.text(form) + "\n").utf8), shown: shown,
                                   exists: "a file is already here; blog new never overwrites one")
        return shown
    }
}

extension NewPost {
    /// Throws, naming the option, when a value written into the header holds a line break (`\n`, `\r`, U+2028 and
    /// the others Swift counts): the line would end there, and what follows become a header line of its own, in
    /// any header form (`--tags $'a\nSave_as: index.html'` made the post replace the home page).
    func checkOneLineValues() throws {
        let values = [("blog new", "the title", title)] + tags.map { ("--tags", "a tag", $0) }
            + (category.map { [("--category", "the category", $0)] } ?? [])
        let errors = values.filter { $0.2.contains(where: \.isNewline) }.map { option, what, value in
            Diagnostic.error("\(option): \(what) \"\(value)\" holds a line break: a header value is one line")
        }
        if !errors.isEmpty { throw BuildFailure(errors) }
    }
}

/// The posts a blog has, as `blog new` needs them: their slugs, header forms and places. Files that don't read
/// are left out: a broken post is no reason not to start another.
struct BlogPosts {
    /// Every post and page that reads.
    var posts: [Post] = []

    /// Reads every post of the content folder `url` (none when there is no such folder).
    init(_ url: URL, display: String, timeZone: TimeZone) {
        guard let inventory = try? ContentScanner.scan(url, displayPath: display) else { return }
        let bundles = PageBundle.Folders(posts: inventory.posts)
        posts = Parallel.map(inventory.posts.count) { index -> Post? in
            let path = inventory.posts[index]
            return try? PostReader.read(fileAt: url.appendingPathComponent(path), source: display + "/" + path, contentPath: path,
                                        bundle: bundles.contains(path), timeZone: timeZone).0
        }.compactMap { $0 }
    }

    /// The posts proper (not pages).
    private var articles: [Post] { posts.filter { $0.kind == .post } }

    /// The header form most posts have; nil when none has a header. A tie goes to the first of ``NewPostFormat``'s cases.
    var mostUsedFormat: NewPostFormat? {
        var counts: [NewPostFormat: Int] = [:]
        for post in articles {
            switch post.headerFormat {
            case .pelican: counts[.pelican, default: 0] += 1
            case .yaml: counts[.yaml, default: 0] += 1
            case .toml: counts[.toml, default: 0] += 1
            case .none: break
            }
        }
        return NewPostFormat.allCases.filter { counts[$0] != nil }.max { counts[$0]! < counts[$1]! || (counts[$0]! == counts[$1]! && $0.rawValue > $1.rawValue) }
    }

    /// The folder (under the content folder) that holds most posts, `posts` when there are none; and whether most
    /// posts there are named with a date (`2024-05-01-title.md`, Jekyll's rule).
    var placeForNewPost: (folder: String, datePrefix: Bool) {
        var byFolder: [String: (count: Int, dated: Int)] = [:]
        for post in articles {
            // A folder post (`posts/x/index.md`) is named by its folder, which sits in the place.
            var parts = post.contentPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            if post.isBundle { parts = parts.dropLast() }
            let folder = parts.joined(separator: "/")
            let dated = PostReader.FileName(source: post.contentPath, bundle: post.isBundle).datePrefix != nil
            byFolder[folder, default: (0, 0)].count += 1
            byFolder[folder, default: (0, 0)].dated += dated ? 1 : 0
        }
        guard let best = byFolder.max(by: { $0.value.count < $1.value.count || ($0.value.count == $1.value.count && $0.key > $1.key) }) else {
            return ("posts", false)
        }
        return (best.key, best.value.dated * 2 > best.value.count)
    }
}
