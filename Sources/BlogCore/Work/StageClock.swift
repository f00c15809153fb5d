import Foundation

/// Measures stages one after the other (`blog build --timings`).
package struct StageClock {
    /// Seconds spent in each stage, in order.
    package private(set) var timings: [(stage: String, seconds: Double)] = []
    private var last = DispatchTime.now()

    package init() {}

    /// Records the time since the previous lap under `stage`.
    package mutating func lap(_ stage: String) {
        let now = DispatchTime.now()
        timings.append((stage, Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}
