import BlogCore
import Foundation

extension SiteConfig {
    /// The configuration's digest, field by field: the same in every process (maps by their keys in order), and
    /// different when any field is. It replaces the configuration printed whole (`String(reflecting:)`), whose first
    /// use in a process cost 11 M instructions of the runtime's type lookups, 6% of a body edit at 1,000 posts.
    /// A field added to ``SiteConfig`` (or to ``Permalinks``, ``TermPatterns``, a rule) needs its line here:
    /// `SiteConfigDigestTests` fails until it has one.
    package var digest: Digest {
        var input = DigestInput()
        input.add(title)
        input.add(description)
        input.add(author)
        input.add(baseURL)
        input.add(language)
        input.add(timeZone.identifier)
        input.add(timeZoneIsSet)
        input.add(theme)
        input.add(paginate)
        input.add(defaultCategory)
        input.add(dateFormat)
        input.add(output)
        input.add(content)
        input.add(cacheDir)
        input.add(permalinks)
        input.add(feedLimit)
        input.add(html.rawValue)
        input.add(relativeURLs)
        input.add(highlight)
        input.add(highlightStyle)
        input.add(search)
        input.add(imageSizeWarning)
        input.add(smartPunctuation.map { $0 ? "true" : "false" })
        input.add(feedContent.rawValue)
        input.add(newPostFormat?.rawValue)
        input.add(wordsPerMinute)
        input.add(tocLevels.lowerBound)
        input.add(tocLevels.upperBound)
        input.add(relatedPosts)
        input.add(mermaidScript)
        input.add(mathScript)
        input.add(redirects.count)
        for rule in redirects {
            input.add(rule.from)
            input.add(rule.to)
            input.add(rule.file)
            input.add(rule.line)
            input.add(rule.column)
        }
        input.add(filePaths.count)
        for rule in filePaths {
            input.add(rule.source)
            input.add(rule.path)
            input.add(rule.line)
            input.add(rule.column)
        }
        input.add(outputSources)
        input.add(outputSourcesExtension)
        input.add(MetaValue.map(params))
        input.add(jekyllFiles.count)
        for file in jekyllFiles {
            input.add(file.path)
            input.add(file.text)
        }
        return input.digest
    }
}

extension DigestInput {
    mutating func add(_ flag: Bool) { add(flag ? 1 as UInt8 : 0) }

    /// A text that may be absent: absent, or present and the text.
    mutating func add(_ text: String?) {
        if let text {
            add(1 as UInt8)
            add(text)
        } else {
            add(0 as UInt8)
        }
    }

    mutating func add(_ patterns: TermPatterns) {
        for pattern in [patterns.page, patterns.index, patterns.indexFeed, patterns.atomFeed, patterns.rssFeed] { add(pattern) }
    }

    mutating func add(_ permalinks: Permalinks) {
        for pattern in [permalinks.post, permalinks.tag, permalinks.page, permalinks.homeList, permalinks.tagIndex, permalinks.archives, permalinks.listPages.rawValue, permalinks.atomFeed, permalinks.rssFeed,
                        permalinks.jsonFeed] { add(pattern) }
        for pattern in [permalinks.preset?.rawValue, permalinks.tagFeed, permalinks.tagIndexFeed, permalinks.languageFeed, permalinks.postInLanguage,
                        permalinks.pageInLanguage, permalinks.draft, permalinks.draftPage] { add(pattern) }
        for flag in [permalinks.lowercase, permalinks.firstPageAlias, permalinks.asciiSlugs, permalinks.hugoTagSlugs,
                     permalinks.siteAuthorPages, permalinks.folderCategories] { add(flag) }
        for patterns in [permalinks.category, permalinks.author, permalinks.section] { add(patterns) }
    }

    /// A header or `params:` value, its kind first; a map by its keys in order (a dictionary's own order is the process's).
    mutating func add(_ value: MetaValue) {
        switch value {
        case .string(let text):
            add(0 as UInt8)
            add(text)
        case .int(let number):
            add(1 as UInt8)
            add(number)
        case .double(let number):
            add(2 as UInt8)
            add(number.bitPattern)
        case .bool(let flag):
            add(3 as UInt8)
            add(flag)
        case .date(let date):
            add(4 as UInt8)
            add(date.timeIntervalSince1970.bitPattern)
        case .list(let items):
            add(5 as UInt8)
            add(items.count)
            for item in items { add(item) }
        case .map(let map):
            add(6 as UInt8)
            add(map.count)
            for key in map.keys.sorted() {
                add(key)
                add(map[key]!)
            }
        case .null:
            add(7 as UInt8)
        }
    }
}
