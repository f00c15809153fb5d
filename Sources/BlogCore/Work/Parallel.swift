import Dispatch
import Foundation

/// Work spread over every core with `DispatchQueue.concurrentPerform`.
package enum Parallel {
    /// `[transform(0), transform(1), ...]` for `count` indices, computed on every core; the order
    /// of the result never depends on thread timing. `transform` must only read shared values.
    package static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        // A few strides per core: uneven items (long posts, big lists) still balance out.
        let workers = min(count, ProcessInfo.processInfo.activeProcessorCount * 4)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                var index = worker
                while index < count {
                    (base + index).initialize(to: transform(index))
                    index += workers
                }
            }
            initialized = count
        }
    }
}

extension Parallel {
    /// `(first(), second())`, the two computed at once on two cores: for two pieces of work of one
    /// step that do not need each other, where one alone would leave a core idle. Both must only
    /// read shared values; the result never depends on thread timing.
    package static func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        var a: A?, b: B?
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { a = first() } else { b = second() }
        }
        return (a!, b!)
    }
}
