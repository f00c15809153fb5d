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
    static func placeAssets(_ assets: [String], posts: [SitePost], allPosts: [Post], filePaths: [FilePathRule] = []) -> [SiteAsset] {
        // Bundle folder -> the output folder of its page (nil when the post is left out).
        var bundles: [String: String?] = [:]
        for post in allPosts where post.isBundle {
            bundles[post.contentPath.folderPart] = .some(nil)
        }
        for item in posts where item.post.isBundle {
            bundles[item.post.contentPath.folderPart] = item.outputPath.folderPart
        }
        let attached = ContentLinks.attachments(posts)
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
}
