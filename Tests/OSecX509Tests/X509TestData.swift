import Foundation
import OSecTestSupport
import Testing

/// Reads the carried limbo corpora and runs the `openssl` CLI for interop tests.
enum X509TestData {
    static let caBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// PEM blocks of a file, each as its own string.
    static func pemBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: String? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-----BEGIN CERTIFICATE-----") { current = "" }
            if current != nil { current! += line + "\n" }
            if line.hasPrefix("-----END CERTIFICATE-----"), let block = current {
                blocks.append(block)
                current = nil
            }
        }
        return blocks
    }

    /// DER of every certificate in the system CA bundle.
    static func caBundleCertificates() throws -> [(pem: String, der: [UInt8])] {
        let text = try String(contentsOfFile: caBundlePath, encoding: .utf8)
        return pemBlocks(text).map { ($0, pemToDER($0)) }
    }

    static func pemToDER(_ pem: String) -> [UInt8] {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return [UInt8](Data(base64Encoded: body) ?? Data())
    }

    struct LimboCert: Hashable {
        let pem: String
        let testcaseIDs: [String]
    }

    /// Distinct certificate PEMs of a limbo JSON file, with the first testcase id that used each.
    static func limboCertificates(_ file: String) throws -> [(pem: String, id: String)] {
        let url = TestVectors.limboFile(file)
        let data = try Data(contentsOf: url)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["testcases"] as? [[String: Any]]
        else { throw LimboFileError(file: file) }
        var seen = Set<String>()
        var result: [(String, String)] = []
        for testcase in cases {
            let id = testcase["id"] as? String ?? "?"
            var pems =
                (testcase["trusted_certs"] as? [String] ?? [])
                + (testcase["untrusted_intermediates"] as? [String] ?? [])
            if let peer = testcase["peer_certificate"] as? String { pems.append(peer) }
            for pem in pems where seen.insert(pem).inserted { result.append((pem, id)) }
        }
        return result
    }

    /// Runs a command through `/bin/sh -c`, returning stdout (stderr discarded). Fails the test on launch failure.
    @discardableResult
    static func shell(_ command: String, stdin: Data? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let outPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = FileHandle.nullDevice
        let inPipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let stdin {
            inPipe.fileHandleForWriting.write(stdin)
            try? inPipe.fileHandleForWriting.close()
        }
        let output = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static var hasOpenSSL: Bool { (try? shell("command -v openssl").status) == 0 }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("osec-x509-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A limbo JSON file without the expected `testcases` array.
struct LimboFileError: Error, CustomStringConvertible {
    let file: String
    var description: String { "\(file) is not an x509-limbo suite" }
}
