// The blog command depends on this target only; the public types its interface names that live in a
// lower target come with it: Diagnostic and BuildFailure (Core), PostListing (`blog list`),
// NewBlog, ExistingBlog, PermalinkPreset, NewPost and NewPostFormat (`blog init`, `blog new`).
@_exported import enum BlogConfig.NewPostFormat
@_exported import enum BlogConfig.PermalinkPreset
@_exported import BlogCore
@_exported import BlogScaffold
@_exported import struct BlogSite.PostListing
@_exported import struct BlogSite.LeftOut
