import Foundation

/// Live reload: the script the preview server puts into every HTML page it serves, and the WebSocket that
/// tells each open page when a rebuild finished (reload, or only swap the stylesheets), or failed (show the
/// error over the page, until a build succeeds).
enum LiveReload {
    /// Where the script and the socket are served, outside any site's paths.
    static let scriptPath = "/__blog/livereload.js"
    static let socketPath = "/__blog/livereload"
    /// The broken links of the last build (see `PreviewServer.checkLinks`).
    static let linksPath = "/__blog/links"

    /// What goes before `</body>`.
    static let tag = "<script src=\"\(scriptPath)\"></script>"

    /// `page` with `injection` before its last `</body>` (any case), or at its end when it has none.
    static func inject(_ injection: String, into page: Data) -> Data {
        let bytes = [UInt8](page)
        let closing = Array("</body".utf8)
        var index = bytes.count - closing.count
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "<"),
               zip(bytes[index..<(index + closing.count)], closing).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) {
                return Data(bytes[..<index]) + Data(injection.utf8) + Data(bytes[index...])
            }
            index -= 1
        }
        return page + Data(injection.utf8)
    }

    /// The script. It connects to the socket (again after the server restarts), and on a message:
    /// `reload` reloads the page, `css` swaps the stylesheets, `error` shows the message over the page, `hello`
    /// (sent on connecting) reloads when the page is older than the last build, and shows or clears the error.
    static let script = """
    (function () {
      "use strict";
      var seen = null;
      function overlay(text) {
        var box = document.getElementById("blog-serve-error");
        if (text === null) { if (box) box.remove(); return; }
        if (!box) {
          box = document.createElement("div");
          box.id = "blog-serve-error";
          box.setAttribute("role", "alert");
          box.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2rem;" +
            "background:rgba(20,20,20,.94);color:#ffd2d2;font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap";
          document.body.appendChild(box);
        }
        box.textContent = "blog serve: the last build failed; this page is the last good one.\\n\\n" + text;
      }
      function linkNote(text) {
        var note = document.getElementById("blog-serve-links");
        if (!text) { if (note) note.remove(); return; }
        if (!note) {
          note = document.createElement("a");
          note.id = "blog-serve-links";
          note.href = "\(linksPath)";
          note.style.cssText = "position:fixed;right:1rem;bottom:1rem;z-index:2147483646;padding:.4rem .8rem;border-radius:.4rem;" +
            "background:#8a1c1c;color:#fff;font:600 13px/1.4 system-ui,sans-serif;text-decoration:none;box-shadow:0 2px 8px rgba(0,0,0,.3)";
          document.body.appendChild(note);
        }
        note.textContent = "blog serve: " + text;
      }
      function swapStyles() {
        var links = document.querySelectorAll('link[rel~="stylesheet"]');
        for (var i = 0; i < links.length; i++) {
          var href = links[i].getAttribute("href");
          if (href) links[i].setAttribute("href", href.replace(/[?&]blog-serve=\\d+$/, "") + (href.indexOf("?") < 0 ? "?" : "&") + "blog-serve=" + Date.now());
        }
      }
      function connect() {
        var socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "\(socketPath)");
        socket.onmessage = function (event) {
          var message = JSON.parse(event.data);
          if (message.type === "hello") {
            if (seen !== null && message.build !== seen) { location.reload(); return; }
            seen = message.build;
            overlay(message.error);
            linkNote(message.links);
          } else if (message.type === "links") {
            linkNote(message.links);
          } else if (message.type === "reload") {
            location.reload();
          } else if (message.type === "css") {
            seen = message.build;
            overlay(null);
            swapStyles();
          } else if (message.type === "error") {
            overlay(message.error);
          }
        };
        socket.onclose = function () { setTimeout(connect, 300); };
      }
      connect();
    })();

    """
}

/// The open pages' sockets, and what they are told: a message to every page after each build, and to a page
/// that connects, the current build number and error.
actor ReloadHub {
    private var clients: [UUID: @Sendable (String) -> Void] = [:]
    /// Counts successful builds.
    private(set) var build = 0
    /// The last build's error, while it is not fixed.
    private(set) var error: String?
    /// How many links of the last site checked are broken (`2 broken links`); nil when none.
    private(set) var links: String?

    /// The number of pages connected.
    var connected: Int { clients.count }

    /// A page connected: `send` gets its messages, starting with `hello` now. Returns the page's id for ``remove(_:)``.
    func add(_ send: @escaping @Sendable (String) -> Void) -> UUID {
        let id = UUID()
        clients[id] = send
        send(Self.json(["type": "hello", "build": build, "error": error.map { $0 as Any } ?? NSNull(),
                         "links": links.map { $0 as Any } ?? NSNull()]))
        return id
    }

    /// The page `id` went away.
    func remove(_ id: UUID) {
        clients[id] = nil
    }

    /// A build succeeded: pages reload, or only swap their stylesheets when `onlyStyles`.
    func built(onlyStyles: Bool) {
        build += 1
        error = nil
        send(["type": onlyStyles ? "css" : "reload", "build": build])
    }

    /// The links of the last site were checked: pages show how many are broken (`summary`), or nothing.
    func linksChecked(_ summary: String?) {
        links = summary
        send(["type": "links", "links": summary.map { $0 as Any } ?? NSNull()])
    }

    /// A build failed with `message`: pages show it over themselves.
    func failed(_ message: String) {
        error = message
        send(["type": "error", "error": message])
    }

    private func send(_ message: [String: Any]) {
        let text = Self.json(message)
        for send in clients.values { send(text) }
    }

    private static func json(_ value: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
