import Foundation
import OSecTestSupport
import Synchronization

@testable import OSecCrypto

/// Keys generated once per test run with the `openssl` CLI, in every format the interop tests need.
final class InteropFixtures: @unchecked Sendable {  // immutable after init
    static let passphrase = "correct horse"
    static let cleanupPath = Mutex<String?>(nil)
    let dir: TemporaryDirectory

    /// Shared instance (generation is slow: one RSA-2048 key per run).
    static let shared: Result<InteropFixtures, any Error> = Result { try InteropFixtures() }

    private init() throws {
        dir = try TemporaryDirectory(prefix: "osec-interop")
        // The shared instance is never deinitialised; remove its directory when the test process exits.
        Self.cleanupPath.withLock { $0 = dir.url.path }
        atexit {
            InteropFixtures.cleanupPath.withLock { path in
                if let path { try? FileManager.default.removeItem(atPath: path) }
            }
        }
        let p = dir.path
        let pass = "pass:\(Self.passphrase)"
        try OpenSSLCLI.check(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", p("rsa.pem")])
        try OpenSSLCLI.check(["rsa", "-in", p("rsa.pem"), "-traditional", "-out", p("rsa_pkcs1.pem")])
        try OpenSSLCLI.check([
            "rsa", "-in", p("rsa.pem"), "-traditional", "-outform", "DER", "-out", p("rsa_pkcs1.der"),
        ])
        try OpenSSLCLI.check([
            "pkcs8", "-topk8", "-nocrypt", "-in", p("rsa.pem"), "-outform", "DER", "-out", p("rsa_pkcs8.der"),
        ])
        try OpenSSLCLI.check(["pkey", "-in", p("rsa.pem"), "-pubout", "-out", p("rsa_spki.pem")])
        try OpenSSLCLI.check(["pkey", "-in", p("rsa.pem"), "-pubout", "-outform", "DER", "-out", p("rsa_spki.der")])
        try OpenSSLCLI.check(["rsa", "-in", p("rsa.pem"), "-RSAPublicKey_out", "-out", p("rsa_pub_pkcs1.pem")])
        try OpenSSLCLI.check([
            "rsa", "-in", p("rsa.pem"), "-RSAPublicKey_out", "-outform", "DER", "-out", p("rsa_pub_pkcs1.der"),
        ])
        try OpenSSLCLI.check([
            "pkcs8", "-topk8", "-in", p("rsa.pem"), "-v2", "aes-256-cbc", "-iter", "2048",
            "-passout", pass, "-out", p("rsa_enc_pkcs8.pem"),
        ])
        try OpenSSLCLI.check([
            "pkcs8", "-topk8", "-in", p("rsa.pem"), "-v2", "aes-256-cbc", "-iter", "2048",
            "-passout", pass, "-outform", "DER", "-out", p("rsa_enc_pkcs8.der"),
        ])
        try OpenSSLCLI.check([
            "rsa", "-in", p("rsa.pem"), "-des3", "-traditional", "-passout", pass, "-out", p("rsa_des3.pem"),
        ])
        try OpenSSLCLI.check([
            "rsa", "-in", p("rsa.pem"), "-aes256", "-traditional", "-passout", pass, "-out", p("rsa_aes.pem"),
        ])
        for (curve, name) in [("prime256v1", "p256"), ("secp384r1", "p384"), ("secp521r1", "p521")] {
            // with EC PARAMETERS block
            try OpenSSLCLI.check(["ecparam", "-name", curve, "-genkey", "-out", p("\(name)_sec1.pem")])
            try OpenSSLCLI.check(["ec", "-in", p("\(name)_sec1.pem"), "-outform", "DER", "-out", p("\(name)_sec1.der")])
            try OpenSSLCLI.check(["pkey", "-in", p("\(name)_sec1.pem"), "-out", p("\(name)_pkcs8.pem")])
            try OpenSSLCLI.check(["pkey", "-in", p("\(name)_sec1.pem"), "-pubout", "-out", p("\(name)_spki.pem")])
            try OpenSSLCLI.check([
                "ec", "-in", p("\(name)_sec1.pem"), "-aes128", "-passout", pass, "-out", p("\(name)_enc.pem"),
            ])
        }
    }

    func text(_ name: String) throws -> String { String(decoding: try dir.read(name), as: UTF8.self) }
    func data(_ name: String) throws -> Data { try dir.read(name) }
    var passphraseData: Data { Data(Self.passphrase.utf8) }

    /// The reference RSA private key (PKCS#1 DER import).
    func rsaKey() throws -> AsymmetricKey { try AsymmetricKey(rsaPrivateKeyPKCS1: data("rsa_pkcs1.der")) }
    func ecKey(_ name: String) throws -> AsymmetricKey { try AsymmetricKey(pem: text("\(name)_sec1.pem")) }
}
