// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "colourful-ball",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "colourful-ball", targets: ["colourful-ball"]),
        .library(name: "ColourCore", targets: ["ColourCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
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
        // MARK: - Commands and the thin executable
        .target(
            name: "ColourfulBallCommands",
            dependencies: [
                "ColourCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "colourful-ball", dependencies: ["ColourfulBallCommands"]),

        // MARK: - Tests
        .testTarget(
            name: "ColourCoreTests",
            dependencies: ["ColourCore"],
            resources: [.copy("Resources")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
