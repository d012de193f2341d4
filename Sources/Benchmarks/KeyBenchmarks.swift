import Foundation
import OSecCrypto
import OpenSSLBaseline
import Security

enum BenchSuites {
    static let all: [BenchSuite] = [
        BenchSuite(name: "seckey", rows: KeyBenchmarks.rows),
        BenchSuite(name: "symmetric", rows: SymmetricBenchmarks.rows),
        BenchSuite(name: "crypto-layer", rows: CryptoLayerBenchmarks.rows),
        BenchSuite(name: "keychain", rows: KeychainBenchmarks.rows),
        BenchSuite(name: "pkcs12", rows: PKCS12Benchmarks.rows),
        BenchSuite(name: "x509", rows: X509Benchmarks.rows),
        BenchSuite(name: "trust", rows: TrustBenchmarks.rows),
        BenchSuite(name: "commoncrypto", rows: CommonCryptoBenchmarks.rows),
        BenchSuite(name: "tool", rows: ToolStartupBenchmarks.rows),
        BenchSuite(name: "tls", rows: TLSBenchmarks.rows),
        BenchSuite(name: "sync", rows: SyncBenchmarks.rows),
        BenchSuite(name: "kit", rows: KitBenchmarks.rows),
        BenchSuite(name: "secret-service", rows: SecretServiceBenchmarks.rows),
    ]
}

/// The seckey suite: Apple's SecKey calls next to OpenSSL's own EVP calls on the same key
/// (see COpenSSLSecKeyBaseline.h for exactly what the C side does per operation).
///
/// Our side is written the way an app calls the framework: a `Data` message bridged with `as CFData` on every
/// call, a `SecKeyAlgorithm` constant and an `Unmanaged<CFError>` out-parameter; the result stays a `CFData`
/// (Foundation's `as Data` on Linux copies byte by byte, which is Foundation's cost, see docs/benchmarks.md).
enum KeyBenchmarks {
    /// The message of the message rows: about a JWT or a small signed request.
    static let messageLength = 256

    static func rows() -> [BenchRow] {
        var rows: [BenchRow] = []
        for bits in [2048, 3072, 4096] {
            let pair = BenchKeyPair(name: "RSA-\(bits)") { try AsymmetricKey.generateRSA(bits: bits) }
            rows += rsaRows(pair)
        }
        let curves: [(ECCurve, Int, SecKeyAlgorithm, SecKeyAlgorithm, String)] = [
            (.p256, 256, .ecdsaSignatureDigestX962SHA256, .ecdsaSignatureMessageX962SHA256, "SHA-256"),
            (.p384, 384, .ecdsaSignatureDigestX962SHA384, .ecdsaSignatureMessageX962SHA384, "SHA-384"),
            (.p521, 521, .ecdsaSignatureDigestX962SHA512, .ecdsaSignatureMessageX962SHA512, "SHA-512"),
        ]
        for (curve, bits, digestAlgorithm, messageAlgorithm, hash) in curves {
            let pair = BenchKeyPair(name: "P-\(bits)") { try AsymmetricKey.generateEC(curve) }
            rows += signatureRows(
                pair, "ECDSA X9.62 \(hash)", .ecdsa, hash, digest: digestAlgorithm, message: messageAlgorithm)
        }
        rows += importRows()
        return rows
    }

    private static func rsaRows(_ pair: BenchKeyPair) -> [BenchRow] {
        signatureRows(
            pair, "PKCS#1 v1.5 SHA-256", .rsaPKCS1, "SHA-256", digest: .rsaSignatureDigestPKCS1v15SHA256,
            message: .rsaSignatureMessagePKCS1v15SHA256)
            + signatureRows(
                pair, "PSS SHA-256", .rsaPSS, "SHA-256", digest: .rsaSignatureDigestPSSSHA256,
                message: .rsaSignatureMessagePSSSHA256)
            + [
                BenchRow(
                    name: "\(pair.name) decrypt, OAEP SHA-256", unit: "op/s",
                    opensslLabel: "EVP_PKEY_decrypt (EVP_PKEY_CTX per call)",
                    ours: { s in
                        guard let keys = pair.keys else { return -1 }
                        let secret = Data(repeating: 0x5a, count: 32) as CFData
                        guard
                            let ciphertext = SecKeyCreateEncryptedData(
                                keys.publicKey, .rsaEncryptionOAEPSHA256, secret, nil) as Data?
                        else { return -1 }
                        return measure(s) {
                            var error: Unmanaged<CFError>?
                            let plaintext = SecKeyCreateDecryptedData(
                                keys.privateKey, .rsaEncryptionOAEPSHA256, ciphertext as CFData, &error)
                            guard let plaintext, plaintext.length == 32 else { throw BenchFailure() }
                        }
                    },
                    openssl: { s in pair.pem.map { osec_baseline_oaep_decrypt($0, "SHA256", s) } ?? -1 })
            ]
    }

    /// Sign and verify rows, each for a digest and for a message.
    private static func signatureRows(
        _ pair: BenchKeyPair, _ schemeName: String, _ scheme: OpenSSLSignatureBaseline, _ hash: String,
        digest digestAlgorithm: SecKeyAlgorithm, message messageAlgorithm: SecKeyAlgorithm
    ) -> [BenchRow] {
        let opensslDigest = hash.replacingOccurrences(of: "-", with: "")
        let message = Data((0..<messageLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
        var rows: [BenchRow] = []
        for (algorithm, isMessage) in [(digestAlgorithm, false), (messageAlgorithm, true)] {
            let input = isMessage ? message : Digest.hash(DigestAlgorithm(benchName: hash), message)
            let what = isMessage ? "\(messageLength)-byte message" : "digest"
            let context = isMessage ? "EVP_MD_CTX per call" : "EVP_PKEY_CTX per call"
            rows.append(
                BenchRow(
                    name: "\(pair.name) sign, \(schemeName), \(what)", unit: "op/s",
                    opensslLabel: "\(isMessage ? "EVP_DigestSign" : "EVP_PKEY_sign") (\(context))",
                    ours: { s in
                        guard let keys = pair.keys else { return -1 }
                        return measure(s) {
                            var error: Unmanaged<CFError>?
                            let signature = SecKeyCreateSignature(keys.privateKey, algorithm, input as CFData, &error)
                            guard let signature, signature.length > 0 else { throw BenchFailure() }
                        }
                    },
                    openssl: { s in
                        pair.pem.map {
                            osec_baseline_signature(
                                $0, scheme, opensslDigest, verify: false, messageLength: isMessage ? messageLength : 0,
                                s)
                        } ?? -1
                    }))
            rows.append(
                BenchRow(
                    name: "\(pair.name) verify, \(schemeName), \(what)", unit: "op/s",
                    opensslLabel: "\(isMessage ? "EVP_DigestVerify" : "EVP_PKEY_verify") (\(context))",
                    ours: { s in
                        guard let keys = pair.keys,
                            let signature = SecKeyCreateSignature(keys.privateKey, algorithm, input as CFData, nil)
                                as Data?
                        else { return -1 }
                        return measure(s) {
                            var error: Unmanaged<CFError>?
                            guard
                                SecKeyVerifySignature(
                                    keys.publicKey, algorithm, input as CFData, signature as CFData, &error)
                            else { throw BenchFailure() }
                        }
                    },
                    openssl: { s in
                        pair.pem.map {
                            osec_baseline_signature(
                                $0, scheme, opensslDigest, verify: true, messageLength: isMessage ? messageLength : 0, s
                            )
                        } ?? -1
                    }))
        }
        return rows
    }

    /// Key import rows (SecKeyCreateWithData and the crypto layer's DER decoders); keys made on first use.
    private static func importRows() -> [BenchRow] {
        let lazy = BenchLazy(ImportFixtures.make)
        func row(
            _ name: String, _ label: String, ours: @escaping (ImportFixtures) throws -> Bool,
            openssl: @escaping (ImportFixtures, Double) -> Double
        ) -> BenchRow {
            BenchRow(
                name: name, unit: "op/s", opensslLabel: label,
                ours: { s in
                    guard let fixtures = lazy.value else { return -1 }
                    return measure(s) { if try !ours(fixtures) { throw BenchFailure() } }
                },
                openssl: { s in lazy.value.map { openssl($0, s) } ?? -1 })
        }
        return [
            row(
                "SecKeyCreateWithData RSA-2048 private", "d2i_AutoPrivateKey (generic)",
                ours: { SecKeyCreateWithData($0.rsaDER, $0.rsaPrivateAttributes, nil) != nil },
                openssl: { osec_baseline_key_decode($0.rsaPEM, .rsaPKCS1Generic, $1) }),
            row(
                "SecKeyCreateWithData RSA-2048 private", "d2i_RSAPrivateKey+EVP_PKEY_assign (typed)",
                ours: { SecKeyCreateWithData($0.rsaDER, $0.rsaPrivateAttributes, nil) != nil },
                openssl: { osec_baseline_key_decode($0.rsaPEM, .rsaPKCS1Typed, $1) }),
            row(
                "SecKeyCreateWithData RSA-2048 public, SPKI", "d2i_PUBKEY (generic)",
                ours: { SecKeyCreateWithData($0.rsaSPKI, $0.rsaPublicAttributes, nil) != nil },
                openssl: { osec_baseline_key_decode($0.rsaPEM, .spki, $1) }),
            row(
                "SecKeyCreateWithData P-256 public", "d2i_PUBKEY (generic)",
                ours: { SecKeyCreateWithData($0.ecPublicX963, $0.ecPublicAttributes, nil) != nil },
                openssl: { osec_baseline_key_decode($0.ecPEM, .spki, $1) }),
            row(
                "SecKeyCreateWithData P-256 public", "EVP_PKEY_fromdata (typed)",
                ours: { SecKeyCreateWithData($0.ecPublicX963, $0.ecPublicAttributes, nil) != nil },
                openssl: { osec_baseline_key_decode($0.ecPEM, .ecPoint, $1) }),
            row(
                "[crypto layer] P-256 SubjectPublicKeyInfo import", "d2i_PUBKEY (generic)",
                ours: { try AsymmetricKey(subjectPublicKeyInfo: $0.ecSPKI).curve == .p256 },
                openssl: { osec_baseline_key_decode($0.ecPEM, .spki, $1) }),
            row(
                "[crypto layer] P-256 PKCS#8 import", "d2i_AutoPrivateKey (generic)",
                ours: { try AsymmetricKey(pkcs8: $0.ecPKCS8).isPrivate },
                openssl: { osec_baseline_key_decode($0.ecPEM, .pkcs8, $1) }),
        ]
    }
}

/// The encodings the import rows decode: an RSA-2048 and a P-256 key.
struct ImportFixtures {
    let rsaDER: CFData
    let rsaSPKI: CFData
    let rsaPEM: String
    let ecPublicX963: CFData
    let ecSPKI: Data
    let ecPKCS8: Data
    let ecPEM: String
    let rsaPrivateAttributes =
        [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        as CFDictionary
    let rsaPublicAttributes =
        [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic]
        as CFDictionary
    let ecPublicAttributes =
        [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        as CFDictionary

    static func make() -> ImportFixtures? {
        do {
            let rsa = try AsymmetricKey.generateRSA(bits: 2048)
            let ec = try AsymmetricKey.generateEC(.p256)
            return ImportFixtures(
                rsaDER: try rsa.rsaPKCS1DER as CFData, rsaSPKI: try rsa.subjectPublicKeyInfoDER as CFData,
                rsaPEM: try rsa.pem(.pkcs8), ecPublicX963: try ec.publicKey.x963Representation as CFData,
                ecSPKI: try ec.subjectPublicKeyInfoDER, ecPKCS8: try ec.pkcs8DER, ecPEM: try ec.pem(.pkcs8))
        } catch {
            BenchTable.line("import fixtures: key generation failed: \(error)")
            return nil
        }
    }
}

/// A value made on first use (benchmark fixtures that only selected rows need).
final class BenchLazy<Value> {
    private let make: () -> Value?
    private var made = false
    private var stored: Value?

    init(_ make: @escaping () -> Value?) { self.make = make }

    var value: Value? {
        if !made {
            made = true
            stored = make()
        }
        return stored
    }
}

/// One benchmark key pair, generated on first use (an `--only` run does not pay for RSA-4096 generation it does
/// not use), as Apple SecKeys imported from their external representation and as PKCS#8 PEM for the C baseline.
final class BenchKeyPair {
    struct Keys {
        let privateKey: SecKey
        let publicKey: SecKey
    }

    let name: String
    private let generate: () throws -> AsymmetricKey
    private var generated = false
    private var storedKeys: Keys?
    private var storedPEM: String?

    init(name: String, generate: @escaping () throws -> AsymmetricKey) {
        self.name = name
        self.generate = generate
    }

    var keys: Keys? {
        load()
        return storedKeys
    }

    var pem: String? {
        load()
        return storedPEM
    }

    private func load() {
        guard !generated else { return }
        generated = true
        do {
            let key = try generate()
            let external: Data
            let type: CFString
            switch key.algorithm {
            case .rsa:
                external = try key.rsaPKCS1DER
                type = kSecAttrKeyTypeRSA
            default:
                external = try key.x963Representation
                type = kSecAttrKeyTypeECSECPrimeRandom
            }
            let attributes =
                [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary
            var error: Unmanaged<CFError>?
            guard let privateKey = SecKeyCreateWithData(external as CFData, attributes, &error),
                let publicKey = SecKeyCopyPublicKey(privateKey)
            else {
                BenchTable.line("\(name): import failed: \(String(describing: error?.takeRetainedValue()))")
                return
            }
            storedKeys = Keys(privateKey: privateKey, publicKey: publicKey)
            storedPEM = try key.pem(.pkcs8)
        } catch {
            BenchTable.line("\(name): key generation failed: \(error)")
        }
    }
}

extension DigestAlgorithm {
    /// The digest for a benchmark row's hash name ("SHA-256", "SHA-384", "SHA-512").
    init(benchName: String) {
        switch benchName {
        case "SHA-384": self = .sha384
        case "SHA-512": self = .sha512
        default: self = .sha256
        }
    }
}

struct BenchFailure: Error {}

enum SymmetricBenchmarks {
    static func rows() -> [BenchRow] {
        let mib = Data(count: 1 << 20)
        let key = Data(repeating: 7, count: 32)
        let nonce = Data(count: 12)
        return [
            BenchRow(
                name: "AES-256-GCM seal, 1 MiB", unit: "B/s", opensslLabel: "EVP_EncryptUpdate (AES-256-GCM)",
                ours: { s in
                    measure(s) { _ = try AESGCM.seal(key: key, nonce: nonce, plaintext: mib) } * Double(mib.count)
                },
                openssl: { osec_baseline_aes256gcm_1mib($0) }),
            BenchRow(
                name: "SHA-256, 1 MiB", unit: "B/s", opensslLabel: "EVP_Digest",
                ours: { s in measure(s) { _ = Digest.hash(.sha256, mib) } * Double(mib.count) },
                openssl: { osec_baseline_sha256_1mib($0) }),
        ]
    }
}
