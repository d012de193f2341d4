import Foundation
import OSecASN1
import OSecCMS
import OSecCrypto
import OSecX509

/// The work behind the decoder's functions.
enum CMSDecoding {
    /// Decodes a whole message: a SignedData, or an (Auth)EnvelopedData decrypted with a keychain identity whose
    /// content may itself be a SignedData.
    static func decode(_ bytes: [UInt8], identities: [SecIdentity] = []) throws -> CMSDecoded {
        switch try CMSMessage.parse(bytes) {
        case .signedData(let signed):
            return CMSDecoded(
                signedData: signed, content: signed.content, contentType: signed.contentType, encrypted: false)
        case .data(let content):
            return CMSDecoded(signedData: nil, content: content, contentType: CMSOID.data, encrypted: false)
        case .envelopedData(let enveloped), .authEnvelopedData(let enveloped):
            let (type, content) = try CMSEnveloping.open(enveloped, identities: identities)
            guard type == CMSOID.signedData else {
                return CMSDecoded(signedData: nil, content: content, contentType: type, encrypted: true)
            }
            let signed = try SignedData.parseContent(content)
            return CMSDecoded(
                signedData: signed, content: signed.content, contentType: signed.contentType, encrypted: true)
        }
    }

    static func signer(_ decoded: CMSDecoded, _ index: Int) throws -> SignerInfo {
        guard let signers = decoded.signedData?.signers, signers.indices.contains(index) else {
            throw SecError.param("no signer at index \(index)")
        }
        return signers[index]
    }

    static func signerCertificate(_ decoded: CMSDecoded, _ index: Int) throws -> Certificate {
        let signer = try signer(decoded, index)
        guard let certificate = decoded.signedData?.certificate(of: signer) else {
            throw SecError(errSecItemNotFound, "the message does not carry the certificate of signer \(index)")
        }
        return certificate
    }

    static func emailAddress(_ certificate: Certificate) -> String? {
        if let names = try? certificate.extensions.subjectAlternativeNames {
            for name in names {
                if case .rfc822Name(let address) = name { return address }
            }
        }
        return certificate.subject.values(of: X509OID.emailAddress).first
    }

    struct SignerReport {
        var status: CMSSignerStatus
        var trust: SecTrust?
        var certificateResult: OSStatus
    }

    static func signerStatus(
        _ decoded: CMSDecoded, index: Int, policies: [SecPolicy], evaluate: Bool, detachedContent: [UInt8]?
    ) -> SignerReport {
        guard let signed = decoded.signedData, !signed.signers.isEmpty else {
            return SignerReport(status: .unsigned, trust: nil, certificateResult: errSecSuccess)
        }
        guard signed.signers.indices.contains(index) else {
            return SignerReport(status: .invalidIndex, trust: nil, certificateResult: errSecSuccess)
        }
        guard let certificate = signed.certificate(of: signed.signers[index]) else {
            return SignerReport(status: .invalidCert, trust: nil, certificateResult: errSecItemNotFound)
        }
        let others = signed.certificates.filter { $0 != certificate }.map { SecCertificate($0) }
        let trust = SecTrust(certificates: [SecCertificate(certificate)] + others, policies: policies)
        var certificateResult = errSecSuccess
        var trusted = true
        if evaluate {
            var error: CFError?
            trusted = SecTrustEvaluateWithError(trust, &error)
            if !trusted { certificateResult = OSStatus(truncatingIfNeeded: error?.code ?? Int(errSecNotTrusted)) }
        }
        let status: CMSSignerStatus
        switch signed.verify(signerAt: index, detachedContent: detachedContent) {
        case .valid: status = trusted ? .valid : .invalidCert
        case .needsDetachedContent: status = .needsDetachedContent
        case .invalidSignature, .unsupportedAlgorithm: status = .invalidSignature
        case .certificateNotFound: status = .invalidCert
        }
        return SignerReport(status: status, trust: trust, certificateResult: certificateResult)
    }
}

/// Encryption for the encoder and decryption for the decoder (EnvelopedData, AuthEnvelopedData).
enum CMSEnveloping {
    /// Encrypts `content` of `contentType` for `recipients` as an EnvelopedData ContentInfo (AES-256-CBC; RSA
    /// recipients by PKCS#1 v1.5 key transport, EC recipients by ECDH).
    static func envelop(
        _ content: [UInt8], contentType: ASN1ObjectIdentifier, recipients: [SecCertificate]
    ) throws
        -> [UInt8]
    {
        var builder = EnvelopedDataBuilder()
        builder.recipients = recipients.map(\.certificate)
        return try builder.build(content: content, contentType: contentType)
    }

    /// Decrypts an enveloped message with `identities`, then the keychain's identities (the first recipient found).
    static func open(_ enveloped: EnvelopedData, identities: [SecIdentity]) throws -> (ASN1ObjectIdentifier, [UInt8]) {
        if !identities.isEmpty {
            let result = Result { () throws(CMSError) in try enveloped.decrypt(with: identities.map(recipientKey)) }
            switch result {
            case .success(let opened): return opened
            case .failure(let error):
                // Not one of these: the keychain's identities next.
                guard error.code == .noMatchingRecipient else { throw error }
            }
        }
        return try enveloped.decrypt(with: keychainIdentities().map(recipientKey))
    }

    /// Every identity of the keychain search list (none when the keychain cannot be read).
    static func keychainIdentities() -> [SecIdentity] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return [] }
        return ((result as? NSArray) ?? NSArray()).compactMap { $0 as? SecIdentity }
    }

    /// The identity's private key as a CMS recipient key: the operations run inside its `SecKey`.
    static func recipientKey(_ identity: SecIdentity) -> CMSRecipientKey {
        let key = identity.asymmetricKey
        guard key.algorithm == .rsa else {
            return CMSRecipientKey(
                certificate: identity.certificate.certificate, decrypt: nil,
                agree: { [UInt8](try key.deriveSharedSecret(with: $0)) })
        }
        return CMSRecipientKey(
            certificate: identity.certificate.certificate,
            decrypt: { [UInt8](try key.decrypt(Data($0), padding: $1)) }, agree: nil)
    }
}
