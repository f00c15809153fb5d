/// Text kept for a whole build at the size it is: a string grown by appending holds up to twice
/// its bytes (each time it outgrows its storage, the storage doubles), and a string kept per post
/// (a list entry rendered once) keeps that spare room until the build ends.
extension String {
    /// The same text in storage of its own size.
    package var atExactSize: String {
        var text = self
        return text.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
}
