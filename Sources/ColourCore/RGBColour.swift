import Platform

// MARK: - RGB colours

/// An RGB colour with components nominally in 0...1 (not clamped: the demo's rule makes
/// negative reds, and Chameleon passes them through unchanged).
package struct RGBColour: Sendable, Hashable {
    /// Red, nominally 0...1.
    package var red: Double
    /// Green, nominally 0...1.
    package var green: Double
    /// Blue, nominally 0...1.
    package var blue: Double

    /// A colour from its three components.
    package init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from 8-bit channels, each divided by 255.
    package init(red8: UInt8, green8: UInt8, blue8: UInt8) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255)
    }

    /// Parses `#RRGGBB` (the `#` is optional, hex digits in either case); nil when malformed.
    package init?(hex text: String) {
        var digits = Substring(text)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.utf8.count == 6, digits.utf8.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        self.init(
            red8: UInt8(value >> 16 & 0xFF), green8: UInt8(value >> 8 & 0xFF), blue8: UInt8(value & 0xFF))
    }

    /// The textbook HSB → RGB conversion in double precision (hue 0...1, where 1 is red again).
    package init(hue: Double, saturation: Double, brightness: Double) {
        guard saturation != 0 else {
            self.init(red: brightness, green: brightness, blue: brightness)
            return
        }
        let sector = hue * 6
        let whole = sector.rounded(.down)
        let fraction = sector - whole
        let p = brightness * (1 - saturation)
        let q = brightness * (1 - saturation * fraction)
        let t = brightness * (1 - saturation * (1 - fraction))
        switch Int(whole) % 6 {
        case 0: self.init(red: brightness, green: t, blue: p)
        case 1: self.init(red: q, green: brightness, blue: p)
        case 2: self.init(red: p, green: brightness, blue: t)
        case 3: self.init(red: p, green: q, blue: brightness)
        case 4: self.init(red: t, green: p, blue: brightness)
        default: self.init(red: brightness, green: p, blue: q)
        }
    }

    /// Channels as 8-bit values: `round(c * 255)`, clamped to 0...255.
    package var channels: (red: UInt8, green: UInt8, blue: UInt8) {
        (Self.channel(red), Self.channel(green), Self.channel(blue))
    }

    /// Upper-case `#RRGGBB`, each channel rounded to nearest.
    package var hex: String {
        let (r, g, b) = channels
        return "#" + Self.hexByte(r) + Self.hexByte(g) + Self.hexByte(b)
    }

    /// Hue (0...1, 0 for greys), saturation and brightness, as UIKit's `getHue` gives them.
    package var hsb: (hue: Double, saturation: Double, brightness: Double) {
        let maximum = max(red, green, blue)
        let minimum = min(red, green, blue)
        let delta = maximum - minimum
        let saturation = maximum > 0 ? delta / maximum : 0
        guard delta > 0 else { return (0, saturation, maximum) }
        var hue: Double
        if maximum == red {
            hue = (green - blue) / delta
            if hue < 0 { hue += 6 }
        } else if maximum == green {
            hue = 2 + (blue - red) / delta
        } else {
            hue = 4 + (red - green) / delta
        }
        return (hue / 6, saturation, maximum)
    }

    // MARK: - Helpers

    private static func channel(_ component: Double) -> UInt8 {
        let scaled = (component * 255).rounded()
        guard scaled.isFinite else { return 0 }
        return UInt8(min(max(scaled, 0), 255))
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    private static func hexByte(_ byte: UInt8) -> String {
        String([hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

// MARK: - Contrast

extension RGBColour {
    /// sRGB inverse companding: a component's linear light (÷12.92 up to 0.04045, else
    /// ((c + 0.055) / 1.055)^2.4). Negative components take the linear branch; nothing is
    /// clamped. (WCAG 2.1 writes the threshold 0.03928, from an older draft of sRGB: no 8-bit
    /// value falls between the two.)
    package static func linear(_ component: Double) -> Double {
        component > 0.04045 ? pow((component + 0.055) / (1 + 0.055), 2.40) : component / 12.92
    }

    /// The colour's relative luminance as WCAG 2.1 defines it: the linear components weighted
    /// 0.2126, 0.7152, 0.0722; 0 for black, 1 for white.
    package var relativeLuminance: Double {
        0.2126 * Self.linear(red) + 0.7152 * Self.linear(green) + 0.0722 * Self.linear(blue)
    }

    /// The WCAG 2.1 contrast ratio of this colour and `other`: (lighter + 0.05) / (darker +
    /// 0.05), from 1 (the same luminance) to 21 (black and white).
    package func contrastRatio(with other: RGBColour) -> Double {
        let (one, two) = (relativeLuminance, other.relativeLuminance)
        return (max(one, two) + 0.05) / (min(one, two) + 0.05)
    }
}
