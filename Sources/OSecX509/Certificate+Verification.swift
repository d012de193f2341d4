import Foundation
import OSecASN1
import OSecCrypto

/// Digest helpers over byte arrays.
enum OSecCryptoDigest {
    static func sha1<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Data { Digest.hash(.sha1, Data(bytes)) }
    static func sha256<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Data { Digest.hash(.sha256, Data(bytes)) }
}

extension SignatureAlgorithm {
    /// Verifies `signature` over `message` with `key`. `false` for a bad signature, an algorithm that does not match
    /// the key type, or an algorithm we cannot verify.
    func verify(_ signature: ArraySlice<UInt8>, over message: ArraySlice<UInt8>, with key: AsymmetricKey) -> Bool {
        guard let kind = try? kind else { return false }
        let scheme: SignatureScheme
        switch (kind, key.algorithm) {
        case (.rsaPKCS1(let digest), .rsa):
            scheme = .rsaPKCS1v15(digest: digest, inputIsDigest: false)
        case (.rsaPSS(let digest, let salt), .rsa):
            scheme = .rsaPSS(digest: digest, saltLength: salt, inputIsDigest: false)
        case (.ecdsa(let digest), .ec):
            scheme = .ecdsaDER(digest: digest, inputIsDigest: false)
        case (.ed25519, .ed25519):
            scheme = .ed25519
        default:
            return false
        }
        return (try? key.verify(Data(signature), for: Data(message), scheme: scheme)) ?? false
    }

    /// The algorithm we sign with for a key: RSA → PKCS#1 v1.5 SHA-256; EC → ECDSA with SHA-256/384/512 by curve
    /// (SHA-256 below P-384);
    /// Ed25519 → Ed25519.
    package static func defaultAlgorithm(for key: AsymmetricKey) -> SignatureAlgorithm {
        switch key.algorithm {
        case .rsa: return SignatureAlgorithm(.rsaPKCS1(.sha256))
        case .ec(.p256), .ec(.p192), .ec(.p224): return SignatureAlgorithm(.ecdsa(.sha256))
        case .ec(.p384): return SignatureAlgorithm(.ecdsa(.sha384))
        case .ec(.p521): return SignatureAlgorithm(.ecdsa(.sha512))
        case .ed25519: return SignatureAlgorithm(.ed25519)
        }
    }

    /// Signs `message` with a private key under this algorithm.
    func sign(_ message: [UInt8], with key: AsymmetricKey) throws(X509Error) -> [UInt8] {
        let scheme: SignatureScheme
        switch (try kind, key.algorithm) {
        case (.rsaPKCS1(let digest), .rsa): scheme = .rsaPKCS1v15(digest: digest, inputIsDigest: false)
        case (.rsaPSS(let digest, let salt), .rsa):
            scheme = .rsaPSS(digest: digest, saltLength: salt, inputIsDigest: false)
        case (.ecdsa(let digest), .ec): scheme = .ecdsaDER(digest: digest, inputIsDigest: false)
        case (.ed25519, .ed25519): scheme = .ed25519
        default: throw X509Error(.unsupportedAlgorithm, "cannot sign \(self) with this key")
        }
        do {
            return [UInt8](try key.sign(Data(message), scheme: scheme))
        } catch {
            throw X509Error(.cryptoFailure, "signing failed", underlying: error)
        }
    }
}

extension Certificate {
    /// Whether this certificate's signature verifies under `issuerKey` (the issuer's public key).
    ///
    /// Checks over the exact TBS bytes; the inner and outer signature algorithms must be identical
    /// (RFC 5280 §4.1.1.2, as OpenSSL's `X509_verify`).
    package func isSignature(validFor issuerKey: AsymmetricKey) -> Bool {
        guard storage.tbsSignatureAlgorithm.identifier == storage.signatureAlgorithm.identifier else { return false }
        return storage.signatureAlgorithm.verify(storage.signature, over: storage.tbsBytes, with: issuerKey.publicKey)
    }

    /// Whether this certificate's signature verifies under the public key of `issuer`.
    package func isSignature(validFor issuer: SubjectPublicKeyInfo) -> Bool {
        guard let key = try? issuer.makeKey() else { return false }
        return isSignature(validFor: key)
    }

    /// Whether `issuer`'s key signed this certificate.
    package func isSigned(by issuer: Certificate) -> Bool { isSignature(validFor: issuer.publicKeyInfo) }
}
