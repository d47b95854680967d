import Platform

// MARK: - CIE LAB, as Chameleon computes it

/// A colour in CIE LAB, with Chameleon's rounding to `Float` at each step it rounds.
struct LabColour: Sendable, Hashable {
    var lightness: Float
    var a: Float
    var b: Float

    /// Converts RGB → linear → XYZ (rounded to Float) → LAB (each rounded to Float).
    init(_ colour: RGBColour) {
        let red = RGBColour.linear(colour.red)
        let green = RGBColour.linear(colour.green)
        let blue = RGBColour.linear(colour.blue)
        var x = (red * 0.4124) + (green * 0.3576) + (blue * 0.1805)
        var y = (red * 0.2126) + (green * 0.7152) + (blue * 0.0722)
        var z = (red * 0.0193) + (green * 0.1192) + (blue * 0.9505)
        x *= 100
        y *= 100
        z *= 100
        let fx = Self.f(Double(Float(x)) / (0.9505 * 100))
        let fy = Self.f(Double(Float(y)) / (1.0000 * 100))
        let fz = Self.f(Double(Float(z)) / (1.0890 * 100))
        lightness = Float((116 * fy) - 16)
        a = Float(500 * (fx - fy))
        b = Float(200 * (fy - fz))
    }

    /// The LAB forward function with Chameleon's quirk: its linear segment was multiplied by
    /// the integer division `(1/3)`, which is 0, so every t at or below the threshold is 4/29.
    private static func f(_ t: Double) -> Double {
        t > pow(6.0 / 29.0, 3.0) ? pow(t, 1.0 / 3.0) : 4 / 29.0
    }
}

// MARK: - Distance (Chameleon's CIEDE2000)

extension LabColour {
    /// Chameleon's version of CIEDE2000 between `self` and `other`, quirks included
    /// (hue angles in Float left in (−π, π], a mean hue that never subtracts 2π, R_T built
    /// from the mean chroma, the unprimed ΔC in the cross term), returned as a Float.
    func distance(to other: LabColour) -> Float {
        let l1 = Double(lightness)
        let a1 = Double(a)
        let b1 = Double(b)
        let l2 = Double(other.lightness)
        let a2 = Double(other.a)
        let b2 = Double(other.b)
        let fullTurn = 360.0 * Double.pi / 180
        let halfTurn = 180.0 * Double.pi / 180

        let c1 = sqrt(pow(a1, 2) + pow(b1, 2))
        let c2 = sqrt(pow(a2, 2) + pow(b2, 2))
        let deltaLPrime = l2 - l1
        let meanL = (l1 + l2) / 2
        let meanC = (c1 + c2) / 2
        let g = 1 - sqrt(pow(meanC, 7.0) / (pow(meanC, 7.0) + pow(25.0, 7.0)))
        let a1Prime = a1 + a1 / 2 * g
        let a2Prime = a2 + a2 / 2 * g
        let c1Prime = sqrt(pow(a1Prime, 2) + pow(b1, 2))
        let c2Prime = sqrt(pow(a2Prime, 2) + pow(b2, 2))
        let deltaCPrime = c1Prime - c2Prime
        let deltaC = c1 - c2
        let meanCPrime = (c1Prime + c2Prime) / 2
        let h1Prime = Double(fmodf(Float(atan2(b1, a1Prime)), Float(fullTurn)))
        let h2Prime = Double(fmodf(Float(atan2(b2, a2Prime)), Float(fullTurn)))

        let hueGap = abs(h1Prime - h2Prime)
        let deltaHuePrime: Double
        if hueGap <= halfTurn {
            deltaHuePrime = h2Prime - h1Prime
        } else if h2Prime <= h1Prime {
            deltaHuePrime = (h2Prime - h1Prime) + fullTurn
        } else {
            deltaHuePrime = (h2Prime - h1Prime) - fullTurn
        }
        let deltaHPrime = 2 * sqrt(c1Prime * c2Prime) * sin(deltaHuePrime / 2)
        let meanHPrime = hueGap > halfTurn ? (h1Prime + h2Prime + fullTurn) / 2 : (h1Prime + h2Prime) / 2

        let t =
            1 - 0.17 * cos(meanHPrime - (30.0 * Double.pi / 180)) + 0.24 * cos(2 * meanHPrime)
            + 0.32 * cos(3 * meanHPrime + (6.0 * Double.pi / 180))
            - 0.20 * cos(4 * meanHPrime - (63.0 * Double.pi / 180))
        let sL = 1 + (0.015 * pow(meanL - 50, 2)) / sqrt(20 + pow(meanL - 50, 2))
        let sC = 1 + 0.045 * meanCPrime
        let sH = 1 + 0.015 * meanCPrime * t
        let rT =
            -2 * sqrt(pow(meanCPrime, 7) / (pow(meanCPrime, 7) + pow(25.0, 7)))
            * sin(
                (60.0 * Double.pi / 180)
                    * exp(-1 * pow((meanCPrime - (275.0 * Double.pi / 180)) / (25.0 * Double.pi / 180), 2)))

        let total = sqrt(
            pow(deltaLPrime / sL, 2) + pow(deltaCPrime / sC, 2) + pow(deltaHPrime / sH, 2)
                + rT * (deltaC / sC) * (deltaHPrime / sH))
        return Float(total)
    }
}
