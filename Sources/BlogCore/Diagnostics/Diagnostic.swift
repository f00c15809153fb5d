/// A message about the input, in the form compilers use so that editors and CI logs can jump to it:
/// `path:line:column: error: what was expected`.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The build can't be trusted: it fails and nothing is published.
        case error
        /// The input was read, but maybe not as the author meant (`--strict` makes the build fail).
        case warning
        /// The input asks for something the build does as asked, worth saying because it changes
        /// what the site holds (a content page that replaces a generated page): printed, and never
        /// a failure, not even with `--strict`.
        case note
    }

    /// Error, warning or note.
    public var severity: Severity
    /// The file the problem is in, as the user named it (relative to the working folder where possible); empty
    /// for a message about no place in a file (an option, a folder, the machine): see ``init(_:_:)``.
    package var path: String
    /// 1-based line number in `path`.
    package var line: Int
    /// 1-based column number in `path`, in characters (grapheme clusters; see ``TextPosition``).
    package var column: Int
    /// What is wrong and what was expected.
    package var message: String

    /// Creates a diagnostic; line and column default to the start of the file.
    package init(_ severity: Severity, path: String, line: Int = 1, column: Int = 1, _ message: String) {
        self.severity = severity
        self.path = path
        self.line = max(1, line)
        self.column = max(1, column)
        self.message = message
    }

    /// A message about no place in a file (an option's value, a folder, a port in use): printed as
    /// `error: message`, never as `path:line:column:`. The message names what it is about.
    package init(_ severity: Severity, _ message: String) {
        self.init(severity, path: "", message)
    }

    /// Whether the message is about a place in a file (else it has no `path:line:column:`).
    package var hasFile: Bool { !path.isEmpty }

    /// An error about no place in a file: `error: message`.
    package static func error(_ message: String) -> Diagnostic {
        Diagnostic(.error, message)
    }

    /// A warning about no place in a file: `warning: message`.
    package static func warning(_ message: String) -> Diagnostic {
        Diagnostic(.warning, message)
    }

    /// An error at `path:line:column`.
    package static func error(_ path: String, line: Int = 1, column: Int = 1, _ message: String) -> Diagnostic {
        Diagnostic(.error, path: path, line: line, column: column, message)
    }

    /// A warning at `path:line:column`.
    package static func warning(_ path: String, line: Int = 1, column: Int = 1, _ message: String) -> Diagnostic {
        Diagnostic(.warning, path: path, line: line, column: column, message)
    }

    /// A note at `path:line:column`.
    package static func note(_ path: String, line: Int = 1, column: Int = 1, _ message: String) -> Diagnostic {
        Diagnostic(.note, path: path, line: line, column: column, message)
    }

    /// `path:line:column: severity: message` (`severity: message` for a message about no place in a file), with the control characters of the path and message shown as
    /// ``printable(_:)`` shows them: messages quote file names and header values, which may hold anything.
    public var description: String {
        let place = hasFile ? "\(Self.printable(path)):\(line):\(column): " : ""
        return place + "\(severity.rawValue): \(Self.printable(message))"
    }

    /// `text` with every C0 control character (tab and line feed too), DEL and C1 control character written as
    /// `\u{1B}`: in a terminal or a CI log a quoted value can then neither move the cursor, change colours, clear the
    /// screen nor start a line that looks like another message.
    static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}

/// A build that failed: every error found (not only the first), plus the warnings and notes seen before.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    /// The diagnostics, errors and warnings, in a stable order.
    public var diagnostics: [Diagnostic]

    /// Creates a failure from diagnostics; at least one should be an error.
    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { contains { $0.severity == .error } }

    /// The warnings only: what `--strict` counts (notes are intended behaviour).
    package var warningsOnly: [Diagnostic] { filter { $0.severity == .warning } }

    /// Sorted by path, line, column, then message, so output does not depend on thread timing.
    package func sortedForDisplay() -> [Diagnostic] {
        sorted { a, b in
            if a.path != b.path { return a.path < b.path }
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            return a.message < b.message
        }
    }
}
