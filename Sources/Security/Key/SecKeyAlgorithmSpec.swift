import Foundation
import OSecCrypto

/// What a `SecKeyAlgorithm` means operationally: which key type it needs, which operations it supports and how
/// the crypto layer carries it out. Built once from Apple's algorithm list.
struct SecKeyAlgorithmSpec: Sendable {
    enum KeyFamily: Sendable { case rsa, ec }

    enum Kind: Sendable {
        /// Signature creation (private key) and verification (public key).
        case signature(SignatureScheme)
        /// RSA encryption (public key) and decryption (private key).
        case rsaEncryption(RSAEncryptionPadding)
        /// ECDH; `kdf` set for the X9.63 KDF variants.
        case keyExchange(kdf: DigestAlgorithm?)
        /// ECIES hybrid encryption (ECDH + X9.63 KDF + AES-GCM).
        case ecies(kdf: DigestAlgorithm, variableIV: Bool)
        /// RSA-OAEP-wrapped AES-GCM session key (Apple's `rsaEncryptionOAEP…AESGCM`).
        case rsaHybrid(DigestAlgorithm)
    }

    let algorithm: SecKeyAlgorithm
    let family: KeyFamily
    let kind: Kind
    /// For "Digest…SHAn" algorithms: the input must be exactly this long (Apple: errSecParam otherwise).
    let requiredInputLength: Int?

    func supports(_ operation: SecKeyOperationType) -> Bool {
        switch (kind, operation) {
        case (.signature, .sign), (.signature, .verify): return true
        case (.rsaEncryption, .encrypt), (.rsaEncryption, .decrypt): return true
        case (.ecies, .encrypt), (.ecies, .decrypt): return true
        case (.rsaHybrid, .encrypt), (.rsaHybrid, .decrypt): return true
        case (.keyExchange, .keyExchange): return true
        default: return false
        }
    }

    /// Whether `operation` needs the private half (sign, decrypt, key exchange) or the public half.
    static func needsPrivateKey(_ operation: SecKeyOperationType) -> Bool {
        switch operation {
        case .sign, .decrypt, .keyExchange: return true
        case .verify, .encrypt: return false
        }
    }

    static func lookup(_ algorithm: SecKeyAlgorithm) -> SecKeyAlgorithmSpec? { table[algorithm.name] }

    private static let table: [String: SecKeyAlgorithmSpec] = {
        var specs: [SecKeyAlgorithmSpec] = []
        func add(_ alg: SecKeyAlgorithm, _ family: KeyFamily, _ kind: Kind, length: Int? = nil) {
            specs.append(SecKeyAlgorithmSpec(algorithm: alg, family: family, kind: kind, requiredInputLength: length))
        }
        /// One signature scheme over hash `h` in its two forms: "Digest" signs a digest, which must be exactly as
        /// long as `h`'s output; "Message" hashes the message with `h` first.
        func addSignature(
            _ h: DigestAlgorithm, digest: SecKeyAlgorithm, message: SecKeyAlgorithm, _ family: KeyFamily,
            _ scheme: (_ inputIsDigest: Bool) -> SignatureScheme
        ) {
            add(digest, family, .signature(scheme(true)), length: h.outputSize)
            add(message, family, .signature(scheme(false)))
        }
        let hashes: [(DigestAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm)] = [
            (
                .sha1, .rsaSignatureDigestPKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureDigestPSSSHA1,
                .rsaSignatureMessagePSSSHA1
            ),
            (
                .sha224, .rsaSignatureDigestPKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA224,
                .rsaSignatureDigestPSSSHA224, .rsaSignatureMessagePSSSHA224
            ),
            (
                .sha256, .rsaSignatureDigestPKCS1v15SHA256, .rsaSignatureMessagePKCS1v15SHA256,
                .rsaSignatureDigestPSSSHA256, .rsaSignatureMessagePSSSHA256
            ),
            (
                .sha384, .rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA384,
                .rsaSignatureDigestPSSSHA384, .rsaSignatureMessagePSSSHA384
            ),
            (
                .sha512, .rsaSignatureDigestPKCS1v15SHA512, .rsaSignatureMessagePKCS1v15SHA512,
                .rsaSignatureDigestPSSSHA512, .rsaSignatureMessagePSSSHA512
            ),
        ]
        add(.rsaSignatureRaw, .rsa, .signature(.rsaRaw))
        add(.rsaSignatureDigestPKCS1v15Raw, .rsa, .signature(.rsaPKCS1v15Raw))
        for (h, digestPKCS1, messagePKCS1, digestPSS, messagePSS) in hashes {
            addSignature(h, digest: digestPKCS1, message: messagePKCS1, .rsa) {
                .rsaPKCS1v15(digest: h, inputIsDigest: $0)
            }
            addSignature(h, digest: digestPSS, message: messagePSS, .rsa) {
                .rsaPSS(digest: h, saltLength: h.outputSize, inputIsDigest: $0)
            }
        }
        let ecdsa: [(DigestAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm)] = [
            (
                .sha1, .ecdsaSignatureDigestX962SHA1, .ecdsaSignatureMessageX962SHA1, .ecdsaSignatureDigestRFC4754SHA1,
                .ecdsaSignatureMessageRFC4754SHA1
            ),
            (
                .sha224, .ecdsaSignatureDigestX962SHA224, .ecdsaSignatureMessageX962SHA224,
                .ecdsaSignatureDigestRFC4754SHA224, .ecdsaSignatureMessageRFC4754SHA224
            ),
            (
                .sha256, .ecdsaSignatureDigestX962SHA256, .ecdsaSignatureMessageX962SHA256,
                .ecdsaSignatureDigestRFC4754SHA256, .ecdsaSignatureMessageRFC4754SHA256
            ),
            (
                .sha384, .ecdsaSignatureDigestX962SHA384, .ecdsaSignatureMessageX962SHA384,
                .ecdsaSignatureDigestRFC4754SHA384, .ecdsaSignatureMessageRFC4754SHA384
            ),
            (
                .sha512, .ecdsaSignatureDigestX962SHA512, .ecdsaSignatureMessageX962SHA512,
                .ecdsaSignatureDigestRFC4754SHA512, .ecdsaSignatureMessageRFC4754SHA512
            ),
        ]
        add(.ecdsaSignatureDigestX962, .ec, .signature(.ecdsaDER(digest: nil, inputIsDigest: true)))
        add(.ecdsaSignatureRFC4754, .ec, .signature(.ecdsaRaw(digest: nil, inputIsDigest: true)))
        add(.ecdsaSignatureDigestRFC4754, .ec, .signature(.ecdsaRaw(digest: nil, inputIsDigest: true)))
        for (h, digestX962, messageX962, digestRFC, messageRFC) in ecdsa {
            addSignature(h, digest: digestX962, message: messageX962, .ec) { .ecdsaDER(digest: h, inputIsDigest: $0) }
            addSignature(h, digest: digestRFC, message: messageRFC, .ec) { .ecdsaRaw(digest: h, inputIsDigest: $0) }
        }
        add(.rsaEncryptionRaw, .rsa, .rsaEncryption(.none))
        add(.rsaEncryptionPKCS1, .rsa, .rsaEncryption(.pkcs1))
        let oaep: [(DigestAlgorithm, SecKeyAlgorithm)] = [
            (.sha1, .rsaEncryptionOAEPSHA1), (.sha224, .rsaEncryptionOAEPSHA224), (.sha256, .rsaEncryptionOAEPSHA256),
            (.sha384, .rsaEncryptionOAEPSHA384), (.sha512, .rsaEncryptionOAEPSHA512),
        ]
        for (h, alg) in oaep { add(alg, .rsa, .rsaEncryption(.oaep(h))) }
        let hybrid: [(DigestAlgorithm, SecKeyAlgorithm)] = [
            (.sha1, .rsaEncryptionOAEPSHA1AESGCM), (.sha224, .rsaEncryptionOAEPSHA224AESGCM),
            (.sha256, .rsaEncryptionOAEPSHA256AESGCM), (.sha384, .rsaEncryptionOAEPSHA384AESGCM),
            (.sha512, .rsaEncryptionOAEPSHA512AESGCM),
        ]
        for (h, alg) in hybrid { add(alg, .rsa, .rsaHybrid(h)) }
        add(.ecdhKeyExchangeStandard, .ec, .keyExchange(kdf: nil))
        add(.ecdhKeyExchangeCofactor, .ec, .keyExchange(kdf: nil))
        let ecdh: [(DigestAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm)] = [
            (
                .sha1, .ecdhKeyExchangeStandardX963SHA1, .ecdhKeyExchangeCofactorX963SHA1,
                .eciesEncryptionStandardX963SHA1AESGCM, .eciesEncryptionCofactorX963SHA1AESGCM
            ),
            (
                .sha224, .ecdhKeyExchangeStandardX963SHA224, .ecdhKeyExchangeCofactorX963SHA224,
                .eciesEncryptionStandardX963SHA224AESGCM, .eciesEncryptionCofactorX963SHA224AESGCM
            ),
            (
                .sha256, .ecdhKeyExchangeStandardX963SHA256, .ecdhKeyExchangeCofactorX963SHA256,
                .eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionCofactorX963SHA256AESGCM
            ),
            (
                .sha384, .ecdhKeyExchangeStandardX963SHA384, .ecdhKeyExchangeCofactorX963SHA384,
                .eciesEncryptionStandardX963SHA384AESGCM, .eciesEncryptionCofactorX963SHA384AESGCM
            ),
            (
                .sha512, .ecdhKeyExchangeStandardX963SHA512, .ecdhKeyExchangeCofactorX963SHA512,
                .eciesEncryptionStandardX963SHA512AESGCM, .eciesEncryptionCofactorX963SHA512AESGCM
            ),
        ]
        // NIST curves have cofactor 1, so cofactor ECDH gives the same secret as standard ECDH.
        for (h, standard, cofactor, eciesStandard, eciesCofactor) in ecdh {
            add(standard, .ec, .keyExchange(kdf: h))
            add(cofactor, .ec, .keyExchange(kdf: h))
            add(eciesStandard, .ec, .ecies(kdf: h, variableIV: false))
            add(eciesCofactor, .ec, .ecies(kdf: h, variableIV: false))
        }
        let variableIV: [(DigestAlgorithm, SecKeyAlgorithm, SecKeyAlgorithm)] = [
            (
                .sha224, .eciesEncryptionStandardVariableIVX963SHA224AESGCM,
                .eciesEncryptionCofactorVariableIVX963SHA224AESGCM
            ),
            (
                .sha256, .eciesEncryptionStandardVariableIVX963SHA256AESGCM,
                .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
            ),
            (
                .sha384, .eciesEncryptionStandardVariableIVX963SHA384AESGCM,
                .eciesEncryptionCofactorVariableIVX963SHA384AESGCM
            ),
            (
                .sha512, .eciesEncryptionStandardVariableIVX963SHA512AESGCM,
                .eciesEncryptionCofactorVariableIVX963SHA512AESGCM
            ),
        ]
        for (h, standard, cofactor) in variableIV {
            add(standard, .ec, .ecies(kdf: h, variableIV: true))
            add(cofactor, .ec, .ecies(kdf: h, variableIV: true))
        }
        return Dictionary(specs.map { ($0.algorithm.name, $0) }, uniquingKeysWith: { first, _ in first })
    }()
}
