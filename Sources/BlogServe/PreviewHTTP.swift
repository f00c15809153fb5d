import FlyingSocks
import Foundation

/// The preview's HTTP/1.1 server, on FlyingSocks' non-blocking sockets: every connection is a task, so a slow
/// or hostile client holds only its own.
///
/// What a client may send is bounded before anything is parsed (``HeadReader``): a request line over 8 KB gets
/// `414`, header fields over 8 KB `431`; a head must arrive within ``headSeconds`` of its first byte (`408`),
/// and a connection with no request for ``idleSeconds`` is closed. A request whose `Host` is not a name of the
/// server gets `403` (``HostGate``), so does a live-reload WebSocket opened by a page of another origin. The
/// preview never reads a request body: the connection of a request with one is closed after the answer.
final class PreviewHTTP: Sendable {
    /// How long a client may take to send a request head, from its first byte.
    static let headSeconds: Double = 3
    /// How long a connection may wait for its next request.
    static let idleSeconds: Double = 60

    /// What the server answers a request with.
    enum Answer: Sendable {
        case response(SiteResponder.Response)
        /// The live-reload WebSocket.
        case liveReload
    }

    private let listener: Socket
    private let gate: HostGate
    private let hub: ReloadHub
    private let answer: @Sendable (RequestHead) -> Answer

    /// - Parameters:
    ///   - listener: a bound, listening socket.
    ///   - answer: the answer to a request that passed the gate.
    init(listener: Socket, gate: HostGate, hub: ReloadHub, answer: @escaping @Sendable (RequestHead) -> Answer) {
        self.listener = listener
        self.gate = gate
        self.hub = hub
        self.answer = answer
    }

    /// Serves until the task is cancelled or the listening socket fails.
    func run() async throws {
        // A client that goes away while it is answered must not end the process.
        signal(SIGPIPE, SIG_IGN)
        let pool = SocketPool<Poll>.make()
        try await pool.prepare()
        let listening = try AsyncSocket(socket: listener, pool: pool)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run() }
            group.addTask {
                while true {
                    do {
                        let client = try await listening.accept()
                        Task { await self.serve(client) }
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        // Out of descriptors, or a connection reset before it was accepted: try again shortly.
                        try await Task.sleep(nanoseconds: 50_000_000)
                    }
                }
            }
            try await group.next()
        }
    }

    /// Answers the requests of one connection until it closes.
    private func serve(_ socket: AsyncSocket) async {
        let connection = Connection(socket)
        defer { try? socket.close() }
        while true {
            let head: RequestHead
            do {
                guard let next = try await connection.nextHead() else { return }
                head = next
            } catch let refusal as HeadRefusal {
                await connection.refuse(refusal)
                return
            } catch {
                return
            }
            var reply: SiteResponder.Response
            if let refusal = gate.refusal(of: head) {
                reply = PreviewHTTP.response(refusal)
            } else {
                switch answer(head) {
                case .response(let response): reply = response
                case .liveReload:
                    if let refusal = WebSocket.handshakeProblem(head).map({ HeadRefusal(status: 400, reason: $0) })
                        ?? gate.refusal(ofOrigin: head.field("Origin")) {
                        reply = PreviewHTTP.response(refusal)
                    } else {
                        await LiveReloadSession(connection: connection, hub: hub).run(key: head.field("Sec-WebSocket-Key") ?? "")
                        return
                    }
                }
            }
            // A response to HEAD has the fields of GET's and no body, whatever answered it.
            if head.method == "HEAD" { reply.body = Data() }
            guard (try? await connection.send(reply, keepAlive: head.keepsAlive)) != nil, head.keepsAlive else {
                if head.hasBody { await connection.closeGracefully() }
                return
            }
        }
    }

    /// The answer to a refused request: its status, and why in plain text.
    static func response(_ refusal: HeadRefusal) -> SiteResponder.Response {
        SiteResponder.plain(refusal.status, "\(phrase(refusal.status).lowercased()): \(refusal.reason)\n")
    }

    static func phrase(_ status: Int) -> String {
        [101: "Switching Protocols", 200: "OK", 301: "Moved Permanently", 304: "Not Modified", 400: "Bad Request",
         403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 414: "URI Too Long",
         431: "Request Header Fields Too Large", 500: "Internal Server Error", 505: "HTTP Version Not Supported"][status] ?? "Status"
    }

    /// One client connection: its socket and the bytes read from it and not yet used.
    final class Connection: @unchecked Sendable {
        let socket: AsyncSocket
        /// Used by one task at a time: the connection's.
        private var reader = HeadReader()

        init(_ socket: AsyncSocket) {
            self.socket = socket
        }

        /// The next request head; nil when the client closed the connection or sent nothing for ``idleSeconds``.
        /// - Throws: ``HeadRefusal`` for a head over the limits, malformed, or not sent within ``headSeconds``.
        func nextHead() async throws -> RequestHead? {
            if let head = try reader.next() { return head }
            var deadline: ContinuousClock.Instant?
            while true {
                if deadline == nil, reader.isStarted { deadline = .now + .seconds(PreviewHTTP.headSeconds) }
                let limit = deadline ?? .now + .seconds(PreviewHTTP.idleSeconds)
                guard let bytes = try await PreviewHTTP.within(limit, { try await self.socket.read(atMost: 4096) }) else {
                    if reader.isStarted {
                        throw HeadRefusal(status: 408, reason: "the request head did not arrive within \(Int(PreviewHTTP.headSeconds)) s")
                    }
                    return nil
                }
                if let head = try reader.add(bytes) { return head }
            }
        }

        /// Bytes read past the last head (the start of the WebSocket frames), handed over once.
        func takeBuffered() -> [UInt8] {
            let bytes = reader.buffer
            reader = HeadReader()
            return bytes
        }

        /// Answers a refused head and closes.
        func refuse(_ refusal: HeadRefusal) async {
            _ = try? await send(PreviewHTTP.response(refusal), keepAlive: false)
            await closeGracefully()
        }

        /// Writes `response`: status line, fields (`Content-Length` from the body unless set, as for `HEAD`), body.
        func send(_ response: SiteResponder.Response, keepAlive: Bool) async throws {
            var head = "HTTP/1.1 \(response.status) \(PreviewHTTP.phrase(response.status))\r\n"
            var fields = response.headers
            if response.status != 101, response.status != 304, fields["Content-Length"] == nil { fields["Content-Length"] = String(response.body.count) }
            if response.status != 101 { fields["Connection"] = keepAlive ? "keep-alive" : "close" }
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            try await socket.write(Data((head + "\r\n").utf8) + response.body)
        }

        /// Stops sending, and reads what the client still sends for a moment (at most 64 KB or 1 s), so that it
        /// gets the answer before the connection closes (closing with unread bytes would reset it).
        func closeGracefully() async {
            shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
            let deadline = ContinuousClock.now + .seconds(1)
            var drained = 0
            while drained < 64 * 1024, let bytes = try? await PreviewHTTP.within(deadline, { try await self.socket.read(atMost: 4096) }) {
                drained += bytes.count
            }
        }
    }

    /// `body`'s value, or nil when it is not done by `deadline` (it is then cancelled).
    static func within<T: Sendable>(_ deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}

/// A page's live-reload WebSocket: the hub's messages go out as text frames; the page's `ping` gets a `pong`
/// and its `close` (or the connection's end) ends the session.
struct LiveReloadSession {
    let connection: PreviewHTTP.Connection
    let hub: ReloadHub

    func run(key: String) async {
        let switching = SiteResponder.Response(status: 101, headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": WebSocket.accept(key: key),
        ], body: Data())
        guard (try? await connection.send(switching, keepAlive: true)) != nil else { return }
        let (outgoing, sender) = AsyncStream<Data>.makeStream()
        let id = await hub.add { text in sender.yield(WebSocket.textFrame(text)) }
        let socket = connection.socket
        let buffered = connection.takeBuffered()
        await withTaskGroup(of: Void.self) { group in
            // The page's frames.
            group.addTask {
                var buffer = buffered
                do {
                    while true {
                        while let frame = try WebSocket.takeFrame(from: &buffer) {
                            switch frame.opcode {
                            case 0x8:
                                sender.yield(WebSocket.frame(opcode: 0x8, payload: Array(frame.payload.prefix(2))))
                                sender.finish()
                                return
                            case 0x9: sender.yield(WebSocket.frame(opcode: 0xA, payload: frame.payload))
                            default: break
                            }
                        }
                        buffer += try await socket.read(atMost: 4096)
                    }
                } catch let refusal as WebSocket.Refusal {
                    sender.yield(WebSocket.frame(opcode: 0x8, payload: [UInt8(refusal.code >> 8), UInt8(refusal.code & 0xFF)]))
                    sender.finish()
                } catch {
                    sender.finish()
                }
            }
            // Everything sent to the page, one frame at a time, until the page's side ends the stream or a write fails.
            for await frame in outgoing {
                if (try? await socket.write(frame)) == nil { break }
            }
            group.cancelAll()
        }
        await hub.remove(id)
    }
}
