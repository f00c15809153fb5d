import ArgumentParser
import BlogBuild
import BlogServe
import Foundation

struct Serve: ParsableCommand, ColorChoosing {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the blog into a private folder, serve it, and rebuild and reload pages on every change.",
        discussion: "Watches content/, themes/ and blog.yml. Never touches the published output folder. Ctrl-C stops and removes the private folder."
    )

    @OptionGroup var colorArguments: ColorArguments

    @Option(name: .long, help: ArgumentHelp("The blog folder (holds blog.yml, content/, themes/).", valueName: "dir"))
    var source: String = "."

    // A preview shows what is not published yet, marked (the default theme's Draft and Future badges).
    @Flag(name: [.customLong("drafts"), .customLong("draft")], inversion: .prefixedNo,
          help: "Show drafts (the default; --no-drafts leaves them out, as blog build does).")
    var drafts = true

    @Flag(name: .long, inversion: .prefixedNo,
          help: "Show posts dated in the future (the default; --no-future leaves them out, as blog build does).")
    var future = true

    @Option(name: .long, help: "The port (default 8000, or the next free one; 0 for any free port).")
    var port: UInt16?

    @Option(name: .long, help: ArgumentHelp("The IP address to listen on (127.0.0.1: this machine only; 0.0.0.0 opens the preview to the network).", valueName: "address"))
    var bind: String = "127.0.0.1"

    @Flag(name: .long, help: "Open the site in the browser.")
    var open = false

    @Flag(name: .long, help: "Print the seconds spent in each stage of every build.")
    var timings = false

    func run() throws {
        var options = ServeOptions(source: source)
        options.port = port
        options.bind = bind
        options.drafts = drafts
        options.future = future
        options.timings = timings
        let server: PreviewServer
        do {
            server = try PreviewServer(options) { line in
                let isError = line.contains(": error: ") || line.hasPrefix("error: ") || line.hasPrefix("build failed")
                let fd: Int32 = isError ? 2 : 1
                FileHandle(fileDescriptor: fd).write(Data((Console.color(for: fd).text(line: line) + "\n").utf8))
            }
        } catch let failure as BuildFailure {
            Console.printDiagnostics(failure.diagnostics)
            throw ExitCode(1)
        }
        // Ctrl-C (and SIGTERM, SIGHUP) removes the private folder and ends the process: see PreviewServer.run.
        setvbuf(stdout, nil, _IOLBF, 0)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run()
            } catch {
                Console.error("the server stopped: \(error)")
                Foundation.exit(1)
            }
            done.signal()
        }
        if open { Self.openInBrowser(server.url) }
        done.wait()
    }

    /// Opens `url` with the desktop's opener (`xdg-open`, or `open` on macOS); quietly nothing without one.
    static func openInBrowser(_ url: String) {
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        process.arguments = [url]
        #else
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
