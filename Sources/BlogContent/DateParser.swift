import BlogCore
import Foundation

/// A date read from a header.
struct ParsedDate: Sendable, Equatable {
    /// The instant.
    var date: Date
    /// Whether the text gave a time of day (else it is midnight).
    var hasTime: Bool
    /// Whether the text was a numeric date that could be read day-first or month-first
    /// (`03/04/2017`); it was read day-first.
    var ambiguous: Bool
    /// Whether the year was written twice, before the offset (`2023-01-29 18:30:22 2023 -0800`, as
    /// one Jekyll post has it): read, but worth a warning.
    var repeatedYear: Bool = false
    /// Seconds east of UTC, when the text gave an offset.
    var offset: Int?

    /// Creates a parsed date.
    init(date: Date, hasTime: Bool, ambiguous: Bool = false, repeatedYear: Bool = false) {
        self.date = date
        self.hasTime = hasTime
        self.ambiguous = ambiguous
        self.repeatedYear = repeatedYear
    }
}

/// Reads the dates people write in post headers.
///
/// - ISO 8601: `2016-11-25`, `2016-11-25T10:20:00+01:00`, `2016-11-25T10:20:00Z`, `2016-11-25 10:20`,
///   `2018-4-27 9:05`, fractional seconds, and an offset after a space: `2013-09-14 20:46:50 -0400`.
/// - Day first: `25/11/2016`, `25-11-2016`, `25.11.2016`, optionally with a time.
/// - Month names (English): `25 November 2016`, `25 Nov 2016`, `Nov 25, 2016`, `11th March 2014`,
///   `March 11th, 2014`, with an optional leading weekday (`Fri, 25 Nov 2016`) and time.
///
/// A date without an offset is in the given time zone (Gregorian calendar; never the machine's
/// zone or locale). A weekday, when given, is not checked against the date.
package enum DateParser {
    /// Why a date could not be read.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong and which forms are accepted.
        var message: String
        init(_ message: String) { self.message = message }
        var description: String { message }
    }

    /// The forms accepted, for messages.
    static let acceptedForms =
        "write YYYY-MM-DD (2016-11-25), optionally with a time (2016-11-25 10:20, 2016-11-25T10:20:00+01:00); "
        + "25/11/2016 (day first), 25 November 2016 and Nov 25, 2016 are also accepted"

    /// The instant `text` names, nil when it is not a date (Liquid's `date` filter reads text through it).
    package static func instant(_ text: String, timeZone: TimeZone) -> Date? {
        try? parse(text, timeZone: timeZone).date
    }

    /// The offset `text` was written with (seconds east of UTC), nil without one or when it is not a date.
    static func writtenOffset(_ text: String) -> Int? {
        (try? parse(text, timeZone: TimeZone(secondsFromGMT: 0)!))?.offset
    }

    /// Reads `text`; a date without an offset is in `timeZone`.
    static func parse(_ text: String, timeZone: TimeZone) throws -> ParsedDate {
        let trimmed = text.trimmingWhitespacesAndNewlines()
        guard !trimmed.isEmpty else { throw Failure("empty date: \(acceptedForms)") }
        var scanner = Scanner(trimmed)
        let fields: Fields
        if let f = try scanner.isoDate() ?? scanner.dayFirstNumericDate() ?? scanner.namedMonthDate() {
            fields = f
        } else {
            throw Failure("unrecognised date \"\(trimmed)\": \(acceptedForms)")
        }
        return try fields.resolve(timeZone: timeZone, text: trimmed)
    }

    // MARK: - Fields

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    /// What the text said, before checking and turning into an instant.
    struct Fields {
        var year: Int
        var month: Int
        var day: Int
        var time: Time?
        /// Seconds east of UTC, when the text gave an offset.
        var offset: Int?
        /// Numeric day-first form: messages say how it was read.
        var dayFirstNumeric = false
        var ambiguous = false
        /// The year again after the time (`2023-01-29 18:30:22 2023 -0800`).
        var repeatedYear = false

        func resolve(timeZone: TimeZone, text: String) throws -> ParsedDate {
            // Made only for a message (it cost a string a day-first date).
            var hint: String {
                dayFirstNumeric ? " (\"\(text)\" is read as day/month/year; write YYYY-MM-DD to be explicit)" : ""
            }
            guard DateParser.years.contains(year) else { throw Failure("impossible date: there is no year \(year) (\(DateParser.yearRange))") }
            guard (1...12).contains(month) else {
                throw Failure("impossible date: there is no month \(month) (months go from 1 to 12)\(hint)")
            }
            let days = DateParser.days(inMonth: month, year: year)
            guard day >= 1 else { throw Failure("impossible date: day \(day) (days start at 1)\(hint)") }
            guard day <= days else {
                throw Failure("impossible date: \(DateParser.monthNames[month - 1]) \(year) has \(days) days\(hint)")
            }
            var hour = 0, minute = 0, second = 0
            var fraction = 0.0
            if let time {
                if let pm = time.pm {
                    guard (1...12).contains(time.hour) else {
                        throw Failure("impossible time: \(time.hour) \(pm ? "pm" : "am") (a 12-hour clock goes from 1 to 12)")
                    }
                    hour = time.hour % 12 + (pm ? 12 : 0)
                } else {
                    guard (0...23).contains(time.hour) else {
                        throw Failure("impossible time: hour \(time.hour) (hours go from 0 to 23)")
                    }
                    hour = time.hour
                }
                guard (0...59).contains(time.minute) else {
                    throw Failure("impossible time: minute \(time.minute) (minutes go from 0 to 59)")
                }
                guard (0...59).contains(time.second) else {
                    throw Failure("impossible time: second \(time.second) (seconds go from 0 to 59)")
                }
                minute = time.minute
                second = time.second
                fraction = time.fraction
            }
            if let offset, TimeZone(secondsFromGMT: offset) == nil {
                throw Failure("impossible time zone offset \(DateText.offsetText(offset))")
            }
            let date = DateParser.instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                          offset: offset, timeZone: timeZone)
            var parsed = ParsedDate(date: try DateParser.inYears(date.addingTimeInterval(fraction), timeZone: timeZone, text: text),
                                    hasTime: time != nil, ambiguous: ambiguous, repeatedYear: repeatedYear)
            parsed.offset = offset
            return parsed
        }
    }

    struct Time {
        var hour: Int
        var minute: Int
        var second = 0
        var fraction = 0.0
        /// nil on a 24-hour clock; true for pm, false for am.
        var pm: Bool?
    }

    /// The instant of a valid date and time of the proleptic Gregorian calendar, as ``CivilTime`` writes dates:
    /// `offset` seconds east of UTC, else the time the clocks of `timeZone` show. A time the clocks show twice (when
    /// they go back) is the earlier; one they skip (when they go forward) is read with the offset before, so it
    /// lands after the gap: as Foundation's `Calendar` reads them.
    package static func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                                offset: Int?, timeZone: TimeZone) -> Date {
        let local = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        func zoneOffset(at instant: Int) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
        let utc: Int
        if let offset {
            utc = local - offset
        } else {
            // The offsets a day before and after (one, but where the clocks change): the earliest instant one of
            // them gives that the zone shows as `local`. With one offset, that is the only answer (no array of them).
            let before = zoneOffset(at: local - 86_400), after = zoneOffset(at: local + 86_400)
            if before == after {
                utc = local - before
            } else {
                utc = [local - before, local - after].filter { local - zoneOffset(at: $0) == $0 }.min() ?? local - before
            }
        }
        return Date(timeIntervalSince1970: Double(utc))
    }

    /// The years a date may fall in: pages, feeds and the sitemap write a year in four digits (RFC 3339, RFC 822), so
    /// `0000-01-01` (1 BC) and `9999-12-31T23:59:59-12:00` (10000-01-01 in UTC) have no place in them.
    static let years = 1...9999
    static let yearRange = "years go from \(years.lowerBound) to \(years.upperBound)"

    /// `date` when it falls in ``years`` both in UTC (feeds) and in `timeZone` (the site's); else a ``Failure``
    /// naming `text`, what the header said. Every date of a header comes through here, read from text or not (a TOML
    /// date-time with an offset).
    package static func inYears(_ date: Date, timeZone: TimeZone, text: String) throws -> Date {
        // A day or more inside the years' ends, a date is in them in every zone (no offset reaches a day): its years
        // in two zones cost 1.4 k instructions a date.
        if wellInYears.contains(date.timeIntervalSince1970) { return date }
        return try inYearsInBothZones(date, timeZone: timeZone, text: text)
    }

    /// From the second day of the first year to the last day of the last: instants ``inYears(_:timeZone:text:)``
    /// takes without asking the zones.
    static let wellInYears = Double(CivilTime.seconds(year: years.lowerBound, month: 1, day: 2, hour: 0, minute: 0, second: 0))
        ..< Double(CivilTime.seconds(year: years.upperBound, month: 12, day: 31, hour: 0, minute: 0, second: 0))

    /// ``inYears(_:timeZone:text:)`` asking both zones the year.
    static func inYearsInBothZones(_ date: Date, timeZone: TimeZone, text: String) throws -> Date {
        for (zone, name) in [(TimeZone(secondsFromGMT: 0)!, "UTC"), (timeZone, timeZone.identifier)] {
            let year = CivilTime(date, timeZone: zone).year
            guard years.contains(year) else {
                throw Failure("impossible date: \"\(text)\" falls in the year \(year) in \(name) (\(yearRange))")
            }
        }
        return date
    }

    /// Days in `month` of `year` (proleptic Gregorian).
    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // MARK: - Scanner

    /// A cursor over the text's characters. Each form's method returns nil when the text is not
    /// in that form (the cursor is put back), or throws when it is but something is wrong.
    struct Scanner {
        /// The whole text.
        let text: String
        /// The text's characters; empty when each is one byte (``plain``), as nearly every date's are: breaking
        /// the text into characters cost 4 k instructions a date.
        let characters: [Character]
        /// Whether each character of the text is one ASCII byte (see ``Swift/String/charactersAreBytes``).
        let plain: Bool
        /// Each character's byte when it is one ASCII scalar, else 0: the forms are read on these, as comparing
        /// `Character`s cost more than ten thousand instructions a date.
        let codes: [UInt8]
        var i = 0

        init(_ text: String) {
            self.text = text
            plain = text.charactersAreBytes
            if plain {
                codes = Array(text.utf8)
                characters = []
            } else {
                characters = Array(text)
                codes = characters.map { $0.utf8.count == 1 ? $0.utf8.first! : 0 }
            }
        }

        /// The character at `k` (below ``count``).
        func character(at k: Int) -> Character {
            plain ? Character(Unicode.Scalar(codes[k])) : characters[k]
        }

        /// The characters at `range`.
        func text(_ range: Range<Int>) -> String {
            plain ? String(decoding: codes[range], as: UTF8.self) : String(characters[range])
        }

        /// How many characters the text has.
        var count: Int { codes.count }

        /// Whether the character at `k` is an ASCII digit.
        func isDigit(at k: Int) -> Bool { k < codes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(codes[k]) }

        var atEnd: Bool { i >= count }
        var peek: Character? { i < count ? character(at: i) : nil }

        mutating func skipSpaces() -> Bool {
            let start = i
            while i < codes.count, codes[i] == UInt8(ascii: " ") || codes[i] == UInt8(ascii: "\t") { i += 1 }
            return i > start
        }

        /// Takes the ASCII character `c` when it comes next.
        mutating func take(_ c: Unicode.Scalar) -> Bool {
            if i < codes.count, codes[i] == UInt8(c.value) { i += 1; return true }
            return false
        }

        /// Up to `max` ASCII digits (at least one), as a number and its digit count.
        mutating func number(max: Int = 9) -> (value: Int, digits: Int)? {
            var value = 0, count = 0
            while count < max, isDigit(at: i) {
                value = value * 10 + Int(codes[i] - UInt8(ascii: "0"))
                count += 1
                i += 1
            }
            return count > 0 ? (value, count) : nil
        }

        /// A run of ASCII letters.
        mutating func word() -> String? {
            let start = i
            while i < codes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(codes[i] | 0x20) { i += 1 }
            return i > start ? text(start..<i) : nil
        }

        /// How many digits come next (without moving).
        func digitRun(from index: Int) -> Int {
            var k = index
            while isDigit(at: k) { k += 1 }
            return k - index
        }

        // MARK: Forms

        /// `YYYY-M-D` (or `YYYY/M/D`), then an optional time (after `T` or spaces) and offset.
        mutating func isoDate() throws -> Fields? {
            guard digitRun(from: 0) == 4, count > 4, codes[4] == UInt8(ascii: "-") || codes[4] == UInt8(ascii: "/") else { return nil }
            i = 0
            let year = number(max: 4)!.value
            let separator = Unicode.Scalar(codes[4])
            i = 5
            guard let month = number(max: 2), take(separator), let day = number(max: 2) else {
                throw Failure("unrecognised date \"\(text)\": \(acceptedForms)")
            }
            var fields = Fields(year: year, month: month.value, day: day.value)
            if atEnd { return fields }
            let save = i
            if take("T") || take("t") || skipSpaces() {
                if let time = try time() {
                    fields.time = time
                    // `18:30:22 2023 -0800`: the year once more before the offset.
                    let beforeYear = i
                    if skipSpaces(), digitRun(from: i) == 4, let again = number(max: 4), again.value == year {
                        fields.repeatedYear = true
                    } else {
                        i = beforeYear
                    }
                } else {
                    i = save
                }
            }
            try timeZoneSuffix(&fields)
            return fields
        }

        /// `D/M/YYYY`, `D-M-YYYY` or `D.M.YYYY`, then an optional time and offset.
        mutating func dayFirstNumericDate() throws -> Fields? {
            let firstDigits = digitRun(from: 0)
            guard (1...2).contains(firstDigits), count > firstDigits else { return nil }
            let separator = Unicode.Scalar(codes[firstDigits])
            guard separator == "/" || separator == "-" || separator == "." else { return nil }
            i = 0
            let day = number(max: 2)!.value
            i += 1
            guard let month = number(max: 2), take(separator), let year = number(max: 4) else {
                throw Failure("unrecognised date \"\(text)\": \(acceptedForms)")
            }
            guard year.digits == 4 else {
                throw Failure("two-digit year in \"\(text)\": write the year in full, or better YYYY-MM-DD")
            }
            var fields = Fields(year: year.value, month: month.value, day: day)
            fields.dayFirstNumeric = true
            fields.ambiguous = day <= 12 && month.value <= 12 && day != month.value
            if atEnd { return fields }
            let save = i
            if skipSpaces() || take(",") {
                _ = skipSpaces()
                if let time = try time() { fields.time = time } else { i = save }
            }
            try timeZoneSuffix(&fields)
            return fields
        }

        /// `[Weekday,] 25[th] [of] November[,] 2016` or `[Weekday,] November 25[th], 2016`,
        /// then an optional time (`10:20`, `10:20:30`, `10:20 pm`, after an optional `at`) and offset.
        mutating func namedMonthDate() throws -> Fields? {
            i = 0
            let save = i
            if let w = word(), DateParser.weekday(w) {
                _ = take(".")
                _ = take(",")
                _ = skipSpaces()
            } else {
                i = save
            }
            var day: Int
            var month: Int
            if let d = number(max: 2) {
                day = d.value
                ordinalSuffix()
                _ = skipSpaces()
                let beforeOf = i
                if let w = word(), w.lowercased() == "of" { _ = skipSpaces() } else { i = beforeOf }
                guard let w = word(), let m = DateParser.month(w) else { return nil }
                month = m
                _ = take(".")
                _ = take(",")
                _ = skipSpaces()
            } else if let w = word(), let m = DateParser.month(w) {
                month = m
                _ = take(".")
                _ = skipSpaces()
                guard let d = number(max: 2) else { return nil }
                day = d.value
                ordinalSuffix()
                _ = take(",")
                _ = skipSpaces()
            } else {
                return nil
            }
            guard let year = number(max: 4), year.digits == 4, peek.map({ !$0.isNumber }) ?? true else { return nil }
            var fields = Fields(year: year.value, month: month, day: day)
            if atEnd { return fields }
            let afterYear = i
            _ = take(",")
            if skipSpaces() || i > afterYear {
                _ = skipSpaces()
                let beforeAt = i
                if let w = word(), w.lowercased() == "at" { _ = skipSpaces() } else { i = beforeAt }
                if let time = try time() { fields.time = time } else { i = afterYear }
            }
            try timeZoneSuffix(&fields)
            return fields
        }

        /// `st`, `nd`, `rd` or `th` right after a day number.
        mutating func ordinalSuffix() {
            guard i + 1 < count else { return }
            let suffix = text(i..<(i + 2)).lowercased()
            if ["st", "nd", "rd", "th"].contains(suffix), i + 2 == count || !character(at: i + 2).isLetter {
                i += 2
            }
        }

        /// `H:MM`, `H:MM:SS`, `H:MM:SS.fff`, with an optional `am`/`pm`; nil when no time is here.
        mutating func time() throws -> Time? {
            let start = i
            guard let hour = number(max: 2), take(":"), let minute = number(max: 2), minute.digits == 2 else {
                i = start
                return nil
            }
            var time = Time(hour: hour.value, minute: minute.value)
            if take(":") {
                guard let second = number(max: 2), second.digits == 2 else {
                    throw Failure("unrecognised time in \"\(text)\": write HH:MM or HH:MM:SS")
                }
                time.second = second.value
                if let c = peek, c == "." || c == ",", i + 1 < count, character(at: i + 1).isNumber {
                    i += 1
                    let fractionStart = i
                    while isDigit(at: i) { i += 1 }
                    time.fraction = Double("0." + text(fractionStart..<i)) ?? 0
                }
            }
            let beforeMeridiem = i
            _ = skipSpaces()
            if let w = word() {
                switch w.lowercased() {
                case "am": time.pm = false
                case "pm": time.pm = true
                case "a", "p":
                    // a.m. / p.m.
                    if take("."), let m = word(), m.lowercased() == "m" {
                        _ = take(".")
                        time.pm = w.lowercased() == "p"
                    } else {
                        i = beforeMeridiem
                    }
                default: i = beforeMeridiem
                }
            } else {
                i = beforeMeridiem
            }
            return time
        }

        /// An optional offset (`Z`, `+01:00`, `+0100`, `+01`, `UTC`, `GMT`, after optional spaces),
        /// then the end of the text.
        mutating func timeZoneSuffix(_ fields: inout Fields) throws {
            _ = skipSpaces()
            if atEnd { return }
            if take("Z") || take("z") {
                fields.offset = 0
            } else if let c = peek, c == "+" || c == "-" || c == "−" {
                i += 1
                let sign = c == "+" ? 1 : -1
                guard let h = number(max: 2), h.digits == 2 else { throw unrecognised() }
                var minutes = 0
                if take(":") {
                    guard let m = number(max: 2), m.digits == 2 else { throw unrecognised() }
                    minutes = m.value
                } else if let m = number(max: 2) {
                    guard m.digits == 2 else { throw unrecognised() }
                    minutes = m.value
                }
                guard h.value <= 18, minutes <= 59 else {
                    throw Failure("impossible time zone offset in \"\(text)\" (offsets go from -18:00 to +18:00)")
                }
                fields.offset = sign * (h.value * 3600 + minutes * 60)
            } else {
                let save = i
                if let w = word(), ["utc", "gmt"].contains(w.lowercased()) {
                    fields.offset = 0
                } else {
                    i = save
                }
            }
            _ = skipSpaces()
            guard atEnd else { throw unrecognised() }
        }

        func unrecognised() -> Failure {
            Failure("unrecognised date \"\(text)\": \(acceptedForms)")
        }
    }

    /// The month number of an English month name or abbreviation (`Sept` too), any case.
    static func month(_ word: String) -> Int? {
        let w = word.lowercased()
        if w == "sept" { return 9 }
        guard w.count >= 3 else { return nil }
        for (index, name) in monthNames.enumerated() {
            let full = name.lowercased()
            if w == full || w == String(full.prefix(3)) { return index + 1 }
        }
        return nil
    }

    /// Whether `word` is an English weekday name or abbreviation, any case.
    static func weekday(_ word: String) -> Bool {
        let known: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                                  "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"]
        return known.contains(word.lowercased())
    }
}
