import Foundation
import OSecTestSupport
import Testing

/// A Wycheproof file (the parts these tests read).
struct WycheproofFile<Group: Decodable>: Decodable {
    let numberOfTests: Int
    let testGroups: [Group]
}

/// A vector's expected verdict.
enum WycheproofResult: String, Decodable {
    case valid, invalid, acceptable
}

/// Loads `Tests/Vectors/wycheproof/<name>`.
func wycheproof<Group: Decodable>(_ name: String, _: Group.Type) throws -> WycheproofFile<Group> {
    let url = TestVectors.wycheproofDirectory.appendingPathComponent(name)
    return try JSONDecoder().decode(WycheproofFile<Group>.self, from: Data(contentsOf: url))
}

/// Counts a file's outcomes and checks every vector ran and passed.
struct Tally {
    let file: String
    var total = 0
    var passed = 0
    var failures: [String] = []

    init(_ file: String) { self.file = file }

    /// `ok`: the vector behaved as its verdict says (acceptable vectors pass either way).
    mutating func record(_ tcId: Int, _ result: WycheproofResult, ok: Bool) {
        total += 1
        if ok || result == .acceptable {
            passed += 1
        } else {
            failures.append("tcId \(tcId) (\(result.rawValue))")
        }
    }

    func finish(numberOfTests: Int) {
        print("wycheproof via CommonCrypto \(file): \(passed)/\(total) passed")
        #expect(failures.isEmpty, "\(file): \(failures.prefix(20).joined(separator: ", "))")
        #expect(total == numberOfTests, "\(file): ran \(total) of \(numberOfTests)")
    }
}
