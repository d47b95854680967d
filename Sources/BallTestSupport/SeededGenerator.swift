import Platform

// MARK: - Seeded randomness

/// A deterministic random number generator (SplitMix64) whose seed is shown in every failure
/// message, so a random test that fails can be run again exactly.
///
/// The seed comes from `TEST_SEED` in the environment when it is set (to repeat a failure),
/// otherwise from the caller, or a fresh random one.
package struct SeededGenerator: RandomNumberGenerator, CustomStringConvertible {
    /// The seed the generator started from.
    package let seed: UInt64
    private var state: UInt64

    /// A generator from `TEST_SEED` if set, else from `seed`, else from a fresh random seed.
    package init(seed: UInt64? = nil) {
        let fromEnvironment = getenv("TEST_SEED").flatMap { UInt64(String(cString: $0)) }
        let chosen = fromEnvironment ?? seed ?? UInt64.random(in: 0...UInt64.max)
        self.seed = chosen
        state = chosen
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random whole number from 0 up to (not including) `bound`.
    package mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

    /// `seed N (run again with TEST_SEED=N)`, for failure messages.
    package var description: String { "seed \(seed) (run again with TEST_SEED=\(seed))" }
}
