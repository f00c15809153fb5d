import Foundation

/// Dates as machines read them: ISO 8601 / RFC 3339 with the offset of a given time zone.
/// Computed with a Gregorian calendar fixed to that zone, so output never depends on the
/// machine's locale or time zone.
public enum DateText {
    /// `2016-11-25T10:20:00+01:00` (or `Z` for UTC): the instant `date` as seen in `timeZone`.
    public static func iso8601(_ date: Date, timeZone: TimeZone) -> String {
        let parts = components(date, timeZone: timeZone)
        let offset = timeZone.secondsFromGMT(for: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year, parts.month, parts.day,
                      parts.hour, parts.minute, parts.second) + offsetText(offset)
    }

    /// `+01:00`, `-04:00`, or `Z` for zero.
    public static func offsetText(_ seconds: Int) -> String {
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return String(format: "%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }

    /// Calendar fields of `date` in `timeZone`.
    public struct Fields: Sendable, Equatable {
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
        /// 1 = Sunday ... 7 = Saturday.
        public var weekday: Int
    }

    /// The calendar fields of `date` in `timeZone` (Gregorian).
    public static func components(_ date: Date, timeZone: TimeZone) -> Fields {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        return Fields(year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!,
                      second: c.second!, weekday: c.weekday!)
    }
}
