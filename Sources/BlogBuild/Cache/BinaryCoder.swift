import Foundation

/// A compact binary form for `Codable` values, made for the build cache: synthesized `Codable`
/// conformances (``Post``, ``RenderedMarkdown``…) round-trip through it without code of their own,
/// so a field added to a cached type is cached without this file changing.
///
/// Foundation's JSON coders build a whole tree of boxed values first; for 10,000 posts they cost
/// more than reading the posts again. This one reads and writes bytes in place: every value is a
/// one-byte tag and its payload; a keyed container is a count and `(key, value)` pairs in the order
/// they were encoded, so synthesized decoders (which ask for keys in the same order) find each key
/// at the cursor without searching. Out-of-order keys, `allKeys` (dictionaries, enums with
/// associated values) and absent keys still work by scanning the container.
///
/// Nothing in it is trusted: a truncated or garbled input throws ``BinaryCoderError``, never traps.
enum BinaryCoderError: Error, CustomStringConvertible {
    case truncated
    case unexpected(tag: UInt8, expected: String)
    case keyNotFound(String)
    case unsupported(String)

    var description: String {
        switch self {
        case .truncated: return "the data ends too early"
        case .unexpected(let tag, let expected): return "found tag \(tag) where \(expected) was expected"
        case .keyNotFound(let key): return "no value for the key \"\(key)\""
        case .unsupported(let what): return "unsupported: \(what)"
        }
    }
}

/// The tags of the format.
private enum CoderTag: UInt8 {
    case null = 0, `false` = 1, `true` = 2, int = 3, uint = 4, double = 5, float = 6, string = 7
    case keyed = 8, unkeyed = 9, data = 10, date = 11
}

// MARK: - Encoding

/// Encodes a `Codable` value into bytes (see ``BinaryCoderError`` for the format's idea).
struct BinaryEncoder {
    /// The bytes of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let state = EncoderState()
        try state.encodeValue(value, depth: 0)
        return state.out.pointee.bytes
    }
}

/// What an encoding writes, and the coding path of the value being written: a stack of keys that
/// containers see a prefix of (their depth), so a nested value needs no path array of its own.
private struct EncoderOutput {
    var bytes: [UInt8] = []
    var keys: [CodingKey] = []
}

/// One encoding, shared by its containers. The output is behind a pointer: Swift checks every
/// access to a class's `var` for exclusivity at run time, and those checks cost more than the
/// appends they guarded.
private final class EncoderState {
    let out: UnsafeMutablePointer<EncoderOutput>

    init() {
        out = .allocate(capacity: 1)
        out.initialize(to: EncoderOutput())
        out.pointee.bytes.reserveCapacity(4096)
    }

    deinit {
        out.deinitialize(count: 1)
        out.deallocate()
    }

    @inline(__always) func tag(_ tag: CoderTag) { out.pointee.bytes.append(tag.rawValue) }

    func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            out.pointee.bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.pointee.bytes.append(UInt8(v))
    }

    func int(_ value: Int64) {
        tag(.int)
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    func uint(_ value: UInt64) {
        tag(.uint)
        varint(value)
    }

    func double(_ value: Double) {
        tag(.double)
        raw64(value.bitPattern)
    }

    func raw64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { out.pointee.bytes.append(contentsOf: $0) }
    }

    func rawString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            out.pointee.bytes.append(contentsOf: utf8)
        }
    }

    func string(_ value: String) {
        tag(.string)
        rawString(value)
    }

    /// Starts a container: its tag and a 4-byte count bumped as items come; returns where the count is.
    func openContainer(_ kind: CoderTag) -> Int {
        tag(kind)
        let at = out.pointee.bytes.count
        withUnsafeBytes(of: UInt32(0)) { out.pointee.bytes.append(contentsOf: $0) }
        return at
    }

    /// The count of the container whose count is at `offset`.
    func count(at offset: Int) -> Int {
        out.pointee.bytes.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
    }

    func bumpCount(at offset: Int) {
        out.pointee.bytes.withUnsafeMutableBytes { raw in
            let count = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            raw.storeBytes(of: (count + 1).littleEndian, toByteOffset: offset, as: UInt32.self)
        }
    }

    /// The coding path of a container at `depth`.
    func codingPath(_ depth: Int) -> [CodingKey] { Array(out.pointee.keys.prefix(depth)) }

    /// Puts `key` on the path after the first `depth` keys; returns the depth of the value under it.
    func enter<Key: CodingKey>(_ depth: Int, _ key: Key) -> Int {
        let extra = out.pointee.keys.count - depth
        if extra > 0 { out.pointee.keys.removeLast(extra) }
        out.pointee.keys.append(key)
        return out.pointee.keys.count
    }

    /// Writes a value of the common leaf types directly (compared by type, which costs less than
    /// trying casts); false for any other type.
    @inline(__always) func leaf<T: Encodable>(_ value: T) -> Bool {
        if T.self == String.self {
            string(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            int(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Bool.self {
            tag(unsafeBitCast(value, to: Bool.self) ? .true : .false)
        } else if T.self == Date.self {
            tag(.date)
            raw64(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate.bitPattern)
        } else if T.self == Double.self {
            double(unsafeBitCast(value, to: Double.self))
        } else if T.self == Data.self {
            let data = unsafeBitCast(value, to: Data.self)
            tag(.data)
            varint(UInt64(data.count))
            out.pointee.bytes.append(contentsOf: data)
        } else if T.self == URL.self {
            string(unsafeBitCast(value, to: URL.self).absoluteString)
        } else {
            return false
        }
        return true
    }

    /// Writes any value: the common leaf types directly, everything else through its `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T, depth: Int) throws {
        if leaf(value) { return }
        try encodeComposite(value, depth: depth)
    }

    /// Writes the value of `key` (in a container at `depth`): the key joins the path only when the
    /// value has containers of its own.
    func encodeValue<T: Encodable, Key: CodingKey>(_ value: T, depth: Int, key: Key) throws {
        if leaf(value) { return }
        try encodeComposite(value, depth: enter(depth, key))
    }

    private func encodeComposite<T: Encodable>(_ value: T, depth: Int) throws {
        let start = out.pointee.bytes.count
        try value.encode(to: ValueEncoder(state: self, depth: depth))
        // A value that wrote nothing (an empty struct) is an empty keyed container.
        if out.pointee.bytes.count == start { _ = openContainer(.keyed) }
    }
}

private struct ValueEncoder: Encoder {
    let state: EncoderState
    let depth: Int
    var codingPath: [CodingKey] { state.codingPath(depth) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedEncoder<Key>(state: state, countAt: state.openContainer(.keyed), depth: depth))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        UnkeyedEncoder(state: state, countAt: state.openContainer(.unkeyed), depth: depth)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleEncoder(state: state, depth: depth)
    }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: EncoderState
    let countAt: Int
    let depth: Int
    var codingPath: [CodingKey] { state.codingPath(depth) }

    private func key(_ key: Key) {
        state.bumpCount(at: countAt)
        state.rawString(key.stringValue)
    }

    mutating func encodeNil(forKey k: Key) throws { key(k); state.tag(.null) }
    mutating func encode(_ value: Bool, forKey k: Key) throws { key(k); state.tag(value ? .true : .false) }
    mutating func encode(_ value: String, forKey k: Key) throws { key(k); state.string(value) }
    mutating func encode(_ value: Double, forKey k: Key) throws { key(k); state.double(value) }
    mutating func encode(_ value: Float, forKey k: Key) throws { key(k); state.double(Double(value)) }
    mutating func encode(_ value: Int, forKey k: Key) throws { key(k); state.int(Int64(value)) }
    mutating func encode(_ value: Int8, forKey k: Key) throws { key(k); state.int(Int64(value)) }
    mutating func encode(_ value: Int16, forKey k: Key) throws { key(k); state.int(Int64(value)) }
    mutating func encode(_ value: Int32, forKey k: Key) throws { key(k); state.int(Int64(value)) }
    mutating func encode(_ value: Int64, forKey k: Key) throws { key(k); state.int(value) }
    mutating func encode(_ value: UInt, forKey k: Key) throws { key(k); state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey k: Key) throws { key(k); state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey k: Key) throws { key(k); state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey k: Key) throws { key(k); state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey k: Key) throws { key(k); state.uint(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey k: Key) throws {
        key(k)
        try state.encodeValue(value, depth: depth, key: k)
    }

    // Absent optionals are written as an explicit null, so the keys stay in order for the decoder.
    mutating func encodeIfPresent(_ value: String?, forKey k: Key) throws {
        if let value { try encode(value, forKey: k) } else { try encodeNil(forKey: k) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey k: Key) throws {
        if let value { try encode(value, forKey: k) } else { try encodeNil(forKey: k) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey k: Key) throws {
        if let value { try encode(value, forKey: k) } else { try encodeNil(forKey: k) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey k: Key) throws {
        if let value { try encode(value, forKey: k) } else { try encodeNil(forKey: k) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey k: Key) throws {
        if let value { try encode(value, forKey: k) } else { try encodeNil(forKey: k) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey k: Key) -> KeyedEncodingContainer<NestedKey> {
        key(k)
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(state: state, countAt: state.openContainer(.keyed), depth: state.enter(depth, k)))
    }

    mutating func nestedUnkeyedContainer(forKey k: Key) -> UnkeyedEncodingContainer {
        key(k)
        return UnkeyedEncoder(state: state, countAt: state.openContainer(.unkeyed), depth: state.enter(depth, k))
    }

    mutating func superEncoder() -> Encoder {
        preconditionFailure("BinaryEncoder does not support superEncoder (class inheritance is not cached)")
    }

    mutating func superEncoder(forKey key: Key) -> Encoder { superEncoder() }
}

/// Three words, so that it fits in an `UnkeyedEncodingContainer` without a box of its own.
private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let state: EncoderState
    let countAt: Int
    let depth: Int
    var codingPath: [CodingKey] { state.codingPath(depth) }
    var count: Int { state.count(at: countAt) }

    private func item() { state.bumpCount(at: countAt) }

    mutating func encodeNil() throws { item(); state.tag(.null) }
    mutating func encode(_ value: Bool) throws { item(); state.tag(value ? .true : .false) }
    mutating func encode(_ value: String) throws { item(); state.string(value) }
    mutating func encode(_ value: Double) throws { item(); state.double(value) }
    mutating func encode(_ value: Int) throws { item(); state.int(Int64(value)) }
    mutating func encode(_ value: Int64) throws { item(); state.int(value) }
    mutating func encode(_ value: UInt8) throws { item(); state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { item(); state.uint(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        item()
        try state.encodeValue(value, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        item()
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(state: state, countAt: state.openContainer(.keyed), depth: depth))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        item()
        return UnkeyedEncoder(state: state, countAt: state.openContainer(.unkeyed), depth: depth)
    }

    mutating func superEncoder() -> Encoder {
        preconditionFailure("BinaryEncoder does not support superEncoder (class inheritance is not cached)")
    }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let state: EncoderState
    let depth: Int
    var codingPath: [CodingKey] { state.codingPath(depth) }

    mutating func encodeNil() throws { state.tag(.null) }
    mutating func encode(_ value: Bool) throws { state.tag(value ? .true : .false) }
    mutating func encode(_ value: String) throws { state.string(value) }
    mutating func encode(_ value: Double) throws { state.double(value) }
    mutating func encode(_ value: Float) throws { state.double(Double(value)) }
    mutating func encode(_ value: Int) throws { state.int(Int64(value)) }
    mutating func encode(_ value: Int8) throws { state.int(Int64(value)) }
    mutating func encode(_ value: Int16) throws { state.int(Int64(value)) }
    mutating func encode(_ value: Int32) throws { state.int(Int64(value)) }
    mutating func encode(_ value: Int64) throws { state.int(value) }
    mutating func encode(_ value: UInt) throws { state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { state.uint(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { state.uint(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try state.encodeValue(value, depth: depth) }
}

// MARK: - Decoding

/// Decodes what ``BinaryEncoder`` wrote. Throws on any input it can't read; never traps.
struct BinaryDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        let reader = Reader(bytes)
        let value = try reader.decodeValue(T.self, codingPath: [])
        guard reader.position == bytes.count else { throw BinaryCoderError.unsupported("bytes left after the value") }
        return value
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }
}

private final class Reader {
    let base: UnsafeRawBufferPointer
    var position = 0

    init(_ base: UnsafeRawBufferPointer) { self.base = base }

    @inline(__always) func byte() throws -> UInt8 {
        guard position < base.count else { throw BinaryCoderError.truncated }
        defer { position += 1 }
        return base[position]
    }

    @inline(__always) func peek() throws -> UInt8 {
        guard position < base.count else { throw BinaryCoderError.truncated }
        return base[position]
    }

    func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            if shift >= 64 { throw BinaryCoderError.unsupported("a number longer than 64 bits") }
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    func raw64() throws -> UInt64 {
        guard base.count - position >= 8 else { throw BinaryCoderError.truncated }
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: base[position..<position + 8])) }
        position += 8
        return UInt64(littleEndian: value)
    }

    func raw32() throws -> Int {
        guard base.count - position >= 4 else { throw BinaryCoderError.truncated }
        let p = position
        position += 4
        return Int(base[p]) | Int(base[p + 1]) << 8 | Int(base[p + 2]) << 16 | Int(base[p + 3]) << 24
    }

    /// A length-prefixed run of bytes: its start and length.
    func span() throws -> (Int, Int) {
        let length = try varint()
        guard length <= UInt64(base.count - position) else { throw BinaryCoderError.truncated }
        let start = position
        position += Int(length)
        return (start, Int(length))
    }

    func rawString() throws -> String {
        let (start, length) = try span()
        return String(decoding: UnsafeRawBufferPointer(rebasing: base[start..<start + length]), as: UTF8.self)
    }

    func expect(_ tag: CoderTag, _ what: String) throws {
        let b = try byte()
        guard b == tag.rawValue else { throw BinaryCoderError.unexpected(tag: b, expected: what) }
    }

    func string() throws -> String {
        try expect(.string, "a string")
        return try rawString()
    }

    func bool() throws -> Bool {
        switch try byte() {
        case CoderTag.true.rawValue: return true
        case CoderTag.false.rawValue: return false
        case let b: throw BinaryCoderError.unexpected(tag: b, expected: "a boolean")
        }
    }

    func int64() throws -> Int64 {
        let b = try byte()
        switch b {
        case CoderTag.int.rawValue:
            let z = try varint()
            return Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
        case CoderTag.uint.rawValue:
            let u = try varint()
            guard u <= UInt64(Int64.max) else { throw BinaryCoderError.unsupported("a number out of range") }
            return Int64(u)
        default: throw BinaryCoderError.unexpected(tag: b, expected: "an integer")
        }
    }

    func uint64() throws -> UInt64 {
        let b = try byte()
        switch b {
        case CoderTag.uint.rawValue: return try varint()
        case CoderTag.int.rawValue:
            let z = try varint()
            let v = Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
            guard v >= 0 else { throw BinaryCoderError.unsupported("a negative number for an unsigned type") }
            return UInt64(v)
        default: throw BinaryCoderError.unexpected(tag: b, expected: "an integer")
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        if T.isSigned {
            guard let v = T(exactly: try int64()) else { throw BinaryCoderError.unsupported("a number out of range") }
            return v
        }
        guard let v = T(exactly: try uint64()) else { throw BinaryCoderError.unsupported("a number out of range") }
        return v
    }

    func double() throws -> Double {
        try expect(.double, "a number")
        return Double(bitPattern: try raw64())
    }

    /// Skips one value of any kind.
    func skip() throws {
        let b = try byte()
        guard let tag = CoderTag(rawValue: b) else { throw BinaryCoderError.unexpected(tag: b, expected: "a value") }
        switch tag {
        case .null, .false, .true: break
        case .int, .uint: _ = try varint()
        case .double, .date: _ = try raw64()
        case .float: throw BinaryCoderError.unexpected(tag: b, expected: "a value")
        case .string, .data: _ = try span()
        case .keyed:
            let count = try raw32()
            for _ in 0..<count {
                _ = try span()
                try skip()
            }
        case .unkeyed:
            let count = try raw32()
            for _ in 0..<count { try skip() }
        }
    }

    func decodeValue<T: Decodable>(_ type: T.Type, codingPath: [CodingKey]) throws -> T {
        if T.self == String.self { return try string() as! T }
        if T.self == Int.self { return try integer(Int.self) as! T }
        if T.self == Bool.self { return try bool() as! T }
        if T.self == Double.self { return try double() as! T }
        if T.self == Date.self {
            try expect(.date, "a date")
            return Date(timeIntervalSinceReferenceDate: Double(bitPattern: try raw64())) as! T
        }
        if T.self == Data.self {
            try expect(.data, "data")
            let (start, length) = try span()
            return Data(UnsafeRawBufferPointer(rebasing: base[start..<start + length])) as! T
        }
        if T.self == URL.self {
            guard let url = URL(string: try string()) else { throw BinaryCoderError.unsupported("a URL that doesn't parse") }
            return url as! T
        }
        return try T(from: ValueDecoder(reader: self, codingPath: codingPath))
    }
}

private struct ValueDecoder: Decoder {
    let reader: Reader
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedDecoder<Key>(reader: reader, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        try UnkeyedDecoder(reader: reader, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        SingleDecoder(reader: reader, codingPath: codingPath)
    }
}

/// Where a keyed container's entries are, and the next one expected.
private final class KeyedState {
    let entriesStart: Int
    let count: Int
    /// The position and index of the entry after the last one decoded.
    var cursor: Int
    var index = 0
    /// The end of the whole container, once known.
    var end: Int?

    init(entriesStart: Int, count: Int) {
        self.entriesStart = entriesStart
        self.count = count
        self.cursor = entriesStart
    }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: Reader
    let codingPath: [CodingKey]
    let state: KeyedState

    init(reader: Reader, codingPath: [CodingKey]) throws {
        self.reader = reader
        self.codingPath = codingPath
        try reader.expect(.keyed, "a keyed container")
        let count = try reader.raw32()
        state = KeyedState(entriesStart: reader.position, count: count)
        // A keyed container is read in place: leave the reader after it, so the value that holds
        // it continues behind it whatever keys are asked for.
        try skipEntries(from: reader.position, count: count)
        state.end = reader.position
    }

    private func skipEntries(from position: Int, count: Int) throws {
        reader.position = position
        for _ in 0..<count {
            _ = try reader.span()
            try reader.skip()
        }
    }

    /// Whether the key at `position` is `key`; leaves the reader after the key.
    private func keyMatches(at position: Int, _ key: String) throws -> Bool {
        reader.position = position
        let (start, length) = try reader.span()
        var key = key
        return key.withUTF8 { utf8 in
            utf8.count == length && (length == 0 || memcmp(utf8.baseAddress!, reader.base.baseAddress! + start, length) == 0)
        }
    }

    /// Moves the reader to the value of `key`, or returns false.
    private func find(_ key: Key) throws -> Bool {
        let name = key.stringValue
        if state.index < state.count, try keyMatches(at: state.cursor, name) { return true }
        var position = state.entriesStart
        for _ in 0..<state.count {
            if try keyMatches(at: position, name) { return true }
            try reader.skip()
            position = reader.position
        }
        return false
    }

    /// Decodes the value of `key` with `read`, then puts the reader back at the container's end.
    private func value<T>(_ key: Key, _ read: () throws -> T) throws -> T {
        guard try find(key) else { throw BinaryCoderError.keyNotFound(key.stringValue) }
        let result = try read()
        state.cursor = reader.position
        state.index += 1
        reader.position = state.end!
        return result
    }

    var allKeys: [Key] {
        var keys: [Key] = []
        reader.position = state.entriesStart
        for _ in 0..<state.count {
            guard let name = try? reader.rawString() else { break }
            if let key = Key(stringValue: name) { keys.append(key) }
            if (try? reader.skip()) == nil { break }
        }
        reader.position = state.end!
        return keys
    }

    func contains(_ key: Key) -> Bool {
        defer { reader.position = state.end! }
        return (try? find(key)) ?? false
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard try find(key) else { reader.position = state.end!; throw BinaryCoderError.keyNotFound(key.stringValue) }
        let isNil = try reader.peek() == CoderTag.null.rawValue
        reader.position = state.end!
        return isNil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key) { try reader.bool() } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key) { try reader.string() } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key) { try reader.double() } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key) { Float(try reader.double()) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key) { try reader.integer(Int.self) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key) { try reader.integer(Int8.self) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key) { try reader.integer(Int16.self) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key) { try reader.integer(Int32.self) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key) { try reader.integer(Int64.self) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key) { try reader.integer(UInt.self) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key) { try reader.integer(UInt8.self) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key) { try reader.integer(UInt16.self) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key) { try reader.integer(UInt32.self) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key) { try reader.integer(UInt64.self) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(key) { try reader.decodeValue(T.self, codingPath: codingPath + [key]) }
    }

    /// Absent or null: nil.
    private func optional<T>(_ key: Key, _ read: () throws -> T) throws -> T? {
        guard try find(key) else { reader.position = state.end!; return nil }
        if try reader.peek() == CoderTag.null.rawValue {
            _ = try reader.byte()
            state.cursor = reader.position
            state.index += 1
            reader.position = state.end!
            return nil
        }
        let result = try read()
        state.cursor = reader.position
        state.index += 1
        reader.position = state.end!
        return result
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(key) { try reader.string() } }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key) { try reader.bool() } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(key) { try reader.integer(Int.self) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(key) { try reader.double() } }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(key) { try reader.decodeValue(T.self, codingPath: codingPath + [key]) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try value(key) { KeyedDecodingContainer(try KeyedDecoder<NestedKey>(reader: reader, codingPath: codingPath + [key])) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        guard try find(key) else { reader.position = state.end!; throw BinaryCoderError.keyNotFound(key.stringValue) }
        let start = reader.position
        try reader.skip()
        state.cursor = reader.position
        state.index += 1
        let container = try UnkeyedDecoder(reader: reader, at: start, codingPath: codingPath + [key])
        reader.position = state.end!
        return container
    }

    func superDecoder() throws -> Decoder { throw BinaryCoderError.unsupported("superDecoder") }
    func superDecoder(forKey key: Key) throws -> Decoder { throw BinaryCoderError.unsupported("superDecoder") }
}

/// An unkeyed container keeps its own position, so it can be read after its parent moved on.
private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let reader: Reader
    let codingPath: [CodingKey]
    let count: Int?
    var currentIndex = 0
    /// Where the next item starts.
    var position: Int

    init(reader: Reader, codingPath: [CodingKey]) throws {
        try self.init(reader: reader, at: reader.position, codingPath: codingPath)
        // Leave the reader after the whole container, like a keyed one.
        reader.position = position
        for _ in 0..<(count ?? 0) { try reader.skip() }
    }

    init(reader: Reader, at start: Int, codingPath: [CodingKey]) throws {
        self.reader = reader
        self.codingPath = codingPath
        reader.position = start
        try reader.expect(.unkeyed, "an unkeyed container")
        count = try reader.raw32()
        position = reader.position
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func item<T>(_ read: (Reader) throws -> T) throws -> T {
        guard !isAtEnd else { throw BinaryCoderError.truncated }
        let reader = self.reader
        let saved = reader.position
        reader.position = position
        defer { reader.position = saved }
        let result = try read(reader)
        position = reader.position
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw BinaryCoderError.truncated }
        let saved = reader.position
        reader.position = position
        defer { reader.position = saved }
        if try reader.peek() == CoderTag.null.rawValue {
            position += 1
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try item { try $0.bool() } }
    mutating func decode(_ type: String.Type) throws -> String { try item { try $0.string() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try item { try $0.double() } }
    mutating func decode(_ type: Int.Type) throws -> Int { try item { try $0.integer(Int.self) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try item { try $0.integer(Int64.self) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try item { try $0.integer(UInt8.self) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try item { try $0.integer(UInt64.self) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let path = codingPath
        return try item { try $0.decodeValue(T.self, codingPath: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = codingPath
        return try item { KeyedDecodingContainer(try KeyedDecoder<NestedKey>(reader: $0, codingPath: path)) }
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let path = codingPath
        return try item { try UnkeyedDecoder(reader: $0, codingPath: path) }
    }

    mutating func superDecoder() throws -> Decoder { throw BinaryCoderError.unsupported("superDecoder") }
}

private struct SingleDecoder: SingleValueDecodingContainer {
    let reader: Reader
    let codingPath: [CodingKey]

    /// True when the value is null, which is then read: `Optional.init(from:)` asks nothing more of a
    /// nil, and the reader must be after it for the next value (`[String?]`).
    func decodeNil() -> Bool {
        guard (try? reader.peek()) == CoderTag.null.rawValue else { return false }
        reader.position += 1
        return true
    }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.bool() }
    func decode(_ type: String.Type) throws -> String { try reader.string() }
    func decode(_ type: Double.Type) throws -> Double { try reader.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try reader.double()) }
    func decode(_ type: Int.Type) throws -> Int { try reader.integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decodeValue(T.self, codingPath: codingPath) }
}
