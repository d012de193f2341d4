import Foundation
import OSecTestSupport
import Security

/// A small PKI for the TLS tests, generated once per test process with the openssl CLI: a root CA, a second
/// ("wrong") root, server certificates for localhost / 127.0.0.1 (P-256, P-384, RSA-2048, Ed25519, and an
/// expired P-256 one), client certificates (P-256, RSA-2048, and one issued by the wrong root), and .p12 files
/// made by `openssl pkcs12 -export` for the identities.
final class TLSTestPKI: @unchecked Sendable {  // immutable after init
    static let shared: TLSTestPKI = {
        do { return try TLSTestPKI() } catch { preconditionFailure("TLS test PKI: \(error)") }
    }()

    static let p12Password = "tls-test"

    let directory: TemporaryDirectory
    let root: SecCertificate
    let wrongRoot: SecCertificate

    private init() throws {
        let d = try TemporaryDirectory(prefix: "osec-tls-pki")
        directory = d
        let ec256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try d.write(
            "ca.ext", Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8))
        try d.write(
            "server.ext",
            Data(
                ("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                    + "extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n").utf8))
        try d.write(
            "client.ext",
            Data(
                "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n".utf8))
        for (name, subject) in [("ca", "/CN=OpenSecurity TLS Test Root"), ("wrongca", "/CN=Some Other Root")] {
            try OpenSSLCLI.check(
                ["req", "-x509"] + ec256 + [
                    "-nodes", "-keyout", d.path("\(name).key"), "-out", d.path("\(name).pem"), "-subj", subject,
                    "-days", "30", "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                ])
        }
        let leaves: [(String, String, [String], String, String, String)] = [
            ("server-ec", "/CN=localhost", ec256, "server.ext", "ca", "3"),
            (
                "server-p384", "/CN=localhost", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"], "server.ext",
                "ca", "3"
            ),
            ("server-rsa", "/CN=localhost", ["-newkey", "rsa:2048"], "server.ext", "ca", "3"),
            ("server-ed25519", "/CN=localhost", ["-newkey", "ed25519"], "server.ext", "ca", "3"),
            ("server-expired", "/CN=localhost", ec256, "server.ext", "ca", "-1"),
            ("client-ec", "/CN=TLS Test Client", ec256, "client.ext", "ca", "3"),
            ("client-rsa", "/CN=TLS Test RSA Client", ["-newkey", "rsa:2048"], "client.ext", "ca", "3"),
            ("client-wrongca", "/CN=Client Of Another CA", ec256, "client.ext", "wrongca", "3"),
        ]
        for (name, subject, keyArgs, ext, issuer, days) in leaves {
            try OpenSSLCLI.check(
                ["req"] + keyArgs + [
                    "-nodes", "-keyout", d.path("\(name).key"), "-out", d.path("\(name).csr"), "-subj", subject,
                ])
            try OpenSSLCLI.check([
                "x509", "-req", "-in", d.path("\(name).csr"), "-CA", d.path("\(issuer).pem"), "-CAkey",
                d.path("\(issuer).key"), "-set_serial", "\(Int.random(in: 1000...9_999_999))", "-days", days,
                "-extfile", d.path(ext), "-out", d.path("\(name).pem"),
            ])
            if name != "server-ed25519" {
                try OpenSSLCLI.check([
                    "pkcs12", "-export", "-in", d.path("\(name).pem"), "-inkey", d.path("\(name).key"),
                    "-certfile", d.path("\(issuer).pem"), "-name", name, "-passout", "pass:\(TLSTestPKI.p12Password)",
                    "-out", d.path("\(name).p12"),
                ])
            }
        }
        root = try TLSTestPKI.certificate(d.path("ca.pem"))
        wrongRoot = try TLSTestPKI.certificate(d.path("wrongca.pem"))
    }

    /// Path of a generated file (`server-ec.pem`, `server-ec.key`, `ca.pem`, ...).
    func path(_ name: String) -> String { directory.path(name) }

    /// The identity in `<name>.p12`, imported with SecPKCS12Import (cached).
    func identity(_ name: String) throws -> SecIdentity {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let data = try Data(contentsOf: URL(fileURLWithPath: path("\(name).p12")))
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: TLSTestPKI.p12Password] as CFDictionary
        let status = SecPKCS12Import(data as CFData, options, &items)
        guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
            let result = first[kSecImportItemIdentity as String] as? SecIdentity
        else { throw TestFailure("SecPKCS12Import(\(name)) = \(status)") }
        cache.withLock { $0[name] = result }
        return result
    }

    private let cache = LockedBox<[String: SecIdentity]>([:])

    /// The certificate in a PEM file.
    static func certificate(_ path: String) throws -> SecCertificate {
        let der = try OpenSSLCLI.check(["x509", "-in", path, "-outform", "DER"]).stdout
        guard let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
            throw TestFailure("cannot read \(path)")
        }
        return certificate
    }
}

/// A failed test precondition.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A value behind a lock.
final class LockedBox<Value>: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
