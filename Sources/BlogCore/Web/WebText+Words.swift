/// Word counts of rendered bodies, for `post.words` and `post.reading_minutes`.
extension WebText {
    /// The words of the text of `html`: runs of characters between white space, outside tags;
    /// each Chinese or Japanese character (Han, kana) counts as a word, as Hugo counts text in
    /// those languages, since they write no spaces between words. A tag does not end a word
    /// (`<em>un</em>done` is one), an entity is a character of one.
    package static func words(inHTML html: String) -> Int {
        var html = html
        return html.withUTF8 { words(inHTML: $0) }
    }

    private static func words(inHTML html: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var inWord = false
        var index = 0
        while index < html.count {
            let byte = html[index]
            if byte == UInt8(ascii: "<") {
                // A tag, skipped to its `>` at once. A block's tag on a line of its own is separated
                // by the line feed cmark writes.
                guard let close = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: html, from: index) else { break }
                index = close + 1
                continue
            }
            if byte < 0x80 {
                index += 1
                if isASCIIWhitespace(byte) {
                    inWord = false
                } else if !inWord {
                    inWord = true
                    count += 1
                }
                continue
            }
            let (scalar, length) = scalar(startingAt: index, in: html)
            index += length
            if isIdeograph(scalar.value) {
                count += 1
                inWord = false
            } else if scalar.properties.isWhitespace || (0x3000...0x303F).contains(scalar.value) || (0xFF00...0xFF0F).contains(scalar.value) {
                // Spaces, and the CJK punctuation between ideographs.
                inWord = false
            } else if !inWord {
                inWord = true
                count += 1
            }
        }
        return count
    }

    /// Han (CJK ideographs and their extensions), hiragana and katakana: scripts written without
    /// spaces between words. Hangul is written with them, and counts by its words.
    private static func isIdeograph(_ value: UInt32) -> Bool {
        (0x3040...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x20000...0x3134F).contains(value) || (0x31F0...0x31FF).contains(value)
    }

    /// Minutes to read `words` at `perMinute` (1 or more) words a minute, rounded up: 1 for any text, 0 for none.
    package static func readingMinutes(words: Int, perMinute: Int) -> Int {
        words == 0 ? 0 : (words + perMinute - 1) / perMinute
    }
}
