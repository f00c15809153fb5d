import Dispatch
import Foundation
import Synchronization

/// Work spread over every core with `DispatchQueue.concurrentPerform`.
package enum Parallel {
    /// `[transform(0), transform(1), ...]` for `count` indices, computed on every core; the order
    /// of the result never depends on thread timing. `transform` must only read shared values.
    package static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let run = runLength(count: count, cores: cores)
        // Each thread takes the next run of indices until none is left: a slow run (long posts, a
        // thread the system set aside) holds up the stage's end by one run, not by a fixed share.
        let next = Atomic<Int>(0)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: min(cores, (count + run - 1) / run)) { _ in
                while true {
                    let start = next.add(run, ordering: .relaxed).oldValue
                    guard start < count else { break }
                    for index in start..<min(start + run, count) {
                        (base + index).initialize(to: transform(index))
                    }
                }
            }
            initialized = count
        }
    }

    /// How many indices a thread of ``map(_:_:)`` takes at a time: about sixteen runs per core, so
    /// that the stage ends evenly, and at most 32, so that a run of the slowest items is short;
    /// one at a time for a few items.
    static func runLength(count: Int, cores: Int) -> Int {
        max(1, min(32, count / (max(cores, 1) * 16)))
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

extension Parallel {
    /// `[work(0), work(1), ...]` for `count` indices, each on a thread of its own (up to 16 at once): for
    /// calls that wait on the disk rather than a core, such as `fsync`, which ``map(_:_:)`` would run two
    /// at a time on two cores. The disk then takes them together: a flush of its cache serves every call
    /// waiting for one. `work` must only read shared values; the result never depends on thread timing.
    package static func waiting<T>(_ count: Int, _ work: @escaping (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(work) }
        // `work` escapes for real: a thread may let go of it a moment after it is done.
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let run = Waiting(work: work, slots: buffer.baseAddress!, count: count, threads: min(count, 16))
            let done = DispatchGroup()
            for thread in 1..<run.threads {
                done.enter()
                Thread {
                    run.run(thread)
                    done.leave()
                }.start()
            }
            run.run(0)
            done.wait()
            initialized = count
        }
    }

    /// The work of ``waiting(_:_:)``: each thread puts its results in slots of its own.
    private final class Waiting<T>: @unchecked Sendable {
        let work: (Int) -> T
        let slots: UnsafeMutablePointer<T>
        let count: Int
        let threads: Int

        init(work: @escaping (Int) -> T, slots: UnsafeMutablePointer<T>, count: Int, threads: Int) {
            (self.work, self.slots, self.count, self.threads) = (work, slots, count, threads)
        }

        func run(_ thread: Int) {
            var index = thread
            while index < count {
                (slots + index).initialize(to: work(index))
                index += threads
            }
        }
    }
}
