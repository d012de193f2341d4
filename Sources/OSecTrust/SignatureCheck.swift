import Foundation
import OSecCrypto
import OSecX509

/// Verifies a signature made under an X.509 `SignatureAlgorithm` (for CRLs and OCSP responses; certificates use
/// OSecX509's own check).
enum SignatureCheck {
    static func verify(
        _ algorithm: SignatureAlgorithm, signature: ArraySlice<UInt8>, over message: ArraySlice<UInt8>,
        with key: AsymmetricKey
    ) -> Bool {
        guard let kind = try? algorithm.kind else { return false }
        let scheme: SignatureScheme
        switch (kind, key.algorithm) {
        case (.rsaPKCS1(let digest), .rsa):
            guard digest != .md5 else { return false }
            scheme = .rsaPKCS1v15(digest: digest, inputIsDigest: false)
        case (.rsaPSS(let digest, let salt), .rsa):
            scheme = .rsaPSS(digest: digest, saltLength: salt, inputIsDigest: false)
        case (.ecdsa(let digest), .ec): scheme = .ecdsaDER(digest: digest, inputIsDigest: false)
        case (.ed25519, .ed25519): scheme = .ed25519
        default: return false
        }
        return (try? key.verify(Data(signature), for: Data(message), scheme: scheme)) ?? false
    }
}
