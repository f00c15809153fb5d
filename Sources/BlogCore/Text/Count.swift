/// A count with its noun, for summaries: `1 post`, `3 posts`.
public enum Count {
    /// `count` and `noun`, with an `s` unless `count` is 1.
    public static func of(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
