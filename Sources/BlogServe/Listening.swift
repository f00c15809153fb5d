import BlogBuild
import FlyingSocks
import Foundation

/// The address of `--bind`: an IPv4 or IPv6 address (`127.0.0.1`, `::1`, `[::1]`, `0.0.0.0`), or `localhost`
/// (`127.0.0.1`). Names are not looked up: the address must be one of this machine's, and the lookup would
/// reach the network.
struct BindAddress: Sendable, Equatable {
    /// The address in its usual form (`::1`, not `[::1]` or `0:0::1`).
    let address: String
    let isIPv6: Bool

    /// The address of `argument`; nil when it is not an IP address or `localhost`.
    init?(_ argument: String) {
        var text = argument.lowercased() == "localhost" ? "127.0.0.1" : argument
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard let (address, isIPv6) = Self.canonical(text) else { return nil }
        self.address = address
        self.isIPv6 = isIPv6
    }

    /// `text` as an IP address in its usual form, and whether it is IPv6; nil when it is not one.
    static func canonical(_ text: String) -> (String, Bool)? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return (numeric(AF_INET, &v4), false) }
        if inet_pton(AF_INET6, text, &v6) == 1 { return (numeric(AF_INET6, &v6), true) }
        return nil
    }

    /// The text of the address at `raw` of `family`.
    static func numeric(_ family: Int32, _ raw: UnsafeRawPointer) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, raw, &text, socklen_t(text.count)) != nil else { return "" }
        return String(cString: text)
    }

    /// `0.0.0.0` or `::`: every address of the machine.
    var isWildcard: Bool { address == "0.0.0.0" || address == "::" }

    /// `127.x.x.x` or `::1`: reachable from this machine only.
    var isLoopback: Bool { address.hasPrefix("127.") || address == "::1" }

    /// How a URL names the address (`[::1]` for IPv6).
    var urlHost: String { isIPv6 ? "[\(address)]" : address }

    /// The address a browser on this machine reaches the server at: the loopback one for a wildcard.
    var localURLHost: String { isWildcard ? (isIPv6 ? "[::1]" : "127.0.0.1") : urlHost }

    func socketAddress(port: UInt16) throws -> any SocketAddress {
        isIPv6 ? try sockaddr_in6.inet6(ip6: address, port: port) : try sockaddr_in.inet(ip4: address, port: port)
    }
}

/// The `Host` and `Origin` values the preview answers: the names of the addresses it listens on, with its port.
/// A page of another site can't read the preview by having its own name resolve to 127.0.0.1 (DNS rebinding):
/// its requests carry its name as `Host`. Nor can it open the live-reload WebSocket (whose `Origin` is its own),
/// which tells the build errors.
struct HostGate: Sendable {
    /// `name:port`, lower-cased; `name` alone too on port 80.
    let hosts: Set<String>

    /// The names: `localhost`, `127.0.0.1`, `[::1]`, the bound address, and for a wildcard address the
    /// machine's other addresses and host name (`machine` and `machine.local`).
    init(bind: BindAddress, port: UInt16, machine: (addresses: [BindAddress], hostName: String?) = ([], nil)) {
        var names = ["localhost", "127.0.0.1", "[::1]", bind.urlHost]
        if bind.isWildcard {
            names += machine.addresses.filter { !bind.isIPv6 ? !$0.isIPv6 : true }.map(\.urlHost)
            if let name = machine.hostName?.lowercased(), !name.isEmpty {
                names += [name] + (name.contains(".") ? [] : [name + ".local"])
            }
        }
        var hosts = Set(names.map { "\($0.lowercased()):\(port)" })
        if port == 80 { hosts.formUnion(names.map { $0.lowercased() }) }
        self.hosts = hosts
    }

    /// Why a request is not answered (its `Host` is missing, repeated or another name); nil when it is.
    func refusal(of head: RequestHead) -> HeadRefusal? {
        guard head.count(of: "Host") == 1, let host = head.field("Host"), !host.isEmpty else {
            return HeadRefusal(status: 400, reason: "a request needs one `Host` field")
        }
        guard hosts.contains(host.lowercased()) else {
            return HeadRefusal(status: 403, reason: "blog serve answers only its own addresses (\(example)), not \(host)")
        }
        return nil
    }

    /// Why the live-reload socket is refused to a page of `origin` (another site, or `null`); nil for a page of
    /// the preview, or a client that is not a browser (no `Origin`).
    func refusal(ofOrigin origin: String?) -> HeadRefusal? {
        guard let origin else { return nil }
        let lower = origin.lowercased()
        if lower.hasPrefix("http://"), hosts.contains(String(lower.dropFirst("http://".count))) { return nil }
        return HeadRefusal(status: 403, reason: "the live-reload socket is for the preview's own pages, not \(origin)")
    }

    private var example: String {
        hosts.sorted().first { $0.hasPrefix("127.0.0.1:") } ?? hosts.sorted().first ?? ""
    }

    /// This machine's addresses (IPv6 link-local ones left out: a URL can't name them), and its host name.
    static func machine() -> (addresses: [BindAddress], hostName: String?) {
        var addresses: [BindAddress] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0, let first = list {
            defer { freeifaddrs(list) }
            for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
                guard let raw = entry.pointee.ifa_addr else { continue }
                let family = Int32(raw.pointee.sa_family)
                let text: String
                if family == AF_INET {
                    text = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        withUnsafePointer(to: pointer.pointee.sin_addr) { BindAddress.numeric(AF_INET, $0) }
                    }
                } else if family == AF_INET6 {
                    text = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        withUnsafePointer(to: pointer.pointee.sin6_addr) { BindAddress.numeric(AF_INET6, $0) }
                    }
                } else {
                    continue
                }
                if let address = BindAddress(text), !address.address.hasPrefix("fe80:"), !addresses.contains(address) {
                    addresses.append(address)
                }
            }
        }
        var name = [CChar](repeating: 0, count: 256)
        let hostName = gethostname(&name, name.count - 1) == 0 ? String(cString: name) : nil
        return (addresses, hostName)
    }
}

/// Choosing the port and listening on it.
enum Ports {
    /// The first port to try when none is asked for.
    static let preferred: UInt16 = 8000

    /// A socket listening on `bind` at `asked` (0: any free port); without one, at 8000 or the next free port
    /// (saying so). The socket is kept: no other program can take the port between the choice and the serving.
    /// - Throws: ``BuildFailure`` naming the port when the one asked for is taken or can't be used.
    static func listen(_ asked: UInt16?, bind: BindAddress, print: (String) -> Void) throws -> (socket: Socket, port: UInt16) {
        if let asked {
            switch listen(bind, asked) {
            case .success(let listening): return listening
            case .failure(let reason):
                throw BuildFailure([.error("cannot listen on \(bind.address) port \(asked): \(reason); choose another with --port")])
            }
        }
        for port in preferred..<(preferred + 100) {
            if case .success(let listening) = listen(bind, port) {
                if port != preferred { print("port \(preferred) is in use; using \(port)") }
                return listening
            }
        }
        throw BuildFailure([.error("no free port from \(preferred) to \(preferred + 99) on \(bind.address); choose one with --port")])
    }

    /// A socket listening on `bind` at `port`, with the port (the one the system chose for 0), or why not.
    static func listen(_ bind: BindAddress, _ port: UInt16) -> Result<(socket: Socket, port: UInt16), ListenFailure> {
        var listening: Socket?
        do {
            let socket = try Socket(domain: bind.isIPv6 ? AF_INET6 : AF_INET, type: .stream)
            listening = socket
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: bind.socketAddress(port: port))
            try socket.listen()
            switch try socket.sockname() {
            case .ip4(_, let chosen), .ip6(_, let chosen): return .success((socket, chosen))
            default: return .success((socket, port))
            }
        } catch {
            try? listening?.close()
            guard case SocketError.failed(_, let code, _) = error else { return .failure(ListenFailure(text: "\(error)")) }
            switch code {
            case EADDRINUSE: return .failure(ListenFailure(text: "it is in use"))
            case EADDRNOTAVAIL: return .failure(ListenFailure(text: "no network interface of this machine has that address"))
            case EACCES: return .failure(ListenFailure(text: "permission denied (ports below 1024 need privileges)"))
            default: return .failure(ListenFailure(text: String(cString: strerror(code))))
            }
        }
    }

    /// Why a port can't be listened on: "it is in use", or the system's reason.
    struct ListenFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
