import Foundation

/// Dates as machines read them: ISO 8601 / RFC 3339 with the offset of a given time zone.
/// Computed from ``CivilTime``, so output never depends on the machine's locale or time zone.
package enum DateText {
    /// `2016-11-25T10:20:00+01:00` (or `Z` for UTC): the instant `date` as seen in `timeZone`.
    package static func iso8601(_ date: Date, timeZone: TimeZone) -> String {
        let t = CivilTime(date, timeZone: timeZone)
        // Every feed entry and sitemap line has one or two: written as bytes, not joined from
        // a dozen small strings (9,000 instructions a date).
        guard (0...9999).contains(t.year), abs(t.offset) < 100 * 3600 else {
            return padded(t.year, 4) + "-" + padded(t.month, 2) + "-" + padded(t.day, 2) + "T" + padded(t.hour, 2) + ":"
                + padded(t.minute, 2) + ":" + padded(t.second, 2) + (t.offset == 0 ? "Z" : offsetText(t.offset))
        }
        return String(unsafeUninitializedCapacity: 25) { bytes in
            var at = writeDay(t, into: bytes)
            func put(_ byte: UInt8) { bytes[at] = byte; at += 1 }
            func two(_ value: Int) { put(0x30 + UInt8(value / 10)); put(0x30 + UInt8(value % 10)) }
            put(UInt8(ascii: "T")); two(t.hour); put(UInt8(ascii: ":")); two(t.minute); put(UInt8(ascii: ":")); two(t.second)
            if t.offset == 0 { put(UInt8(ascii: "Z")); return at }
            let minutes = abs(t.offset) / 60
            put(t.offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")); two(minutes / 60); put(UInt8(ascii: ":")); two(minutes % 60)
            return at
        }
    }

    /// `2016-11-25`: the day of `date` in `timeZone`.
    package static func day(_ date: Date, in timeZone: TimeZone) -> String {
        let t = CivilTime(date, timeZone: timeZone)
        guard (0...9999).contains(t.year) else { return padded(t.year, 4) + "-" + padded(t.month, 2) + "-" + padded(t.day, 2) }
        return String(unsafeUninitializedCapacity: 10) { writeDay(t, into: $0) }
    }

    /// Writes `2016-11-25` (a year of 0 to 9999) at the start of `bytes`; returns the bytes written.
    private static func writeDay(_ t: CivilTime, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var at = 0
        func fixed(_ value: Int, _ width: Int) {
            var rest = value
            for place in stride(from: width - 1, through: 0, by: -1) {
                bytes[at + place] = 0x30 + UInt8(rest % 10)
                rest /= 10
            }
            at += width
        }
        fixed(t.year, 4); bytes[at] = UInt8(ascii: "-"); at += 1
        fixed(t.month, 2); bytes[at] = UInt8(ascii: "-"); at += 1
        fixed(t.day, 2)
        return at
    }

    /// `2016-11-25 10:20`: the day and minute of `date` in `timeZone`, as headers without an offset write them.
    package static func minute(_ date: Date, in timeZone: TimeZone) -> String {
        let t = CivilTime(date, timeZone: timeZone)
        return day(date, in: timeZone) + " " + padded(t.hour, 2) + ":" + padded(t.minute, 2)
    }

    /// `value` with leading zeros up to `width` digits (as `%0*d` writes a value that isn't negative).
    package static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `+01:00`, `-04:30`, `+00:00`: an offset east of UTC in whole minutes; `+0100` with `separator` "" (strftime's `%z`).
    package static func offsetText(_ seconds: Int, separator: String = ":") -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + padded(minutes / 60, 2) + separator + padded(minutes % 60, 2)
    }
}

/// The calendar fields of an instant in a time zone (proleptic Gregorian), computed with integer
/// arithmetic: much cheaper than `Calendar`, which matters for ten thousand posts.
package struct CivilTime: Sendable, Equatable {
    package var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 = Sunday ... 6 = Saturday.
    package var weekday: Int
    /// 1...366.
    package var dayOfYear: Int
    /// Seconds east of UTC.
    package var offset: Int

    package init(_ date: Date, timeZone: TimeZone) {
        offset = timeZone.secondsFromGMT(for: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = local - days * 86_400
        hour = seconds / 3600
        minute = seconds / 60 % 60
        second = seconds % 60
        weekday = ((days + 4) % 7 + 7) % 7  // 1970-01-01 was a Thursday
        // Days to civil date: Howard Hinnant's algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfMarchYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfMarchYear + 2) / 153
        day = dayOfMarchYear - (153 * marchMonth + 2) / 5 + 1
        month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][month - 1]
        dayOfYear = daysBeforeMonth + day + (leap && month > 2 ? 1 : 0)
    }

    /// The inverse, for a date that is valid in the proleptic Gregorian calendar: the seconds since
    /// 1970-01-01T00:00:00 of the clock time given (as if in UTC; the caller applies the offset). Foundation's
    /// `Calendar` would read a date before 1582 in the Julian calendar, which these fields are not: 0001-01-01
    /// would be written back as 0000-12-30.
    package static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        // Civil date to days: Howard Hinnant's algorithm.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }
}
