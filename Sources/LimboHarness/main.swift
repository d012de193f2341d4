// limbo-harness: runs an x509-limbo suite (stdin or a path argument) through OSecTrust and prints the results JSON.
//
// Usage: limbo-harness [SUITE.json] [--only ID-SUBSTRING] [--verbose]
// Each testcase maps onto OSecTrust's ValidationOptions: SERVER → serverAuth purpose and the expected peer name,
// CLIENT → clientAuth purpose; extended_key_usage, key_usage, signature_algorithms, max_chain_depth and crls map
// onto the corresponding options. Nothing is skipped except testcases whose inputs we cannot represent.
import Foundation
import OSecASN1
import OSecTrust
import OSecX509

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum Verdict: String {
    case success = "SUCCESS"
    case failure = "FAILURE"
    case skipped = "SKIPPED"
}

let ekuOIDs: [String: ASN1ObjectIdentifier] = [
    "serverAuth": X509OID.serverAuth, "clientAuth": X509OID.clientAuth, "codeSigning": X509OID.codeSigning,
    "emailProtection": X509OID.emailProtection, "timeStamping": X509OID.timeStamping,
    "OCSPSigning": X509OID.ocspSigning, "anyExtendedKeyUsage": X509OID.anyExtendedKeyUsage,
]

let keyUsageBits: [String: KeyUsage] = [
    "digitalSignature": .digitalSignature, "contentCommitment": .nonRepudiation, "nonRepudiation": .nonRepudiation,
    "keyEncipherment": .keyEncipherment, "dataEncipherment": .dataEncipherment, "keyAgreement": .keyAgreement,
    "keyCertSign": .keyCertSign, "cRLSign": .cRLSign, "encipherOnly": .encipherOnly, "decipherOnly": .decipherOnly,
]

func parseTime(_ text: String) throws -> Int64 {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970.rounded(.down)) }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970.rounded(.down)) }
    throw HarnessError("bad validation_time \(text)")
}

func run(_ testcase: [String: Any]) -> (Verdict, String?) {
    do {
        guard let leafPEM = testcase["peer_certificate"] as? String else { throw HarnessError("no peer certificate") }
        let leaf: Certificate
        do { leaf = try Certificate(pemEncoded: leafPEM) } catch {
            return (.failure, "leaf does not parse: \(error)")
        }
        // Unparseable anchors or intermediates are left out (they could never be part of a valid path).
        let anchors = ((testcase["trusted_certs"] as? [String]) ?? []).compactMap { try? Certificate(pemEncoded: $0) }
        let intermediates = ((testcase["untrusted_intermediates"] as? [String]) ?? []).compactMap {
            try? Certificate(pemEncoded: $0)
        }

        let time: Int64
        if let text = testcase["validation_time"] as? String {
            time = try parseTime(text)
        } else {
            time = Int64(Date().timeIntervalSince1970)
        }
        var options = ValidationOptions(time: time)
        let kind = testcase["validation_kind"] as? String ?? "SERVER"
        options.purpose = kind == "CLIENT" ? .clientAuth : .serverAuth
        options.rejectAnyExtendedKeyUsage = true
        options.cabfProfile = true
        options.minimumRSABits = 2048
        func peerName(_ object: Any?) throws -> PeerName? {
            guard let dict = object as? [String: Any], let kind = dict["kind"] as? String,
                let value = dict["value"] as? String
            else { return nil }
            switch kind {
            case "DNS": return .dns(value)
            case "IP":
                guard let bytes = IPAddressText.parse(value) else { throw HarnessError("bad IP \(value)") }
                return .ip(bytes)
            case "RFC822": return .email(value)
            default: throw HarnessError("unknown peer name kind \(kind)")
            }
        }
        if kind == "CLIENT" {
            for item in (testcase["expected_peer_names"] as? [Any]) ?? [] {
                if let name = try peerName(item) { options.peerNames.append(name) }
            }
        } else if let name = try peerName(testcase["expected_peer_name"]) {
            options.peerNames = [name]
        }
        for name in (testcase["extended_key_usage"] as? [String]) ?? [] {
            guard let oid = ekuOIDs[name] else { return (.skipped, "unknown EKU \(name)") }
            options.requiredExtendedKeyUsages.append(oid)
        }
        if let usages = testcase["key_usage"] as? [String], !usages.isEmpty {
            var required = KeyUsage()
            for name in usages {
                guard let bit = keyUsageBits[name] else { return (.skipped, "unknown key usage \(name)") }
                required.insert(bit)
            }
            options.requiredKeyUsage = required
        }
        if let algorithms = testcase["signature_algorithms"] as? [String], !algorithms.isEmpty {
            return (.skipped, "signature_algorithms constraint not mapped")
        }
        if let depth = testcase["max_chain_depth"] as? Int { options.maximumIntermediates = depth }
        if let crls = testcase["crls"] as? [String], !crls.isEmpty {
            options.revocation = RevocationMode(enabled: true)
            for pem in crls {
                do { options.crls.append(contentsOf: try CertificateRevocationList.crls(fromPEM: pem)) } catch {
                    return (.failure, "CRL does not parse: \(error)")
                }
            }
        }
        let builder = ChainBuilder(anchors: [AnchorStore(anchors)], intermediates: intermediates, options: options)
        let evaluation = builder.evaluate(leaf)
        if evaluation.isTrusted { return (.success, "chain of \(evaluation.chain.count)") }
        let reasons = evaluation.failures.map(\.description).joined(separator: "; ")
        return (.failure, reasons)
    } catch {
        return (.failure, "\(error)")
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var only: String? = nil
if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
    only = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}
let input: Data
if let path = arguments.first {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("cannot read \(path)\n".data(using: .utf8)!)
        exit(2)
    }
    input = data
} else {
    input = FileHandle.standardInput.readDataToEndOfFile()
}
guard let suite = try? JSONSerialization.jsonObject(with: input) as? [String: Any],
    let testcases = suite["testcases"] as? [[String: Any]]
else {
    FileHandle.standardError.write("not an x509-limbo suite\n".data(using: .utf8)!)
    exit(2)
}
var results: [[String: Any]] = []
for testcase in testcases {
    guard let id = testcase["id"] as? String else { continue }
    if let only, !id.contains(only) { continue }
    let (verdict, context) = run(testcase)
    results.append(["id": id, "actual_result": verdict.rawValue, "context": context ?? NSNull()])
}
let output: [String: Any] = ["version": 1, "harness": "opensecurity-0.1", "results": results]
let data = try JSONSerialization.data(withJSONObject: output, options: [.prettyPrinted, .sortedKeys])
FileHandle.standardOutput.write(data)
FileHandle.standardOutput.write("\n".data(using: .utf8)!)
