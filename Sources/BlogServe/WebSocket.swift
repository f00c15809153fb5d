import Foundation

/// The little of WebSocket (RFC 6455) the live-reload socket needs: the handshake, text frames to the page,
/// and reading the page's frames for `close` and `ping` (a page sends nothing else).
enum WebSocket {
    /// The most a frame from a page may carry: a page sends only control frames (at most 125 bytes).
    static let frameLimit = 4 * 1024

    /// The `Sec-WebSocket-Accept` value for the client's `Sec-WebSocket-Key`.
    static func accept(key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// Why an upgrade request is not a WebSocket handshake; nil when it is one.
    static func handshakeProblem(_ head: RequestHead) -> String? {
        guard head.method == "GET", head.version == "HTTP/1.1" else { return "a WebSocket handshake is a GET over HTTP/1.1" }
        guard head.field("Upgrade", lists: "websocket"), head.field("Connection", lists: "upgrade") else {
            return "this address is the live-reload WebSocket; it answers only `Upgrade: websocket`"
        }
        guard head.field("Sec-WebSocket-Version") == "13" else { return "the WebSocket version is not 13" }
        guard let key = head.field("Sec-WebSocket-Key"), Data(base64Encoded: key)?.count == 16 else {
            return "`Sec-WebSocket-Key` is not 16 bytes in base64"
        }
        return nil
    }

    /// The frame of one text message, from the server (unmasked).
    static func textFrame(_ text: String) -> Data {
        frame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// A frame from the server: final, unmasked.
    static func frame(opcode: UInt8, payload: [UInt8]) -> Data {
        var bytes: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: bytes.append(UInt8(payload.count))
        case ..<65536: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes.append(127); bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * UInt64($0))) }
        }
        return Data(bytes + payload)
    }

    /// A page's frame the socket is closed for, with the close code: 1002 (not masked), 1009 (too big).
    struct Refusal: Error {
        var code: UInt16
    }

    /// A frame from a page.
    struct Frame: Equatable {
        var opcode: UInt8
        var payload: [UInt8]
    }

    /// Takes the first whole frame from `buffer`; nil when more bytes are needed.
    /// - Throws: ``Refusal`` for a frame over ``frameLimit`` or not masked.
    static func takeFrame(from buffer: inout [UInt8]) throws -> Frame? {
        guard buffer.count >= 2 else { return nil }
        guard buffer[1] & 0x80 != 0 else { throw Refusal(code: 1002) }
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 || length == 127 {
            let size = length == 126 ? 2 : 8
            guard buffer.count >= 2 + size else { return nil }
            var wide: UInt64 = 0
            for byte in buffer[2..<(2 + size)] { wide = wide << 8 | UInt64(byte) }
            guard wide <= UInt64(frameLimit) else { throw Refusal(code: 1009) }
            length = Int(wide)
            offset += size
        }
        guard buffer.count >= offset + 4 + length else { return nil }
        let mask = Array(buffer[offset..<(offset + 4)])
        let payload = buffer[(offset + 4)..<(offset + 4 + length)].enumerated().map { $0.element ^ mask[$0.offset % 4] }
        let frame = Frame(opcode: buffer[0] & 0x0F, payload: payload)
        buffer.removeFirst(offset + 4 + length)
        return frame
    }
}

/// SHA-1 (FIPS 180-4), which the WebSocket handshake is defined with; nothing else in blog uses it.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var bytes = message + [0x80]
        while bytes.count % 64 != 56 { bytes.append(0) }
        let bits = UInt64(message.count) * 8
        bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            for i in 0..<16 {
                w[i] = bytes[(chunk + 4 * i)..<(chunk + 4 * i + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case ..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case ..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case ..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, t)
            }
            h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
        }
        return h.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }
}
