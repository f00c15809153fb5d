import BlogCore
import Yams

/// YAML as ``MetaValue``s: a post's YAML header, blog.yml's `params:`, a Jekyll `_config.yml` or `_data/` file.
package enum YAMLValue {
    /// The value a YAML file holds (a Jekyll `_config.yml` or `_data/` file), with scalars typed as in
    /// headers; an empty file is null. Throws a ``BuildFailure`` naming `path` and the line when the text is not YAML.
    package static func file(_ text: String, path: String) throws -> MetaValue {
        do {
            return try BoundedYAML.compose(text, path: path).map { meta($0, text: false) } ?? .null
        } catch let error as YamlError {
            throw BuildFailure([YAMLErrors.diagnostic(for: error, path: path, lineOffset: 0)])
        }
    }

    /// A YAML node as a ``MetaValue``: scalars typed by YAML's rules, except that timestamps stay
    /// text (the date parser reads them) and, when `text` is set, every non-null scalar is text.
    package static func meta(_ node: Node, text: Bool) -> MetaValue {
        switch node {
        case .scalar(let scalar):
            let tag = node.tag.description
            if tag == Yams.Tag.Name.null.rawValue { return .null }
            if text { return .string(scalar.string) }
            switch tag {
            case Yams.Tag.Name.bool.rawValue: return node.bool.map(MetaValue.bool) ?? .string(scalar.string)
            case Yams.Tag.Name.int.rawValue: return node.int.map(MetaValue.int) ?? .string(scalar.string)
            case Yams.Tag.Name.float.rawValue: return node.float.map(MetaValue.double) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .list(sequence.map { meta($0, text: text) })
        case .mapping(let mapping):
            var map: [String: MetaValue] = [:]
            for (k, v) in mapping { map[k.string ?? "\(k)"] = meta(v, text: false) }
            return .map(map)
        case .alias:
            return .null
        }
    }
}
