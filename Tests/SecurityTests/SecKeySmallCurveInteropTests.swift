import Foundation
import OSecTestSupport
import Security
import Testing

/// P-192 and P-224 SecKeys against the real `openssl` CLI: ECDSA both ways and ECDH agreement.
@Suite(.enabled(if: OpenSSLCLI.isAvailable, "needs the openssl CLI"))
struct SecKeySmallCurveInteropTests {
    let message = Data("small-curve interop".utf8)

    /// (openssl curve name, key size, DER of the named-curve OID)
    static let curves: [(String, Int, [UInt8])] = [
        ("P-192", 192, [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x01]),
        ("P-224", 224, [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x21]),
    ]

    /// SubjectPublicKeyInfo DER for an uncompressed point (short-form lengths: points here are under 128 bytes).
    static func spki(point: Data, curveOID: [UInt8]) -> Data {
        let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
        let algorithm = [0x30, UInt8(ecPublicKey.count + curveOID.count)] + ecPublicKey + curveOID
        let bitString = [0x03, UInt8(point.count + 1), 0x00] + [UInt8](point)
        let body = algorithm + bitString
        return Data([0x30, UInt8(body.count)] + body)
    }

    func generate(_ bits: Int) throws -> SecKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: bits,
        ]
        var error: Unmanaged<CFError>?
        return try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
    }

    @Test("Our ECDSA signatures verify in openssl", arguments: [0, 1])
    func oursVerifyInOpenSSL(index: Int) throws {
        let (_, bits, oid) = Self.curves[index]
        let key = try generate(bits)
        var error: Unmanaged<CFError>?
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let point = try #require(SecKeyCopyExternalRepresentation(publicKey, &error))
        let dir = try TemporaryDirectory()
        _ = try dir.write("pub.der", Self.spki(point: point as Data, curveOID: oid))
        _ = try dir.write("msg", message)
        let signature = try #require(
            SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?)
        _ = try dir.write("sig", signature)
        let result = try OpenSSLCLI.run(args: [
            "dgst", "-sha256", "-verify", dir.path("pub.der"), "-keyform", "DER", "-signature", dir.path("sig"),
            dir.path("msg"),
        ])
        #expect(result.status == 0, "\(bits): \(result.stderr)")
    }

    @Test("openssl's ECDSA signatures verify here, and ECDH agrees with openssl's", arguments: [0, 1])
    func openSSLKeys(index: Int) throws {
        let (name, bits, oid) = Self.curves[index]
        let dir = try TemporaryDirectory()
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(name)", "-out", dir.path("key.pem"),
        ])
        try OpenSSLCLI.check([
            "pkey", "-in", dir.path("key.pem"), "-pubout", "-outform", "DER", "-out", dir.path("pub.der"),
        ])
        _ = try dir.write("msg", message)
        try OpenSSLCLI.check([
            "dgst", "-sha256", "-sign", dir.path("key.pem"), "-out", dir.path("sig"), dir.path("msg"),
        ])
        // The uncompressed point ends openssl's SubjectPublicKeyInfo.
        let fieldSize = (bits + 7) / 8
        let theirPoint = try dir.read("pub.der").suffix(1 + 2 * fieldSize)
        #expect(theirPoint.first == 0x04)
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        var error: Unmanaged<CFError>?
        let theirs = try #require(SecKeyCreateWithData(Data(theirPoint) as CFData, attributes as CFDictionary, &error))
        #expect(
            SecKeyVerifySignature(
                theirs, .ecdsaSignatureMessageX962SHA256, message as CFData, try dir.read("sig") as CFData, &error))

        // ECDH: our private key with their public key here, their private key with ours in openssl.
        let ours = try generate(bits)
        let ourPublic = try #require(SecKeyCopyPublicKey(ours))
        let ourPoint = try #require(SecKeyCopyExternalRepresentation(ourPublic, &error))
        _ = try dir.write("ourpub.der", Self.spki(point: ourPoint as Data, curveOID: oid))
        let secretHere = try #require(
            SecKeyCopyKeyExchangeResult(ours, .ecdhKeyExchangeStandard, theirs, [:] as CFDictionary, &error) as Data?)
        try OpenSSLCLI.check([
            "pkeyutl", "-derive", "-inkey", dir.path("key.pem"), "-peerkey", dir.path("ourpub.der"), "-peerform", "DER",
            "-out", dir.path("secret"),
        ])
        #expect(try dir.read("secret") == secretHere)
    }
}
