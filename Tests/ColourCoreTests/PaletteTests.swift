import ColourCore
import Testing

/// The palette: 48 colours in Chameleon's search order, with Chameleon's names and values.
@Suite("The flat palette")
struct PaletteTests {
    @Test("48 colours, light then dark, in search order")
    func order() {
        #expect(FlatColour.allCases.count == 48)
        #expect(FlatColour.allCases.first == .flatBlack)
        #expect(FlatColour.allCases[1] == .flatBlackDark)
        #expect(FlatColour.allCases.last == .flatYellowDark)
        for (index, colour) in FlatColour.allCases.enumerated() {
            #expect(colour.name.hasSuffix("Dark") == (index % 2 == 1))
        }
    }

    @Test(
        "hex values as Chameleon gives them",
        arguments: [
            (FlatColour.flatRed, "#E84E3C"), (.flatRedDark, "#BF392A"), (.flatBlackDark, "#262626"),
            (.flatMaroon, "#78302A"), (.flatMaroonDark, "#662521"), (.flatPlumDark, "#4F2B4F"),
            (.flatTeal, "#3B7082"), (.flatTealDark, "#356273"), (.flatMint, "#1ABD9C"), (.flatGray, "#95A5A6"),
            (.flatForestGreenDark, "#2C4F35"), (.flatWhite, "#EDF1F2"), (.flatYellow, "#FFCD03"),
        ])
    func hex(colour: FlatColour, hex: String) {
        #expect(colour.hex == hex)
    }

    @Test("names round-trip, and unknown names are nil")
    func names() {
        for colour in FlatColour.allCases { #expect(FlatColour(name: colour.name) == colour) }
        #expect(FlatColour(name: "flatmaroon") == nil)
        #expect(FlatColour(name: "") == nil)
    }

    @Test("the written-out names are the cases' own")
    func writtenNames() {
        for colour in FlatColour.allCases { #expect(colour.name == String(describing: colour)) }
    }

    @Test("the written-out complements are Chameleon's complementary of each colour")
    func writtenComplements() {
        for colour in FlatColour.allCases {
            #expect(colour.complement == complementary(colour.rgb), "\(colour.name)")
        }
    }

    @Test("hex parsing accepts #RRGGBB in either case and refuses anything else")
    func hexParsing() {
        #expect(RGBColour(hex: "#e84e3c")?.hex == "#E84E3C")
        #expect(RGBColour(hex: "E84E3C")?.hex == "#E84E3C")
        for bad in ["", "#", "#12345", "#1234567", "#GG0000", "#+12345", "# 12345", "##123456", "#１２３４５６"] {
            #expect(RGBColour(hex: bad) == nil, "\(bad)")
        }
    }
}
