import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// A private key that signs on the caller's side: the key never leaves its owner (a `SecKey`, a test key); the
/// builder hands over the bytes to sign and the digest, and gets the signature back.
package struct CMSSigningKey: Sendable {
    /// The key's algorithm (decides the signatureAlgorithm written).
    package let algorithm: KeyAlgorithm
    /// Signs `message`, hashing it with the digest given: PKCS#1 v1.5 for RSA, ECDSA (DER) for EC.
    package let sign: @Sendable (_ message: [UInt8], _ digest: DigestAlgorithm) throws -> [UInt8]

    /// A signer calling `sign`.
    package init(
        algorithm: KeyAlgorithm,
        sign: @escaping @Sendable (_ message: [UInt8], _ digest: DigestAlgorithm) throws -> [UInt8]
    ) {
        self.algorithm = algorithm
        self.sign = sign
    }

    /// A signer over an in-memory private key (tests, the tool).
    package init(_ key: AsymmetricKey) {
        algorithm = key.algorithm
        sign = { message, digest in
            let scheme: SignatureScheme =
                key.curve == nil
                ? .rsaPKCS1v15(digest: digest, inputIsDigest: false) : .ecdsaDER(digest: digest, inputIsDigest: false)
            return [UInt8](try key.sign(Data(message), scheme: scheme))
        }
    }
}

/// Builds a SignedData (RFC 5652 §5) in DER: several signers, attached or detached content, signed attributes as a
/// sorted DER SET OF, and the certificates given.
package struct SignedDataBuilder: Sendable {
    /// One signer.
    package struct Signer: Sendable {
        /// The signer's certificate (its issuer and serial, or its subjectKeyIdentifier, name it).
        package var certificate: Certificate
        /// The private key of `certificate`.
        package var key: CMSSigningKey
        /// The digest algorithm.
        package var digest: DigestAlgorithm
        /// Name the certificate by subjectKeyIdentifier (SignerInfo version 3) instead of issuer and serial.
        package var useSubjectKeyIdentifier: Bool

        /// A signer.
        package init(
            certificate: Certificate, key: CMSSigningKey, digest: DigestAlgorithm = .sha256,
            useSubjectKeyIdentifier: Bool = false
        ) {
            self.certificate = certificate
            self.key = key
            self.digest = digest
            self.useSubjectKeyIdentifier = useSubjectKeyIdentifier
        }
    }

    /// Optional signed attributes (content-type and message-digest are always written when attributes are).
    package struct Attributes: OptionSet, Sendable, Hashable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// S/MIME capabilities (RFC 8551 §2.5.2).
        package static let smimeCapabilities = Attributes(rawValue: 1)
        /// SMIMEEncryptionKeyPreference naming the signer's certificate (RFC 8551 §2.5.3).
        package static let encryptionKeyPreference = Attributes(rawValue: 2)
        /// Microsoft's encryption key preference attribute.
        package static let microsoftEncryptionKeyPreference = Attributes(rawValue: 4)
        /// The signing time.
        package static let signingTime = Attributes(rawValue: 8)
    }

    /// The signers, in order.
    package var signers: [Signer] = []
    /// Extra certificates to include (the signers' own are added by the caller's chain mode).
    package var certificates: [Certificate] = []
    /// eContentType (id-data unless set).
    package var contentType: ASN1ObjectIdentifier = CMSOID.data
    /// Leave the content out of the message.
    package var detached = false
    /// Write signed attributes (content-type, message-digest and ``attributes``). Without them the signature is
    /// over the content itself, which RFC 5652 allows for id-data only.
    package var includeSignedAttributes = true
    /// The optional attributes.
    package var attributes: Attributes = []
    /// The signing time (seconds since 1970) written with ``Attributes/signingTime``.
    package var signingTime: Int64 = Int64(Date().timeIntervalSince1970)
    /// Further signed attributes, written after the standard ones (Apple's code-signing attributes).
    package var additionalSignedAttributes: [CMSAttribute] = []

    /// A builder with no signers.
    package init() {}

    /// Signs `content` with every signer.
    package func build(content: [UInt8]) throws(CMSError) -> SignedData {
        guard signers.count <= CMSLimits.maximumSignerCount else {
            throw CMSError(.invalidParameter, "more than \(CMSLimits.maximumSignerCount) signers")
        }
        guard includeSignedAttributes || contentType == CMSOID.data else {
            throw CMSError(.invalidParameter, "a content type other than id-data needs signed attributes")
        }
        var signerInfos: [SignerInfo] = []
        var certificates = self.certificates
        for signer in signers {
            signerInfos.append(try sign(content, signer))
            if !certificates.contains(signer.certificate) { certificates.insert(signer.certificate, at: 0) }
        }
        let version = signerInfos.contains { $0.version == 3 } || contentType != CMSOID.data ? 3 : 1
        return SignedData(
            version: version, digestAlgorithms: signers.map { CMSDigest.identifier($0.digest) },
            contentType: contentType, content: detached ? nil : content, certificates: certificates,
            signers: signerInfos)
    }

    private func sign(_ content: [UInt8], _ signer: Signer) throws(CMSError) -> SignerInfo {
        let identifier = try SignerIdentifier(
            signer.certificate, useSubjectKeyIdentifier: signer.useSubjectKeyIdentifier)
        let signatureAlgorithm = try CMSSignatureCheck.identifier(for: signer.key.algorithm, digest: signer.digest)
        var attributes: [CMSAttribute]?
        var attributesDER: [UInt8]?
        var signedBytes = content
        if includeSignedAttributes {
            let list = try signedAttributes(content, signer)
            let encoded = try CMSError.converting({ () throws -> [UInt8] in
                var coder = DER.Serializer()
                try coder.serializeSetOf(list)
                return coder.serializedBytes
            }) { CMSError(.invalidParameter, "signed attributes do not encode", underlying: $0) }
            attributes = list
            attributesDER = encoded
            signedBytes = encoded
        }
        let signature: [UInt8]
        do {
            signature = try signer.key.sign(signedBytes, signer.digest)
        } catch let error as CMSError {
            throw error
        } catch {
            throw CMSError(.keyOperationFailed, "the signer's key did not sign", underlying: error)
        }
        return SignerInfo(
            signerIdentifier: identifier, digestAlgorithm: CMSDigest.identifier(signer.digest),
            signedAttributes: attributes, signedAttributesDER: attributesDER, signatureAlgorithm: signatureAlgorithm,
            signature: signature)
    }

    private func signedAttributes(_ content: [UInt8], _ signer: Signer) throws(CMSError) -> [CMSAttribute] {
        try CMSError.converting({ () throws -> [CMSAttribute] in
            var list = [
                CMSAttribute(type: CMSOID.contentType, values: [try contentType.derEncoded()]),
                CMSAttribute(
                    type: CMSOID.messageDigest,
                    values: [try ASN1OctetString([UInt8](Digest.hash(signer.digest, Data(content)))).derEncoded()]),
            ]
            if attributes.contains(.signingTime) {
                list.append(CMSAttribute(type: CMSOID.signingTime, values: [try CMSTime.encoded(signingTime)]))
            }
            if attributes.contains(.smimeCapabilities) {
                list.append(CMSAttribute(type: CMSOID.smimeCapabilities, values: [try Self.capabilities()]))
            }
            let issuerAndSerial = SignerIdentifier.issuerAndSerialNumber(
                issuer: signer.certificate.issuer.derBytes, serialNumber: signer.certificate.serialNumber)
            if attributes.contains(.encryptionKeyPreference) {
                // SMIMEEncryptionKeyPreference ::= CHOICE { issuerAndSerialNumber [0] IMPLICIT … }
                var coder = DER.Serializer()
                try issuerAndSerial.serialize(into: &coder)
                var value = coder.serializedBytes
                value[0] = 0xA0
                list.append(CMSAttribute(type: CMSOID.encryptionKeyPreference, values: [value]))
            }
            if attributes.contains(.microsoftEncryptionKeyPreference) {
                var coder = DER.Serializer()
                try issuerAndSerial.serialize(into: &coder)
                list.append(
                    CMSAttribute(type: CMSOID.microsoftEncryptionKeyPreference, values: [coder.serializedBytes]))
            }
            return list + additionalSignedAttributes
        }) { CMSError(.invalidParameter, "signed attributes do not encode", underlying: $0) }
    }

    /// SMIMECapabilities: the content ciphers we decrypt, strongest first (RFC 8551 §2.5.2).
    private static func capabilities() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            for oid in [CMSOID.aes256CBC, CMSOID.aes192CBC, CMSOID.aes128CBC] {
                try coder.appendConstructedNode(identifier: .sequence) { try $0.serialize(oid) }
            }
        }
        return coder.serializedBytes
    }
}
