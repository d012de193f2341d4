import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// A parsed `ContentInfo` (RFC 5652 §3): the kinds of message we read.
package enum CMSMessage: Sendable {
    /// id-signedData.
    case signedData(SignedData)
    /// id-envelopedData.
    case envelopedData(EnvelopedData)
    /// id-ct-authEnvelopedData (RFC 5083).
    case authEnvelopedData(EnvelopedData)
    /// id-data: the octets themselves.
    case data([UInt8])

    /// Parses a ContentInfo from DER or BER (indefinite lengths, constructed OCTET STRINGs), within ``CMSLimits``.
    package static func parse(_ bytes: [UInt8]) throws(CMSError) -> CMSMessage {
        guard bytes.count <= CMSLimits.maximumMessageSize else {
            throw CMSError(.resourceLimit, "message larger than \(CMSLimits.maximumMessageSize) bytes")
        }
        guard !bytes.isEmpty else { throw CMSError.malformed("empty message") }
        let root = try CMSError.decoding("ContentInfo") { try DER.parse(bytes, rules: .basic) }
        return try CMSError.decoding("ContentInfo") {
            try DER.sequence(root) { nodes in
                let type = try ASN1ObjectIdentifier(derEncoded: &nodes, withIdentifier: .objectIdentifier)
                guard let content = nodes.next() else {
                    throw CMSError.malformed("ContentInfo without content")
                }
                let inner = try DER.explicitlyTagged(content, tagNumber: 0) { $0 }
                switch type {
                case CMSOID.signedData: return .signedData(try SignedData(derEncoded: inner))
                case CMSOID.envelopedData:
                    return .envelopedData(try EnvelopedData(derEncoded: inner, authenticated: false))
                case CMSOID.authEnvelopedData:
                    return .authEnvelopedData(try EnvelopedData(derEncoded: inner, authenticated: true))
                case CMSOID.data: return .data([UInt8](try ASN1OctetString(derEncoded: inner).bytes))
                default: throw CMSError(.unsupportedAlgorithm, "unsupported content type \(type.dotted)")
                }
            }
        }
    }

    /// Encodes `inner` (an encoded content) as a ContentInfo of `type`.
    static func contentInfo(_ type: ASN1ObjectIdentifier, _ inner: [UInt8]) throws -> [UInt8] {
        var coder = DER.Serializer(reservingCapacity: inner.count + 32)
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(type)
            coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { $0.appendRawBytes(inner) }
        }
        return coder.serializedBytes
    }
}

/// A SignedData (RFC 5652 §5.1), as encoded.
package struct SignedData: Sendable {
    /// The CMSVersion.
    package let version: Int
    /// The digest algorithms listed for the signers.
    package let digestAlgorithms: [AlgorithmIdentifier]
    /// eContentType.
    package let contentType: ASN1ObjectIdentifier
    /// eContent's octets, nil for a detached signature.
    package let content: [UInt8]?
    /// Every X.509 certificate of the certificate set (other certificate formats are skipped).
    package let certificates: [Certificate]
    /// The signers.
    package let signers: [SignerInfo]

    init(derEncoded node: ASN1Node) throws {
        var version = 0
        var digests: [AlgorithmIdentifier] = []
        var contentType: ASN1ObjectIdentifier = CMSOID.data
        var content: [UInt8]?
        var certificates: [Certificate] = []
        var signers: [SignerInfo] = []
        try DER.sequence(node) { nodes in
            version = try Int(derEncoded: &nodes, withIdentifier: .integer)
            guard let digestSet = nodes.next(), digestSet.identifier.hasSameTag(as: .set),
                let digestNodes = digestSet.children
            else { throw CMSError.malformed("SignedData without digestAlgorithms") }
            try CMSLimits.check(digestNodes, maximum: CMSLimits.maximumSignerCount, "digest algorithms")
            for digest in digestNodes {
                guard digests.count < CMSLimits.maximumSignerCount else {
                    throw CMSError(.resourceLimit, "more than \(CMSLimits.maximumSignerCount) digest algorithms")
                }
                digests.append(try AlgorithmIdentifier(derEncoded: digest))
            }
            guard let encapsulated = nodes.next() else { throw CMSError.malformed("SignedData without content") }
            try DER.sequence(encapsulated) { inner in
                contentType = try ASN1ObjectIdentifier(derEncoded: &inner, withIdentifier: .objectIdentifier)
                content = try DER.optionalExplicitlyTagged(&inner, tagNumber: 0) { eContent in
                    [UInt8](try ASN1OctetString(derEncoded: eContent).bytes)
                }
            }
            if let next = nodes.peekIdentifier(), next.tagClass == .contextSpecific, next.tagNumber == 0,
                let set = nodes.next()
            {
                certificates = try SignedData.certificates(set)
            }
            if let next = nodes.peekIdentifier(), next.tagClass == .contextSpecific, next.tagNumber == 1 {
                _ = nodes.next()  // revocation information: not used for signer status
            }
            guard let signerSet = nodes.next(), signerSet.identifier.hasSameTag(as: .set),
                let signerNodes = signerSet.children
            else { throw CMSError.malformed("SignedData without signerInfos") }
            try CMSLimits.check(signerNodes, maximum: CMSLimits.maximumSignerCount, "signers")
            for signer in signerNodes {
                guard signers.count < CMSLimits.maximumSignerCount else {
                    throw CMSError(.resourceLimit, "more than \(CMSLimits.maximumSignerCount) signers")
                }
                signers.append(try SignerInfo(derEncoded: signer))
            }
        }
        self.version = version
        self.digestAlgorithms = digests
        self.contentType = contentType
        self.content = content
        self.certificates = certificates
        self.signers = signers
    }

    /// A copy of `other` carrying `certificates` instead of its own.
    package init(copying other: SignedData, certificates: [Certificate]) {
        self.init(
            version: other.version, digestAlgorithms: other.digestAlgorithms, contentType: other.contentType,
            content: other.content, certificates: certificates, signers: other.signers)
    }

    /// Parses an encoded SignedData (the content of a ContentInfo, e.g. decrypted from an EnvelopedData).
    package static func parseContent(_ bytes: [UInt8]) throws(CMSError) -> SignedData {
        guard bytes.count <= CMSLimits.maximumMessageSize else {
            throw CMSError(.resourceLimit, "message larger than \(CMSLimits.maximumMessageSize) bytes")
        }
        return try CMSError.decoding("SignedData") { try SignedData(derEncoded: try DER.parse(bytes, rules: .basic)) }
    }

    init(
        version: Int, digestAlgorithms: [AlgorithmIdentifier], contentType: ASN1ObjectIdentifier, content: [UInt8]?,
        certificates: [Certificate], signers: [SignerInfo]
    ) {
        self.version = version
        self.digestAlgorithms = digestAlgorithms
        self.contentType = contentType
        self.content = content
        self.certificates = certificates
        self.signers = signers
    }

    private static func certificates(_ set: ASN1Node) throws -> [Certificate] {
        guard let children = set.children else { throw CMSError.malformed("certificates are not a SET") }
        try CMSLimits.check(children, maximum: CMSLimits.maximumCertificateCount, "certificates")
        var result: [Certificate] = []
        for child in children where child.identifier.hasSameTag(as: .sequence) {
            guard result.count < CMSLimits.maximumCertificateCount else {
                throw CMSError(.resourceLimit, "more than \(CMSLimits.maximumCertificateCount) certificates")
            }
            // A certificate inside a BER message is normally DER already; re-encode one that is not.
            let bytes = [UInt8](child.encodedBytes)
            if let certificate = try? Certificate(derEncoded: bytes) {
                result.append(certificate)
            } else {
                result.append(try Certificate(derEncoded: try child.derEncoded()))
            }
        }
        return result
    }

    /// The DER encoding of this SignedData as a ContentInfo.
    package func contentInfoDER() throws(CMSError) -> [UInt8] {
        try CMSError.converting({
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(version)
                var digestEncodings: [[UInt8]] = []
                for digest in digestAlgorithms { digestEncodings.append(try digest.derEncoded()) }
                let unique = Set(digestEncodings).sorted { $0.lexicographicallyPrecedes($1) }
                coder.appendConstructedNode(identifier: .set) { coder in
                    for encoding in unique { coder.appendRawBytes(encoding) }
                }
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(contentType)
                    if let content {
                        try coder.serialize(ASN1OctetString(content), explicitlyTaggedWithTagNumber: 0)
                    }
                }
                if !certificates.isEmpty {
                    let sorted = certificates.map(\.derBytes).sorted { $0.lexicographicallyPrecedes($1) }
                    coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                        for certificate in sorted { coder.appendRawBytes(certificate) }
                    }
                }
                var signerEncodings: [[UInt8]] = []
                for signer in signers {
                    var signerCoder = DER.Serializer()
                    try signer.serialize(into: &signerCoder)
                    signerEncodings.append(signerCoder.serializedBytes)
                }
                signerEncodings.sort { $0.lexicographicallyPrecedes($1) }
                coder.appendConstructedNode(identifier: .set) { coder in
                    for encoding in signerEncodings { coder.appendRawBytes(encoding) }
                }
            }
            return try CMSMessage.contentInfo(CMSOID.signedData, coder.serializedBytes)
        }) { CMSError(.invalidParameter, "SignedData does not encode", underlying: $0) }
    }
}
