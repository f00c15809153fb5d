import BlogCore
import Foundation
internal import TOMLKit

// TOML headers (between `+++` lines), and TOML values as ``MetaValue``s.

extension FrontMatterParser {
    static func parseTOML(_ block: String, path: String,
                          lineOffset: Int) throws -> ([String: HeaderField], [String], [Diagnostic]) {
        if let abort = tomlAbort(block) {
            throw BuildFailure([.error(path, line: abort.line + lineOffset, column: abort.column, "invalid TOML: \(abort.message)")])
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: block)
        } catch let error as TOMLParseError {
            throw BuildFailure([.error(path, line: error.source.begin.line + lineOffset, column: error.source.begin.column,
                                       "invalid TOML: \(error.description)")])
        } catch {
            throw BuildFailure([.error(path, line: 1 + lineOffset, column: 1, "invalid TOML: \(error)")])
        }
        let positions = tomlKeyPositions(block)
        var fields: [String: HeaderField] = [:]
        var warnings: [Diagnostic] = []
        var order: [(key: String, line: Int)] = []
        for (rawKey, value) in table {
            let key = rawKey.lowercased()
            let position = positions[rawKey] ?? (line: 1, column: 1)
            let line = position.line + lineOffset
            if let earlier = fields[key] {
                let (lost, kept) = earlier.line < line ? (earlier.line, line) : (line, earlier.line)
                warnings.append(.warning(path, line: kept, column: 1,
                                         "repeated front matter key `\(key)` (also on line \(lost)): the last one is used"))
                if earlier.line > line { continue }
                order.removeAll { $0.key == key }
            }
            fields[key] = HeaderField(value: metaValue(value), line: line, column: position.column)
            order.append((key, line))
        }
        let keyOrder = order.enumerated().sorted { a, b in
            a.element.line != b.element.line ? a.element.line < b.element.line : a.offset < b.offset
        }.map(\.element.key)
        return (fields, keyOrder, warnings)
    }

    /// A TOML value as a ``MetaValue``. A date-time with an offset is an instant (`.date`); a local
    /// date or date-time has no instant until the site's zone is known, so it stays text in ISO
    /// form (`2016-11-25`, `2016-11-25T10:20:00`) that ``DateParser`` reads in that zone.
    static func metaValue(_ value: TOMLValueConvertible) -> MetaValue {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return value.int.map(MetaValue.int) ?? .null
        case .double: return value.double.map(MetaValue.double) ?? .null
        case .bool: return value.bool.map(MetaValue.bool) ?? .null
        case .date:
            guard let d = value.date else { return .null }
            return .string(String(format: "%04d-%02d-%02d", d.year, d.month, d.day))
        case .time:
            guard let t = value.time else { return .null }
            return .string(timeText(t))
        case .dateTime:
            guard let dt = value.dateTime else { return .null }
            if let offset = dt.offset {
                let date = DateParser.instant(year: Int(dt.date.year), month: Int(dt.date.month), day: Int(dt.date.day),
                                              hour: Int(dt.time.hour), minute: Int(dt.time.minute), second: Int(dt.time.second),
                                              offset: Int(offset.offset) * 60, timeZone: TimeZone(secondsFromGMT: 0)!)
                return .date(date.addingTimeInterval(Double(dt.time.nanoSecond) / 1_000_000_000))
            }
            return .string(String(format: "%04d-%02d-%02dT", dt.date.year, dt.date.month, dt.date.day) + timeText(dt.time))
        case .array:
            guard let array = value.array else { return .null }
            return .list(array.map { metaValue($0) })
        case .table:
            guard let table = value.table else { return .null }
            var map: [String: MetaValue] = [:]
            for (k, v) in table { map[k] = metaValue(v) }
            return .map(map)
        }
    }

    static func timeText(_ t: TOMLTime) -> String {
        var text = String(format: "%02d:%02d:%02d", t.hour, t.minute, t.second)
        if t.nanoSecond > 0 {
            var fraction = String(format: "%09d", t.nanoSecond)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}
