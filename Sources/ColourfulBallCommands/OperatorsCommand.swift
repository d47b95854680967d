import ArgumentParser
import BallModel
import TextFormats

/// `colourful-ball operators`: the operators the chain's slot can hold, one JSON object a line,
/// for scripts (`scripts/check_rxpy_marbles.py` builds each again in RxPY from its `rxpy`).
/// Not in the help: a script's view of ``SlotOperator/allCases``, documented in
/// docs/operators.md.
struct OperatorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operators",
        abstract: "Print the operators the chain's slot can hold, one JSON object a line.",
        shouldDisplay: false
    )

    func run() {
        for slot in SlotOperator.allCases {
            let fields = [
                ("name", slot.name), ("key", String(slot.key)), ("code", slot.code), ("words", slot.words),
                ("rxpy", slot.operation.rxpy),
            ]
            // What it reads, as its code names each subject: `"inputs":["position","mirror"]`.
            let inputs = slot.inputs.map(\.rawValue.jsonQuoted).joined(separator: ",")
            // A timed one's intervals, in milliseconds, the usual first: `"intervals":[300,100,1000]`.
            let intervals =
                slot.timing == nil
                ? ""
                : ",\"intervals\":[\(([SlotInterval.usual] + SlotInterval.allCases.filter { $0 != .usual }).map { String($0.milliseconds) }.joined(separator: ","))]"
            // Names older recordings gave it, where it had one: `"formerNames":["replaceError"]`.
            let former = slot.operation.formerNames
            let formerNames =
                former.isEmpty ? "" : ",\"formerNames\":[\(former.map(\.jsonQuoted).joined(separator: ","))]"
            print(
                "{" + fields.map { "\($0.0.jsonQuoted):\($0.1.jsonQuoted)" }.joined(separator: ",")
                    + ",\"inputs\":[\(inputs)]\(intervals)\(formerNames)}")
        }
    }
}
