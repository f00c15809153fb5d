@testable import BlogConfig
import BlogCore
import Foundation
import XCTest

/// ``SiteConfig/digest``, written field by field: every field (found by `Mirror`, so a field added later without a
/// line in the digest fails here) moves it, and a map's digest does not depend on its order in memory.
final class SiteConfigDigestTests: XCTestCase {
    func testEveryFieldOfTheConfigurationMovesItsDigest() {
        checkEveryField(of: SiteConfig(), digest: \.digest, changes: [
            "title": { $0.title = "Other" },
            "description": { $0.description = "About" },
            "author": { $0.author = "Ann" },
            "baseURL": { $0.baseURL = "https://example.org/" },
            "language": { $0.language = "fr" },
            "timeZone": { $0.timeZone = TimeZone(identifier: "Europe/Paris")! },
            "timeZoneIsSet": { $0.timeZoneIsSet = true },
            "theme": { $0.theme = "plain" },
            "paginate": { $0.paginate = 11 },
            "defaultCategory": { $0.defaultCategory = "" },
            "dateFormat": { $0.dateFormat = "%Y" },
            "output": { $0.output = "site" },
            "content": { $0.content = "_posts" },
            "cacheDir": { $0.cacheDir = ".cache" },
            "permalinks": { $0.permalinks.post = "{slug}/" },
            "feedLimit": { $0.feedLimit = 21 },
            "html": { $0.html = .sanitize },
            "relativeURLs": { $0.relativeURLs = true },
            "highlight": { $0.highlight = false },
            "highlightStyle": { $0.highlightStyle = "monokai" },
            "search": { $0.search = false },
            "imageSizeWarning": { $0.imageSizeWarning = 1 },
            "smartPunctuation": { $0.smartPunctuation = false },
            "feedContent": { $0.feedContent = .summary },
            "newPostFormat": { $0.newPostFormat = .pelican },
            "wordsPerMinute": { $0.wordsPerMinute = 201 },
            "tocLevels": { $0.tocLevels = 1...4 },
            "relatedPosts": { $0.relatedPosts = 0 },
            "mermaidScript": { $0.mermaidScript = "m.js" },
            "mathScript": { $0.mathScript = "x.js" },
            "redirects": { $0.redirects = [RedirectRule(from: "a/", to: "/b/")] },
            "filePaths": { $0.filePaths = [FilePathRule(source: "extra/CNAME", path: "CNAME")] },
            "outputSources": { $0.outputSources = true },
            "outputSourcesExtension": { $0.outputSourcesExtension = ".md" },
            "params": { $0.params = ["a": .null] },
            "jekyllFiles": { $0.jekyllFiles = [ConfigFile(path: "_config.yml", text: "")] },
        ])
        // The two ends of the range, and a value that only the smart punctuation's presence tells apart.
        var config = SiteConfig()
        config.tocLevels = 2...3
        XCTAssertNotEqual(config.digest, SiteConfig().digest)
        config = SiteConfig()
        config.smartPunctuation = true
        var other = SiteConfig()
        other.smartPunctuation = false
        XCTAssertNotEqual(config.digest, other.digest)
    }

    func testEveryURLPatternMovesTheDigest() {
        func permalinksDigest(_ permalinks: Permalinks) -> Digest {
            var config = SiteConfig()
            config.permalinks = permalinks
            return config.digest
        }
        checkEveryField(of: Permalinks(), digest: permalinksDigest, changes: [
            "post": { $0.post = "{slug}/" },
            "tag": { $0.tag = "tag/{slug}/" },
            "page": { $0.page = "pages/{slug}/" },
            "homeList": { $0.homeList = "posts/" },
            "preset": { $0.preset = .hugo },
            "tagIndex": { $0.tagIndex = "tag/" },
            "archives": { $0.archives = "archive/" },
            "listPages": { $0.listPages = .numberedFiles },
            "atomFeed": { $0.atomFeed = "atom.xml" },
            "rssFeed": { $0.rssFeed = "feed.rss" },
            "jsonFeed": { $0.jsonFeed = "feed.js" },
            "tagFeed": { $0.tagFeed = "" },
            "tagIndexFeed": { $0.tagIndexFeed = "" },
            "languageFeed": { $0.languageFeed = "" },
            "postInLanguage": { $0.postInLanguage = "" },
            "pageInLanguage": { $0.pageInLanguage = "" },
            "lowercase": { $0.lowercase = true },
            "firstPageAlias": { $0.firstPageAlias = true },
            "asciiSlugs": { $0.asciiSlugs = true },
            "hugoTagSlugs": { $0.hugoTagSlugs = true },
            "category": { $0.category.page = nil },
            "author": { $0.author.index = nil },
            "section": { $0.section.page = "" },
            "siteAuthorPages": { $0.siteAuthorPages = true },
            "folderCategories": { $0.folderCategories = true },
            "draft": { $0.draft = "" },
            "draftPage": { $0.draftPage = "" },
        ])
        // Each taxonomy's patterns, in each of the three places.
        for place in [\Permalinks.category, \Permalinks.author, \Permalinks.section] {
            func termsDigest(_ patterns: TermPatterns) -> Digest {
                var permalinks = Permalinks()
                permalinks[keyPath: place] = patterns
                return permalinksDigest(permalinks)
            }
            checkEveryField(of: Permalinks()[keyPath: place], digest: termsDigest, changes: [
                "page": { $0.page = "x/{slug}/" },
                "index": { $0.index = "x/" },
                "indexFeed": { $0.indexFeed = "x.xml" },
                "atomFeed": { $0.atomFeed = "{slug}.xml" },
                "rssFeed": { $0.rssFeed = "{slug}.rss" },
            ])
        }
    }

    func testEveryFieldOfTheRulesAndFilesMovesTheDigest() {
        let redirect = RedirectRule(from: "a/", to: "/b/")
        checkEveryField(of: redirect, digest: { var config = SiteConfig(); config.redirects = [$0]; return config.digest }, changes: [
            "from": { $0.from = "c/" }, "to": { $0.to = "/d/" }, "file": { $0.file = "_config.yml" },
            "line": { $0.line = 2 }, "column": { $0.column = 2 },
        ])
        let rule = FilePathRule(source: "extra/CNAME", path: "CNAME")
        checkEveryField(of: rule, digest: { var config = SiteConfig(); config.filePaths = [$0]; return config.digest }, changes: [
            "source": { $0.source = "extra/robots.txt" }, "path": { $0.path = "robots.txt" },
            "line": { $0.line = 2 }, "column": { $0.column = 2 },
        ])
        let file = ConfigFile(path: "_config.yml", text: "a: 1")
        checkEveryField(of: file, digest: { var config = SiteConfig(); config.jekyllFiles = [$0]; return config.digest }, changes: [
            "path": { $0.path = "_data/a.yml" }, "text": { $0.text = "a: 2" },
        ])
    }

    /// `params:` by its keys in order: maps made in different orders, and with room for different numbers of
    /// entries (which orders a dictionary's entries differently), have one digest; a value moved to another key
    /// or nested differently does not.
    func testParamsAreDigestedByTheirKeysInOrder() {
        let keys = (0..<40).map { "key\($0)" }
        var first: [String: MetaValue] = [:], second: [String: MetaValue] = [:]
        second.reserveCapacity(1000)
        for key in keys { first[key] = .map(["inner": .string(key), "list": .list([.int(1), .bool(true)])]) }
        for key in keys.reversed() { second[key] = .map(["list": .list([.int(1), .bool(true)]), "inner": .string(key)]) }
        XCTAssertNotEqual(Array(first.keys), Array(second.keys), "the two maps must hold their keys in different orders")
        var config = SiteConfig(), other = SiteConfig()
        config.params = first
        other.params = second
        XCTAssertEqual(config.digest, other.digest)

        let variants: [[String: MetaValue]] = [
            ["a": .string("1")], ["a": .int(1)], ["a": .double(1)], ["a": .bool(true)], ["a": .date(Date(timeIntervalSince1970: 1))],
            ["a": .list([.string("1")])], ["a": .map(["a": .string("1")])], ["a": .null], ["b": .string("1")],
            ["a": .list([.string("1"), .string("2")])], ["a": .list([.list([.string("1")]), .string("2")])],
            ["a": .string("1"), "b": .string("")], ["a": .string(""), "b": .string("1")],
        ]
        let digests = variants.map { params -> Digest in
            var config = SiteConfig()
            config.params = params
            return config.digest
        }
        XCTAssertEqual(Set(digests).count, variants.count, "each of the params gives a digest of its own")
    }

    /// Two texts side by side cannot trade characters: each is digested with its length.
    func testTextsNextToEachOtherAreApart() {
        var config = SiteConfig(), other = SiteConfig()
        (config.title, config.description) = ("ab", "")
        (other.title, other.description) = ("a", "b")
        XCTAssertNotEqual(config.digest, other.digest)
    }

    /// Each stored field of `value` (by `Mirror`) has a change in `changes`, and each change moves `digest`.
    private func checkEveryField<Value>(of value: Value, digest: (Value) -> Digest, changes: [String: (inout Value) -> Void],
                                        file: StaticString = #filePath, line: UInt = #line) {
        let fields = Set(Mirror(reflecting: value).children.compactMap(\.label))
        XCTAssertEqual(fields, Set(changes.keys), "every field of \(Value.self) needs a change here and a line in SiteConfig.digest",
                       file: file, line: line)
        let base = digest(value)
        for (field, change) in changes.sorted(by: { $0.key < $1.key }) {
            var changed = value
            change(&changed)
            XCTAssertNotEqual(digest(changed), base, "\(Value.self).\(field) does not move the digest", file: file, line: line)
        }
    }
}
