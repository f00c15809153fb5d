// The blog command depends on this target only; the public types its interface names that live in a
// lower target (Diagnostic, BuildFailure…) come with it.
@_exported import BlogCore
import BlogCore
