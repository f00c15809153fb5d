@testable import BlogContent
import BlogCore
@testable import BlogRender
import Foundation
import XCTest

final class RenderDateFormatTests: XCTestCase {
    func format(_ iso: String, _ pattern: String, _ zone: String = "Europe/Paris") -> String {
        DateFormat.format(ISO8601DateFormatter().date(from: iso)!, pattern: pattern, timeZone: TimeZone(identifier: zone)!)
    }

    func testTheDefaultPattern() {
        XCTAssertEqual(format("2016-11-25T00:00:00+01:00", "%a %-d %B %Y"), "Fri 25 November 2016")
        // The same instant is still the 24th in New York.
        XCTAssertEqual(format("2016-11-25T00:00:00+01:00", "%a %-d %B %Y", "America/New_York"), "Thu 24 November 2016")
    }

    func testEachDirective() {
        let date = "2017-03-05T09:07:03+01:00"  // a Sunday, in winter time
        let expected: [(String, String)] = [
            ("%a", "Sun"), ("%A", "Sunday"), ("%b", "Mar"), ("%B", "March"), ("%d", "05"), ("%-d", "5"), ("%e", " 5"),
            ("%m", "03"), ("%-m", "3"), ("%y", "17"), ("%Y", "2017"), ("%H", "09"), ("%-H", "9"), ("%I", "09"),
            ("%M", "07"), ("%S", "03"), ("%p", "AM"), ("%Z", "CET"), ("%z", "+0100"), ("%j", "064"), ("%%", "%"),
        ]
        for (pattern, output) in expected {
            XCTAssertEqual(format(date, pattern), output, pattern)
        }
    }

    func testAfternoonMidnightAndTwoDigitFields() {
        XCTAssertEqual(format("2017-10-15T14:30:59+02:00", "%d/%m %H:%M:%S %I %p %-m"), "15/10 14:30:59 02 PM 10")
        XCTAssertEqual(format("2017-10-15T00:05:00+02:00", "%I:%M %p"), "12:05 AM")
        XCTAssertEqual(format("2017-10-15T12:05:00+02:00", "%I:%M %p %e"), "12:05 PM 15")
    }

    func testSummerTimeAndOtherZones() {
        XCTAssertEqual(format("2017-07-01T12:00:00+02:00", "%H:%M %Z %z"), "12:00 CEST +0200")
        XCTAssertEqual(format("2017-01-01T12:00:00Z", "%H:%M %Z %z", "Etc/UTC"), "12:00 UTC +0000")
        // Foundation names TimeZone(identifier: "UTC") "GMT", and so does the tz database.
        XCTAssertEqual(format("2017-01-01T12:00:00Z", "%Z %z", "UTC"), "GMT +0000")
        XCTAssertEqual(format("2017-01-01T12:00:00Z", "%H:%M %Z %z", "America/New_York"), "07:00 EST -0500")
        XCTAssertEqual(format("2017-01-01T12:00:00Z", "%H:%M %z", "Asia/Kolkata"), "17:30 +0530")
        // Far beyond the last transition of the tz file, its rule still names the zone.
        XCTAssertEqual(format("2090-07-01T12:00:00Z", "%Z"), "CEST")
        XCTAssertEqual(format("2090-01-01T12:00:00Z", "%Z"), "CET")
    }

    func testDayOfYearInLeapYearsAndDatesBefore1970() {
        XCTAssertEqual(format("2016-12-31T12:00:00Z", "%j", "UTC"), "366")
        XCTAssertEqual(format("2016-01-01T12:00:00Z", "%j %-j", "UTC"), "001 1")
        XCTAssertEqual(format("1969-12-31T23:59:59Z", "%A %-d %B %Y %H:%M:%S", "UTC"), "Wednesday 31 December 1969 23:59:59")
        XCTAssertEqual(format("2000-02-29T10:00:00Z", "%a %d %b %y", "UTC"), "Tue 29 Feb 00")
    }

    func testTextAndUnknownDirectivesStayAsWritten() {
        XCTAssertEqual(format("2016-11-25T00:00:00+01:00", "Posted %q on %-d. 100%% %"), "Posted %q on 25. 100% %")
    }

    func testCalendarFieldsAgreeWithFoundation() {
        let zones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"].map { TimeZone(identifier: $0)! }
        // Every 90 days and a few hours, from 1906 to 2096: all weekdays, hours and leap days come up.
        for seconds in stride(from: -2_000_000_000, to: 4_000_000_000, by: 7_787_777) {
            let date = Date(timeIntervalSince1970: Double(seconds))
            for zone in zones {
                let mine = CivilTime(date, timeZone: zone)
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let theirs = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
                XCTAssertEqual([mine.year, mine.month, mine.day, mine.hour, mine.minute, mine.second, mine.weekday + 1],
                               [theirs.year!, theirs.month!, theirs.day!, theirs.hour!, theirs.minute!, theirs.second!, theirs.weekday!],
                               "\(date) in \(zone.identifier)")
            }
        }
    }
}
