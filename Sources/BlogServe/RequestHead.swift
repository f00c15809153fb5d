import Foundation

/// The head of an HTTP/1.1 request (RFC 9112): the request line and the header fields, up to the blank line.
struct RequestHead: Sendable, Equatable {
    var method: String
    /// The request target as sent: an origin-form path with its query (`/blog/a%20b/?x=1`).
    var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    /// The header fields in their order, names as sent.
    var fields: [Field]

    struct Field: Sendable, Equatable {
        var name: String
        var value: String
    }

    /// The value of the first field `name` (case-insensitive).
    func field(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// How many fields are named `name`.
    func count(of name: String) -> Int {
        fields.reduce(0) { $0 + ($1.name.caseInsensitiveCompare(name) == .orderedSame ? 1 : 0) }
    }

    /// Whether `field` holds `token` in its comma-separated list (`Connection: keep-alive, Upgrade`).
    func field(_ name: String, lists token: String) -> Bool {
        fields.contains { field in
            field.name.caseInsensitiveCompare(name) == .orderedSame
                && field.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(token) == .orderedSame }
        }
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection: close`, and never
    /// after a request with a body (the preview never reads one, so the next request would start inside it).
    var keepsAlive: Bool {
        version == "HTTP/1.1" && !field("Connection", lists: "close") && !hasBody
    }

    /// Whether a body follows the head.
    var hasBody: Bool {
        field("Transfer-Encoding") != nil || (field("Content-Length").map { $0.trimmingCharacters(in: .whitespaces) != "0" } ?? false)
    }
}

/// A head refused before it is complete or once read: the status to answer and why.
struct HeadRefusal: Error, Equatable {
    var status: Int
    var reason: String
}

/// Reads request heads from bytes as they arrive, within bounds: a request line over ``requestLineLimit`` bytes
/// is refused (`414`), and header fields over ``fieldsLimit`` bytes (`431`), as soon as the limit is passed and
/// before anything is parsed; each byte is looked at once, however the head is cut into reads. What follows a
/// head (the next request of a pipelining client) stays for the next one.
struct HeadReader {
    static let requestLineLimit = 8 * 1024
    static let fieldsLimit = 8 * 1024

    /// The bytes received and not yet used.
    private(set) var buffer: [UInt8] = []
    /// The bytes of `buffer` looked at.
    private var scanned = 0
    /// Where the line being scanned starts.
    private var lineStart = 0
    /// Where the request line ends (after its `\n`), once it has.
    private var fieldsStart: Int?

    /// Whether bytes of a head are waiting (a head was started).
    var isStarted: Bool { !buffer.isEmpty }

    /// Adds `bytes`; returns the head when it is complete, nil when more bytes are needed.
    /// - Throws: ``HeadRefusal`` for a head over the limits or not in the form of HTTP/1.1.
    mutating func add(_ bytes: [UInt8]) throws -> RequestHead? {
        buffer += bytes
        return try next()
    }

    /// The head already in the buffer, if it is complete (after a pipelined request, for one).
    mutating func next() throws -> RequestHead? {
        while scanned < buffer.count {
            let byte = buffer[scanned]
            scanned += 1
            if let fieldsStart {
                guard scanned - fieldsStart <= Self.fieldsLimit else {
                    throw HeadRefusal(status: 431, reason: "the header fields are over \(Self.fieldsLimit) bytes")
                }
            } else if scanned > Self.requestLineLimit + 2 {
                throw HeadRefusal(status: 414, reason: "the request line is over \(Self.requestLineLimit) bytes")
            }
            guard byte == UInt8(ascii: "\n") else { continue }
            let line = Self.line(buffer[lineStart..<(scanned - 1)])
            lineStart = scanned
            if fieldsStart == nil {
                // An empty line before the request line is ignored (RFC 9112, 2.2).
                if line.isEmpty { continue }
                fieldsStart = scanned
            } else if line.isEmpty {
                let head = try Self.parse(buffer[..<scanned])
                buffer.removeFirst(scanned)
                (scanned, lineStart, fieldsStart) = (0, 0, nil)
                return head
            }
        }
        return nil
    }

    /// A line without its `\r`.
    private static func line(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
    }

    /// The head in `bytes` (through its blank line).
    static func parse(_ bytes: ArraySlice<UInt8>) throws -> RequestHead {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(line)
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { throw bad("no request line") }
        if bytes.contains(0) || lines.contains(where: { $0.contains(UInt8(ascii: "\r")) }) {
            throw bad("a NUL or a CR that does not end a line")
        }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isToken), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw bad("the request line is not `METHOD /path HTTP/1.1`")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { throw bad("the request line is not `METHOD /path HTTP/1.1`") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw HeadRefusal(status: 505, reason: "the preview speaks HTTP/1.1 and HTTP/1.0, not \(version)")
        }
        var fields: [RequestHead.Field] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(isToken) else {
                throw bad("a header line is not `Name: value`")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            fields.append(.init(name: String(decoding: line[..<colon], as: UTF8.self), value: value))
        }
        return RequestHead(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                           version: version, fields: fields)
    }

    private static func bad(_ reason: String) -> HeadRefusal {
        HeadRefusal(status: 400, reason: reason)
    }

    /// Whether `byte` may be in a method or a field name (RFC 9110's `tchar`).
    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
