import Foundation
import OSecTestSupport

/// A P-256 root and intermediate with an RSA-2048 and a P-256 leaf, generated once per test process with the
/// openssl CLI, plus helpers to make .p12 files from them.
final class PKCS12TestPKI: @unchecked Sendable {  // immutable after init
    static let shared: PKCS12TestPKI = {
        do { return try PKCS12TestPKI() } catch { preconditionFailure("PKCS#12 test PKI: \(error)") }
    }()

    let directory: TemporaryDirectory
    let rootDER: Data
    let intermediateDER: Data
    let rsaLeafDER: Data
    let ecLeafDER: Data

    private init() throws {
        let d = try TemporaryDirectory(prefix: "osec-sec-pkcs12")
        directory = d
        try d.write("ca.ext", Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8))
        try d.write("leaf.ext", Data("basicConstraints=CA:FALSE\n".utf8))
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try OpenSSLCLI.check(
            ["req", "-x509"] + ec + [
                "-nodes", "-keyout", d.path("root.key"), "-out", d.path("root.pem"),
                "-subj", "/CN=Facade Root", "-days", "3", "-addext", "basicConstraints=critical,CA:TRUE",
            ])
        for (name, subject, issuer, keyArgs, ext) in [
            ("inter", "/CN=Facade Intermediate", "root", ec, "ca.ext"),
            ("rsa", "/CN=Facade RSA Leaf/O=OpenSecurity", "inter", ["-newkey", "rsa:2048"], "leaf.ext"),
            ("ec", "/O=OpenSecurity/OU=Only Unit", "inter", ec, "leaf.ext"),
        ] {
            try OpenSSLCLI.check(
                ["req"] + keyArgs + [
                    "-nodes", "-keyout", d.path("\(name).key"), "-out", d.path("\(name).csr"), "-subj", subject,
                ])
            try OpenSSLCLI.check([
                "x509", "-req", "-in", d.path("\(name).csr"), "-CA", d.path("\(issuer).pem"), "-CAkey",
                d.path("\(issuer).key"), "-set_serial", "\(Int.random(in: 100...100_000))", "-days", "3",
                "-extfile", d.path(ext), "-out", d.path("\(name).pem"),
            ])
        }
        try d.write("chain.pem", try d.read("root.pem") + d.read("inter.pem"))
        func der(_ name: String) throws -> Data {
            try OpenSSLCLI.check(["x509", "-in", d.path(name), "-outform", "DER"]).stdout
        }
        rootDER = try der("root.pem")
        intermediateDER = try der("inter.pem")
        rsaLeafDER = try der("rsa.pem")
        ecLeafDER = try der("ec.pem")
    }

    /// `openssl pkcs12 -export` of `leaf` ("rsa" or "ec") with the chain and `args`.
    func p12(_ leaf: String, chain: Bool = true, _ args: [String]) throws -> Data {
        let out = directory.path("\(UUID().uuidString).p12")
        defer { try? FileManager.default.removeItem(atPath: out) }
        var command = [
            "pkcs12", "-export", "-in", directory.path("\(leaf).pem"), "-inkey", directory.path("\(leaf).key"), "-out",
            out,
        ]
        if chain { command += ["-certfile", directory.path("chain.pem")] }
        try OpenSSLCLI.check(command + args)
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// SHA-1 of `data` via the CLI (the test target does not use the crypto layer).
    func sha1(_ data: Data) throws -> Data {
        try OpenSSLCLI.check(["dgst", "-sha1", "-binary"], stdin: data).stdout
    }

    /// The RSA leaf key as PKCS#1 DER (Apple's external representation).
    func rsaPKCS1() throws -> Data {
        try OpenSSLCLI.check(["pkey", "-in", directory.path("rsa.key"), "-traditional", "-outform", "DER"]).stdout
    }
}
