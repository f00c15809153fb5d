/// A size in bytes as people read it, in the decimal units `blog.yml` takes (`image_size_warning: 500KB`):
/// `850 KB`, `3.2 MB`, `101 MB`, `1.5 GB`. One formatter for every message that names a size.
package enum ByteSize {
    package static func text(_ bytes: Int) -> String {
        if bytes < 999_500 { return "\(max(1, (bytes + 500) / 1000)) KB" }
        let (unit, name) = bytes < 999_950_000 ? (100_000, "MB") : (100_000_000, "GB")
        let tenths = (bytes + unit / 2) / unit
        return tenths % 10 == 0 ? "\(tenths / 10) \(name)" : "\(tenths / 10).\(tenths % 10) \(name)"
    }
}
