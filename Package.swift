// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The hot path of a drag step crosses these targets: let the optimiser inline across them, as
/// it did when they were one.
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

// The targets, each with one job; each uses only those above it (ARCHITECTURE.md draws them):
// ColourCore ← BallModel ← BallStreams ← BallReplay / BallRendering ← TerminalIO ← BallExport /
// BallPlayer ← BallProgram ← BallTerminal (ncurses) ← ColourfulBallCommands ← colourful-ball.
let openCombine: Target.Dependency = .product(name: "OpenCombine", package: "OpenCombine")

let package = Package(
    name: "colourful-ball",
    // Linux (Debian/Ubuntu) with glibc: the one platform built and tested (Sources/Platform).
    products: [
        // The program only: no library another package could depend on (the targets share
        // `package` declarations and are optimised across modules).
        .executable(name: "colourful-ball", targets: ["colourful-ball"])
    ],
    dependencies: [
        // swift-argument-parser 1.8.2 without Foundation, which it links only for an error's text and
        // the help dump's JSON: statically linked, FoundationEssentials is in a plain play's memory
        // (Vendor/README.md).
        .package(path: "Vendor/swift-argument-parser"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // MARK: - The platform: Linux's C library, and glibc's own spellings, in one file
        .target(name: "Platform"),

        // MARK: - Pure (no ncurses, no terminal)
        /// Flat colours, flatten, complement, the position rule, terminal colour tables.
        .target(name: "ColourCore", dependencies: ["Platform"], swiftSettings: crossModule),
        /// How the program writes numbers and user text: plain numbers, fixed decimals, JSON
        /// strings, control characters made visible, UTF-8 bytes.
        .target(name: "TextFormats", swiftSettings: crossModule),
        /// Geometry, intents and what a valid one is, the state and its reducer, the chain
        /// (view-model), the session, and the ReplaySubject the chain shares with.
        .target(
            name: "BallModel", dependencies: ["ColourCore", "Platform", "TextFormats", openCombine],
            swiftSettings: crossModule),
        /// The streams as marble lanes: a recorder subscribed to the session's publishers, a
        /// column per intent.
        .target(
            name: "BallStreams", dependencies: ["BallModel", "ColourCore", "TextFormats", openCombine],
            swiftSettings: crossModule),
        /// The replay format (intents, and the observations beside them), its JSON line parser
        /// and reader, recorder, player, timing, index.
        .target(
            name: "BallReplay", dependencies: ["BallModel", "BallStreams", "ColourCore", "TextFormats", openCombine],
            swiftSettings: crossModule),
        /// Frames, the renderer, the status line, the streams panel, the screen model and the
        /// binding that draws it.
        .target(
            name: "BallRendering",
            dependencies: ["BallModel", "BallStreams", "ColourCore", "TextFormats", openCombine],
            swiftSettings: crossModule),
        /// Terminal bytes in and out: the input decoder, the rasteriser and its sequences.
        .target(
            name: "TerminalIO",
            dependencies: ["BallModel", "BallRendering", "ColourCore", "TextFormats", "Platform"],
            swiftSettings: crossModule),
        /// A recording as other formats: an asciicast, the marble diagram.
        .target(
            name: "BallExport",
            dependencies: [
                "BallModel", "BallStreams", "BallReplay", "BallRendering", "TerminalIO", "ColourCore", "TextFormats",
                "Platform",
                openCombine,
            ],
            swiftSettings: crossModule),
        /// The replay player: time travel through a recording's index, its playback clock,
        /// layout, timeline, change line and streams page.
        .target(
            name: "BallPlayer",
            dependencies: ["BallModel", "BallStreams", "BallRendering", "BallReplay", "ColourCore", "TextFormats"],
            swiftSettings: crossModule),
        /// The programs the terminal runs: the key map (what keys mean), the run loop (drivable by
        /// an in-memory terminal and a manual clock), play and replay.
        .target(
            name: "BallProgram",
            dependencies: [
                "BallModel", "BallStreams", "BallRendering", "BallReplay", "TerminalIO", "BallPlayer", "ColourCore",
                "TextFormats", openCombine,
            ],
            swiftSettings: crossModule),

        // MARK: - The terminal adapter (the only code that imports CNcurses)
        .systemLibrary(
            name: "CNcurses",
            path: "Modules/CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        /// The ncurses terminal: opening it, waiting for input, the terminal guard.
        .target(
            name: "BallTerminal",
            dependencies: [
                "BallModel", "BallStreams", "BallRendering", "BallReplay", "TerminalIO", "BallPlayer", "BallProgram",
                "ColourCore", "TextFormats", "CNcurses", "Platform",
            ]
        ),

        // MARK: - Commands and the thin executable
        .target(
            name: "ColourfulBallCommands",
            dependencies: [
                "ColourCore", "BallModel", "BallReplay", "TerminalIO", "BallExport", "BallProgram", "BallTerminal",
                "TextFormats", "Platform", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "colourful-ball", dependencies: ["ColourfulBallCommands"]),

        // MARK: - Benchmarks (`swift run -c release colourful-ball-bench`)
        .executableTarget(
            name: "colourful-ball-bench",
            dependencies: [
                "ColourCore", "BallModel", "BallStreams", "BallReplay", "BallRendering", "TerminalIO", "BallExport",
                "BallPlayer", "BallProgram", "BallTerminal", "BallTestSupport", "TextFormats", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: - Test support (used by the tests and the bench; in no product)
        .target(name: "CPseudoTerminal"),
        .target(
            name: "BallTestSupport",
            dependencies: [
                "BallModel", "BallStreams", "BallRendering", "BallReplay", "TerminalIO", "BallPlayer", "BallProgram",
                "ColourCore", "TextFormats", "CPseudoTerminal", "Platform",
            ]
        ),

        // MARK: - Tests
        .testTarget(
            name: "ColourCoreTests",
            dependencies: ["ColourCore", "BallTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "BallModelTests",
            dependencies: ["BallModel", "BallProgram", "ColourCore", "BallTestSupport", openCombine]),
        .testTarget(
            name: "BallReplayTests",
            dependencies: [
                "BallReplay", "BallStreams", "BallModel", "BallProgram", "ColourCore", "TextFormats", "BallTestSupport",
            ],
            exclude: ["Snapshots", "Replays"]
        ),
        .testTarget(
            name: "BallRenderingTests",
            dependencies: [
                "BallRendering", "BallStreams", "BallModel", "BallProgram", "ColourCore", "BallTestSupport",
                openCombine,
            ],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "TerminalIOTests",
            dependencies: [
                "TerminalIO", "BallRendering", "BallReplay", "BallModel", "ColourCore", "BallProgram",
                "BallTestSupport",
            ]
        ),
        .testTarget(
            name: "BallExportTests",
            dependencies: [
                "BallExport", "BallReplay", "BallRendering", "BallModel", "BallProgram", "ColourCore", "TerminalIO",
                "BallTestSupport",
            ],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "BallPlayerTests",
            dependencies: [
                "BallPlayer", "BallReplay", "BallRendering", "BallStreams", "BallProgram", "TerminalIO", "BallModel",
                "BallTestSupport",
            ]
        ),
        .testTarget(
            name: "BallProgramTests",
            dependencies: [
                "BallProgram", "BallPlayer", "BallReplay", "BallRendering", "BallStreams", "TerminalIO", "BallModel",
                "ColourCore", "BallTestSupport",
            ]
        ),
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "ColourfulBallCommands", "BallReplay", "BallModel", "BallTerminal", "BallTestSupport", "TextFormats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "colourful-ball", "ColourfulBallCommands", "BallModel", "BallRendering", "BallProgram",
                "BallTestSupport", "TerminalIO", "ColourCore", "TextFormats", "Platform",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - The replay reader's fuzzer (`scripts/fuzz`), only when it asks for it

if ProcessInfo.processInfo.environment["COLOURFUL_BALL_FUZZ"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "replay-reader-fuzzer",
            dependencies: ["BallReplay", "BallModel", "TerminalIO", "TextFormats"],
            path: "Fuzz",
            exclude: ["Corpus"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ))
}
