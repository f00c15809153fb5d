import BlogCore
// libyaml, as Yams builds it: its events are the only place an alias can be counted before Yams's
// composer repeats what it names (Yams declares it a module of its package, not a product of its own).
import CYaml
import Yams

/// The one way `blog` reads YAML (post headers, `blog.yml`, Jekyll's `_config.yml` and `_data/` files, the settings
/// `init --from` reads): Yams's node tree, once the text is known not to grow past a bound through its aliases.
///
/// An alias (`*name`) stands for the whole value its anchor (`&name`) names, so nine lines of nine aliases each
/// (`b: &b [*a, *a, …]`, `c: &c [*b, …]`, …) make 9⁹ values of 400 bytes: the values made of them took all the
/// memory, and Yams's composer alone hashes every value of a mapping key made of aliases (`*i : x`), minutes of
/// work. The size each alias stands for is known from libyaml's events before Yams composes anything.
package enum BoundedYAML {
    /// What a YAML text may stand for, at least: every value counts 1, and a text value its bytes too, an alias
    /// counting as all it repeats (a 300-byte header may repeat a 1,000-byte value 90 times).
    package static let minimumBound = 100_000

    /// The bound for `text`: ``minimumBound``, or 4 units for each of the text's bytes when that is more, so that a
    /// long file without aliases (a `_data/` table) always reads: it holds at most about 2 units a byte.
    static func bound(of text: String) -> Int { max(minimumBound, 4 * text.utf8.count) }

    /// Yams's tree of `text`, or nil for an empty text. Throws Yams's ``YamlError`` for text that is not YAML, and a
    /// ``BuildFailure`` at the alias that makes the text stand for more than its bound (`path`, its line plus
    /// `lineOffset`, the lines before the text in its file).
    package static func compose(_ text: String, path: String, lineOffset: Int = 0) throws -> Node? {
        if let alias = firstAliasPastBound(text) {
            throw BuildFailure([.error(path, line: alias.line + lineOffset, column: alias.column,
                                       "the alias `*\(alias.name)` makes this YAML stand for more than \(bound(of: text)) values and bytes of text (each alias counts as all it repeats): write the values out, or repeat less")])
        }
        // UTF-8 said outright: Yams's default encoding is a computed property that reads the whole environment
        // (`YAMS_DEFAULT_ENCODING`) on each call, 354 k instructions a front matter, more than the parse.
        return try Yams.compose(yaml: text, .default, .default, .utf8)
    }

    /// The alias (its name, 1-based line and column) at which the values `text` stands for first pass its bound;
    /// nil when they never do, or when libyaml stops at an error first (Yams reports it).
    static func firstAliasPastBound(_ text: String) -> (name: String, line: Int, column: Int)? {
        let bound = bound(of: text)
        var text = text
        return text.withUTF8 { bytes -> (name: String, line: Int, column: Int)? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            // The size of every anchored value; the size so far when each open list or mapping began.
            var anchors: [String: Int] = [:]
            var open: [(anchor: String?, start: Int)] = []
            var size = 0
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    size += 1 + event.data.scalar.length
                    if let anchor = name(event.data.scalar.anchor) { anchors[anchor] = 1 + event.data.scalar.length }
                case YAML_SEQUENCE_START_EVENT:
                    open.append((name(event.data.sequence_start.anchor), size))
                    size += 1
                case YAML_MAPPING_START_EVENT:
                    open.append((name(event.data.mapping_start.anchor), size))
                    size += 1
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if let (anchor, start) = open.popLast(), let anchor { anchors[anchor] = size - start }
                case YAML_ALIAS_EVENT:
                    let alias = name(event.data.alias.anchor) ?? ""
                    size += anchors[alias] ?? 1
                    if size > bound {
                        return (alias, Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
                    }
                default:
                    break
                }
            }
            return nil
        }
    }

    /// An anchor's name from libyaml.
    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
