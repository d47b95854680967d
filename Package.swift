// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "colourful-ball",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "colourful-ball", targets: ["colourful-ball"]),
        .library(name: "ColourCore", targets: ["ColourCore"]),
        .library(name: "BallCore", targets: ["BallCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // MARK: - System library
        .systemLibrary(
            name: "CNcurses",
            path: "Modules/CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),

        // MARK: - Pure core (no ncurses, no I/O)
        .target(name: "ColourCore"),
        .target(
            name: "BallCore",
            dependencies: [
                "ColourCore",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),

        // MARK: - Terminal adapter (the only code that imports CNcurses)
        .target(name: "BallTerminal", dependencies: ["BallCore", "ColourCore", "CNcurses"]),

        // MARK: - Commands and the thin executable
        .target(
            name: "ColourfulBallCommands",
            dependencies: [
                "ColourCore", "BallCore", "BallTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "colourful-ball", dependencies: ["ColourfulBallCommands"]),

        // MARK: - Benchmarks (`swift run -c release colourful-ball-bench`)
        .executableTarget(name: "colourful-ball-bench", dependencies: ["BallCore", "ColourCore", "BallTerminal"]),

        // MARK: - Tests
        .testTarget(
            name: "ColourCoreTests",
            dependencies: ["ColourCore"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "BallCoreTests",
            dependencies: ["BallCore", "ColourCore"],
            exclude: ["Snapshots", "Replays"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["colourful-ball", "BallCore"]),
    ],
    swiftLanguageModes: [.v6]
)
