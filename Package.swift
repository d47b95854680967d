// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The hot path of a drag step crosses these targets: let the optimiser inline across them, as
/// it did when they were one.
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

// The targets, each with one job; each uses only those above it (ARCHITECTURE.md draws them):
// ColourCore ← BallModel ← BallReplay ← BallRendering ← TerminalIO ← BallPlayer ← BallTerminal ← commands.
let package = Package(
    name: "colourful-ball",
    // Linux (Debian/Ubuntu) with glibc: the one platform built and tested (Sources/Platform).
    products: [
        // The program only: no library another package could depend on (the targets share
        // `package` declarations and are optimised across modules).
        .executable(name: "colourful-ball", targets: ["colourful-ball"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // MARK: - The platform: Linux's C library, and glibc's own spellings, in one file
        .target(name: "Platform"),

        // MARK: - Pure (no ncurses, no terminal)
        /// Flat colours, flatten, complement, the position rule, terminal colour tables.
        .target(name: "ColourCore", dependencies: ["Platform"], swiftSettings: crossModule),
        /// Geometry, intents, the pure step, the session and the view-model.
        .target(
            name: "BallModel",
            dependencies: ["ColourCore", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: crossModule
        ),
        /// The replay format, its JSON line parser and reader, recorder, player, timing, trace.
        .target(
            name: "BallReplay",
            dependencies: ["BallModel", "ColourCore", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: crossModule
        ),
        /// Frames, the renderer, the status line, screens and the binding that draws.
        .target(
            name: "BallRendering",
            dependencies: ["BallModel", "ColourCore", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: crossModule
        ),
        /// Terminal bytes in and out: the input decoder, the key map, the rasteriser and its
        /// sequences, the asciicast export.
        .target(
            name: "TerminalIO", dependencies: ["BallModel", "BallRendering", "BallReplay", "ColourCore", "Platform"],
            swiftSettings: crossModule),

        /// The replay player: time travel through a recording's index, its timeline and change
        /// line, the streams panel around the current intent, and what the replay keys do.
        .target(
            name: "BallPlayer",
            dependencies: ["BallModel", "BallRendering", "BallReplay", "TerminalIO", "ColourCore"],
            swiftSettings: crossModule),

        // MARK: - The terminal adapter (the only code that imports CNcurses)
        .systemLibrary(
            name: "CNcurses",
            path: "Modules/CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        /// The ncurses screen, waiting for input, the terminal guard and the one run loop.
        .target(
            name: "BallTerminal",
            dependencies: [
                "BallModel", "BallRendering", "BallReplay", "TerminalIO", "BallPlayer", "ColourCore", "CNcurses",
                "Platform",
            ]
        ),

        // MARK: - Commands and the thin executable
        .target(
            name: "ColourfulBallCommands",
            dependencies: [
                "ColourCore", "BallModel", "BallReplay", "TerminalIO", "BallTerminal", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "colourful-ball", dependencies: ["ColourfulBallCommands"]),

        // MARK: - Benchmarks (`swift run -c release colourful-ball-bench`)
        .executableTarget(
            name: "colourful-ball-bench",
            dependencies: [
                "ColourCore", "BallModel", "BallReplay", "BallRendering", "TerminalIO", "BallPlayer", "BallTerminal",
                "BallTestSupport", "Platform",
            ]
        ),

        // MARK: - Test support (used by the tests and the bench; in no product)
        .target(name: "CPseudoTerminal"),
        .target(
            name: "BallTestSupport",
            dependencies: [
                "BallModel", "BallRendering", "BallReplay", "TerminalIO", "BallPlayer", "ColourCore", "CPseudoTerminal",
                "Platform",
            ]
        ),

        // MARK: - Tests
        .testTarget(
            name: "ColourCoreTests",
            dependencies: ["ColourCore", "BallTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "BallModelTests", dependencies: ["BallModel", "ColourCore", "BallTestSupport"]),
        .testTarget(
            name: "BallReplayTests",
            dependencies: ["BallReplay", "BallModel", "ColourCore", "BallTestSupport"],
            exclude: ["Snapshots", "Replays"]
        ),
        .testTarget(
            name: "BallRenderingTests",
            dependencies: ["BallRendering", "BallModel", "ColourCore", "BallTestSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "TerminalIOTests",
            dependencies: ["TerminalIO", "BallRendering", "BallReplay", "BallModel", "ColourCore", "BallTestSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "BallPlayerTests",
            dependencies: ["BallPlayer", "BallReplay", "BallRendering", "TerminalIO", "BallModel", "BallTestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "colourful-ball", "BallModel", "BallRendering", "BallTestSupport", "TerminalIO", "ColourCore",
                "Platform",
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
            dependencies: ["BallReplay", "BallModel", "TerminalIO"],
            path: "Fuzz",
            exclude: ["Corpus"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ))
}
