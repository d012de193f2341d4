import Foundation
import OSecASN1
import OSecCrypto

/// Builds and signs X.509 v3 certificates: self-signed roots, or certificates issued by an issuer certificate + key.
///
/// Times are explicit (no clock is read), so tests and the trust layer can build whole PKIs at a fixed instant.
/// Extensions are emitted in this order: basicConstraints, keyUsage, extKeyUsage, subjectKeyIdentifier,
/// authorityKeyIdentifier, subjectAltName, nameConstraints, then ``additionalExtensions``.
///
/// ```swift
/// var root = CertificateBuilder(subject: try DistinguishedName([(X509OID.commonName, "Root")]),
///                               publicKey: try SubjectPublicKeyInfo(rootKey), notBefore: t0, notAfter: t1)
/// root.basicConstraints = BasicConstraints(isCertificateAuthority: true)
/// root.keyUsage = [.keyCertSign, .cRLSign]
/// let rootCert = try root.selfSigned(with: rootKey)
/// ```
package struct CertificateBuilder: Sendable {
    /// Serial number content octets (two's complement, minimal). Defaults to 16 random bytes, positive.
    package var serialNumber: [UInt8]
    /// The subject name (also the issuer of a self-signed certificate).
    package var subject: DistinguishedName
    /// The subject's public key (any encoding: it is written as given).
    package var publicKey: SubjectPublicKeyInfo
    /// Start of the validity period.
    package var notBefore: X509Time
    /// End of the validity period.
    package var notAfter: X509Time
    /// `nil` → no extension. Marked critical (RFC 5280 §4.2.1.9 for CAs; also what OpenSSL's `v3_ca` does).
    package var basicConstraints: BasicConstraints?
    /// `nil` → no extension. Critical.
    package var keyUsage: KeyUsage?
    /// `nil` → no extension. Not critical.
    package var extendedKeyUsage: [ASN1ObjectIdentifier]?
    /// `nil` → no extension. Critical only when the subject is empty (RFC 5280 §4.2.1.6).
    package var subjectAlternativeNames: [GeneralName]?
    /// `nil` → no extension. Critical.
    package var nameConstraints: NameConstraints?
    /// SHA-1 of the subject public key (RFC 5280 §4.2.1.2 method 1).
    package var includesSubjectKeyIdentifier = true
    /// The issuer's SKI (or the SHA-1 of its key when it has none).
    package var includesAuthorityKeyIdentifier = true
    /// Raw extensions appended after the typed ones (e.g. certificatePolicies, an unknown critical extension).
    package var additionalExtensions: [Extension] = []
    /// The version to encode. v1/v2 certificates cannot carry extensions: turn off SKI/AKI and leave the typed
    /// extensions nil (building throws `X509Error.Code.invalidValue` otherwise). For trust tests of legacy roots.
    package var version: Certificate.Version = .v3
    /// `nil` → chosen from the signing key (RSA: PKCS#1 v1.5 SHA-256; EC: ECDSA SHA-256/384/512 by curve).
    package var signatureAlgorithm: SignatureAlgorithm?

    /// A builder for `subject`'s key and validity; `serialNumber` nil draws 16 random octets. The typed extensions
    /// start unset; subjectKeyIdentifier and authorityKeyIdentifier are included unless turned off.
    package init(
        subject: DistinguishedName, publicKey: SubjectPublicKeyInfo, notBefore: X509Time, notAfter: X509Time,
        serialNumber: [UInt8]? = nil
    ) throws(X509Error) {
        self.subject = subject
        self.publicKey = publicKey
        self.notBefore = notBefore
        self.notAfter = notAfter
        if let serialNumber {
            self.serialNumber = serialNumber
        } else {
            self.serialNumber = try CertificateBuilder.randomSerial()
        }
    }

    /// A builder for the subject, key and requested extensions of a CSR (the CSR signature is not checked here).
    package init(request: CertificateSigningRequest, notBefore: X509Time, notAfter: X509Time) throws(X509Error) {
        try self.init(
            subject: request.subject, publicKey: request.publicKeyInfo, notBefore: notBefore, notAfter: notAfter)
        let requested = try request.requestedExtensions
        basicConstraints = try requested.basicConstraints
        keyUsage = try requested.keyUsage
        extendedKeyUsage = try requested.extendedKeyUsage?.usages
        subjectAlternativeNames = try requested.subjectAlternativeNames
        nameConstraints = try requested.nameConstraints
        let typed: [ASN1ObjectIdentifier] = [
            X509OID.basicConstraints, X509OID.keyUsage, X509OID.extKeyUsage, X509OID.subjectAltName,
            X509OID.nameConstraints, X509OID.subjectKeyIdentifier, X509OID.authorityKeyIdentifier,
        ]
        additionalExtensions = requested.all.filter { !typed.contains($0.oid) }
    }

    /// 16 random octets, made positive and minimal.
    package static func randomSerial() throws(X509Error) -> [UInt8] {
        var bytes: [UInt8]
        do {
            bytes = [UInt8](try SecureRandom.bytes(16))
        } catch {
            throw X509Error(.cryptoFailure, "no randomness for a serial number", underlying: error)
        }
        bytes[0] = (bytes[0] & 0x7F) | 0x01  // positive, and the first octet is never 0 (minimal encoding)
        return bytes
    }

    // MARK: Signing

    /// A self-signed certificate (issuer = subject); `privateKey` must match ``publicKey``.
    package func selfSigned(with privateKey: AsymmetricKey) throws(X509Error) -> Certificate {
        let ownKey = try SubjectPublicKeyInfo(privateKey)
        guard ownKey.keyBytes == publicKey.keyBytes else {
            throw X509Error(.invalidKey, "the signing key does not match the certificate's public key")
        }
        let keyID = Array(OSecCryptoDigest.sha1(publicKey.keyBytes))
        return try sign(issuer: subject, issuerKeyID: keyID, with: privateKey)
    }

    /// A certificate issued by `issuer`, signed with `issuerKey` (which must match the issuer certificate's key).
    package func issued(by issuer: Certificate, issuerKey: AsymmetricKey) throws(X509Error) -> Certificate {
        let signerKey = try SubjectPublicKeyInfo(issuerKey)
        guard signerKey.keyBytes == issuer.publicKeyInfo.keyBytes else {
            throw X509Error(.invalidKey, "the issuer key does not match the issuer certificate")
        }
        let keyID =
            (try? issuer.extensions.subjectKeyIdentifier).flatMap { $0.map(Array.init) }
            ?? Array(OSecCryptoDigest.sha1(issuer.publicKeyInfo.keyBytes))
        return try sign(issuer: issuer.subject, issuerKeyID: keyID, with: issuerKey)
    }

    /// The extension list this builder emits for an issuer key identifier.
    package func extensions(issuerKeyID: [UInt8]) throws(X509Error) -> [Extension] {
        try X509Error.wrapping("cannot encode extensions") {
            var list: [Extension] = []
            if let basicConstraints {
                list.append(
                    Extension(oid: X509OID.basicConstraints, critical: true, value: try basicConstraints.encodedValue())
                )
            }
            if let keyUsage {
                list.append(Extension(oid: X509OID.keyUsage, critical: true, value: keyUsage.encodedValue()))
            }
            if let extendedKeyUsage {
                list.append(
                    Extension(
                        oid: X509OID.extKeyUsage, critical: false,
                        value: try ExtendedKeyUsage(extendedKeyUsage).encodedValue()))
            }
            if includesSubjectKeyIdentifier {
                var coder = DER.Serializer()
                try coder.serialize(ASN1OctetString(Array(OSecCryptoDigest.sha1(publicKey.keyBytes))))
                list.append(Extension(oid: X509OID.subjectKeyIdentifier, critical: false, value: coder.serializedBytes))
            }
            if includesAuthorityKeyIdentifier {
                list.append(
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try AuthorityKeyIdentifier(keyIdentifier: issuerKeyID).encodedValue()))
            }
            if let subjectAlternativeNames {
                var coder = DER.Serializer()
                try GeneralName.encodeList(subjectAlternativeNames, into: &coder)
                list.append(
                    Extension(oid: X509OID.subjectAltName, critical: subject.isEmpty, value: coder.serializedBytes))
            }
            if let nameConstraints {
                list.append(
                    Extension(oid: X509OID.nameConstraints, critical: true, value: try nameConstraints.encodedValue()))
            }
            list.append(contentsOf: additionalExtensions)
            _ = try Extensions(list)  // rejects duplicates (e.g. an additional extension repeating a typed one)
            return list
        }
    }

    private func sign(
        issuer: DistinguishedName, issuerKeyID: [UInt8], with key: AsymmetricKey
    ) throws(X509Error) -> Certificate {
        guard key.isPrivate else { throw X509Error(.invalidKey, "signing needs a private key") }
        guard !serialNumber.isEmpty, (try? ASN1Integer(twosComplementBytes: serialNumber[...])) != nil else {
            throw X509Error(.invalidValue, "serial number must be a minimal non-empty INTEGER encoding")
        }
        let algorithm = signatureAlgorithm ?? SignatureAlgorithm.defaultAlgorithm(for: key)
        let extensionList = try extensions(issuerKeyID: issuerKeyID)
        guard version == .v3 || extensionList.isEmpty else {
            throw X509Error(.invalidValue, "a \(version) certificate cannot carry extensions")
        }
        guard (0...2).contains(version.rawValue) else { throw X509Error(.invalidValue, "unsupported version") }
        let tbs: [UInt8] = try X509Error.wrapping("cannot encode TBSCertificate") {
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                if version != .v1 { try coder.serialize(version.rawValue, explicitlyTaggedWithTagNumber: 0) }
                coder.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: serialNumber) }
                try coder.serialize(algorithm.identifier)
                try coder.serialize(issuer)
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try notBefore.serialize(into: &coder)
                    try notAfter.serialize(into: &coder)
                }
                try coder.serialize(subject)
                try coder.serialize(publicKey)
                if !extensionList.isEmpty {
                    try coder.appendConstructedNode(identifier: .contextSpecific(3, constructed: true)) { coder in
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            for item in extensionList { try item.serialize(into: &coder) }
                        }
                    }
                }
            }
            return coder.serializedBytes
        }
        let signature = try algorithm.sign(tbs, with: key)
        let der: [UInt8] = try X509Error.wrapping("cannot encode certificate") {
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                coder.appendRawBytes(tbs)
                try coder.serialize(algorithm.identifier)
                try coder.serialize(ASN1BitString(bytes: signature[...]))
            }
            return coder.serializedBytes
        }
        return try Certificate(derEncoded: der)
    }
}
