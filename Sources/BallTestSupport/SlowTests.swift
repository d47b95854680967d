import Platform
import Testing

extension Tag {
    /// A test that takes seconds on the 2-core machine: many seeded runs, a real terminal, a
    /// whole recording played many ways.
    @Tag package static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Leaves a slow test out of a quick run: with `COLOURFUL_BALL_QUICK=1` set it is skipped, and
    /// the run says so; a plain `swift test` and `.ci/run` run it.
    package static var skippedInQuickRuns: Self {
        .disabled(if: getenv("COLOURFUL_BALL_QUICK") != nil, "slow: COLOURFUL_BALL_QUICK=1 leaves it out")
    }
}
