import BlogCore
import Foundation

/// Dates as people read them, from `strftime`-style patterns, with English names and the same
/// output on every machine whatever its locale or time zone.
package enum DateFormat {
    /// Formats `date` as seen in `timeZone`. Directives:
    /// `%a` `Fri`, `%A` `Friday`, `%b` `Nov`, `%B` `November`, `%d` `05`, `%e` ` 5`, `%m` `11`,
    /// `%y` `16`, `%Y` `2016`, `%H` `09`, `%I` `09` (12-hour), `%M` `07`, `%S` `03`, `%p` `AM`/`PM`,
    /// `%j` `330` (day of the year), `%Z` `CET` (zone abbreviation), `%z` `+0100`, `%%` `%`.
    /// `-` after `%` drops the padding of a number (`%-d` `5`, `%-m` `11`, `%-H` `9`).
    /// Anything else is copied as it is.
    package static func format(_ date: Date, pattern: String, timeZone: TimeZone) -> String {
        DatePattern(pattern, timeZone: timeZone).format(date)
    }

    /// English month names, January first.
    package static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    /// The English name of `month` (1 is January). Templates' values must take the name from here:
    /// `monthNames[i]` where `Any` is expected picks TOMLKit's subscript on arrays (seen through
    /// BlogContent), which makes a TOML array of the twelve names on every call.
    package static func monthName(_ month: Int) -> String {
        monthNames[month - 1]
    }

    /// English weekday names, Sunday first.
    package static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}

/// A `strftime` pattern parsed once, to format many dates in one time zone.
package struct DatePattern: Sendable {
    private enum Part: Sendable {
        case text(String)
        case directive(Character, padded: Bool)
    }

    private let parts: [Part]
    private let timeZone: TimeZone
    /// Read only when the pattern shows a zone abbreviation.
    private let abbreviations: ZoneAbbreviations?

    /// Parses `pattern` for dates seen in `timeZone`.
    package init(_ pattern: String, timeZone: TimeZone) {
        var parts: [Part] = []
        var text = ""
        var iterator = pattern.makeIterator()
        while let ch = iterator.next() {
            guard ch == "%" else { text.append(ch); continue }
            guard var directive = iterator.next() else { text.append("%"); break }
            var padded = true
            if directive == "-" {
                guard let next = iterator.next() else { text += "%-"; break }
                directive = next
                padded = false
            }
            if directive == "%" { text.append("%"); continue }
            if !text.isEmpty { parts.append(.text(text)); text = "" }
            parts.append(.directive(directive, padded: padded))
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
        self.timeZone = timeZone
        let showsZone = parts.contains { if case .directive("Z", _) = $0 { return true } else { return false } }
        self.abbreviations = showsZone ? ZoneAbbreviations(timeZone: timeZone) : nil
    }

    /// `date` in this pattern.
    package func format(_ date: Date) -> String {
        let time = CivilTime(date, timeZone: timeZone)
        var out = ""
        for part in parts {
            switch part {
            case .text(let text):
                out += text
            case .directive(let directive, let padded):
                append(directive, padded: padded, time: time, date: date, to: &out)
            }
        }
        return out
    }

    private func append(_ directive: Character, padded: Bool, time: CivilTime, date: Date, to out: inout String) {
        func number(_ value: Int, width: Int = 2, pad: Character = "0") {
            let digits = String(value)
            if padded && digits.count < width { out += String(repeating: pad, count: width - digits.count) }
            out += digits
        }
        switch directive {
        case "a": out += DateFormat.weekdayNames[time.weekday].prefix(3)
        case "A": out += DateFormat.weekdayNames[time.weekday]
        case "b": out += DateFormat.monthNames[time.month - 1].prefix(3)
        case "B": out += DateFormat.monthNames[time.month - 1]
        case "d": number(time.day)
        case "e": number(time.day, pad: " ")
        case "m": number(time.month)
        case "y": number(time.year % 100)
        case "Y": out += String(time.year)
        case "H": number(time.hour)
        case "I": number(time.hour % 12 == 0 ? 12 : time.hour % 12)
        case "M": number(time.minute)
        case "S": number(time.second)
        case "p": out += time.hour < 12 ? "AM" : "PM"
        case "j": number(time.dayOfYear, width: 3)
        case "z": out += DateText.offsetText(time.offset, separator: "")
        case "Z": out += abbreviations?.abbreviation(for: date, in: timeZone)
            ?? timeZone.abbreviation(for: date) ?? DateText.offsetText(time.offset, separator: "")
        default: out += padded ? "%\(directive)" : "%-\(directive)"
        }
    }
}
