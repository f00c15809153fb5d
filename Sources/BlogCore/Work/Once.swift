import Synchronization

/// A value made once, by the first caller that asks, for every caller after it, whichever thread asks first:
/// the others wait for it under the lock and get the same value.
package final class Once<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)

    package init() {}

    /// The value, made by `make` on the first call.
    package func get(_ make: () -> Value) -> Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
