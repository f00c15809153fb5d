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
    /// `(first(), second())`, the two computed at once: `first` on the calling thread, `second` on
    /// another core. For two pieces of work of one step that do not need each other, where one alone
    /// would leave a core idle; put first the one that spreads itself (``map(_:_:)``), so that the
    /// calling thread works on it too once `second` is done. Both must only read shared values;
    /// the result never depends on thread timing.
    package static func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        withoutActuallyEscaping(second) { second in
            let other = Result<B>()
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) { other.value = second() }
            let mine = first()
            done.wait()
            return (mine, other.value!)
        }
    }

    /// What the other thread of ``both(_:_:)`` made, read once it is done.
    private final class Result<B>: @unchecked Sendable {
        var value: B?
    }
}
