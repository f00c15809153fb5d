// The blog command depends on this target only; the public types its interface names that live in a
// lower target come with it: Diagnostic and BuildFailure (Core), Site and PostListing (`blog list`).
@_exported import BlogCore
@_exported import BlogSite
