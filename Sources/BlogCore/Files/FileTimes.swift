#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's times in nanoseconds since 1970, and the clock the system dates file changes by: what
/// every "is this file as it was" check reads (the incremental state, `blog serve`'s theme and link
/// check, a served file's `ETag`). The names differ by platform (`st_mtim` on Linux,
/// `st_mtimespec` on macOS); this is the one place that knows them.
package enum FileTimes {
    /// The time `info`'s file was last modified.
    package static func modified(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        nanoseconds(info.st_mtimespec)
        #else
        nanoseconds(info.st_mtim)
        #endif
    }

    /// The time `info`'s file (its content or its entry) last changed.
    package static func changed(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        nanoseconds(info.st_ctimespec)
        #else
        nanoseconds(info.st_ctim)
        #endif
    }

    /// Now, by the clock file times are taken from: on Linux the coarse clock, which lags the real one
    /// by up to a tick, so a file changed after this call is never dated before it.
    package static func now() -> Int64 {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        return nanoseconds(now)
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
