/// URL slugs: lower-case letters and digits of any script kept, every other run of characters
/// becomes one `-`, no `-` at either end. A slug can never hold `/`, `.` or `..`, so it can't
/// leave the output folder.
public enum Slug {
    /// The slug of `text` (`"Hello, World!"` -> `hello-world`, `"Ünïcödé 日本"` -> `ünïcödé-日本`).
    /// Empty when `text` has no letter or digit.
    public static func make(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(ch)
            } else if ch == "'" || ch == "’" {
                continue  // "Don't" -> "dont", as Pelican and Hugo do
            } else {
                pendingDash = true
            }
        }
        return out
    }

    /// Whether `slug` is safe as one path segment: non-empty, no `/` or `\`, not `.` or `..`,
    /// no control characters.
    public static func isSafe(_ slug: String) -> Bool {
        if slug.isEmpty || slug == "." || slug == ".." { return false }
        if slug.contains("/") || slug.contains("\\") || slug.contains("..") { return false }
        return !slug.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
