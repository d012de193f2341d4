import Foundation
import OSecASN1
import OSecCMS
import OSecCrypto
import OSecX509

/// The work behind `CMSEncoderCopyEncodedContent`: builds the message from a snapshot of the encoder's state.
enum CMSEncoding {
    /// The longest issuer chain followed from a signer's certificate (a loop guard; real chains have 2–5).
    static let maximumChainLength = 16

    static func encode(_ state: CMSEncoder.State) throws -> [UInt8] {
        if state.signers.isEmpty && state.recipients.isEmpty {
            guard !state.supportingCertificates.isEmpty else {
                throw SecError.param("a CMS message needs signers, recipients or certificates")
            }
            // A certificates-only SignedData ("degenerate", RFC 5652 §5.2).
            var builder = SignedDataBuilder()
            builder.certificates = state.supportingCertificates.map(\.certificate)
            builder.detached = true
            return try builder.build(content: []).contentInfoDER()
        }
        var payload = state.content
        var payloadType = state.contentType ?? CMSOID.data
        if !state.signers.isEmpty {
            payload = try signedData(state)
            payloadType = CMSOID.signedData
        }
        guard !state.recipients.isEmpty else { return payload }
        // Signed and encrypted: the SignedData ContentInfo's content is enveloped (Apple's order).
        let inner: [UInt8]
        if payloadType == CMSOID.signedData {
            inner = try signedDataContent(payload)
        } else {
            inner = payload
        }
        return try CMSEnveloping.envelop(inner, contentType: payloadType, recipients: state.recipients)
    }

    /// The encoded SignedData inside a ContentInfo (its [0] content), for enveloping.
    private static func signedDataContent(_ contentInfo: [UInt8]) throws -> [UInt8] {
        let node = try DER.parse(contentInfo)
        return try DER.sequence(node) { nodes in
            _ = nodes.next()
            guard let content = nodes.next() else { throw SecError(errSecInternal, "ContentInfo without content") }
            return try DER.explicitlyTagged(content, tagNumber: 0) { [UInt8]($0.encodedBytes) }
        }
    }

    private static func signedData(_ state: CMSEncoder.State) throws -> [UInt8] {
        var builder = SignedDataBuilder()
        builder.contentType = state.contentType ?? CMSOID.data
        builder.detached = state.detached
        var attributes: SignedDataBuilder.Attributes = []
        if state.attributes.contains(.attrSmimeCapabilities) { attributes.insert(.smimeCapabilities) }
        if state.attributes.contains(.attrSmimeEncryptionKeyPrefs) { attributes.insert(.encryptionKeyPreference) }
        if state.attributes.contains(.attrSmimeMSEncryptionKeyPrefs) {
            attributes.insert(.microsoftEncryptionKeyPreference)
        }
        if state.attributes.contains(.attrSigningTime) { attributes.insert(.signingTime) }
        builder.attributes = attributes
        builder.signingTime = Int64(Date().timeIntervalSince1970)
        if state.attributes.contains(.attrAppleCodesigningHashAgility), let value = state.hashAgility {
            builder.additionalSignedAttributes.append(try AppleCMSAttributes.hashAgility(value))
        }
        if state.attributes.contains(.attrAppleCodesigningHashAgilityV2), let values = state.hashAgilityV2 {
            builder.additionalSignedAttributes.append(try AppleCMSAttributes.hashAgilityV2(values))
        }
        if state.attributes.contains(.attrAppleExpirationTime), let seconds = state.expirationTime {
            builder.additionalSignedAttributes.append(try AppleCMSAttributes.expirationTime(seconds))
        }
        builder.signers = state.signers.map {
            SignedDataBuilder.Signer(
                certificate: $0.certificate.certificate, key: signingKey($0.privateKey, $0.asymmetricKey),
                digest: state.digest)
        }
        var certificates: [Certificate] = []
        for identity in state.signers {
            for certificate in try chain(identity.certificate, state.supportingCertificates, state.chainMode)
            where !certificates.contains(certificate) {
                certificates.append(certificate)
            }
        }
        for supporting in state.supportingCertificates where !certificates.contains(supporting.certificate) {
            certificates.append(supporting.certificate)
        }
        builder.certificates = certificates
        let signed = try builder.build(content: state.content)
        // The builder adds each signer's certificate; chain mode `.none` leaves every certificate out.
        guard state.chainMode != .none else {
            return try SignedData(copying: signed, certificates: state.supportingCertificates.map(\.certificate))
                .contentInfoDER()
        }
        return try signed.contentInfoDER()
    }

    /// A signer over the identity's `SecKey`: the key signs through the same path as `SecKeyCreateSignature`.
    static func signingKey(_ key: SecKey, _ asymmetric: AsymmetricKey) -> CMSSigningKey {
        CMSSigningKey(algorithm: asymmetric.algorithm) { message, digest in
            let algorithm: SecKeyAlgorithm
            switch (key.isRSA, digest) {
            case (true, .sha1): algorithm = .rsaSignatureMessagePKCS1v15SHA1
            case (true, .sha224): algorithm = .rsaSignatureMessagePKCS1v15SHA224
            case (true, .sha384): algorithm = .rsaSignatureMessagePKCS1v15SHA384
            case (true, .sha512): algorithm = .rsaSignatureMessagePKCS1v15SHA512
            case (true, _): algorithm = .rsaSignatureMessagePKCS1v15SHA256
            case (false, .sha1): algorithm = .ecdsaSignatureMessageX962SHA1
            case (false, .sha224): algorithm = .ecdsaSignatureMessageX962SHA224
            case (false, .sha384): algorithm = .ecdsaSignatureMessageX962SHA384
            case (false, .sha512): algorithm = .ecdsaSignatureMessageX962SHA512
            case (false, _): algorithm = .ecdsaSignatureMessageX962SHA256
            }
            return [UInt8](try SecKeyOperations.sign(key, algorithm, Data(message)))
        }
    }

    /// The certificates `mode` asks for: the signer's, its issuers found among `candidates` (up to the root for the
    /// `…WithRoot` modes; the root is left out for `.chain`).
    static func chain(
        _ signer: SecCertificate, _ candidates: [SecCertificate], _ mode: CMSCertificateChainMode
    ) throws -> [Certificate] {
        switch mode {
        case .none: return []
        case .signerOnly: return [signer.certificate]
        case .chain, .chainWithRoot, .chainWithRootOrFail: break
        }
        var chain = [signer.certificate]
        var current = signer.certificate
        while !current.isSelfIssued, chain.count < maximumChainLength {
            guard
                let issuer = candidates.map(\.certificate).first(where: {
                    $0.subject == current.issuer && current.isSigned(by: $0) && !chain.contains($0)
                })
            else { break }
            chain.append(issuer)
            current = issuer
        }
        let reachesRoot = current.isSelfIssued
        switch mode {
        case .chainWithRootOrFail:
            guard reachesRoot else {
                throw SecError(errSecNotTrusted, "the signer's chain does not reach a root certificate")
            }
            return chain
        case .chainWithRoot:
            return chain
        default:
            if reachesRoot && chain.count > 1 { chain.removeLast() }
            return chain
        }
    }
}
