// MARK: - The palette

/// One of ChameleonFramework's 48 flat colours, in Chameleon's search order.
///
/// The raw value is the colour's index in the nearest-colour search; ties in
/// ``flatten(_:)`` go to the lower index. Each light colour is followed by its
/// `Dark` variant.
package enum FlatColour: UInt8, CaseIterable, Sendable, Hashable, Codable {
    case flatBlack, flatBlackDark
    case flatBlue, flatBlueDark
    case flatBrown, flatBrownDark
    case flatCoffee, flatCoffeeDark
    case flatForestGreen, flatForestGreenDark
    case flatGray, flatGrayDark
    case flatGreen, flatGreenDark
    case flatLime, flatLimeDark
    case flatMagenta, flatMagentaDark
    case flatMaroon, flatMaroonDark
    case flatMint, flatMintDark
    case flatNavyBlue, flatNavyBlueDark
    case flatOrange, flatOrangeDark
    case flatPink, flatPinkDark
    case flatPlum, flatPlumDark
    case flatPowderBlue, flatPowderBlueDark
    case flatPurple, flatPurpleDark
    case flatRed, flatRedDark
    case flatSand, flatSandDark
    case flatSkyBlue, flatSkyBlueDark
    case flatTeal, flatTealDark
    case flatWatermelon, flatWatermelonDark
    case flatWhite, flatWhiteDark
    case flatYellow, flatYellowDark

    /// Chameleon's name for the colour, such as `flatMaroonDark`.
    package var name: String { Self.names[Int(rawValue)] }

    /// The colour's definition: integer hue (degrees), saturation and brightness (percent).
    package var definition: HSBDefinition { Self.definitions[Int(rawValue)] }

    /// The colour as RGB, converted from its definition exactly as Chameleon does.
    package var rgb: RGBColour { Self.rgbValues[Int(rawValue)] }

    /// The colour as upper-case `#RRGGBB`.
    package var hex: String { Self.hexValues[Int(rawValue)] }

    /// The flat colour named `name` (Chameleon's spelling, such as `flatRed`), if any.
    package init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: UInt8(index))
    }

    // MARK: - Tables

    /// Chameleon's names, in the palette's order, written out: the first frame does not ask the
    /// runtime's reflection for them (PaletteTests checks each is its case's own name).
    private static let names: [String] = [
        "flatBlack", "flatBlackDark", "flatBlue", "flatBlueDark",
        "flatBrown", "flatBrownDark", "flatCoffee", "flatCoffeeDark",
        "flatForestGreen", "flatForestGreenDark", "flatGray", "flatGrayDark",
        "flatGreen", "flatGreenDark", "flatLime", "flatLimeDark",
        "flatMagenta", "flatMagentaDark", "flatMaroon", "flatMaroonDark",
        "flatMint", "flatMintDark", "flatNavyBlue", "flatNavyBlueDark",
        "flatOrange", "flatOrangeDark", "flatPink", "flatPinkDark",
        "flatPlum", "flatPlumDark", "flatPowderBlue", "flatPowderBlueDark",
        "flatPurple", "flatPurpleDark", "flatRed", "flatRedDark",
        "flatSand", "flatSandDark", "flatSkyBlue", "flatSkyBlueDark",
        "flatTeal", "flatTealDark", "flatWatermelon", "flatWatermelonDark",
        "flatWhite", "flatWhiteDark", "flatYellow", "flatYellowDark",
    ]

    private static let definitions: [HSBDefinition] = [
        .init(0, 0, 17), .init(0, 0, 15),
        .init(224, 50, 63), .init(224, 56, 51),
        .init(24, 45, 37), .init(25, 45, 31),
        .init(25, 31, 64), .init(25, 34, 56),
        .init(138, 45, 37), .init(135, 44, 31),
        .init(184, 10, 65), .init(184, 10, 55),
        .init(145, 77, 80), .init(145, 78, 68),
        .init(74, 70, 78), .init(74, 81, 69),
        .init(283, 51, 71), .init(282, 61, 68),
        .init(5, 65, 47), .init(4, 68, 40),
        .init(168, 86, 74), .init(168, 86, 63),
        .init(210, 45, 37), .init(210, 45, 31),
        .init(28, 85, 90), .init(24, 100, 83),
        .init(324, 49, 96), .init(327, 57, 83),
        .init(300, 45, 37), .init(300, 46, 31),
        .init(222, 24, 95), .init(222, 28, 84),
        .init(253, 52, 77), .init(253, 56, 64),
        .init(6, 74, 91), .init(6, 78, 75),
        .init(42, 25, 94), .init(42, 30, 84),
        .init(204, 76, 86), .init(204, 78, 73),
        .init(195, 55, 51), .init(196, 54, 45),
        .init(356, 53, 94), .init(358, 61, 85),
        .init(192, 2, 95), .init(204, 5, 78),
        .init(48, 99, 100), .init(40, 100, 100),
    ]

    private static let rgbValues: [RGBColour] = definitions.map(\.rgb)
    private static let hexValues: [String] = rgbValues.map(\.hex)

    /// The palette's LAB values, computed once: the nearest-colour search compares against these.
    static let labValues: [LabColour] = rgbValues.map(LabColour.init)
}

// MARK: - Definitions

/// A flat colour's definition as Chameleon writes it: `hsb(h, s, b)` with integer values.
package struct HSBDefinition: Sendable, Hashable {
    /// Hue in degrees, 0–360.
    package let hue: Int
    /// Saturation in percent, 0–100.
    package let saturation: Int
    /// Brightness in percent, 0–100.
    package let brightness: Int

    init(_ hue: Int, _ saturation: Int, _ brightness: Int) {
        self.hue = hue
        self.saturation = saturation
        self.brightness = brightness
    }

    /// The RGB colour: components divided in single precision (as Chameleon's `hsb` macro
    /// does with `h / 360.0f`), then converted with the textbook formula in double precision.
    package var rgb: RGBColour {
        RGBColour(
            hue: Double(Float(hue) / 360),
            saturation: Double(Float(saturation) / 100),
            brightness: Double(Float(brightness) / 100)
        )
    }
}
