import Foundation

/// A 128-bit fingerprint of bytes (MurmurHash3 x64-128, seed 0): fast, and with 128 bits an
/// accidental collision is out of reach. Not cryptographic: the state of a build guards against
/// stale or damaged data, not against someone forging it.
package struct Digest: Hashable, Sendable, CustomStringConvertible {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    package static let zero = Digest(high: 0, low: 0)

    /// The digest of `bytes`.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var h1: UInt64 = 0, h2: UInt64 = 0
        let blocks = bytes.count / 16
        guard let base = bytes.baseAddress else { return finish(bytes, count: 0, h1, h2) }
        mix(base, blocks: blocks, &h1, &h2)
        return finish(UnsafeRawBufferPointer(rebasing: bytes[(blocks * 16)...]), count: bytes.count, h1, h2)
    }

    /// `blocks` whole blocks of 16 bytes from `base` mixed into `h1` and `h2`.
    @inline(__always) private static func mix(_ base: UnsafeRawPointer, blocks: Int, _ h1: inout UInt64, _ h2: inout UInt64) {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5, c2: UInt64 = 0x4cf5_ad43_2745_937f
        for i in 0..<blocks {
            var k1 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i * 16, as: UInt64.self))
            var k2 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i * 16 + 8, as: UInt64.self))
            k1 &*= c1; k1 = rotl(k1, 31); k1 &*= c2; h1 ^= k1
            h1 = rotl(h1, 27); h1 &+= h2; h1 = h1 &* 5 &+ 0x52dc_e729
            k2 &*= c2; k2 = rotl(k2, 33); k2 &*= c1; h2 ^= k2
            h2 = rotl(h2, 31); h2 &+= h1; h2 = h2 &* 5 &+ 0x3849_5ab5
        }
    }

    /// The digest, from the last bytes (`tail`, fewer than 16) and the length of all of them
    /// (`count`) mixed into `h1` and `h2`.
    @inline(__always) private static func finish(_ tail: UnsafeRawBufferPointer, count: Int, _ h1: UInt64, _ h2: UInt64) -> Digest {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5, c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1 = h1, h2 = h2
        var k1: UInt64 = 0, k2: UInt64 = 0
        let rest = tail.count
        if rest > 8 {
            for j in stride(from: rest - 1, through: 8, by: -1) { k2 ^= UInt64(tail[j]) << (UInt64(j - 8) * 8) }
            k2 &*= c2; k2 = rotl(k2, 33); k2 &*= c1; h2 ^= k2
        }
        if rest > 0 {
            for j in stride(from: min(rest, 8) - 1, through: 0, by: -1) { k1 ^= UInt64(tail[j]) << (UInt64(j) * 8) }
            k1 &*= c1; k1 = rotl(k1, 31); k1 &*= c2; h1 ^= k1
        }
        h1 ^= UInt64(count); h2 ^= UInt64(count)
        h1 &+= h2; h2 &+= h1
        h1 = fmix(h1); h2 = fmix(h2)
        h1 &+= h2; h2 &+= h1
        return Digest(high: h1, low: h2)
    }

    /// The digest of bytes given part after part: the same as ``of(_:)-(UnsafeRawBufferPointer)`` of them all
    /// at once, without holding them (the incremental state is digested as it is written to its file).
    package struct Running {
        private var h1: UInt64 = 0, h2: UInt64 = 0
        private var count = 0
        /// The bytes given that make no whole block yet: the first `pendingCount` of these 16.
        private var pending: (UInt64, UInt64) = (0, 0)
        private var pendingCount = 0

        package init() {}

        package mutating func add(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            count += bytes.count
            var start = 0
            if pendingCount > 0 {
                start = min(16 - pendingCount, bytes.count)
                let at = pendingCount
                withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.advanced(by: at).copyMemory(from: base, byteCount: start) }
                pendingCount += start
                guard pendingCount == 16 else { return }
                let block = pending
                withUnsafeBytes(of: block) { Digest.mix($0.baseAddress!, blocks: 1, &h1, &h2) }
                pendingCount = 0
            }
            let blocks = (bytes.count - start) / 16
            Digest.mix(base + start, blocks: blocks, &h1, &h2)
            let rest = bytes.count - start - blocks * 16
            if rest > 0 {
                withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.copyMemory(from: base + start + blocks * 16, byteCount: rest) }
                pendingCount = rest
            }
        }

        /// The digest of every byte given.
        package var digest: Digest {
            let block = pending
            return withUnsafeBytes(of: block) { Digest.finish(UnsafeRawBufferPointer(rebasing: $0[..<pendingCount]), count: count, h1, h2) }
        }
    }

    package static func of(_ bytes: [UInt8]) -> Digest { bytes.withUnsafeBytes { of($0) } }
    package static func of(_ data: Data) -> Digest { data.withUnsafeBytes { of($0) } }
    package static func of(_ text: String) -> Digest {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func fmix(_ k: UInt64) -> UInt64 {
        var k = k
        k ^= k >> 33; k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33; k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }

    package var description: String { String(format: "%016llx%016llx", high, low) }
}

/// Bytes put together to be digested: parts are written with their lengths so that no two
/// different sequences of parts give the same bytes.
package struct DigestInput {
    private(set) var bytes: [UInt8] = []

    package init() { bytes.reserveCapacity(1024) }

    /// Room for `capacity` bytes before it grows.
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Empties it, keeping its room: for digesting one small value after another.
    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            add(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func add(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func add(_ value: Int) { add(UInt64(bitPattern: Int64(value))) }

    package mutating func add(_ value: UInt8) { bytes.append(value) }

    package mutating func add(_ digest: Digest) {
        add(digest.high)
        add(digest.low)
    }

    package mutating func add(_ data: [UInt8]) {
        add(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    package var digest: Digest { Digest.of(bytes) }
}
