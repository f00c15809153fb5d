@testable import BlogContent
import BlogCore
import Foundation
import XCTest

/// Expected instants are computed independently of the parser: epoch seconds worked out
/// beforehand, or DateComponents in a fixed-offset zone.
final class DateParserTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!
    let paris = TimeZone(identifier: "Europe/Paris")!

    /// The instant of a wall-clock time at a fixed offset from UTC (seconds east).
    func instant(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, offset: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset)!
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    func parse(_ text: String, _ zone: TimeZone? = nil, file: StaticString = #filePath, line: UInt = #line) -> ParsedDate? {
        do {
            return try DateParser.parse(text, timeZone: zone ?? utc)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return nil
        }
    }

    func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let parsed = try DateParser.parse(text, timeZone: utc)
            XCTFail("\(text) was read as \(parsed.date)", file: file, line: line)
            return ""
        } catch let failure as DateParser.Failure {
            return failure.message
        } catch {
            XCTFail("\(text): unexpected \(error)", file: file, line: line)
            return ""
        }
    }

    // MARK: ISO 8601

    func testISODateIsMidnightInTheGivenZone() {
        XCTAssertEqual(parse("2016-11-25")?.date, Date(timeIntervalSince1970: 1_480_032_000))
        XCTAssertEqual(parse("2016-11-25", paris)?.date, Date(timeIntervalSince1970: 1_480_028_400))
        XCTAssertEqual(parse("2016-11-25")?.hasTime, false)
        XCTAssertEqual(parse("2016-11-25")?.ambiguous, false)
    }

    func testISODateTimeWithOffset() {
        // 10:20 at +01:00 is 09:20 UTC, whatever the site's zone.
        let expected = Date(timeIntervalSince1970: 1_480_065_600)
        XCTAssertEqual(parse("2016-11-25T10:20:00+01:00")?.date, expected)
        XCTAssertEqual(parse("2016-11-25T10:20:00+01:00", TimeZone(identifier: "Asia/Tokyo")!)?.date, expected)
        XCTAssertEqual(parse("2016-11-25T10:20:00+0100")?.date, expected)
        XCTAssertEqual(parse("2016-11-25T10:20:00+01")?.date, expected)
        XCTAssertEqual(parse("2016-11-25T10:20:00+01:00")?.hasTime, true)
    }

    func testISODateTimeInUTC() {
        XCTAssertEqual(parse("2016-11-25T09:20:00Z", paris)?.date, Date(timeIntervalSince1970: 1_480_065_600))
        XCTAssertEqual(parse("2016-11-25 09:20:00 UTC", paris)?.date, Date(timeIntervalSince1970: 1_480_065_600))
    }

    func testSpaceSeparatedTimesUseTheSiteZone() {
        XCTAssertEqual(parse("2016-11-25 10:20", paris)?.date, instant(2016, 11, 25, 10, 20, offset: 3600))
        XCTAssertEqual(parse("2016-11-25 10:20:30", paris)?.date, instant(2016, 11, 25, 10, 20, 30, offset: 3600))
        // Summer time: Paris is at +02:00 in July.
        XCTAssertEqual(parse("2016-07-01 10:20", paris)?.date, Date(timeIntervalSince1970: 1_467_361_200))
        XCTAssertEqual(parse("2016-11-25 10:20", TimeZone(identifier: "America/New_York")!)?.date,
                       Date(timeIntervalSince1970: 1_480_087_200))
        XCTAssertEqual(parse("2016-11-25 10:20")?.hasTime, true)
    }

    func testSingleDigitMonthDayAndHour() {
        XCTAssertEqual(parse("2018-4-27 9:05")?.date, instant(2018, 4, 27, 9, 5))
        XCTAssertEqual(parse("2016-1-5")?.date, instant(2016, 1, 5))
    }

    func testFractionalSeconds() {
        let parsed = parse("2016-11-25T10:20:30.250+01:00")
        XCTAssertEqual(parsed?.date.timeIntervalSince1970 ?? 0, 1_480_065_630.25, accuracy: 0.0001)
        XCTAssertEqual(parse("2016-11-25 10:20:30.5")?.date.timeIntervalSince1970 ?? 0,
                       instant(2016, 11, 25, 10, 20, 30).timeIntervalSince1970 + 0.5, accuracy: 0.0001)
    }

    func testOffsetAfterASpace() {
        // Jekyll and Octopress: 20:46:50 at -04:00 is 00:46:50 UTC the next day.
        let expected = Date(timeIntervalSince1970: 1_379_206_010)
        XCTAssertEqual(parse("2013-09-14 20:46:50 -0400", paris)?.date, expected)
        XCTAssertEqual(parse("2013-09-14 20:46:50 -04:00", paris)?.date, expected)
    }

    // MARK: Day first

    func testDayFirstNumeric() {
        let expected = instant(2016, 11, 25)
        XCTAssertEqual(parse("25/11/2016")?.date, expected)
        XCTAssertEqual(parse("25-11-2016")?.date, expected)
        XCTAssertEqual(parse("25.11.2016")?.date, expected)
        XCTAssertEqual(parse("25/11/2016")?.ambiguous, false)
        XCTAssertEqual(parse("25/11/2016 10:20", paris)?.date, instant(2016, 11, 25, 10, 20, offset: 3600))
        XCTAssertEqual(parse("25/11/2016 10:20", paris)?.hasTime, true)
    }

    func testAmbiguousDayFirstIsReadDayFirstAndFlagged() {
        let parsed = parse("03/04/2017")
        XCTAssertEqual(parsed?.date, instant(2017, 4, 3))
        XCTAssertEqual(parsed?.ambiguous, true)
        // The same number twice is not ambiguous.
        XCTAssertEqual(parse("04/04/2017")?.ambiguous, false)
        // A part above 12 settles it.
        XCTAssertEqual(parse("13/04/2017")?.ambiguous, false)
    }

    // MARK: Month names

    func testMonthNames() {
        let expected = instant(2016, 11, 25)
        for text in ["25 November 2016", "25 Nov 2016", "Nov 25, 2016", "November 25, 2016", "Fri, 25 Nov 2016",
                     "Friday 25 November 2016", "25 nov. 2016", "NOVEMBER 25 2016", "25th November 2016"] {
            XCTAssertEqual(parse(text)?.date, expected, text)
            XCTAssertEqual(parse(text)?.hasTime, false, text)
        }
        XCTAssertEqual(parse("11th March 2014")?.date, instant(2014, 3, 11))
        XCTAssertEqual(parse("2nd May 2017")?.date, instant(2017, 5, 2))
        XCTAssertEqual(parse("March 11th, 2014")?.date, instant(2014, 3, 11))
        XCTAssertEqual(parse("1st of September 2015")?.date, instant(2015, 9, 1))
        XCTAssertEqual(parse("Sept 3, 2015")?.date, instant(2015, 9, 3))
    }

    func testMonthNamesWithTime() {
        XCTAssertEqual(parse("25 November 2016 10:20", paris)?.date, instant(2016, 11, 25, 10, 20, offset: 3600))
        XCTAssertEqual(parse("Nov 25, 2016 10:20 pm", paris)?.date, instant(2016, 11, 25, 22, 20, offset: 3600))
        XCTAssertEqual(parse("Nov 25, 2016 12:05 am")?.date, instant(2016, 11, 25, 0, 5))
        // RFC 2822, as in feeds.
        XCTAssertEqual(parse("Fri, 25 Nov 2016 10:20:00 +0100", TimeZone(identifier: "Asia/Tokyo")!)?.date,
                       Date(timeIntervalSince1970: 1_480_065_600))
        XCTAssertEqual(parse("25 November 2016 at 10:20")?.hasTime, true)
    }

    func testADigitOrSeparatorWithACombiningMarkIsAnotherCharacter() {
        // The forms are read on single ASCII characters: a digit, `-` or `:` that a combining mark
        // follows is none of them.
        for text in ["2016-11-2\u{301}5", "2016-1\u{301}1-25", "2016-11-25 10:2\u{301}0", "2016-11-25 10\u{301}:20",
                     "2016-11-25T10:20:00+0\u{301}1:00", "25 Nov\u{301} 2016"] {
            XCTAssertTrue(failure(text).hasPrefix("unrecognised date"), "\(text.debugDescription): \(failure(text))")
        }
        // A minus sign (U+2212) is read as `-` in an offset.
        XCTAssertEqual(parse("2016-11-25 10:20 \u{2212}05:00")?.date, instant(2016, 11, 25, 10, 20, offset: -18_000))
        XCTAssertEqual(parse("25 Nov 2016, 10:20 pm UTC")?.date, instant(2016, 11, 25, 22, 20))
    }

    // MARK: Failures

    func testImpossibleDates() {
        XCTAssertTrue(failure("31/02/2016").contains("impossible date: February 2016 has 29 days"), failure("31/02/2016"))
        XCTAssertTrue(failure("2015-02-29").contains("February 2015 has 28 days"))
        // Century years are leap years only when divisible by 400.
        XCTAssertTrue(failure("29/02/1900").contains("February 1900 has 28 days"))
        XCTAssertEqual(parse("2000-02-29")?.date, instant(2000, 2, 29))
        XCTAssertEqual(parse("2016-02-29")?.date, instant(2016, 2, 29))
        XCTAssertTrue(failure("2016-04-31").contains("April 2016 has 30 days"))
        XCTAssertTrue(failure("2016-13-01").contains("there is no month 13"))
        XCTAssertTrue(failure("2016-00-10").contains("there is no month 0"))
        XCTAssertTrue(failure("2016-11-00").contains("day 0"))
        XCTAssertTrue(failure("2016-11-25 25:00").contains("impossible time: hour 25"))
        XCTAssertTrue(failure("2016-11-25 10:61").contains("minute 61"))
        XCTAssertTrue(failure("2016-11-25 13:00 pm").contains("impossible time"))
        XCTAssertTrue(failure("2016-11-25T10:20:00+25:00").contains("offset"))
    }

    func testMonthFirstDateSaysItWasReadDayFirst() {
        let message = failure("11/25/2016")
        XCTAssertTrue(message.contains("there is no month 25"), message)
        XCTAssertTrue(message.contains("day/month/year"), message)
    }

    func testUnrecognisedListsTheAcceptedForms() {
        for text in ["yesterday", "2016-11-25 foo", "25 Foo 2016", "Nov 2016", "2016", "", "20161125"] {
            let message = failure(text)
            XCTAssertTrue(message.contains("YYYY-MM-DD"), "\(text): \(message)")
        }
        XCTAssertTrue(failure("yesterday").hasPrefix("unrecognised date \"yesterday\""))
        XCTAssertTrue(failure("25/11/16").contains("two-digit year"))
    }

    func testMachineZoneDoesNotMatter() {
        // The result depends only on the zone passed in.
        let a = parse("2016-11-25 10:20", TimeZone(identifier: "America/Los_Angeles")!)?.date
        XCTAssertEqual(a, instant(2016, 11, 25, 10, 20, offset: -8 * 3600))
    }

    /// Dates are read in the proleptic Gregorian calendar, as they are written (``CivilTime``): a date before 1582
    /// reads back as written, where Foundation's `Calendar` reads it in the Julian calendar (0001-01-01 was written
    /// back as 0000-12-30). From 1583 on, every time agrees with `Calendar` in zones with summer time, the times the
    /// clocks skip and show twice included.
    func testReadsTheProlepticGregorianCalendarAsCalendarDoesSince1583() throws {
        for text in ["0001-01-01", "1000-03-01", "1582-10-04T12:00:00+01:00"] {
            let date = try XCTUnwrap(parse(text)?.date)
            XCTAssertEqual(DateText.iso8601(date, timeZone: TimeZone(secondsFromGMT: 3600)!).prefix(10), text.prefix(10))
        }
        var generator = SystemRandomNumberGenerator()
        for zone in ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"].map({ TimeZone(identifier: $0)! }) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for _ in 0..<2_000 {
                let (y, mo, d) = (Int.random(in: 1583...2100, using: &generator), Int.random(in: 1...12, using: &generator), Int.random(in: 1...28, using: &generator))
                let (h, mi) = (Int.random(in: 0...23, using: &generator), Int.random(in: 0...59, using: &generator))
                let expected = calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))
                XCTAssertEqual(DateParser.instant(year: y, month: mo, day: d, hour: h, minute: mi, second: 0, offset: nil, timeZone: zone),
                               expected, "\(y)-\(mo)-\(d) \(h):\(mi) in \(zone.identifier)")
            }
            // The clocks of Paris skip 02:00-03:00 on 2021-03-28 and show 02:00-03:00 twice on 2021-10-31.
            for (mo, d) in [(3, 28), (10, 31)] where zone.identifier == "Europe/Paris" {
                for mi in stride(from: 0, to: 240, by: 15) {
                    let expected = calendar.date(from: DateComponents(year: 2021, month: mo, day: d, hour: mi / 60, minute: mi % 60))
                    XCTAssertEqual(DateParser.instant(year: 2021, month: mo, day: d, hour: mi / 60, minute: mi % 60, second: 0,
                                                      offset: nil, timeZone: zone), expected, "2021-\(mo)-\(d) \(mi) min")
                }
            }
        }
    }

    /// A header's date as text (`MetaValue.text`: a TOML date-time with an offset where a text is wanted) takes the
    /// one date-to-text path, ``DateText``, in UTC: the same text as Foundation's `ISO8601DateFormatter`, which it
    /// replaced, since the Gregorian calendar began (1582-10-15), before 1970 and with fractions of a second too.
    /// Before then the formatter wrote the Julian calendar's day (`0001-01-01T00:00:00Z` came out as `0001-01-03`),
    /// where the header and every other date of blog are in the proleptic Gregorian calendar: a bug fixed.
    func testHeaderDateTextIsISO8601InUTCAsFoundationWritesIt() {
        let formatter = ISO8601DateFormatter()
        let seconds: [Double] = [0, 1, -1, 0.5, -0.5, 1_480_065_600.75, -2_208_988_800, 253_402_300_799,
                                 -12_219_292_800, 951_782_400, 86_399.999]
        for second in seconds {
            let date = Date(timeIntervalSince1970: second)
            XCTAssertEqual(MetaValue.date(date).text, formatter.string(from: date), "\(second)")
        }
        XCTAssertEqual(MetaValue.date(Date(timeIntervalSince1970: 1_480_065_600)).text, "2016-11-25T09:20:00Z")
        XCTAssertEqual(MetaValue.date(Date(timeIntervalSince1970: -62_135_596_800)).text, "0001-01-01T00:00:00Z")
        XCTAssertEqual(formatter.string(from: Date(timeIntervalSince1970: -62_135_596_800)), "0001-01-03T00:00:00Z", "Julian")
        // In a zone with offsets, as Foundation's formatter writes the same instant there (whole minutes).
        for zone in [TimeZone(secondsFromGMT: 0)!, TimeZone(secondsFromGMT: 19_800)!, TimeZone(secondsFromGMT: -36_000)!,
                     TimeZone(identifier: "America/New_York")!, TimeZone(identifier: "Asia/Kathmandu")!] {
            let zoned = ISO8601DateFormatter()
            zoned.timeZone = zone
            // (Local mean time's offsets have seconds, which ISO 8601 with minutes can't write.)
            for second in seconds where second > -12_219_292_800 && zone.secondsFromGMT(for: Date(timeIntervalSince1970: second)) % 60 == 0 {
                let date = Date(timeIntervalSince1970: second.rounded(.down))
                let foundation = zoned.string(from: date)
                XCTAssertEqual(DateText.iso8601(date, timeZone: zone), foundation, "\(second) \(zone)")
                XCTAssertEqual(DateText.day(date, in: zone), String(foundation.prefix { $0 != "T" }), "\(second) \(zone)")
            }
        }
        // The offsets of ISO 8601 and of strftime's `%z`, from one function.
        XCTAssertEqual(DateText.iso8601(Date(timeIntervalSince1970: 1_480_065_600), timeZone: TimeZone(secondsFromGMT: -16_200)!),
                       "2016-11-25T04:50:00-04:30")
        XCTAssertEqual(DateText.offsetText(-16_200), "-04:30")
        XCTAssertEqual(DateText.offsetText(-16_200, separator: ""), "-0430")
        XCTAssertEqual(DateText.offsetText(0, separator: ""), "+0000")
    }

    /// A date a day or more inside the years' ends is taken without asking the zones; every hour around both ends, in
    /// the farthest offsets and in real zones, is taken or refused as asking both zones takes or refuses it.
    func testDatesNearTheYearsEndsAreTakenAsBothZonesTakeThem() throws {
        let zones = [utc, paris, TimeZone(secondsFromGMT: 18 * 3600)!, TimeZone(secondsFromGMT: -18 * 3600)!,
                     TimeZone(identifier: "Pacific/Kiritimati")!, TimeZone(identifier: "Pacific/Pago_Pago")!]
        let first = Double(CivilTime.seconds(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        let last = Double(CivilTime.seconds(year: 10_000, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        var quick = 0
        for zone in zones {
            for end in [first, last] {
                for hour in -60...60 {
                    let date = Date(timeIntervalSince1970: end + Double(hour) * 3600 + 0.5)
                    let taken = (try? DateParser.inYears(date, timeZone: zone, text: "x")) != nil
                    let bothZones = (try? DateParser.inYearsInBothZones(date, timeZone: zone, text: "x")) != nil
                    XCTAssertEqual(taken, bothZones, "\(date) in \(zone.identifier)")
                    if DateParser.wellInYears.contains(date.timeIntervalSince1970) { quick += 1 }
                }
            }
        }
        XCTAssertEqual(quick, zones.count * (37 + 36), "the hours a day or more inside the ends")
        XCTAssertEqual(parse("2016-11-25 10:20", paris)?.date, instant(2016, 11, 25, 9, 20))
        XCTAssertEqual(parse("0001-01-02", utc)?.date, Date(timeIntervalSince1970: first + 86_400), "proleptic Gregorian")
        XCTAssertTrue(failure("0001-01-01T00:00:00+01:00").contains("falls in the year 0 in UTC"))
        XCTAssertTrue(failure("9999-12-31T23:00:00-02:00").contains("falls in the year 10000 in UTC"))
    }
}
