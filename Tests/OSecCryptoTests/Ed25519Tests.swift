import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

/// Ed25519 (RFC 8032) in the crypto layer: the RFC's first test vector, the RFC 8410 encodings, and signatures
/// exchanged with the `openssl` CLI in both directions.
@Suite struct Ed25519Tests {
    // RFC 8032 §7.1, TEST 1 (empty message).
    static let seed = Hex.data("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    static let publicKey = Hex.data("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    static let signature = Hex.data(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
            + "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    )

    @Test func rfc8032FirstVector() throws {
        let key = try AsymmetricKey(ed25519PrivateKey: Self.seed)
        #expect(key.algorithm == .ed25519 && key.isPrivate && key.bitSize == 256)
        #expect(try key.ed25519PublicKeyBytes == Self.publicKey)
        #expect(try key.ed25519PrivateKeyBytes == Self.seed)
        #expect(try key.sign(Data(), scheme: .ed25519) == Self.signature)
        let pub = try AsymmetricKey(ed25519PublicKey: Self.publicKey)
        #expect(try pub.verify(Self.signature, for: Data(), scheme: .ed25519))
        var tampered = Self.signature
        tampered[5] ^= 0x01
        #expect(try !pub.verify(tampered, for: Data(), scheme: .ed25519))
        #expect(try !pub.verify(Self.signature, for: Data([0]), scheme: .ed25519))
        #expect(try !pub.verify(Self.signature.dropLast(), for: Data(), scheme: .ed25519))
        #expect(try !pub.verify(Data(count: 64), for: Data(), scheme: .ed25519))
    }

    @Test func encodingsRoundTrip() throws {
        let key = try AsymmetricKey(ed25519PrivateKey: Self.seed)
        // RFC 8410 §4 and §7: SPKI without parameters, PKCS#8 holding the seed as a CurvePrivateKey.
        let spki = try key.publicKey.subjectPublicKeyInfoDER
        #expect(spki == Hex.data("302a300506032b6570032100") + Self.publicKey)
        #expect(try AsymmetricKey(subjectPublicKeyInfo: spki).isSamePublicKey(as: key))
        #expect(try AsymmetricKey(der: spki).algorithm == .ed25519)
        let pkcs8 = try key.pkcs8DER
        #expect(pkcs8 == Hex.data("302e020100300506032b657004220420") + Self.seed)
        let reimported = try AsymmetricKey(pkcs8: pkcs8)
        #expect(reimported.isPrivate && reimported.isSamePublicKey(as: key))
        #expect(try AsymmetricKey(der: pkcs8).isPrivate)
        let pem = try key.pem(.pkcs8)
        #expect(try AsymmetricKey(pem: pem).isSamePublicKey(as: key))
    }

    @Test func malformedKeysAreRejected() {
        #expect(throws: CryptoError.self) { try AsymmetricKey(ed25519PublicKey: Data(count: 31)) }
        #expect(throws: CryptoError.self) { try AsymmetricKey(ed25519PrivateKey: Data(count: 33)) }
        // Parameters present (RFC 8410 §3 says they MUST be absent).
        #expect(throws: CryptoError.self) {
            try AsymmetricKey(subjectPublicKeyInfo: Hex.data("302c300706032b65700500032100") + Self.publicKey)
        }
        // Key bits of the wrong length.
        #expect(throws: CryptoError.self) {
            try AsymmetricKey(subjectPublicKeyInfo: Hex.data("3029300506032b6570032000") + Self.publicKey.dropLast())
        }
        // RSA and ECDSA schemes do not apply to an Ed25519 key, nor Ed25519 to an EC key.
        #expect(throws: CryptoError.self) {
            try AsymmetricKey(ed25519PrivateKey: Self.seed).sign(
                Data([1]), scheme: .rsaPKCS1v15(digest: .sha256, inputIsDigest: false))
        }
        #expect(throws: CryptoError.self) { try AsymmetricKey.generateEC(.p256).sign(Data([1]), scheme: .ed25519) }
    }

    @Test func signaturesInteroperateWithOpenSSL() throws {
        let dir = try TemporaryDirectory(prefix: "osec-ed25519")
        let message = Data("OpenSecurity signs with Ed25519".utf8)
        try dir.write("message.bin", message)

        // openssl → us.
        try OpenSSLCLI.check(["genpkey", "-algorithm", "ed25519", "-out", dir.path("theirs.pem")])
        try OpenSSLCLI.check([
            "pkeyutl", "-sign", "-inkey", dir.path("theirs.pem"), "-rawin", "-in", dir.path("message.bin"),
            "-out", dir.path("theirs.sig"),
        ])
        let theirs = try AsymmetricKey(pem: String(decoding: dir.read("theirs.pem"), as: UTF8.self))
        #expect(theirs.algorithm == .ed25519)
        let theirSignature = try dir.read("theirs.sig")
        #expect(try theirs.publicKey.verify(theirSignature, for: message, scheme: .ed25519))
        #expect(try theirs.sign(message, scheme: .ed25519) == theirSignature, "Ed25519 is deterministic")

        // us → openssl.
        let ours = try AsymmetricKey.generateEd25519()
        try dir.write("ours.pub.pem", Data(try ours.publicKey.pem(.spki).utf8))
        try dir.write("ours.sig", try ours.sign(message, scheme: .ed25519))
        let verified = try OpenSSLCLI.run(args: [
            "pkeyutl", "-verify", "-pubin", "-inkey", dir.path("ours.pub.pem"), "-rawin",
            "-in", dir.path("message.bin"), "-sigfile", dir.path("ours.sig"),
        ])
        #expect(verified.status == 0, "openssl rejected our signature: \(verified.stderr)")
        try dir.write("ours.sig", Data(count: 64))
        let rejected = try OpenSSLCLI.run(args: [
            "pkeyutl", "-verify", "-pubin", "-inkey", dir.path("ours.pub.pem"), "-rawin",
            "-in", dir.path("message.bin"), "-sigfile", dir.path("ours.sig"),
        ])
        #expect(rejected.status != 0)
        // openssl reads our private key export.
        try dir.write("ours.pem", Data(try ours.pem(.pkcs8).utf8))
        let text = try OpenSSLCLI.check(["pkey", "-in", dir.path("ours.pem"), "-noout", "-text"])
        #expect(text.stdoutText.contains("ED25519 Private-Key"))
    }
}
