import Foundation
import Testing

@testable import OSecCrypto

/// A DER TLV with a minimal length, or with `lengthOctets` long-form length octets (non-minimal when the length
/// would fit in fewer).
private func tlv(_ tag: UInt8, _ content: [UInt8], lengthOctets: Int = 0) -> [UInt8] {
    let count = content.count
    guard lengthOctets > 0 || count >= 128 else { return [tag, UInt8(count)] + content }
    let octets = max(lengthOctets, count < 256 ? 1 : count < 65536 ? 2 : 3)
    let length = (0..<octets).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * $0)) }
    return [tag, 0x80 | UInt8(octets)] + length + content
}

// Parts of the encodings built here.
private let ecPublicKey: [UInt8] = tlv(0x06, KnownOID.ecPublicKey)
private let p256: [UInt8] = tlv(0x06, ECCurve.p256.oidContent)
private let ecAlgorithm: [UInt8] = tlv(0x30, ecPublicKey + p256)

/// The key decoders read SubjectPublicKeyInfo, PKCS#8, SEC1 and the encrypted-PKCS#8 cost parameters with
/// OSecASN1's strict DER parser: every encoding that is not DER is `.invalidKey` (not only the ones a simpler
/// reader would notice), nested structures are checked even where they are skipped, and the well-formed variants
/// the standards allow (absent or NULL RSA parameters, PKCS#8 attributes, the v2 public key) are accepted.
@Suite struct KeyDERStrictnessTests {
    /// A P-256 key and its parts: the public point 04‖X‖Y and the private scalar K.
    struct P256Parts {
        let key: AsymmetricKey
        let point: [UInt8]
        let scalar: [UInt8]

        init() throws {
            key = try AsymmetricKey.generateEC(.p256)
            let x963 = [UInt8](try key.x963Representation)
            point = Array(x963.prefix(65))
            scalar = Array(x963.suffix(32))
        }

        func spki(algorithm: [UInt8] = ecAlgorithm, bitString: [UInt8]? = nil) -> [UInt8] {
            tlv(0x30, algorithm + (bitString ?? tlv(0x03, [0] + point)))
        }

        func sec1(version: [UInt8] = tlv(0x02, [1]), publicKey: [UInt8]? = nil) -> [UInt8] {
            tlv(0x30, version + tlv(0x04, scalar) + tlv(0xa0, p256) + (publicKey ?? tlv(0xa1, tlv(0x03, [0] + point))))
        }

        func pkcs8(version: [UInt8] = tlv(0x02, [0]), extra: [UInt8] = []) -> [UInt8] {
            tlv(0x30, version + ecAlgorithm + tlv(0x04, sec1()) + extra)
        }
    }

    static func expectInvalidKey(
        _ bytes: [UInt8], _ decode: (Data) throws(CryptoError) -> AsymmetricKey, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: CryptoError(.invalidKey, ""), "\(what)", sourceLocation: sourceLocation) {
            _ = try decode(Data(bytes))
        }
    }

    // MARK: SubjectPublicKeyInfo

    @Test func spkiBuiltHereIsTheKeysOwnAndImports() throws {
        let parts = try P256Parts()
        #expect(Data(parts.spki()) == (try parts.key.subjectPublicKeyInfoDER))
        #expect(try AsymmetricKey(subjectPublicKeyInfo: Data(parts.spki())).isSamePublicKey(as: parts.key))
        #expect(try AsymmetricKey(der: Data(parts.spki())).isSamePublicKey(as: parts.key))
    }

    @Test func spkiThatIsNotDERIsInvalidKey() throws {
        let parts = try P256Parts()
        let valid = parts.spki()
        let content = Array(valid.dropFirst(2))
        let bitString = tlv(0x03, [0] + parts.point)
        let variants: [(String, [UInt8])] = [
            ("outer length in long form", tlv(0x30, content, lengthOctets: 1)),
            ("outer length with a leading zero octet", tlv(0x30, content, lengthOctets: 2)),
            ("indefinite outer length", [0x30, 0x80] + content + [0, 0]),
            ("trailing byte", valid + [0]),
            ("trailing SEQUENCE", valid + [0x30, 0x00]),
            (
                "AlgorithmIdentifier length in long form",
                parts.spki(algorithm: tlv(0x30, ecPublicKey + p256, lengthOctets: 1))
            ),
            (
                "OID length in long form",
                parts.spki(algorithm: tlv(0x30, tlv(0x06, KnownOID.ecPublicKey, lengthOctets: 1) + p256))
            ),
            (
                "BIT STRING length in long form",
                parts.spki(bitString: tlv(0x03, [0] + parts.point, lengthOctets: 2))
            ),
            ("BIT STRING with unused bits", parts.spki(bitString: tlv(0x03, [1] + parts.point.dropLast() + [0]))),
            ("empty BIT STRING", parts.spki(bitString: tlv(0x03, []))),
            ("constructed BIT STRING", parts.spki(bitString: tlv(0x23, bitString))),
            ("OCTET STRING for the key", parts.spki(bitString: tlv(0x04, [0] + parts.point))),
            ("high-tag-number form for SEQUENCE", [0x3f, 0x10] + valid.dropFirst(1)),
            (
                "parameters after the named curve",
                parts.spki(algorithm: tlv(0x30, ecPublicKey + p256 + [0x05, 0x00]))
            ),
            (
                "explicit curve parameters",
                parts.spki(algorithm: tlv(0x30, ecPublicKey + tlv(0x30, tlv(0x02, [1]))))
            ),
        ]
        for (what, bytes) in variants {
            Self.expectInvalidKey(
                bytes, { (data) throws(CryptoError) in try AsymmetricKey(subjectPublicKeyInfo: data) }, what)
            Self.expectInvalidKey(bytes, { (data) throws(CryptoError) in try AsymmetricKey(der: data) }, what)
        }
    }

    @Test func rsaParametersMustBeAbsentOrNULL() throws {
        let key = try BadInputTests.wycheproofRSAKey().publicKey
        let bits = tlv(0x03, [0] + [UInt8](try key.rsaPKCS1DER))
        func spki(_ parameters: [UInt8]) -> Data {
            Data(tlv(0x30, tlv(0x30, tlv(0x06, KnownOID.rsaEncryption) + parameters) + bits))
        }
        #expect(try AsymmetricKey(subjectPublicKeyInfo: spki([0x05, 0x00])).isSamePublicKey(as: key))
        #expect(try AsymmetricKey(subjectPublicKeyInfo: spki([])).isSamePublicKey(as: key))
        #expect(spki([0x05, 0x00]) == (try key.subjectPublicKeyInfoDER))
        for (what, parameters) in [
            ("NULL with content", [0x05, 0x01, 0x00]), ("NULL length in long form", [0x05, 0x81, 0x00]),
            ("two NULLs", [0x05, 0x00, 0x05, 0x00]), ("INTEGER parameters", [0x02, 0x01, 0x00]),
        ] as [(String, [UInt8])] {
            #expect(throws: CryptoError(.invalidKey, ""), "\(what)") {
                try AsymmetricKey(subjectPublicKeyInfo: spki(parameters))
            }
        }
    }

    // MARK: PKCS#8 and SEC1

    @Test func pkcs8AcceptsAttributesAndTheV2PublicKey() throws {
        let parts = try P256Parts()
        #expect(try AsymmetricKey(pkcs8: Data(parts.pkcs8())).isSamePublicKey(as: parts.key))
        let attributes = tlv(0xa0, tlv(0x30, tlv(0x06, [0x2a, 0x03]) + tlv(0x31, [0x05, 0x00])))
        #expect(try AsymmetricKey(pkcs8: Data(parts.pkcs8(extra: attributes))).isPrivate)
        let publicKey = tlv(0x81, [0] + parts.point)
        #expect(
            try AsymmetricKey(pkcs8: Data(parts.pkcs8(version: tlv(0x02, [1]), extra: attributes + publicKey)))
                .isPrivate)
        #expect(try AsymmetricKey(der: Data(parts.pkcs8(extra: attributes))).isPrivate)
    }

    @Test func pkcs8ThatIsNotDERIsInvalidKey() throws {
        let parts = try P256Parts()
        let variants: [(String, [UInt8])] = [
            ("version with a leading zero octet", parts.pkcs8(version: tlv(0x02, [0, 0]))),
            ("negative version", parts.pkcs8(version: tlv(0x02, [0xff]))),
            ("version 2", parts.pkcs8(version: tlv(0x02, [2]))),
            ("empty version", parts.pkcs8(version: tlv(0x02, []))),
            ("attributes that are not DER inside", parts.pkcs8(extra: tlv(0xa0, [0x30, 0x81, 0x01, 0x00]))),
            (
                "attributes with an indefinite length inside",
                parts.pkcs8(extra: tlv(0xa0, [0x30, 0x80, 0x00, 0x00]))
            ),
            ("an element after the attributes", parts.pkcs8(extra: tlv(0xa0, []) + [0x02, 0x01, 0x00])),
            ("trailing byte", parts.pkcs8() + [0]),
        ]
        for (what, bytes) in variants {
            Self.expectInvalidKey(bytes, { (data) throws(CryptoError) in try AsymmetricKey(pkcs8: data) }, what)
        }
        let der = parts.pkcs8()
        for length in 0..<der.count {
            #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(pkcs8: Data(der.prefix(length))) }
        }
    }

    @Test func sec1ThatIsNotDERIsInvalidKey() throws {
        let parts = try P256Parts()
        #expect(try AsymmetricKey(sec1: Data(parts.sec1())).isSamePublicKey(as: parts.key))
        let variants: [(String, [UInt8])] = [
            ("version with a leading zero octet", parts.sec1(version: tlv(0x02, [0, 1]))),
            ("version 2", parts.sec1(version: tlv(0x02, [2]))),
            (
                "publicKey with a second element",
                parts.sec1(publicKey: tlv(0xa1, tlv(0x03, [0] + parts.point) + [0x05, 0x00]))
            ),
            ("publicKey as an OCTET STRING", parts.sec1(publicKey: tlv(0xa1, tlv(0x04, parts.point)))),
            ("primitive [1] publicKey", parts.sec1(publicKey: tlv(0x81, [0] + parts.point))),
            ("trailing byte", parts.sec1() + [0]),
        ]
        for (what, bytes) in variants {
            Self.expectInvalidKey(bytes, { (data) throws(CryptoError) in try AsymmetricKey(sec1: data) }, what)
        }
        let der = parts.sec1()
        for length in 0..<der.count {
            #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(sec1: Data(der.prefix(length))) }
        }
    }

    // MARK: Encrypted PKCS#8 cost parameters

    /// EncryptedPrivateKeyInfo with PBES2 and the given key derivation (its OID and parameters after the salt).
    static func encryptedPKCS8(kdf oid: [UInt8], _ parameters: [UInt8]) -> Data {
        let kdf = tlv(0x30, tlv(0x06, oid) + tlv(0x30, tlv(0x04, [UInt8](repeating: 1, count: 8)) + parameters))
        let aes256CBC: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a]
        let cipher = tlv(0x30, tlv(0x06, aes256CBC) + tlv(0x04, [UInt8](repeating: 2, count: 16)))
        let algorithm = tlv(0x30, tlv(0x06, KnownOID.pbes2) + tlv(0x30, kdf + cipher))
        return Data(tlv(0x30, algorithm + tlv(0x04, [UInt8](repeating: 3, count: 32))))
    }

    @Test func pbkdf2IterationCountMustBeAMinimalNonNegativeIntegerWithinTheLimit() {
        func decrypt(_ iterations: [UInt8]) throws(CryptoError) {
            _ = try AsymmetricKey(
                encryptedPKCS8: Self.encryptedPKCS8(kdf: KnownOID.pbkdf2, tlv(0x02, iterations)),
                passphrase: Data("pass".utf8))
        }
        // 1000 iterations pass the cost check; the ciphertext is noise, so the passphrase "is wrong".
        #expect(throws: CryptoError(.authenticationFailed, "")) { try decrypt([0x03, 0xe8]) }
        #expect(throws: CryptoError(.invalidKey, "")) { try decrypt([0x00, 0x03, 0xe8]) }
        #expect(throws: CryptoError(.invalidKey, "")) { try decrypt([0xfc, 0x18]) }  // -1000
        #expect(throws: CryptoError(.invalidKey, "")) { try decrypt([]) }
        #expect(throws: CryptoError(.resourceLimit, "")) { try decrypt([0x00, 0x98, 0x96, 0x81]) }  // 10,000,001
        #expect(throws: CryptoError(.resourceLimit, "")) { try decrypt([0x01] + [UInt8](repeating: 0, count: 8)) }
    }

    @Test func scryptParametersMustBeMinimalNonNegativeIntegersWithinTheLimit() {
        func decrypt(n: [UInt8], r: [UInt8] = [8], p: [UInt8] = [1]) throws(CryptoError) {
            let parameters = tlv(0x02, n) + tlv(0x02, r) + tlv(0x02, p)
            _ = try AsymmetricKey(
                encryptedPKCS8: Self.encryptedPKCS8(kdf: KnownOID.scrypt, parameters), passphrase: Data("pass".utf8))
        }
        #expect(throws: CryptoError(.authenticationFailed, "")) { try decrypt(n: [0x04, 0x00]) }  // N = 1024
        #expect(throws: CryptoError(.invalidKey, "")) { try decrypt(n: [0x00, 0x04, 0x00]) }
        #expect(throws: CryptoError(.invalidKey, "")) { try decrypt(n: [0x04, 0x00], r: [0xf8]) }  // r = -8
        #expect(throws: CryptoError(.resourceLimit, "")) { try decrypt(n: [0x00, 0x80, 0x00, 0x00, 0x00]) }  // N = 2^31
    }
}
