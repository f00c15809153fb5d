/// When messages are coloured: `--color auto|always|never`.
public enum ColorChoice: String, CaseIterable, Sendable {
    /// On a terminal, unless the environment asks for none (``MessageColor/decide(_:environment:isTerminal:)``).
    case auto
    /// Always, even into a file or a pipe (`--color always`).
    case always
    /// Never (`--color never`).
    case never
}

/// Messages as swiftc and clang print them on a terminal: the `path:line:column:` bold, `error:` bold red, `warning:`
/// bold yellow, `note:` bold cyan, the message itself plain; or without any escape code.
public struct MessageColor: Sendable, Equatable {
    /// Whether escape codes are written at all.
    public var enabled: Bool

    /// Creates a style that colours when `enabled`.
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Whether to colour, by this order: `--color always` or `never` decide; else a non-empty `NO_COLOR` turns colour
    /// off (no-color.org: only a command-line option overrides it, so it wins over `CLICOLOR_FORCE` too); else a
    /// `CLICOLOR_FORCE` other than empty or `0` turns it on (bixense.com/clicolors); else colour when the output is a
    /// terminal whose `TERM` is not `dumb`.
    public static func decide(_ choice: ColorChoice, environment: [String: String], isTerminal: Bool) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            return isTerminal && environment["TERM"] != "dumb"
        }
    }

    static let reset = "\u{1B}[0m", bold = "\u{1B}[1m"

    /// The escape code of a severity's word.
    static func code(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: return "\u{1B}[1;31m"
        case .warning: return "\u{1B}[1;33m"
        case .note: return "\u{1B}[1;36m"
        }
    }

    /// `diagnostic` as ``Diagnostic/description`` prints it, coloured when ``enabled``.
    public func text(_ diagnostic: Diagnostic) -> String {
        guard enabled else { return diagnostic.description }
        let place = diagnostic.hasFile
            ? Self.bold + "\(Diagnostic.printable(diagnostic.path)):\(diagnostic.line):\(diagnostic.column):" + Self.reset + " " : ""
        return place + Self.code(diagnostic.severity) + diagnostic.severity.rawValue + ":" + Self.reset + " "
            + Diagnostic.printable(diagnostic.message)
    }

    /// A line some part of `blog` already made into text (`path:line:column: error: …`, `error: …`,
    /// `blog: error: …`), coloured when ``enabled`` and it is such a message; any other line as it is.
    public func text(line: String) -> String {
        guard enabled else { return line }
        // The first severity word of the line is the message's (its text may quote another).
        var first: (severity: Diagnostic.Severity, place: Substring, rest: Substring)?
        for severity in [Diagnostic.Severity.error, .warning, .note] {
            let word = severity.rawValue + ": "
            if line.hasPrefix(word) { return Self.code(severity) + severity.rawValue + ":" + Self.reset + " " + line.dropFirst(word.count) }
            if let range = line.range(of: ": " + word), first.map({ range.lowerBound < $0.place.endIndex }) ?? true {
                first = (severity, line[..<range.lowerBound], line[range.upperBound...])
            }
        }
        guard let (severity, place, rest) = first else { return line }
        return Self.bold + place + ":" + Self.reset + " " + Self.code(severity) + severity.rawValue + ":" + Self.reset + " " + rest
    }
}
