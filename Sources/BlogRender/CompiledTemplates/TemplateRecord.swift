import Mustache
import Synchronization

/// A number for each name a template looks up or a ``RecordLayout`` holds, the same for the whole process: a
/// compiled template's name carries its number (``TemplateName/firstID``), and a record finds it by that number,
/// not by hashing the name's text again at every tag and every level of the stack.
enum TemplateNames {
    private static let numbers = Mutex<(ids: [String: Int], names: [String])>(([:], []))

    /// The number of `name`, given it now if it has none.
    static func id(_ name: String) -> Int {
        numbers.withLock { numbers in
            if let id = numbers.ids[name] { return id }
            let id = numbers.names.count
            numbers.ids[name] = id
            numbers.names.append(name)
            return id
        }
    }

    /// The name numbered `id`.
    static func name(_ id: Int) -> String {
        numbers.withLock { $0.names[id] }
    }
}

/// The keys of the values one builder makes (``PostValues``: every post's), each at a fixed slot: made once, shared by
/// every ``TemplateRecord`` that builder makes.
final class RecordLayout: Sendable {
    /// The key of each slot.
    let keys: [String]
    /// The slot of each key.
    let slots: [String: Int]
    /// The slot of each name number (``TemplateNames``), -1 for a name that is not a key. A name numbered after
    /// the layout was made is none of its keys, and past the end.
    private let byID: [Int32]

    init(keys: [String]) {
        self.keys = keys
        var slots: [String: Int] = [:]
        for (slot, key) in keys.enumerated() where slots[key] == nil { slots[key] = slot }
        self.slots = slots
        let ids = keys.map(TemplateNames.id)
        var byID = [Int32](repeating: -1, count: (ids.max() ?? -1) + 1)
        for (slot, id) in ids.enumerated() where byID[id] < 0 { byID[id] = Int32(slot) }
        self.byID = byID
    }

    /// The slot of the name numbered `id`; nil when it is not a key.
    @inline(__always)
    func slot(id: Int) -> Int? {
        guard id < byID.count else { return nil }
        let slot = byID[id]
        return slot < 0 ? nil : Int(slot)
    }
}

/// Values by key, as a `[String: Any]` holds them, in the slots of a ``RecordLayout``: what templates see of a post
/// (``PostValues``). ``TemplateRenderer`` finds a name in it by the name's number, without hashing; swift-mustache
/// reads it as a parent (``child(named:)``) and transforms it as the dictionary it stands for, so both render it
/// as they render that dictionary. A key without a value is absent, as in the dictionary.
final class TemplateRecord: @unchecked Sendable {
    // Unchecked: immutable once built; its values are the plain values templates see.
    let layout: RecordLayout
    private let values: ContiguousArray<Slot>

    /// A slot's value: a text or a record, the values templates print and enter most, and the flags, numbers, lists of
    /// records and texts rendered once or on demand blog sets, each in a case of its own, so that reading one copies a
    /// `String` or a reference; any other value as an `Any` in a box. Held as an `Any?`, every value read was copied
    /// through its type's witnesses (~130 instructions with the retain) and cast again to be printed; held as an `Any`
    /// in a case (`.other(Any)`), the enum had no fixed layout, and every `switch` over a slot (even one that binds
    /// nothing) copied the whole slot out through its outlined copy, retaining and releasing its payload. Each case
    /// is read back as the value set (``value``): its type, in an `Any`, is the one it was set with.
    fileprivate enum Slot {
        case absent
        case text(String)
        case record(TemplateRecord)
        case flag(Bool)
        case number(Int)
        case records([TemplateRecord])
        case lazy(LazyValue)
        case once(RenderedOnce)
        case other(Boxed)

        /// Any other value: a reference, so that the enum is one of fixed size whose cases are told apart in place.
        final class Boxed {
            let value: Any
            init(_ value: Any) { self.value = value }
        }

        @inline(__always)
        init(_ value: Any?) {
            guard let value else {
                self = .absent
                return
            }
            let type = TemplateRenderer.typeHeld(value)
            if type == String.self, let text = TemplateRenderer.exactly(value, String.self) {
                self = .text(text)
            } else if type == TemplateRecord.self, let record = TemplateRenderer.exactly(value, TemplateRecord.self) {
                self = .record(record)
            } else if type == Bool.self, let flag = TemplateRenderer.exactly(value, Bool.self) {
                self = .flag(flag)
            } else if type == Int.self, let number = TemplateRenderer.exactly(value, Int.self) {
                self = .number(number)
            } else if type == [TemplateRecord].self, let records = TemplateRenderer.exactly(value, [TemplateRecord].self) {
                self = .records(records)
            } else if type == LazyValue.self, let lazy = TemplateRenderer.exactly(value, LazyValue.self) {
                self = .lazy(lazy)
            } else if type == RenderedOnce.self, let once = TemplateRenderer.exactly(value, RenderedOnce.self) {
                self = .once(once)
            } else {
                self = .other(Boxed(value))
            }
        }

        /// `value` in its case, as ``init(_:)`` sorts it, decided by its static type where it is set: the comparisons
        /// of `Value` with these types and the casts are resolved when the caller is compiled. Not for an existential
        /// type: `value as Any` would box an `Any` in another, whose type is `Any` (``Builder/set(_:_:)`` takes an `Any`
        /// apart).
        @inline(__always)
        init<Value>(typed value: Value) {
            assert(Value.self != Any.self, "an Any is sorted by the type it holds: Slot(_:)")
            if Value.self == String.self, let text = value as? String {
                self = .text(text)
            } else if Value.self == TemplateRecord.self, let record = value as? TemplateRecord {
                self = .record(record)
            } else if Value.self == Bool.self, let flag = value as? Bool {
                self = .flag(flag)
            } else if Value.self == Int.self, let number = value as? Int {
                self = .number(number)
            } else if Value.self == [TemplateRecord].self, let records = value as? [TemplateRecord] {
                self = .records(records)
            } else if Value.self == LazyValue.self, let lazy = value as? LazyValue {
                self = .lazy(lazy)
            } else if Value.self == RenderedOnce.self, let once = value as? RenderedOnce {
                self = .once(once)
            } else {
                self = .other(Boxed(value))
            }
        }

        /// The value, as a dictionary holds it.
        @inline(__always)
        var value: Any? {
            switch self {
            case .absent: return nil
            case .text(let text): return text
            case .record(let record): return record
            case .flag(let flag): return flag
            case .number(let number): return number
            case .records(let records): return records
            case .lazy(let lazy): return lazy
            case .once(let once): return once
            case .other(let boxed): return boxed.value
            }
        }

        var isAbsent: Bool {
            if case .absent = self { return true }
            return false
        }
    }

    /// What ``peek(id:)`` finds.
    enum Peeked {
        /// No value.
        case absent
        case text(String)
        /// A record, unretained: the record peeked at holds it.
        case record(Unmanaged<TemplateRecord>)
        case flag(Bool)
        case records([TemplateRecord])
        /// Any other value: read it with ``value(id:)``.
        case other
    }

    fileprivate init(layout: RecordLayout, values: ContiguousArray<Slot>) {
        self.layout = layout
        self.values = values
    }

    /// The values of `dictionary` in a layout of their own: for values made once for every page (`config`, `links`).
    convenience init(_ dictionary: [String: Any]) {
        let layout = RecordLayout(keys: Array(dictionary.keys))
        self.init(layout: layout, values: ContiguousArray(layout.keys.map { Slot(dictionary[$0]) }))
    }

    /// The value of the name numbered `id` (``TemplateNames``); nil when it has none.
    @inline(__always)
    func value(id: Int) -> Any? {
        guard let slot = layout.slot(id: id) else { return nil }
        return values[slot].value
    }

    /// The value of the name numbered `id` when it is a text, a record, a flag or a list of records (without copying
    /// it into an `Any`), or whether there is another value or none: what ``TemplateRenderer`` prints a `{{name}}` and
    /// enters a section from.
    @inline(__always)
    func peek(id: Int) -> Peeked {
        guard let slot = layout.slot(id: id) else { return .absent }
        switch values[slot] {
        case .absent: return .absent
        case .text(let text): return .text(text)
        case .record(let record): return .record(Unmanaged.passUnretained(record))
        case .flag(let flag): return .flag(flag)
        case .records(let records): return .records(records)
        case .number, .lazy, .once, .other: return .other
        }
    }

    /// The value of `key`; nil when it has none.
    subscript(key: String) -> Any? {
        guard let slot = layout.slots[key] else { return nil }
        return values[slot].value
    }

    /// How many keys have a value.
    var count: Int { values.reduce(0) { $1.isAbsent ? $0 : $0 + 1 } }

    /// Each key with a value, and the value, in slot order.
    func forEach(_ body: (String, Any) throws -> Void) rethrows {
        for slot in values.indices {
            if let value = values[slot].value { try body(layout.keys[slot], value) }
        }
    }

    /// The same values as a dictionary.
    var dictionary: [String: Any] {
        var dictionary = [String: Any](minimumCapacity: values.count)
        forEach { dictionary[$0] = $1 }
        return dictionary
    }

    /// A record being filled in, key by key, as a dictionary is.
    struct Builder {
        let layout: RecordLayout
        private var values: ContiguousArray<Slot>
        /// The slot after the last one set in the layout's order: a builder sets its keys mostly in that order, so the
        /// next key is found by comparing it with the few keys from here (a short string's comparison is of two
        /// words) before hashing it.
        private var next = 0

        init(_ layout: RecordLayout) {
            self.layout = layout
            values = ContiguousArray(repeating: .absent, count: layout.keys.count)
        }

        /// `record`'s values, to add to.
        init(copying record: TemplateRecord) {
            layout = record.layout
            values = record.values
        }

        /// The value of `key`, one of the layout's keys (any other is a mistake of blog's: it traps).
        subscript(key: String) -> Any? {
            get { layout.slots[key].flatMap { values[$0].value } }
            set { values[slot(of: key)] = Slot(newValue) }
        }

        /// Sets `key` to `value`, or leaves it absent when nil: as `self[key] = value`, for a value whose type is known
        /// where it is set, so that it goes into its slot's case as it is (``Slot/init(typed:)``) instead of being boxed
        /// in an `Any` and sorted back out of it (~130 instructions a value).
        mutating func set<Value>(_ key: String, _ value: Value?) {
            values[slot(of: key)] = value.map(Slot.init(typed:)) ?? .absent
        }

        /// Sets the value at `slot` of the layout (as ``set(_:_:)``).
        mutating func set<Value>(slot: Int, _ value: Value?) {
            values[slot] = value.map(Slot.init(typed:)) ?? .absent
        }

        /// Sets `key` to a value whose type is known only where it is read (`self[key] = value`): chosen over the typed
        /// ``set(_:_:)`` for an `Any`.
        mutating func set(_ key: String, _ value: Any?) {
            self[key] = value
        }

        /// Sets the value at `slot` of the layout to a value of any type (as ``set(_:_:)`` of an `Any`).
        mutating func set(slot: Int, _ value: Any?) {
            self[slot: slot] = value
        }

        /// The slot of `key`, one of the layout's keys (any other is a mistake of blog's: it traps).
        @inline(__always)
        private mutating func slot(of key: String) -> Int {
            let keys = layout.keys
            var slot = next
            while slot < min(next + 4, keys.count), keys[slot] != key { slot += 1 }
            if slot < min(next + 4, keys.count) {
                next = slot + 1
                return slot
            }
            guard let found = layout.slots[key] else { preconditionFailure("\(key) is not a key of the record's layout") }
            return found
        }

        /// The value at `slot` of the layout: for a builder whose layout's keys are known by their slots. A nil
        /// value leaves the key absent.
        subscript(slot slot: Int) -> Any? {
            get { values[slot].value }
            set { values[slot] = Slot(newValue) }
        }

        /// The values so far, as a dictionary.
        var dictionary: [String: Any] { record.dictionary }

        /// The record of the values set.
        var record: TemplateRecord { TemplateRecord(layout: layout, values: values) }
    }
}

extension TemplateRecord: MustacheParent, MustacheTransformable, CustomStringConvertible {
    func child(named name: String) -> Any? { self[name] }

    /// A dictionary's (`count`, `empty`, `enumerated`, `sorted`), the entries in slot order where the dictionary's
    /// order would be its storage's: the same on every read, so that two renders of one record agree.
    func transform(_ name: String) -> Any? {
        switch name {
        case "count": return count
        case "empty": return count == 0
        case "enumerated": return entries
        case "sorted": return entries.sorted { $0.key < $1.key }
        default: return nil
        }
    }

    /// As a dictionary's, the entries in slot order.
    var description: String {
        let entries = self.entries
        guard !entries.isEmpty else { return "[:]" }
        return "[" + entries.map { $0.key.debugDescription + ": " + String(reflecting: $0.value) }.joined(separator: ", ") + "]"
    }

    /// The keys with a value, and the values, in slot order, as a dictionary's `enumerated` gives them.
    private var entries: [(key: String, value: Any)] {
        var entries: [(key: String, value: Any)] = []
        forEach { entries.append((key: $0, value: $1)) }
        return entries
    }
}
