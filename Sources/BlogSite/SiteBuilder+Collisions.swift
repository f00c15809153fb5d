import BlogConfig
import BlogContent
import BlogCore
import Foundation

// Output paths wanted twice, or that differ only by case.

extension SiteBuilder {
    /// Output paths that differ only by case (`posts/Swift/` and `posts/swift/`), as warnings naming both sources: on
    /// a case-insensitive file system (macOS's and Windows' by default, and many hosts') one file would replace the
    /// other, so a page would be missing without a word. Compared with Unicode's simple lower-casing.
    package static func caseCollisions(_ site: Site) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        // The pages' files, then the copied ones, by number: who owns one is said only when it collides.
        let copies = site.assets + site.sources
        let count = site.pages.count + copies.count
        func pathOf(_ file: Int) -> String { file < site.pages.count ? site.pages[file].outputPath : copies[file - site.pages.count].path }
        func ownerOf(_ file: Int) -> String {
            guard file < site.pages.count else { return "content/" + copies[file - site.pages.count].source }
            if case .post(let index) = site.pages[file].kind { return site.posts[index].post.source }
            return "the generated page /\(site.pages[file].url)"
        }
        // Folded path -> the first file of it; looked up once a file (the first kept where a later one collides).
        var seen: [String: Int] = .init(minimumCapacity: count)
        for file in 0..<count {
            let path = pathOf(file)
            // ASCII without capitals (nearly every path) is its own lower case.
            let folded = path.utf8.contains { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? path.lowercased() : path
            guard let first = seen.updateValue(file, forKey: folded) else { continue }
            seen[folded] = first
            if pathOf(first) != path {
                warnings.append(.warning(ownerOf(file), "its output /\(path) differs only by case from /\(pathOf(first)) of \(ownerOf(first)): on a case-insensitive file system (macOS, Windows, many web hosts) one replaces the other; rename one of them"))
            }
        }
        return warnings.sortedForDisplay()
    }

    /// Every output path wanted twice (pages and copied assets), as errors naming both sources.
    static func urlCollisions(_ site: Site) -> [Diagnostic] {
        /// Who wants a path, whether its header names that URL (then a `slug` can't move it), and
        /// the line that asks for it (a `redirects:` entry of blog.yml).
        typealias Owner = (name: String, explicit: Bool, at: (file: String, line: Int, column: Int)?)
        // Output path -> who wants it: a page by its index, described only when another wants its path too (each
        // page described was a name made and the page copied).
        enum Claimant {
            case page(Int)
            case other(Owner)
        }
        var owners: [String: Claimant] = .init(minimumCapacity: site.pages.count + site.sources.count + site.assets.count + site.redirects.count)
        var diagnostics: [Diagnostic] = []
        func describe(_ page: Page) -> Owner {
            switch page.kind {
            case .post(let i): return (site.posts[i].post.source, hasExplicitURL(site.posts[i].post), nil)
            case .home: return (site.listURL.isEmpty ? "the home page list" : "the post list (`permalinks.home_list`)", false, nil)
            case .term(let taxonomy, let i, _): return (taxonomy.pageName(site.terms(taxonomy)[i].tag), false, nil)
            case .termIndex(let taxonomy): return (taxonomy.indexName, false, nil)
            case .archives: return (GeneratedPage.archives.name, false, nil)
            case .notFound: return (GeneratedPage.notFound.name, false, nil)
            }
        }
        func claim(_ path: String, by claimant: Claimant, blameNewcomer: Bool) {
            func owner(_ claimant: Claimant) -> Owner {
                switch claimant {
                case .page(let index): return describe(site.pages[index])
                case .other(let owner): return owner
                }
            }
            // Looked up once a path: the first claimant put back where a later one collides.
            if let earlier = owners.updateValue(claimant, forKey: path) {
                owners[path] = earlier
                let first = owner(earlier), owner = owner(claimant)
                let shownURL = "/" + (path == "index.html" || path.hasSuffix("/index.html") ? String(path.dropLast("index.html".count)) : path)
                let location = blameNewcomer ? owner : first
                let other = blameNewcomer ? first : owner
                let fix = location.at != nil ? "change or remove this `redirects` entry"
                    : location.explicit ? "change the `save_as`, `url` or `permalink` of one of them" : "give one of them another `slug`"
                let message = "URL \(shownURL) is also wanted by \(other.name): two pages can't share a URL; \(fix)"
                if let at = location.at {
                    diagnostics.append(.error(at.file, line: at.line, column: at.column, message))
                } else {
                    diagnostics.append(.error(location.name, message))
                }
            }
        }
        // Generated pages first, so a post that collides with one is the one named at fault.
        for index in site.pages.indices where !isPost(site.pages[index]) { claim(site.pages[index].outputPath, by: .page(index), blameNewcomer: false) }
        for index in site.pages.indices where isPost(site.pages[index]) { claim(site.pages[index].outputPath, by: .page(index), blameNewcomer: true) }
        for copy in site.sources { claim(copy.path, by: .other(("content/" + copy.source + " (`output_sources`)", false, nil)), blameNewcomer: true) }
        for asset in site.assets { claim(asset.path, by: .other(("content/" + asset.source, false, nil)), blameNewcomer: true) }
        for redirect in site.redirects {
            if let rule = redirect.rule {
                claim(redirect.outputPath, by: .other(("`redirects` entry /\(redirect.url) of \(rule.file)", false, (rule.file, rule.line, rule.column))), blameNewcomer: true)
            } else if let target = redirect.target {
                claim(redirect.outputPath, by: .other((site.posts[target].post.source + " (alias /\(redirect.url))", false, nil)), blameNewcomer: true)
            } else {
                claim(redirect.outputPath, by: .other(("the alias /\(redirect.url) of the list's first page", false, nil)), blameNewcomer: false)
            }
        }
        return diagnostics.sortedForDisplay()
    }

    private static func isPost(_ page: Page) -> Bool {
        if case .post = page.kind { return true }
        return false
    }
}
