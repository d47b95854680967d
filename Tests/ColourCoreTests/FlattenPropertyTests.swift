import ColourCore
import Foundation
import Testing

/// Properties of `flatten` and `complementary` that hold for every input.
@Suite("flatten and complementary")
struct FlattenPropertyTests {
    /// A small deterministic generator, so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomColours(count: Int, seed: UInt64) -> [RGBColour] {
        var generator = Generator(state: seed)
        return (0..<count).map { _ in
            RGBColour(
                red8: .random(in: 0...255, using: &generator), green8: .random(in: 0...255, using: &generator),
                blue8: .random(in: 0...255, using: &generator))
        }
    }

    @Test("flatten of a palette colour is itself", arguments: FlatColour.allCases)
    func flattenOfPaletteColour(colour: FlatColour) {
        #expect(flatten(colour.rgb) == colour)
        #expect(flatten(RGBColour(hex: colour.hex)!) == colour)
    }

    @Test("every result is a palette member whose RGB is the palette's")
    func resultsArePaletteMembers() {
        for colour in Self.randomColours(count: 500, seed: 7) {
            let flat = flatten(colour)
            #expect(FlatColour.allCases.contains(flat))
            #expect(flat.rgb == flat.definition.rgb)
            #expect(FlatColour.allCases.contains(complementary(colour)))
        }
    }

    @Test("the complement of a grey is that grey, flattened")
    func complementOfGrey() {
        // A grey has hue 0 and saturation 0, so only its brightness survives, rounded to a
        // whole percent: the complement is the flat colour nearest that same grey.
        for level in 0...255 {
            let grey = RGBColour(red8: UInt8(level), green8: UInt8(level), blue8: UInt8(level))
            let percent = Double(roundf(Float(Double(level) / 255 * 100))) / 100
            let sameGrey = RGBColour(red: percent, green: percent, blue: percent)
            #expect(complementary(grey) == flatten(sameGrey), "level \(level)")
        }
        // The palette's own greys complement to themselves.
        #expect(FlatColour.flatBlack.complement == .flatBlack)
        #expect(FlatColour.flatBlackDark.complement == .flatBlackDark)
    }

    @Test("the precomputed complement of each palette colour matches the computation", arguments: FlatColour.allCases)
    func precomputedComplement(colour: FlatColour) {
        #expect(colour.complement == complementary(colour.rgb))
    }

    @Test("hue 360 stays 360, which is red")
    func hueOfExactly360() {
        // #00FFFF has hue 180; +180 is exactly 360, which is kept, and means red.
        #expect(complementary(RGBColour(hex: "#00FFFF")!) == flatten(RGBColour(hex: "#FF0000")!))
    }
}
