import Foundation
import OSecTestSupport

/// Key, certificate and PKCS#12 files made by the real `openssl` CLI the way the guides make them, once per test
/// process: `genrsa -des3`, `req -x509`, `x509 -outform der`, `pkcs12 -export -name test-alias`, plus the same key
/// in every format `openssl` writes, and an EC key.
final class OpenSSLFixtures: @unchecked Sendable {  // immutable after init
    static let passphrase = "guide-passphrase"
    static let exportPassword = "pfx-password"

    /// nil when the openssl CLI is missing or failed (the suites using it are disabled then).
    static let shared: OpenSSLFixtures? = try? OpenSSLFixtures()

    let directory: TemporaryDirectory

    func path(_ name: String) -> String { directory.path(name) }
    func url(_ name: String) -> URL { URL(fileURLWithPath: path(name)) }
    func data(_ name: String) throws -> Data { try directory.read(name) }

    private init() throws {
        struct NoOpenSSL: Error {}
        guard OpenSSLCLI.isAvailable else { throw NoOpenSSL() }
        directory = try TemporaryDirectory(prefix: "osec-kit-openssl")
        let pass = "pass:\(OpenSSLFixtures.passphrase)"
        // The guide's steps.
        try run(["genrsa", "-des3", "-traditional", "-passout", pass, "-out", path("guide-key.pem"), "2048"])
        try run([
            "req", "-new", "-x509", "-key", path("guide-key.pem"), "-passin", pass, "-days", "3650", "-subj",
            "/C=CN/O=Guide/CN=guide.example.com", "-out", path("guide-cert.pem"),
        ])
        try run(["x509", "-in", path("guide-cert.pem"), "-outform", "der", "-out", path("guide-cert.cer")])
        try run([
            "pkcs12", "-export", "-name", "test-alias", "-inkey", path("guide-key.pem"), "-passin", pass, "-in",
            path("guide-cert.pem"), "-passout", "pass:\(OpenSSLFixtures.exportPassword)", "-out", path("guide.pfx"),
        ])
        // The same RSA key in the other formats.
        try run(["rsa", "-in", path("guide-key.pem"), "-passin", pass, "-traditional", "-out", path("rsa-pkcs1.pem")])
        try run([
            "rsa", "-in", path("guide-key.pem"), "-passin", pass, "-traditional", "-outform", "DER", "-out",
            path("rsa-pkcs1.der"),
        ])
        try run(["pkey", "-in", path("guide-key.pem"), "-passin", pass, "-out", path("rsa-pkcs8.pem")])
        try run([
            "pkey", "-in", path("guide-key.pem"), "-passin", pass, "-outform", "DER", "-out", path("rsa-pkcs8.der"),
        ])
        try run([
            "pkcs8", "-topk8", "-in", path("rsa-pkcs8.pem"), "-v2", "aes-256-cbc", "-passout", pass, "-out",
            path("rsa-pkcs8-encrypted.pem"),
        ])
        try run([
            "pkcs8", "-topk8", "-in", path("rsa-pkcs8.pem"), "-v2", "aes-256-cbc", "-passout", pass, "-outform", "DER",
            "-out", path("rsa-pkcs8-encrypted.der"),
        ])
        try run(["genrsa", "-des3", "-passout", pass, "-out", path("rsa-genrsa3.pem"), "2048"])
        try run(["pkey", "-in", path("rsa-pkcs8.pem"), "-pubout", "-out", path("rsa-spki.pem")])
        try run(["pkey", "-in", path("rsa-pkcs8.pem"), "-pubout", "-outform", "DER", "-out", path("rsa-spki.der")])
        try run(["rsa", "-in", path("rsa-pkcs8.pem"), "-RSAPublicKey_out", "-out", path("rsa-public-pkcs1.pem")])
        try run([
            "rsa", "-in", path("rsa-pkcs8.pem"), "-RSAPublicKey_out", "-outform", "DER", "-out",
            path("rsa-public-pkcs1.der"),
        ])
        // An EC key: SEC1 (with EC PARAMETERS before it), PKCS#8, encrypted SEC1, SPKI.
        try run(["ecparam", "-name", "prime256v1", "-genkey", "-out", path("ec-sec1.pem")])
        try run(["ec", "-in", path("ec-sec1.pem"), "-outform", "DER", "-out", path("ec-sec1.der")])
        try run(["pkey", "-in", path("ec-sec1.pem"), "-out", path("ec-pkcs8.pem")])
        try run(["ec", "-in", path("ec-sec1.pem"), "-aes256", "-passout", pass, "-out", path("ec-sec1-encrypted.pem")])
        try run(["pkey", "-in", path("ec-sec1.pem"), "-pubout", "-out", path("ec-spki.pem")])
        // An EC certificate and an EC .p12.
        try run([
            "req", "-new", "-x509", "-key", path("ec-sec1.pem"), "-days", "30", "-subj", "/CN=ec.example.com", "-out",
            path("ec-cert.pem"),
        ])
    }

    private func run(_ arguments: [String]) throws {
        try OpenSSLCLI.check(arguments)
    }
}
