import Foundation
import OSecCrypto
import OSecTestSupport

/// A small PKI generated once per test process with the openssl CLI: a P-256 root and intermediate,
/// an RSA-2048 leaf and a P-256 leaf, both issued by the intermediate.
final class PKCS12Fixtures: @unchecked Sendable {  // immutable after init
    static let shared: PKCS12Fixtures = {
        do { return try PKCS12Fixtures() } catch { preconditionFailure("PKCS#12 fixtures: \(error)") }
    }()

    enum Leaf: String, Sendable, CaseIterable { case rsa, ec }

    let directory: TemporaryDirectory
    let rootDER: Data
    let intermediateDER: Data
    let rsaLeafDER: Data
    let ecLeafDER: Data

    static let rsaSubjectCN = "OSec RSA Leaf"
    static let ecSubjectCN = "OSec EC Leaf"

    private init() throws {
        directory = try TemporaryDirectory(prefix: "osec-pkcs12")
        let d = directory
        try d.write("ca.ext", Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8))
        try d.write("leaf.ext", Data("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n".utf8))
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            d.path("root.key"),
            "-out", d.path("root.pem"), "-subj", "/CN=OSec Test Root/O=OpenSecurity", "-days", "3",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try Self.issue(
            d, name: "inter", subject: "/CN=OSec Test Intermediate/O=OpenSecurity", issuer: "root",
            keyArgs: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"], ext: "ca.ext")
        try Self.issue(
            d, name: "rsa", subject: "/CN=\(Self.rsaSubjectCN)/O=OpenSecurity", issuer: "inter",
            keyArgs: ["-newkey", "rsa:2048"], ext: "leaf.ext")
        try Self.issue(
            d, name: "ec", subject: "/CN=\(Self.ecSubjectCN)/O=OpenSecurity", issuer: "inter",
            keyArgs: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"], ext: "leaf.ext")
        // The chain file lists the root before the intermediate, so chain order cannot come from file order.
        let chain = try d.read("root.pem") + d.read("inter.pem")
        try d.write("chain.pem", chain)
        rootDER = try Self.der(d, "root.pem")
        intermediateDER = try Self.der(d, "inter.pem")
        rsaLeafDER = try Self.der(d, "rsa.pem")
        ecLeafDER = try Self.der(d, "ec.pem")
    }

    private static func issue(
        _ d: TemporaryDirectory, name: String, subject: String, issuer: String, keyArgs: [String], ext: String
    ) throws {
        try OpenSSLCLI.check(
            ["req"] + keyArgs + [
                "-nodes", "-keyout", d.path("\(name).key"), "-out", d.path("\(name).csr"), "-subj", subject,
            ])
        try OpenSSLCLI.check([
            "x509", "-req", "-in", d.path("\(name).csr"), "-CA", d.path("\(issuer).pem"), "-CAkey",
            d.path("\(issuer).key"),
            "-set_serial", String(Int.random(in: 1000...1_000_000)), "-days", "3", "-extfile", d.path(ext), "-out",
            d.path("\(name).pem"),
        ])
    }

    private static func der(_ d: TemporaryDirectory, _ pem: String) throws -> Data {
        try OpenSSLCLI.check(["x509", "-in", d.path(pem), "-outform", "DER"]).stdout
    }

    func leafDER(_ leaf: Leaf) -> Data { leaf == .rsa ? rsaLeafDER : ecLeafDER }

    func subjectCN(_ leaf: Leaf) -> String { leaf == .rsa ? Self.rsaSubjectCN : Self.ecSubjectCN }

    /// Runs `openssl pkcs12 -export` for `leaf` with `args` and returns the file.
    func opensslExport(_ leaf: Leaf, chain: Bool = true, args: [String]) throws -> Data {
        let out = directory.path("out-\(UUID().uuidString).p12")
        var command = [
            "pkcs12", "-export", "-in", directory.path("\(leaf.rawValue).pem"),
            "-inkey", directory.path("\(leaf.rawValue).key"), "-out", out,
        ]
        if chain { command += ["-certfile", directory.path("chain.pem")] }
        try OpenSSLCLI.check(command + args)
        defer { try? FileManager.default.removeItem(atPath: out) }
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// Path of a fixture file (`rsa.key`, `ec.pem`, `chain.pem`, ...).
    func path(_ name: String) -> String { directory.path(name) }

    /// The private key of `leaf` (PEM in the fixture directory).
    func privateKey(_ leaf: Leaf) throws -> AsymmetricKey {
        let pem = try String(contentsOfFile: path("\(leaf.rawValue).key"), encoding: .utf8)
        return try AsymmetricKey(pem: pem)
    }
}

/// Runs Java's `keytool` (interop tests).
enum KeytoolCLI {
    static var executable: String? {
        for candidate in ["/usr/bin/keytool", "/usr/lib/jvm/java-17-openjdk-amd64/bin/keytool"]
        where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        return nil
    }

    @discardableResult
    static func check(_ args: [String]) throws -> String {
        guard let executable else { throw KeytoolError(message: "keytool not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.environment = ["LANG": "C.UTF-8", "JAVA_TOOL_OPTIONS": "-Xshare:auto -XX:TieredStopAtLevel=1"]
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw KeytoolError(message: "keytool \(args.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}

struct KeytoolError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
