import BlogCore

/// Who asks for an output file, for the messages about its path: a post (at the header line that
/// places it), a content or theme file, an entry of blog.yml, or a file blog makes on its own (a
/// feed, the sitemap).
package struct OutputOrigin: Sendable, Equatable {
    /// How messages name it: `content/posts/a.md`, `the feed feed.xml`.
    package var name: String
    /// The file at fault, with the line and column that ask for the path; nil for a file blog
    /// makes on its own.
    package var file: String?
    package var line: Int
    package var column: Int

    /// An origin named `name`, at `file`'s `line` and `column` when a file is at fault.
    package init(_ name: String, file: String? = nil, line: Int = 1, column: Int = 1) {
        self.name = name
        self.file = file
        self.line = line
        self.column = column
    }

    /// The error `message` at the first of `origins` that is a file, else at `fallback` (the output
    /// folder), there with the names of `origins` unless `named` (the message has them).
    static func blame(_ origins: [OutputOrigin], or fallback: String, _ message: String, named: Bool = false) -> Diagnostic {
        if let at = origins.first(where: { $0.file != nil }), let file = at.file {
            return .error(file, line: at.line, column: at.column, message)
        }
        return .error(fallback, named || origins.isEmpty ? message : message + " (wanted by \(names(origins)))")
    }

    /// The error for `path` wanted by more than one file (`origins`, when known), or (with `inner`)
    /// wanted as a file and as the folder of `inner` (which `innerOrigins` want): at the first of
    /// them that is a file, naming them all.
    static func collision(_ path: String, origins: [OutputOrigin], inner: String? = nil, innerOrigins: [OutputOrigin] = [],
                          or fallback: String) -> Diagnostic {
        let message: String
        if let inner {
            let of = { (origins: [OutputOrigin]) in origins.isEmpty ? "" : " (of \(names(origins)))" }
            message = "the output path \"\(path)\"\(of(origins)) is also the folder of \"\(inner)\"\(of(innerOrigins)): a path can't be a file and a folder; change the path of one of them"
        } else if origins.isEmpty {
            message = "two files want the same output path \"\(path)\""
        } else {
            message = "the output path \"\(path)\" is wanted by \(names(origins)): two files can't share a path; change the path of one of them"
        }
        return blame(origins + innerOrigins, or: fallback, message, named: true)
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func names(_ origins: [OutputOrigin]) -> String {
        var names: [String] = []
        for origin in origins where !names.contains(origin.name) { names.append(origin.name) }
        return names.count <= 2 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}

/// How a write finds who asks for an output path (see ``OutputOrigin``): asked only for a message.
package struct OriginLookup {
    let find: (String) -> [OutputOrigin]

    /// The lookup `find`.
    package init(_ find: @escaping (String) -> [OutputOrigin]) {
        self.find = find
    }

    /// No origin known: messages name the output folder.
    static let none = OriginLookup { _ in [] }

    /// Who asks for `path`.
    func callAsFunction(_ path: String) -> [OutputOrigin] { find(path) }
}
