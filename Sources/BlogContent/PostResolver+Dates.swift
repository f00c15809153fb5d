import BlogCore
import Foundation

extension PostReader.Resolver {
    /// The date of the first of `keys` present. Without one, a required date comes from the file
    /// name's `YYYY-MM-DD-` prefix, else is missing: a warning, and nil.
    mutating func resolveDate(_ keys: [String], required: Bool) -> Date? {
        guard let key = keys.first(where: { field($0) != nil }), let f = field(key) else {
            guard required else { return nil }
            if let (y, m, d) = file.datePrefix {
                do {
                    let text = String(format: "%04d-%02d-%02d", y, m, d)
                    return try DateParser.parse(text, timeZone: timeZone).date
                } catch let failure as DateParser.Failure {
                    error(nil, "date in the file name: \(failure.message)")
                    return nil
                } catch {
                    return nil
                }
            }
            warning(nil, "missing date: the post is listed after every dated post and shows no date; add a `date: YYYY-MM-DD` header line")
            return nil
        }
        switch f.value {
        case .date(let d):
            do {
                return try DateParser.inYears(d, timeZone: timeZone, text: f.value.text ?? "")
            } catch {
                self.error(f, "`\(key)`: \(error)")
                return nil
            }
        case .string, .int, .double:
            let text = f.value.text ?? ""
            do {
                var parsed = try DateParser.parse(text, timeZone: timeZone)
                if parsed.ambiguous { warning(f, DateParser.ambiguityMessage(text)) }
                if parsed.repeatedYear {
                    // Ruby's Date._parse, which Jekyll reads dates with, takes a zone only right after the
                    // time: with the year between, the offset is dropped and the time is the site's.
                    var how = ""
                    if isJekyll, let again = text.range(of: " " + text.prefix(4), options: .backwards) {
                        parsed = try DateParser.parse(String(text[..<again.lowerBound]), timeZone: timeZone)
                        how = " in the site's time zone, without the offset, as Jekyll reads it"
                    }
                    warning(f, "`\(key)` \"\(text)\" has the year twice, before the offset: read as \(DateText.iso8601(parsed.date, timeZone: timeZone))\(how); remove the second year")
                }
                return parsed.date
            } catch let failure as DateParser.Failure {
                error(f, "`\(key)`: \(failure.message)")
            } catch {
                self.error(f, "`\(key)`: \(error)")
            }
            return nil
        default:
            error(f, "`\(key)` must be a date such as 2016-11-25, not \(kind(f.value))")
            return nil
        }
    }
}

extension PostReader.Resolver {
    /// `field`'s value as the file has it: from its line and column to a `#` comment or the line's
    /// end, quotes dropped (a TOML or YAML date is typed, and its offset gone, once read).
    func writtenText(of field: HeaderField) -> String {
        // The line is found on the bytes: the text has no CR (``SourceText``), so each `\n` is a character of its
        // own. Splitting the text into characters cost 35 k instructions a Hugo post.
        let bytes = text.utf8
        var start = bytes.startIndex
        for _ in 1..<max(1, field.line) {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return field.value.text ?? "" }
            start = bytes.index(after: newline)
        }
        let line = text[start..<(bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex)]
        var value = line.dropFirst(max(0, field.column - 1))
        if let hash = value.firstIndex(of: "#") { value = value[..<hash] }
        // Trimmed of quotes, spaces, tabs and CRs, ASCII all: on the bytes, as Foundation's trimming on the scalars.
        let utf8 = value.utf8
        var low = utf8.startIndex, high = utf8.endIndex
        func trimmed(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x27 || byte == 0x20 || byte == 0x09 || byte == 0x0D }
        while low < high, trimmed(utf8[low]) { low = utf8.index(after: low) }
        while low < high, trimmed(utf8[utf8.index(before: high)]) { high = utf8.index(before: high) }
        return String(value[low..<high])
    }
}

extension DateParser {
    /// `ambiguous date "03/04/2017": read as day/month (3 April 2017); write 2017-04-03 to be explicit`.
    static func ambiguityMessage(_ text: String) -> String {
        let trimmed = text.trimmingWhitespacesAndNewlines()
        let numbers = trimmed.split(whereSeparator: { !$0.isNumber }).prefix(3).compactMap { Int($0) }
        guard numbers.count == 3 else { return "ambiguous date \"\(trimmed)\": read as day/month" }
        let (day, month, year) = (numbers[0], numbers[1], numbers[2])
        let iso = String(format: "%04d-%02d-%02d", year, month, day)
        return "ambiguous date \"\(trimmed)\": read as day/month (\(day) \(monthNames[month - 1]) \(year)); write \(iso) to be explicit"
    }
}
