#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds since the clock was made, from the monotonic clock (never jumps with the wall clock).
public struct MonotonicClock: Sendable {
    private let start: Double

    /// A clock that starts now.
    public init() { start = Self.now() }

    /// Seconds since the clock started.
    public func elapsed() -> Double { Self.now() - start }

    /// The monotonic time in seconds, from an arbitrary origin.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
