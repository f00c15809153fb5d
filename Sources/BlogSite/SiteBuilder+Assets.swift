import BlogConfig
import BlogContent
import BlogCore
import Foundation

extension SiteBuilder {
    /// Where each file under content/ is copied. A file in a page bundle (the folder of a post
    /// that is its folder's, see ``PageBundle``, and its subfolders) goes beside the bundle's page,
    /// as Hugo does; a file that a post links with Pelican's `{attach}` goes beside that post's
    /// page; every other file keeps its path. Files of bundles whose post is left out (a draft) are
    /// left out too, and so are a TextBundle's `info.json` and a README at the top of content/.
    /// A file that `file_paths` names goes where it says, before any of that.
    static func placeAssets(_ assets: [String], posts: [SitePost], allPosts: [RenderedPost], filePaths: [FilePathRule] = []) -> [SiteAsset] {
        // Bundle folder -> the output folder of its page (nil when the post is left out).
        var bundles: [String: String?] = [:]
        // By index: a post copied is every one of its strings retained and released, and few are bundles.
        for index in allPosts.indices where allPosts[index].post.isBundle {
            bundles[allPosts[index].post.contentPath.folderPart] = .some(nil)
        }
        for index in posts.indices where posts[index].post.isBundle {
            bundles[posts[index].post.contentPath.folderPart] = posts[index].outputPath.folderPart
        }
        // Without files to place, no post's `{attach}` is looked for (a search of every body).
        let attached = assets.isEmpty ? [:] : ContentLinks.attachments(posts)
        var moved: [String: String] = [:]
        for rule in filePaths { moved[rule.source] = rule.path }
        var placed: [SiteAsset] = []
        for asset in assets where !PageBundle.isUnpublished(asset) {
            if let target = moved[asset] ?? attached[asset] {
                placed.append(SiteAsset(source: asset, path: target))
                continue
            }
            var folder = asset.folderPart
            var bundle: (folder: String, output: String?)?
            while !folder.isEmpty {
                if let output = bundles[folder] { bundle = (folder, output); break }
                folder = folder.folderPart
            }
            if let bundle {
                guard let output = bundle.output else { continue }
                let inside = String(asset.dropFirst(bundle.folder.count + 1))
                placed.append(SiteAsset(source: asset, path: output.isEmpty ? inside : output + "/" + inside))
            } else {
                placed.append(SiteAsset(source: asset, path: asset))
            }
        }
        return placed
    }

    /// With `output_sources`, where each published post's and page's file is copied, as Pelican's
    /// `SourceFileGenerator` does: its page's path with the last extension replaced by
    /// `output_sources_extension` (`x.html` -> `x.text`, `x/index.html` -> `x/index.text`); drafts
    /// and hidden posts have none (Pelican copies only `articles` and `pages`, with their translations).
    static func sourceCopies(_ posts: [SitePost], config: SiteConfig) -> [SiteAsset] {
        guard config.outputSources else { return [] }
        return posts.filter { $0.post.status == .published }.map {
            SiteAsset(source: $0.post.contentPath, path: withoutExtension($0.outputPath) + config.outputSourcesExtension)
        }
    }

    /// `path` without the extension of its last part, as Python's `os.path.splitext` reads it: a
    /// name's leading dots start no extension.
    static func withoutExtension(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), name[..<dot].contains(where: { $0 != "." }) else { return path }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
    }
}
