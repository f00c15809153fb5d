@testable import BlogServe
import Foundation
import XCTest

/// `blog serve` against hostile clients, pages of other sites and other users of the machine (issue 26): the
/// real `blog serve` process on 127.0.0.1, spoken to with raw sockets and curl. Only loopback traffic.
final class SecurityServeTests: XCTestCase {
    typealias Server = ServeEndToEndTests.Server

    /// A TCP connection to 127.0.0.1 made by the test: bytes out and in as they are.
    final class Client {
        let fd: Int32

        init(port: Int) throws {
            #if os(Linux)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard fd >= 0, connected == 0 else { throw ServeEndToEndTests.Failure("cannot connect to port \(port): errno \(errno)") }
            // A send that the server does not read gives up after 3 s.
            var timeout = timeval(tv_sec: 3, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        /// Sends `text`; false when the connection took only part of it (closed, or not read for 3 s).
        @discardableResult
        func say(_ text: String) -> Bool { say(Array(text.utf8)) }

        @discardableResult
        func say(_ bytes: [UInt8]) -> Bool {
            #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }

        /// What the server sends within `seconds`: until it closes the connection (`closed`), or `enough` holds.
        func hear(seconds: Double, enough: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
            let deadline = Date().addingTimeInterval(seconds)
            var bytes: [UInt8] = []
            while Date() < deadline, !enough(String(decoding: bytes, as: UTF8.self)) {
                var wait = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&wait, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = recv(fd, &chunk, chunk.count, 0)
                if count <= 0 { return (String(decoding: bytes, as: UTF8.self), true) }
                bytes += chunk[..<count]
            }
            return (String(decoding: bytes, as: UTF8.self), false)
        }

        func hangUp() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    /// The status of the first response in `text` (0 for none).
    static func status(_ text: String) -> Int {
        Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
    }

    /// A head that has arrived, for ``Client/hear(seconds:enough:)``.
    static let headArrived: (String) -> Bool = { $0.contains("\r\n\r\n") }

    static func serve(_ site: TempSite, _ arguments: [String] = [], in folder: URL? = nil,
                      environment: [String: String] = [:]) throws -> (Server, Int) {
        let server = try Server(["--port", "0", "--source", site.root.path] + arguments, in: folder ?? site.root, environment: environment)
        try server.waitUntilServing()
        return (server, try XCTUnwrap(URL(string: server.url)?.port))
    }

    // MARK: - Finding 5: one request could hang the server

    func testHeadsOverTheLimitsAreRefusedAndOtherRequestsAnsweredMeanwhile() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let (server, port) = try Self.serve(site)
        defer { server.stop() }
        // Two clients send a header line of 1 MB (from threads of their own: the server stops reading them).
        let hostile = try (0..<2).map { _ in try Client(port: port) }
        defer { hostile.forEach { $0.hangUp() } }
        let sending = DispatchGroup()
        for client in hostile {
            DispatchQueue.global().async(group: sending) {
                client.say(Array("GET /blog/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Long: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20))
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        // While they are open, a page is served at once.
        let start = Date()
        let page = try ServeEndToEndTests.fetch(server.url + "posts/first-post/", ["--max-time", "3"])
        XCTAssertEqual(page.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "a page took this long while two long heads were being sent")
        for client in hostile {
            let answer = client.hear(seconds: 3, enough: Self.headArrived)
            XCTAssertEqual(Self.status(answer.text), 431, answer.text)
        }
        _ = sending.wait(timeout: .now() + 5)

        // A request line over 8 KB gets 414; a head just within the limits is answered.
        let long = try Client(port: port)
        defer { long.hangUp() }
        long.say("GET /blog/\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let refused = long.hear(seconds: 3)
        XCTAssertEqual(Self.status(refused.text), 414, refused.text)
        XCTAssertTrue(refused.closed, "the connection of a refused head is closed")
        let within = try Client(port: port)
        defer { within.hangUp() }
        within.say("GET /blog/?\(String(repeating: "a", count: 8000)) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                   + "X-Long: \(String(repeating: "b", count: 8000))\r\n\r\n")
        let served = within.hear(seconds: 3, enough: { $0.contains("</html>") })
        XCTAssertEqual(Self.status(served.text), 200, String(served.text.prefix(300)))
        XCTAssertTrue(served.text.contains("First post"))
    }

    func testAHeadSentSlowlyIsCutOffAndTheServerAnswersMeanwhile() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let (server, port) = try Self.serve(site)
        defer { server.stop() }
        let slow = try Client(port: port)
        defer { slow.hangUp() }
        let start = Date()
        slow.say("GET /blog/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
        var answer = (text: "", closed: false)
        var answeredMeanwhile = false
        // A header byte every quarter second: the head is never done.
        while Date().timeIntervalSince(start) < PreviewHTTP.headSeconds + 2, answer.text.isEmpty, !answer.closed {
            guard slow.say("X") else { break }
            answer = slow.hear(seconds: 0.25)
            if !answeredMeanwhile, Date().timeIntervalSince(start) > 1 {
                XCTAssertEqual(try ServeEndToEndTests.fetch(server.url, ["--max-time", "1"]).status, 200)
                answeredMeanwhile = true
            }
        }
        if answer.text.isEmpty, !answer.closed { answer = slow.hear(seconds: 1, enough: Self.headArrived) }
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(Self.status(answer.text), 408, answer.text)
        XCTAssertGreaterThanOrEqual(seconds, PreviewHTTP.headSeconds - 0.5)
        XCTAssertLessThan(seconds, PreviewHTTP.headSeconds + 1.5)
    }

    // MARK: - Finding 9: any Host, any Origin

    func testOnlyTheServersOwnNamesAreAnswered() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        _ = try site.write("content/posts/draft.md", "Title: Secret plans\nDate: 2024-01-05\nStatus: draft\n\nNot yet.\n")
        let (server, port) = try Self.serve(site, ["--drafts"])
        defer { server.stop() }
        let draft = server.url + "posts/secret-plans/"
        XCTAssertEqual(try ServeEndToEndTests.fetch(draft).status, 200)
        for host in ["localhost:\(port)", "LOCALHOST:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"] {
            XCTAssertEqual(try ServeEndToEndTests.fetch(draft, ["-H", "Host: \(host)"]).status, 200, host)
        }
        // DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1.
        let rebound = try ServeEndToEndTests.fetch(draft.replacingOccurrences(of: "127.0.0.1", with: "evil.example"),
                                                   ["--resolve", "evil.example:\(port):127.0.0.1"])
        XCTAssertEqual(rebound.status, 403)
        XCTAssertFalse(rebound.body.contains("Not yet."))
        for host in ["evil.example", "127.0.0.1", "localhost:1", "127.0.0.1.evil.example:\(port)", "localhost.:\(port)"] {
            XCTAssertEqual(try ServeEndToEndTests.fetch(draft, ["-H", "Host: \(host)"]).status, 403, host)
        }
        XCTAssertEqual(try ServeEndToEndTests.fetch(draft, ["-I", "-H", "Host: evil.example:\(port)"]).status, 403)
        // The script and the socket are behind the same gate.
        XCTAssertEqual(try ServeEndToEndTests.fetch("http://127.0.0.1:\(port)/__blog/livereload.js", ["-H", "Host: evil.example:\(port)"]).status, 403)
        // HTTP/1.1 without a Host, or with two: 400.
        for extra in ["", "Host: 127.0.0.1:\(port)\r\nHost: 127.0.0.1:\(port)\r\n"] {
            let client = try Client(port: port)
            defer { client.hangUp() }
            client.say("GET /blog/ HTTP/1.1\r\n\(extra)\r\n")
            XCTAssertEqual(Self.status(client.hear(seconds: 3, enough: Self.headArrived).text), 400, extra)
        }
    }

    func testTheLiveReloadSocketIsOnlyForThePreviewsOwnPages() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let (server, port) = try Self.serve(site)
        defer { server.stop() }
        func handshake(origin: String?, host: String = "127.0.0.1:\(port)") throws -> String {
            let client = try Client(port: port)
            defer { client.hangUp() }
            // The key and its accept value are RFC 6455's example (section 1.3).
            client.say("GET /__blog/livereload HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                       + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n")
            return client.hear(seconds: 3, enough: { $0.contains("\"hello\"") || ($0.contains("\r\n\r\n") && !$0.hasPrefix("HTTP/1.1 101")) }).text
        }
        for origin in ["http://evil.example", "http://evil.example:\(port)", "https://127.0.0.1:\(port)", "null", "http://127.0.0.1:\(port).evil.example"] {
            let answer = try handshake(origin: origin)
            XCTAssertEqual(Self.status(answer), 403, origin)
            XCTAssertFalse(answer.contains("hello"), origin)
        }
        XCTAssertEqual(Self.status(try handshake(origin: "http://127.0.0.1:\(port)", host: "evil.example:\(port)")), 403)
        for origin in ["http://127.0.0.1:\(port)", "http://localhost:\(port)", nil] {
            let answer = try handshake(origin: origin)
            XCTAssertEqual(Self.status(answer), 101, origin ?? "no Origin")
            XCTAssertTrue(answer.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), answer)
            XCTAssertTrue(answer.contains("{\"build\":1,\"error\":null,\"links\":null,\"type\":\"hello\"}"), answer)
        }
    }

    // MARK: - Finding 1 (serve): the private folder

    func testThePrivateFolderIsThisUsersAloneAndGoneAfterCtrlC() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let (server, _) = try Self.serve(site)
        defer { server.stop() }
        let folder = try XCTUnwrap(Self.privateFolder(server))
        var info = stat()
        XCTAssertEqual(lstat(folder.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFDIR)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(info.st_uid, getuid())
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/index.html").path))
        kill(server.process.processIdentifier, SIGINT)
        try ServeEndToEndTests.eventually(5, "blog serve ends on SIGINT") { !server.process.isRunning }
        XCTAssertEqual(server.process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(server.process.terminationStatus, SIGINT)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "the private folder is removed")
    }

    func testAServeRemovesThePrivateFoldersOfKilledServesAndNothingElse() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let temporary = try TempSite(), logs = try TempSite()
        defer { temporary.remove(); logs.remove() }
        let environment = ["TMPDIR": temporary.root.path]
        // A serve killed with SIGKILL can't remove its folder.
        let (killed, _) = try Self.serve(site, in: logs.root, environment: environment)
        defer { killed.stop() }
        let left = try XCTUnwrap(Self.privateFolder(killed))
        XCTAssertEqual(left.deletingLastPathComponent().resolvingSymlinksInPath().path, temporary.root.resolvingSymlinksInPath().path)
        kill(killed.process.processIdentifier, SIGKILL)
        try ServeEndToEndTests.eventually(5, "blog serve ends on SIGKILL") { !killed.process.isRunning }
        XCTAssertTrue(temporary.exists(left.lastPathComponent + "/site/index.html"))
        // What is not such a folder stays: one without `owner` (being made, or an older blog's), one whose `owner`
        // a process holds (this one, as a running serve does), a link to a folder with an unheld `owner`, a file,
        // another name.
        for name in ["blog-serve-noownr", "blog-serve-heldby", "elsewhere", "blog-serve-longername"] {
            try temporary.write(name + "/site/index.html", "kept")
        }
        try temporary.write("elsewhere/owner", "")
        try temporary.write("blog-serve-heldby/owner", "")
        try temporary.write("blog-serve-afilex", "kept")
        try FileManager.default.createSymbolicLink(atPath: temporary.root.appendingPathComponent("blog-serve-linkto").path,
                                                   withDestinationPath: temporary.root.appendingPathComponent("elsewhere").path)
        let held = open(temporary.root.appendingPathComponent("blog-serve-heldby/owner").path, O_RDWR)
        XCTAssertEqual(flock(held, LOCK_EX | LOCK_NB), 0)
        defer { close(held) }
        let (server, _) = try Self.serve(site, environment: environment)
        defer { server.stop() }
        try ServeEndToEndTests.eventually(10, "the left folder is removed") { !FileManager.default.fileExists(atPath: left.path) }
        try ServeEndToEndTests.eventually(5, "and said") {
            server.output.contains("blog serve: removed \(left.path), the private folder of a serve that ended without removing it")
        }
        for path in ["blog-serve-noownr/site/index.html", "blog-serve-heldby/site/index.html", "elsewhere/site/index.html", "elsewhere/owner",
                     "blog-serve-longername/site/index.html", "blog-serve-afilex", "blog-serve-linkto"] {
            XCTAssertTrue(temporary.exists(path), path)
        }
        // A running serve's folder is locked by it: a second serve leaves it.
        let own = try XCTUnwrap(Self.privateFolder(server))
        let (second, _) = try Self.serve(site, in: logs.root, environment: environment)
        defer { second.stop() }
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: own.appendingPathComponent("site/index.html").path))
        XCTAssertFalse(second.output.contains("blog serve: removed"), second.output)
    }

    func testTwoServesOfOneBlogBothRebuildAndLeaveNothingBehind() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let (first, _) = try Self.serve(site)
        defer { first.stop() }
        // The second runs elsewhere (its log files are in the folder it runs in).
        let elsewhere = try TempSite()
        defer { elsewhere.remove() }
        let second = try Server(["--port", "0", "--source", site.root.path], in: elsewhere.root)
        defer { second.stop() }
        try second.waitUntilServing()
        let folders = try [first, second].map { try XCTUnwrap(Self.privateFolder($0)) }
        XCTAssertNotEqual(folders[0], folders[1])
        for edit in ["An edited body.", "Edited again."] {
            _ = try site.write("content/posts/first.md", "Title: First post\nDate: 2024-01-02\n\n\(edit)\n")
            for server in [first, second] {
                try ServeEndToEndTests.eventually(10, "\(server.url) serves the edit") {
                    try ServeEndToEndTests.fetch(server.url + "posts/first-post/").body.contains(edit)
                }
            }
        }
        XCTAssertFalse(first.errorOutput.contains("error") || second.errorOutput.contains("error"), first.errorOutput + second.errorOutput)
        // The builds' state and lock are in the private folders: nothing of serve is in the blog folder.
        XCTAssertFalse(site.exists(".blog-cache"))
        first.stop()
        second.stop()
        for folder in folders { XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "removed on SIGTERM: \(folder.path)") }
    }

    /// The private folder the server names (the folder of `…/site`).
    static func privateFolder(_ server: Server) -> URL? {
        guard let range = server.output.range(of: #"a private build in [^;]+"#, options: .regularExpression) else { return nil }
        return URL(fileURLWithPath: String(server.output[range].dropFirst("a private build in ".count))).deletingLastPathComponent()
    }

    // MARK: - --bind

    func testBindTakesAnAddressAndSaysWhenThePreviewIsOpenToTheNetwork() throws {
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        let named = try BlogCLI.run(["serve", "--bind", "evil", "--port", "0"], in: site.root)
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.stderr.contains("error: cannot listen on evil: no such address"), named.stderr)
        XCTAssertFalse(named.stderr.contains("errno"), named.stderr)

        let (local, _) = try Self.serve(site, ["--bind", "localhost"])
        defer { local.stop() }
        XCTAssertTrue(local.url.hasPrefix("http://127.0.0.1:"), local.url)
        XCTAssertEqual(try ServeEndToEndTests.fetch(local.url).status, 200)
        XCTAssertFalse(local.output.contains("open to the network"))

        let (open, port) = try Self.serve(site, ["--bind", "0.0.0.0"])
        defer { open.stop() }
        XCTAssertTrue(open.output.contains("blog serve: --bind 0.0.0.0: the preview, drafts and build errors included, is open to the network"),
                      open.output)
        XCTAssertEqual(open.url, "http://127.0.0.1:\(port)/blog/")
        XCTAssertEqual(try ServeEndToEndTests.fetch(open.url).status, 200)
    }

    // MARK: - The parts, on their own

    func testAnEditSavedDuringTheFirstBuildIsServed() throws {
        // The flaky failure of testTwoServesOfOneBlogBothRebuildAndLeaveNothingBehind: the watcher began only after
        // the first build (and `serve` said it served before its thread had set the watches), so a save in between
        // was never seen. A blog whose first build takes a while; the edit is saved while it runs.
        let site = try ServeEndToEndTests.makeBlog()
        defer { site.remove() }
        for number in 1...400 {
            _ = try site.write("content/posts/filler-\(number).md", "Title: Filler \(number)\nDate: 2023-01-02\nTags: t\(number % 20)\n\n"
                + String(repeating: "Some words of filler text, *emphasised* now and then. ", count: 40) + "\n")
        }
        let server = try Server(["--port", "0"], in: site.root)
        defer { server.stop() }
        // Saved once the first build has read the posts (a few tenths of a second in), while it renders.
        Thread.sleep(forTimeInterval: 0.4)
        _ = try site.write("content/posts/first.md", "Title: First post\nDate: 2024-01-02\nTags: one\n\nSaved during the first build.\n")
        try server.waitUntilServing()
        try ServeEndToEndTests.eventually(15, "the edit saved during the first build is served") {
            try ServeEndToEndTests.fetch(server.url + "posts/first-post/").body.contains("Saved during the first build.")
        }
    }

    func testTheHeadReaderIsTheSameHoweverTheBytesArriveAndStopsAtItsLimits() throws {
        let text = "\r\nGET /a?b HTTP/1.1\r\nHost: x:1\r\nX-Two:  a, b \r\n\r\nGET /next HTTP/1.0\n\n"
        var whole = HeadReader()
        let first = try XCTUnwrap(try whole.add(Array(text.utf8)))
        XCTAssertEqual(first, RequestHead(method: "GET", target: "/a?b", version: "HTTP/1.1",
                                          fields: [.init(name: "Host", value: "x:1"), .init(name: "X-Two", value: "a, b")]))
        XCTAssertEqual(try whole.next()?.target, "/next")
        var bytewise = HeadReader()
        var heads: [RequestHead] = []
        for byte in text.utf8 { if let head = try bytewise.add([byte]) { heads.append(head) } }
        XCTAssertEqual(heads.map(\.target), ["/a?b", "/next"])
        XCTAssertEqual(heads.first, first)

        func refusal(_ text: String) -> Int? {
            var reader = HeadReader()
            do { _ = try reader.add(Array(text.utf8)); return nil } catch let refusal as HeadRefusal { return refusal.status } catch { return -1 }
        }
        let line = HeadReader.requestLineLimit
        XCTAssertNil(refusal("GET /\(String(repeating: "a", count: line - 15)) HTTP/1.1\r\n"))
        XCTAssertEqual(refusal("GET /\(String(repeating: "a", count: line))"), 414)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: HeadReader.fieldsLimit))"), 431)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\n folded: x\r\n\r\n"), 400)
        XCTAssertEqual(refusal("GET /a b HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(refusal("GET / HTTP/2.0\r\n\r\n"), 505)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n"), 400)
    }

    func testSHA1AndWebSocketFrames() throws {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        // FIPS 180's examples.
        XCTAssertEqual(hex(SHA1.digest([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex(SHA1.digest(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(WebSocket.accept(key: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        // RFC 6455 5.7: a masked "Hello", then a frame cut short.
        var buffer: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58, 0x89]
        XCTAssertEqual(try WebSocket.takeFrame(from: &buffer), WebSocket.Frame(opcode: 1, payload: Array("Hello".utf8)))
        XCTAssertEqual(buffer, [0x89])
        XCTAssertNil(try WebSocket.takeFrame(from: &buffer))
        XCTAssertEqual(Array(WebSocket.textFrame("Hello")), [0x81, 0x05] + Array("Hello".utf8))
        var unmasked: [UInt8] = [0x81, 0x05] + Array("Hello".utf8)
        XCTAssertThrowsError(try WebSocket.takeFrame(from: &unmasked))
        var huge: [UInt8] = [0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0]
        XCTAssertThrowsError(try WebSocket.takeFrame(from: &huge))
    }

    func testTheGateOfAWildcardAddressAnswersTheMachinesNames() throws {
        let machine = try XCTUnwrap(BindAddress("192.168.1.5"))
        let open = HostGate(bind: try XCTUnwrap(BindAddress("0.0.0.0")), port: 8000, machine: ([machine], "box"))
        for host in ["192.168.1.5:8000", "box:8000", "box.local:8000", "localhost:8000", "[::1]:8000"] {
            XCTAssertTrue(open.hosts.contains(host), host)
        }
        XCTAssertFalse(open.hosts.contains("192.168.1.5"))
        XCTAssertEqual(HostGate(bind: try XCTUnwrap(BindAddress("[::1]")), port: 80).hosts,
                       ["localhost:80", "127.0.0.1:80", "[::1]:80", "localhost", "127.0.0.1", "[::1]"])
        XCTAssertEqual(BindAddress("0:0::1")?.urlHost, "[::1]")
        XCTAssertNil(BindAddress("evil"))
        XCTAssertNil(BindAddress("127.0.0.1:80"))
    }
}
