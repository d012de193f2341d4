// limbo-harness: runs an x509-limbo suite (a path argument or stdin) through Apple's API (module Security) and prints
// the results JSON that x509-limbo's scorer and scripts/limbo-score.py read.
//
// Usage: limbo-harness [SUITE.json] [--only ID-SUBSTRING]
// Each testcase is evaluated as an application would evaluate it: SecTrust with SecPolicyCreateSSL (server or client,
// with the expected peer name), the testcase's anchors as SecTrustSetAnchorCertificates, SecTrustSetVerifyDate and
// SecTrustEvaluateWithError. Only what Apple's API cannot express goes through OpenSecurity extras (CRLs, maximum
// depth, key usage, other EKUs, RFC822 names); see OSecLimbo's LimboRunner and docs/trust.md.
import Foundation
import OSecLimbo

var arguments = Array(CommandLine.arguments.dropFirst())
var only: String? = nil
if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
    only = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}
let input: Data
if let path = arguments.first {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        exit(2)
    }
    input = data
} else {
    input = FileHandle.standardInput.readDataToEndOfFile()
}
guard let testcases = LimboTestcase.suite(input) else {
    FileHandle.standardError.write(Data("not an x509-limbo suite\n".utf8))
    exit(2)
}
var results: [[String: Any]] = []
for testcase in testcases {
    if let only, !testcase.id.contains(only) { continue }
    let (verdict, context) = LimboRunner.run(testcase)
    results.append(["id": testcase.id, "actual_result": verdict.rawValue, "context": context])
}
let output: [String: Any] = ["version": 1, "harness": "opensecurity-secTrust-0.2", "results": results]
do {
    let data = try JSONSerialization.data(withJSONObject: output, options: [.prettyPrinted, .sortedKeys])
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write(Data("\n".utf8))
} catch {
    FileHandle.standardError.write(Data("cannot encode the results: \(error)\n".utf8))
    exit(1)
}
