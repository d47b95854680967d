// swift-tools-version:6.0
//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2020 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// colourful-ball's copy of swift-argument-parser 1.8.2: its two library targets and the
// generate-manual plugin (scripts/man), with
// Sources/ArgumentParser/Utilities/Foundation.swift changed not to import Foundation
// (../README.md says why). Its warnings are upstream's, which SwiftPM shows for a package on
// disk and hides for one fetched: hidden here too.
import PackageDescription

let upstream: [SwiftSetting] = [.unsafeFlags(["-suppress-warnings"])]

let package = Package(
  name: "swift-argument-parser",
  products: [
    .library(name: "ArgumentParser", targets: ["ArgumentParser"]),
    .plugin(name: "GenerateManual", targets: ["GenerateManual"]),
  ],
  targets: [
    .target(name: "ArgumentParser", dependencies: ["ArgumentParserToolInfo"], swiftSettings: upstream),
    .target(name: "ArgumentParserToolInfo", swiftSettings: upstream),
    .plugin(
      name: "GenerateManual",
      capability: .command(
        intent: .custom(verb: "generate-manual", description: "Generate a manual entry for a specified target.")),
      dependencies: ["generate-manual"]),
    .executableTarget(
      name: "generate-manual", dependencies: ["ArgumentParser", "ArgumentParserToolInfo"],
      path: "Tools/generate-manual", swiftSettings: upstream),
  ]
)
