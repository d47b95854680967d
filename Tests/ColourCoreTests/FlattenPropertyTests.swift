import BallTestSupport
import Foundation
import Testing

@testable import ColourCore

/// Properties of `flatten` and `complementary` that hold for every input.
@Suite("flatten and complementary")
struct FlattenPropertyTests {
    static func randomColours(count: Int, using generator: inout SeededGenerator) -> [RGBColour] {
        (0..<count).map { _ in
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

    @Test("flatten gives a nearest palette colour: none is closer, and an equally close one comes later")
    func flattenIsNearest() {
        var generator = SeededGenerator()
        for colour in Self.randomColours(count: 300, using: &generator) {
            let lab = LabColour(colour)
            let flat = flatten(colour)
            let chosen = lab.distance(to: LabColour(flat.rgb))
            for other in FlatColour.allCases where other != flat {
                let distance = lab.distance(to: LabColour(other.rgb))
                #expect(
                    distance > chosen || (distance == chosen && other.rawValue > flat.rawValue),
                    "\(colour.hex) → \(flat.name) at \(chosen), but \(other.name) is at \(distance); \(generator)")
            }
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
