import Foundation
import OSecASN1
import OSecCrypto

/// An X.509 v1/v2/v3 certificate (RFC 5280), parsed from DER and kept with its exact bytes.
///
/// Equality and hashing use the DER bytes. Signatures are checked over ``tbsBytes`` exactly as received.
/// Extensions are stored raw and decoded on demand through the throwing accessors of ``Extensions``.
/// Copies are cheap (one reference to immutable storage).
package struct Certificate: Sendable {
    final class Storage: Sendable {
        let derBytes: [UInt8]
        let tbsBytes: ArraySlice<UInt8>
        /// Raw version number: 0 = v1, 1 = v2, 2 = v3.
        let versionNumber: Int
        let versionEncoded: Bool
        let serialNumber: ArraySlice<UInt8>
        let tbsSignatureAlgorithm: SignatureAlgorithm
        let issuer: DistinguishedName
        let notBefore: X509Time
        let notAfter: X509Time
        let subject: DistinguishedName
        let publicKeyInfo: SubjectPublicKeyInfo
        let issuerUniqueID: ArraySlice<UInt8>?
        let subjectUniqueID: ArraySlice<UInt8>?
        let extensions: Extensions
        let extensionsPresent: Bool
        let signatureAlgorithm: SignatureAlgorithm
        let signature: ArraySlice<UInt8>

        init(
            derBytes: [UInt8], tbsBytes: ArraySlice<UInt8>, versionNumber: Int, versionEncoded: Bool,
            serialNumber: ArraySlice<UInt8>, tbsSignatureAlgorithm: SignatureAlgorithm, issuer: DistinguishedName,
            notBefore: X509Time, notAfter: X509Time, subject: DistinguishedName, publicKeyInfo: SubjectPublicKeyInfo,
            issuerUniqueID: ArraySlice<UInt8>?, subjectUniqueID: ArraySlice<UInt8>?, extensions: Extensions,
            extensionsPresent: Bool, signatureAlgorithm: SignatureAlgorithm, signature: ArraySlice<UInt8>
        ) {
            self.derBytes = derBytes
            self.tbsBytes = tbsBytes
            self.versionNumber = versionNumber
            self.versionEncoded = versionEncoded
            self.serialNumber = serialNumber
            self.tbsSignatureAlgorithm = tbsSignatureAlgorithm
            self.issuer = issuer
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.subject = subject
            self.publicKeyInfo = publicKeyInfo
            self.issuerUniqueID = issuerUniqueID
            self.subjectUniqueID = subjectUniqueID
            self.extensions = extensions
            self.extensionsPresent = extensionsPresent
            self.signatureAlgorithm = signatureAlgorithm
            self.signature = signature
        }
    }

    let storage: Storage

    /// The certificate version.
    package struct Version: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The encoded value: 0 = v1, 1 = v2, 2 = v3.
        package let rawValue: Int
        /// A version by its encoded number (0 = v1).
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// X.509 v1 (no extensions, no unique identifiers).
        package static let v1 = Version(rawValue: 0)
        /// X.509 v2 (unique identifiers, no extensions).
        package static let v2 = Version(rawValue: 1)
        /// X.509 v3 (extensions).
        package static let v3 = Version(rawValue: 2)
        /// Older versions first.
        package static func < (lhs: Version, rhs: Version) -> Bool { lhs.rawValue < rhs.rawValue }
        /// `v1`, `v2` or `v3`.
        package var description: String { "v\(rawValue + 1)" }
    }

    // MARK: Accessors

    /// The complete DER encoding (exactly the parsed bytes; trailing bytes are never part of it).
    package var derBytes: [UInt8] { storage.derBytes }
    /// The signed `TBSCertificate` bytes, exactly as received.
    package var tbsBytes: ArraySlice<UInt8> { storage.tbsBytes }
    /// The version (v1 when the field is absent).
    package var version: Version { Version(rawValue: storage.versionNumber) }
    /// The serial number INTEGER content octets as encoded (leading 0x00 kept; may be negative).
    package var serialNumber: ArraySlice<UInt8> { storage.serialNumber }
    /// The signature algorithm inside the TBS (must equal ``signatureAlgorithm`` for a valid signature).
    package var tbsSignatureAlgorithm: SignatureAlgorithm { storage.tbsSignatureAlgorithm }
    /// The issuer name, as encoded.
    package var issuer: DistinguishedName { storage.issuer }
    /// The subject name, as encoded.
    package var subject: DistinguishedName { storage.subject }
    /// The start of the validity period (inclusive).
    package var notBefore: X509Time { storage.notBefore }
    /// The end of the validity period (inclusive).
    package var notAfter: X509Time { storage.notAfter }
    /// The subject's public key.
    package var publicKeyInfo: SubjectPublicKeyInfo { storage.publicKeyInfo }
    /// The issuerUniqueID BIT STRING payload, if present (v2 and v3 only).
    package var issuerUniqueID: ArraySlice<UInt8>? { storage.issuerUniqueID }
    /// The subjectUniqueID BIT STRING payload, if present (v2 and v3 only).
    package var subjectUniqueID: ArraySlice<UInt8>? { storage.subjectUniqueID }
    /// The extensions, in encoding order (empty for v1/v2 certificates without any).
    package var extensions: Extensions { storage.extensions }
    /// The outer signature algorithm.
    package var signatureAlgorithm: SignatureAlgorithm { storage.signatureAlgorithm }
    /// The signature BIT STRING payload.
    package var signature: ArraySlice<UInt8> { storage.signature }

    /// Whether issuer and subject are byte-identical (a self-issued certificate, RFC 5280 §6.1).
    package var isSelfIssued: Bool { storage.issuer.derBytes == storage.subject.derBytes }

    /// Whether the time lies within [notBefore, notAfter] (inclusive, RFC 5280 §4.1.2.5).
    package func isValid(atSecondsSinceEpoch time: Int64) -> Bool {
        storage.notBefore.secondsSinceEpoch <= time && time <= storage.notAfter.secondsSinceEpoch
    }

    /// SHA-1 of the DER (Apple's certificate digest, `security find-certificate -Z`).
    package var sha1Fingerprint: Data { OSecCryptoDigest.sha1(storage.derBytes) }
    /// SHA-256 of the DER.
    package var sha256Fingerprint: Data { OSecCryptoDigest.sha256(storage.derBytes) }
}

extension Certificate: Hashable {
    /// Certificates are equal when their DER encodings are.
    package static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.storage === rhs.storage || ByteEquality.equal(lhs.storage.derBytes[...], rhs.storage.derBytes[...])
    }
    /// Hashes the DER encoding.
    package func hash(into hasher: inout Hasher) { hasher.combine(storage.derBytes) }
}

// MARK: - Parsing

extension Certificate {
    /// Parses a DER certificate. The input must be exactly one certificate (no trailing bytes).
    package init(derEncoded bytes: [UInt8]) throws(X509Error) {
        let node: ASN1Node
        do {
            node = try DER.parse(bytes)
        } catch {
            throw X509Error(.malformed, "certificate is not valid DER", underlying: error)
        }
        self = try X509Error.wrapping("malformed certificate") { try Certificate(node: node, bytes: bytes) }
    }

    /// Parses a certificate from `Data` (one copy into an array).
    package init(derEncoded data: Data) throws(X509Error) {
        try self.init(derEncoded: [UInt8](data))
    }

    /// Parses the first DER certificate of `bytes`, ignoring anything after it (Apple's
    /// `SecCertificateCreateWithData` behaviour). Where it ends comes from OSecASN1's header reader (DER rules).
    package init(derEncodedPrefixOf bytes: [UInt8]) throws(X509Error) {
        let length: Int
        do {
            let header = try ASN1Header(reading: bytes[...])
            guard header.identifier == .sequence, let encodedLength = header.encodedLength else {
                throw X509Error(.malformed, "not a DER SEQUENCE")
            }
            length = encodedLength
        } catch let error as X509Error {
            throw error
        } catch {
            throw X509Error(.malformed, "not a DER SEQUENCE", underlying: error)
        }
        try self.init(derEncoded: length == bytes.count ? bytes : Array(bytes[..<length]))
    }

    private init(node: ASN1Node, bytes: [UInt8]) throws {
        var outer = try NodeReader(node, .sequence, "Certificate")
        let tbs = try outer.next("TBSCertificate")
        let signatureAlgorithm = SignatureAlgorithm(
            identifier: try AlgorithmIdentifier(derEncoded: try outer.next("signatureAlgorithm")))
        let signature = try NodeReader.octetAlignedBitString(try outer.next("signatureValue"), "signatureValue")
        try outer.finish("Certificate")

        var nodes = try NodeReader(tbs, .sequence, "TBSCertificate")
        // version [0] EXPLICIT DEFAULT v1. An explicit v1 is tolerated (OpenSSL does too) and kept for re-encoding.
        var version = 0
        var versionEncoded = false
        if let explicit = nodes.next(ifIdentifier: .contextSpecific(0, constructed: true)) {
            var inner = try NodeReader(explicit, .contextSpecific(0, constructed: true), "version")
            let content = try NodeReader.primitive(try inner.next("version"), .integer, "version")
            try inner.finish("version")
            guard content.count == 1, let value = content.first, value <= 2 else {
                throw X509Error(.invalidValue, "unsupported certificate version")
            }
            version = Int(value)
            versionEncoded = true
        }
        let serial = try NodeReader.primitive(try nodes.next("serialNumber"), .integer, "serialNumber")
        _ = try ASN1Integer(twosComplementBytes: serial)  // minimal two's complement, as OpenSSL requires

        let algorithm = SignatureAlgorithm(identifier: try AlgorithmIdentifier(derEncoded: try nodes.next("signature")))
        let issuer = try DistinguishedName(derEncoded: try nodes.next("issuer"))
        var validity = try NodeReader(try nodes.next("validity"), .sequence, "Validity")
        let notBefore = try X509Time(derEncoded: try validity.next("notBefore"))
        let notAfter = try X509Time(derEncoded: try validity.next("notAfter"))
        try validity.finish("Validity")
        let subject = try DistinguishedName(derEncoded: try nodes.next("subject"))
        let spki = try SubjectPublicKeyInfo(derEncoded: try nodes.next("subjectPublicKeyInfo"))

        var issuerUID: ArraySlice<UInt8>? = nil
        var subjectUID: ArraySlice<UInt8>? = nil
        if let uid = nodes.next(ifIdentifier: .contextSpecific(1, constructed: false)) {
            guard version >= 1 else { throw X509Error(.malformed, "issuerUniqueID in a v1 certificate") }
            issuerUID = uid.encodedBytes
        }
        if let uid = nodes.next(ifIdentifier: .contextSpecific(2, constructed: false)) {
            guard version >= 1 else { throw X509Error(.malformed, "subjectUniqueID in a v1 certificate") }
            subjectUID = uid.encodedBytes
        }
        var extensions = Extensions.empty
        var extensionsPresent = false
        if let wrapper = nodes.next(ifIdentifier: .contextSpecific(3, constructed: true)) {
            // RFC 5280 §4.1.2.9: extensions only in v3. OpenSSL rejects them in v1/v2 certificates.
            guard version == 2 else { throw X509Error(.malformed, "extensions in a v\(version + 1) certificate") }
            var inner = try NodeReader(wrapper, .contextSpecific(3, constructed: true), "extensions")
            extensions = try Extensions(derEncoded: try inner.next("Extensions"))
            try inner.finish("extensions")
            extensionsPresent = true
        }
        try nodes.finish("TBSCertificate")

        storage = Storage(
            derBytes: bytes, tbsBytes: tbs.encodedBytes, versionNumber: version, versionEncoded: versionEncoded,
            serialNumber: serial, tbsSignatureAlgorithm: algorithm, issuer: issuer, notBefore: notBefore,
            notAfter: notAfter, subject: subject, publicKeyInfo: spki, issuerUniqueID: issuerUID,
            subjectUniqueID: subjectUID, extensions: extensions, extensionsPresent: extensionsPresent,
            signatureAlgorithm: signatureAlgorithm, signature: signature)
    }
}

// MARK: - Re-encoding

extension Certificate {
    /// Re-encodes the certificate from its parsed fields (not from the cached bytes).
    /// For every certificate we accept, this reproduces ``derBytes`` exactly; tests rely on it.
    package func reencoded() throws -> [UInt8] {
        let s = storage
        var tbs = DER.Serializer()
        try tbs.appendConstructedNode(identifier: .sequence) { coder in
            if s.versionEncoded { try coder.serialize(s.versionNumber, explicitlyTaggedWithTagNumber: 0) }
            coder.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: s.serialNumber) }
            try coder.serialize(s.tbsSignatureAlgorithm.identifier)
            coder.appendRawBytes(s.issuer.reencoded())
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try s.notBefore.serialize(into: &coder)
                try s.notAfter.serialize(into: &coder)
            }
            coder.appendRawBytes(s.subject.reencoded())
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(s.publicKeyInfo.algorithm)
                try coder.serialize(ASN1BitString(bytes: s.publicKeyInfo.keyBytes))
            }
            if let uid = s.issuerUniqueID { coder.appendRawBytes(uid) }
            if let uid = s.subjectUniqueID { coder.appendRawBytes(uid) }
            if s.extensionsPresent {
                try coder.appendConstructedNode(identifier: .contextSpecific(3, constructed: true)) {
                    try s.extensions.serialize(into: &$0)
                }
            }
        }
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendRawBytes(tbs.serializedBytes)
            try coder.serialize(s.signatureAlgorithm.identifier)
            try coder.serialize(ASN1BitString(bytes: s.signature))
        }
        return coder.serializedBytes
    }
}

extension Certificate: CustomStringConvertible {
    /// Subject, issuer and serial number, for diagnostics.
    package var description: String {
        "Certificate(subject: \(subject.rfc4514String), issuer: \(issuer.rfc4514String), serial: "
            + "\(serialNumber.map { hexByte($0) }.joined()))"
    }
}
