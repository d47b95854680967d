import Platform

// MARK: - flatten

/// The nearest flat colour to `colour` by Chameleon's CIEDE2000 distance; ties go to the
/// earlier palette entry. This is the full 48-way search: per-move code uses
/// ``BallColourRule`` instead, which is a table lookup.
package func flatten(_ colour: RGBColour) -> FlatColour {
    let lab = LabColour(colour)
    var best = FlatColour.flatBlack
    var smallest = Float.infinity
    for (index, candidate) in FlatColour.labValues.enumerated() {
        let distance = lab.distance(to: candidate)
        if distance < smallest {
            smallest = distance
            best = FlatColour(rawValue: UInt8(index))!
        }
    }
    return best
}

// MARK: - complementary

/// Chameleon's complementary flat colour of `colour`: hue + 180° (minus 360 only when the sum
/// is greater than 360), all three HSB values rounded with `roundf`, then flattened.
/// A grey complements to itself.
package func complementary(_ colour: RGBColour) -> FlatColour {
    let (hue, saturation, brightness) = colour.hsb
    var degrees = hue * 360
    degrees += 180
    if degrees > 360 { degrees -= 360 }
    let roundedHue = Double(roundf(Float(degrees)))
    let roundedSaturation = Double(roundf(Float(saturation * 100)))
    let roundedBrightness = Double(roundf(Float(brightness * 100)))
    let opposite = RGBColour(
        hue: roundedHue / 360, saturation: roundedSaturation / 100, brightness: roundedBrightness / 100)
    return flatten(opposite)
}

extension FlatColour {
    /// The complementary flat colour of this palette entry: ``complementary(_:)`` of its RGB.
    package var complement: FlatColour { Self.complements[Int(rawValue)] }

    /// Each colour's complement, in the palette's order, written out: the first frame does not
    /// work out 48 flattens (PaletteTests checks each entry against ``complementary(_:)``).
    private static let complements: [FlatColour] = [
        .flatBlack, .flatBlackDark, .flatCoffee, .flatCoffeeDark,
        .flatNavyBlue, .flatNavyBlueDark, .flatGrayDark, .flatTeal,
        .flatPlum, .flatPlumDark, .flatCoffee, .flatCoffee,
        .flatPinkDark, .flatMagentaDark, .flatPurpleDark, .flatPurpleDark,
        .flatGreenDark, .flatGreenDark, .flatTeal, .flatTealDark,
        .flatRedDark, .flatMaroon, .flatBrown, .flatBrownDark,
        .flatSkyBlue, .flatSkyBlueDark, .flatGreen, .flatGreen,
        .flatForestGreen, .flatForestGreenDark, .flatSand, .flatSandDark,
        .flatLime, .flatLimeDark, .flatMint, .flatGray,
        .flatPowderBlue, .flatPowderBlueDark, .flatOrange, .flatOrangeDark,
        .flatMaroon, .flatBrown, .flatMint, .flatMint,
        .flatWhite, .flatWhiteDark, .flatPurpleDark, .flatPurple,
    ]
}
