import Foundation

/// Whose rule makes heading ids, so that `#anchors` written against a blog's old site keep
/// working (set by the `permalinks` preset).
package enum HeadingIDStyle: String, Sendable, Equatable {
    /// blog's own: ``Slug/make(_:)`` of the text, `section` when empty, then `-1`, `-2`.
    case blog
    /// Jekyll's kramdown with its GFM parser (`generate_gfm_header_id`): the text lower-cased,
    /// every character but letters, digits, `_`, `-`, space and tab dropped, each space or tab a
    /// `-`; a repeat gets `-1`, `-2` (even when that id is taken); an empty id is no id.
    case kramdown
    /// Python-Markdown's `toc` extension (Pelican's): the text in ASCII (accents dropped, other
    /// letters too), everything but `\w`, spaces and `-` dropped, lower-cased, runs of spaces and
    /// `-` one `-`; a repeat or an empty id gets `_1`, `_2`.
    case pythonMarkdown
    /// Hugo's goldmark (`autoHeadingIDType: github`): trimmed, each space or `-` a `-`, letters,
    /// digits and `_` lower-cased, everything else dropped, from the heading's markdown (a link's
    /// URL included); empty: `heading`; a repeat gets the first free `-1`, `-2`.
    case goldmark
}

extension HeadingIDs {
    /// kramdown-parser-gfm's id of `text`, before repeats are counted.
    static func kramdownID(_ text: String) -> String {
        var id = ""
        for scalar in text.lowercased().unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case _ where scalar == " " || scalar == "\t": id += "-"
            case _ where scalar == "-": id += "-"
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
                id.unicodeScalars.append(scalar)
            default:
                if properties.isAlphabetic { id.unicodeScalars.append(scalar) }
            }
        }
        return id
    }

    /// Python-Markdown `toc`'s `slugify(text, "-")`, before repeats are made unique.
    static func pythonMarkdownID(_ text: String) -> String {
        var kept = ""
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars where scalar.isASCII {
            switch scalar {
            case "a"..."z", "0"..."9", "_", "-": kept.unicodeScalars.append(scalar)
            case "A"..."Z": kept.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}": kept += " "
            default: break
            }
        }
        var id = ""
        var pendingDash = false
        for character in kept.trimmingCharacters(in: .whitespaces) {
            if character == " " || character == "-" { pendingDash = true; continue }
            if pendingDash { id += "-"; pendingDash = false }
            id.append(character)
        }
        return pendingDash ? id + "-" : id
    }

    /// Hugo's `github` id of `text` (goldmark), before repeats are made unique.
    static func goldmarkID(_ text: String) -> String {
        var id = ""
        for scalar in text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars {
            if scalar == " " || scalar == "-" {
                id += "-"
            } else if scalar == "_" || scalar.properties.isAlphabetic && scalar.properties.generalCategory.isLetter
                        || scalar.properties.generalCategory == .decimalNumber {
                id += String(scalar).lowercased()
            }
        }
        return id
    }
}

extension Unicode.GeneralCategory {
    /// Lu, Ll, Lt, Lm, Lo: Go's `unicode.IsLetter`.
    var isLetter: Bool {
        switch self {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }
}
