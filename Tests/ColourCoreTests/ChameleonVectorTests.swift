import ColourCore
import Foundation
import Testing

/// The checked values from ChameleonFramework (`Resources/chameleon-sample.jsonl`, kept in the
/// project as the design gave them): positions with their ball and background colours, and `flatten` and
/// `complement` answers for random colours.
@Suite("Chameleon's checked values")
struct ChameleonVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let fields: [String: JSONValue]
        var testDescription: String { fields.description }
        func string(_ key: String) -> String? { if case .string(let value) = fields[key] { value } else { nil } }
        func number(_ key: String) -> Double? { if case .number(let value) = fields[key] { value } else { nil } }
    }

    enum JSONValue: Sendable, Equatable {
        case string(String), number(Double), null
    }

    static let vectors: [Vector] = {
        let url = Bundle.module.url(forResource: "chameleon-sample", withExtension: "jsonl", subdirectory: "Resources")!
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return Vector(
                fields: object.mapValues { value in
                    if let text = value as? String { return .string(text) }
                    if let number = value as? NSNumber { return .number(number.doubleValue) }
                    return .null
                })
        }
    }()

    @Test("the sample holds every kind of vector")
    func sampleIsComplete() {
        let kinds = Set(Self.vectors.compactMap { $0.string("kind") })
        #expect(kinds == ["position", "flatten", "complement"])
        #expect(Self.vectors.count == 60)
    }

    @Test(
        "positions give Chameleon's ball and background", arguments: vectors.filter { $0.string("kind") == "position" })
    func position(vector: Vector) throws {
        let position = PointPosition(x: try #require(vector.number("x")), y: try #require(vector.number("y")))
        let ball = BallColourRule.ballColour(at: position)
        let background = BallColourRule.backgroundCandidate(forBall: ball)
        #expect(ball.name == vector.string("ball"))
        #expect(ball.hex == vector.string("ball_hex"))
        #expect(background?.name == vector.string("background"))
        #expect(background?.hex == vector.string("background_hex"))
        #expect(BallColourRule.searchedBallColour(at: position) == ball)
    }

    @Test("flatten gives Chameleon's nearest colour", arguments: vectors.filter { $0.string("kind") == "flatten" })
    func flattenVector(vector: Vector) throws {
        let hex = try #require(vector.string("input"))
        let input = try #require(RGBColour(hex: hex))
        let flat = flatten(input)
        #expect(flat.name == vector.string("flat"))
        #expect(flat.hex == vector.string("flat_hex"))
    }

    @Test("complementary gives Chameleon's complement", arguments: vectors.filter { $0.string("kind") == "complement" })
    func complementVector(vector: Vector) throws {
        let hex = try #require(vector.string("input"))
        let input = try #require(RGBColour(hex: hex))
        let flat = complementary(input)
        #expect(flat.name == vector.string("flat"))
        #expect(flat.hex == vector.string("flat_hex"))
    }
}
