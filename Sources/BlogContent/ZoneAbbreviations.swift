import BlogCore
import Foundation

/// Time zone abbreviations (`CET`, `CEST`, `EST`, `IST`) read from the system's tz database
/// (TZif files, RFC 8536). Foundation only knows a few of them and says `GMT+1` for Paris on
/// Linux, so `%Z` would depend on the platform.
struct ZoneAbbreviations: Sendable {
    private struct LocalTimeType: Sendable {
        var isDaylight: Bool
        var name: String
    }

    /// Transition instants (seconds since 1970), ascending.
    private var transitions: [Int64] = []
    /// For each transition, the index into `types` in effect from then on.
    private var typeIndices: [Int] = []
    private var types: [LocalTimeType] = []
    /// Names from the file's footer rule, which applies after the last transition.
    private var ruleStandard: String?
    private var ruleDaylight: String?

    /// Reads the zone's file under `directory` (`TZDIR`, else `/usr/share/zoneinfo`);
    /// nil when there is none (fixed-offset zones) or it can't be read.
    init?(timeZone: TimeZone, directory: String? = nil) {
        let folder = directory ?? ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
        guard !timeZone.identifier.contains(".."),
              let data = FileManager.default.contents(atPath: folder + "/" + timeZone.identifier),
              parse([UInt8](data)) else { return nil }
    }

    /// The abbreviation in effect at `date`, nil when the file doesn't say.
    func abbreviation(for date: Date, in timeZone: TimeZone) -> String? {
        let t = Int64(date.timeIntervalSince1970.rounded(.down))
        if transitions.isEmpty || t >= transitions[transitions.count - 1] {
            if let rule = ruleStandard {
                return timeZone.isDaylightSavingTime(for: date) ? (ruleDaylight ?? rule) : rule
            }
            return transitions.isEmpty ? types.first?.name : types[typeIndices[typeIndices.count - 1]].name
        }
        if t < transitions[0] { return types.first?.name }
        // The last transition at or before t.
        var low = 0, high = transitions.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if transitions[mid] <= t { low = mid } else { high = mid - 1 }
        }
        return types[typeIndices[low]].name
    }

    /// Reads the 64-bit data block of a version 2+ file (skipping the 32-bit one), then the footer.
    private mutating func parse(_ bytes: [UInt8]) -> Bool {
        var reader = ByteReader(bytes: bytes)
        guard let v1 = reader.header() else { return false }
        let is64 = v1.version >= 2
        if is64 {
            reader.skip(v1.dataSize(timeSize: 4))
            guard let v2 = reader.header() else { return false }
            return readData(v2, timeSize: 8, reader: &reader) && readFooter(reader: &reader)
        }
        return readData(v1, timeSize: 4, reader: &reader)
    }

    private mutating func readData(_ header: ByteReader.Header, timeSize: Int, reader: inout ByteReader) -> Bool {
        guard reader.remaining >= header.dataSize(timeSize: timeSize) else { return false }
        transitions = (0..<header.timeCount).map { _ in reader.signed(timeSize) }
        typeIndices = (0..<header.timeCount).map { _ in Int(reader.byte()) }
        var raw: [(isDaylight: Bool, nameIndex: Int)] = []
        for _ in 0..<header.typeCount {
            _ = reader.signed(4)  // UT offset: Foundation knows it
            raw.append((reader.byte() != 0, Int(reader.byte())))
        }
        let names = Array(reader.take(header.charCount))
        types = raw.map { type in
            let start = min(type.nameIndex, names.count)
            let end = names[start...].firstIndex(of: 0) ?? names.count
            return LocalTimeType(isDaylight: type.isDaylight, name: String(decoding: names[start..<end], as: UTF8.self))
        }
        reader.skip(header.dataSize(timeSize: timeSize) - header.timeCount * (timeSize + 1)
                    - header.typeCount * 6 - header.charCount)
        return typeIndices.allSatisfy { $0 < types.count } && !types.isEmpty
    }

    /// The footer `\nCET-1CEST,M3.5.0,M10.5.0/3\n`: a POSIX TZ rule; only its names are kept.
    private mutating func readFooter(reader: inout ByteReader) -> Bool {
        let footer = String(decoding: reader.take(reader.remaining), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var rest = Substring(footer)
        ruleStandard = Self.ruleName(&rest)
        guard ruleStandard != nil else { return true }
        rest = rest.drop { "+-0123456789:".contains($0) }
        ruleDaylight = Self.ruleName(&rest)
        return true
    }

    /// A name of a POSIX TZ rule: letters, or anything between `<` and `>`.
    private static func ruleName(_ text: inout Substring) -> String? {
        if text.first == "<", let end = text.firstIndex(of: ">") {
            let name = text[text.index(after: text.startIndex)..<end]
            text = text[text.index(after: end)...]
            return name.isEmpty ? nil : String(name)
        }
        let name = text.prefix { $0.isLetter }
        text = text.dropFirst(name.count)
        return name.isEmpty ? nil : String(name)
    }
}

/// Big-endian reading of a TZif file.
private struct ByteReader {
    struct Header {
        var version: Int
        var isUTCount: Int, isStandardCount: Int, leapCount: Int, timeCount: Int, typeCount: Int, charCount: Int

        /// Bytes of the data block that follows this header.
        func dataSize(timeSize: Int) -> Int {
            timeCount * (timeSize + 1) + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCount
        }
    }

    let bytes: [UInt8]
    var position = 0

    var remaining: Int { bytes.count - position }

    mutating func header() -> Header? {
        guard remaining >= 44, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return nil }
        let version = bytes[position + 4] == 0 ? 1 : Int(bytes[position + 4]) - Int(UInt8(ascii: "0"))
        position += 20
        let counts = (0..<6).map { _ in Int(signed(4)) }
        guard counts.allSatisfy({ $0 >= 0 }) else { return nil }
        return Header(version: version, isUTCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                      timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func signed(_ size: Int) -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<size { value = value << 8 | UInt64(byte()) }
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return bytes[position..<end]
    }

    mutating func skip(_ count: Int) {
        position = min(bytes.count, position + max(0, count))
    }
}
