import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// The cryptographic verdict on one signer (trust in its certificate is the caller's question).
package enum SignerVerdict: Sendable, Hashable {
    /// The signature and the signed attributes verify over the content.
    case valid
    /// The message is detached and no content was supplied.
    case needsDetachedContent
    /// The signature, the message-digest or the content-type attribute does not match.
    case invalidSignature
    /// No certificate of the message (or of the extra ones given) is the one the signer names.
    case certificateNotFound
    /// The signer uses an algorithm we do not verify, or its key does not fit its algorithm.
    case unsupportedAlgorithm
}

extension SignedData {
    /// The certificate `signer` names, among the message's certificates and `extra`.
    package func certificate(of signer: SignerInfo, extra: [Certificate] = []) -> Certificate? {
        (certificates + extra).first { signer.signerIdentifier.matches($0) }
    }

    /// Verifies signer `index` over the encapsulated content, or `detachedContent` when the message has none
    /// (RFC 5652 §5.4 and §5.6): with signed attributes, the content-type attribute must equal eContentType and the
    /// message-digest attribute the content's digest, and the signature covers the DER signed attributes; without
    /// them (id-data content only), the signature covers the content.
    package func verify(
        signerAt index: Int, detachedContent: [UInt8]? = nil, extraCertificates: [Certificate] = []
    ) -> SignerVerdict {
        guard signers.indices.contains(index) else { return .certificateNotFound }
        let signer = signers[index]
        guard let content = content ?? detachedContent else { return .needsDetachedContent }
        guard let certificate = certificate(of: signer, extra: extraCertificates) else { return .certificateNotFound }
        guard let digest = try? CMSDigest.digest(signer.digestAlgorithm),
            let key = try? certificate.publicKeyInfo.makeKey(),
            let scheme = try? CMSSignatureCheck.scheme(
                signer.signatureAlgorithm, digest: digest, keyAlgorithm: key.algorithm)
        else { return .unsupportedAlgorithm }
        let signedBytes: [UInt8]
        if let attributesDER = signer.signedAttributesDER {
            guard let type = try? signer.contentTypeAttribute(), type == contentType,
                let expected = try? signer.messageDigestAttribute(),
                ConstantTime.equals(Data(expected), Digest.hash(digest, Data(content)))
            else { return .invalidSignature }
            signedBytes = attributesDER
        } else {
            // RFC 5652 §5.3: signed attributes MUST be present when the content type is not id-data.
            guard contentType == CMSOID.data else { return .invalidSignature }
            signedBytes = content
        }
        let valid = (try? key.verify(Data(signer.signature), for: Data(signedBytes), scheme: scheme)) ?? false
        return valid ? .valid : .invalidSignature
    }
}
