import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// How a SignerInfo names its certificate (RFC 5652 §5.3).
package enum SignerIdentifier: Sendable, Hashable {
    /// The issuer's Name (DER, as encoded) and the serial number's content octets.
    case issuerAndSerialNumber(issuer: ArraySlice<UInt8>, serialNumber: ArraySlice<UInt8>)
    /// The certificate's subjectKeyIdentifier.
    case subjectKeyIdentifier(ArraySlice<UInt8>)

    /// Whether `certificate` is the one named.
    package func matches(_ certificate: Certificate) -> Bool {
        switch self {
        case .issuerAndSerialNumber(let issuer, let serial):
            return certificate.serialNumber.elementsEqual(serial)
                && (certificate.issuer.derBytes.elementsEqual(issuer)
                    || (try? DistinguishedName(derEncoded: DER.parse(issuer, rules: .basic)))
                        .map { $0 == certificate.issuer } == true)
        case .subjectKeyIdentifier(let identifier):
            guard let own = try? certificate.extensions.subjectKeyIdentifier else { return false }
            return own.elementsEqual(identifier)
        }
    }

    init(derEncoded node: ASN1Node) throws {
        if node.identifier.tagClass == .contextSpecific && node.identifier.tagNumber == 0 {
            let identifier = try ASN1OctetString(
                derEncoded: node, withIdentifier: .contextSpecific(0, constructed: false))
            self = .subjectKeyIdentifier(identifier.bytes)
            return
        }
        self = try DER.sequence(node) { nodes in
            guard let issuer = nodes.next(), issuer.identifier.hasSameTag(as: .sequence) else {
                throw CMSError.malformed("IssuerAndSerialNumber without an issuer Name")
            }
            let serial = try ASN1Integer(derEncoded: &nodes, withIdentifier: .integer)
            return .issuerAndSerialNumber(issuer: issuer.encodedBytes, serialNumber: serial.bytes)
        }
    }

    /// The identifier of `certificate` in this form.
    package init(_ certificate: Certificate, useSubjectKeyIdentifier: Bool) throws(CMSError) {
        if useSubjectKeyIdentifier {
            guard let identifier = try? certificate.extensions.subjectKeyIdentifier else {
                throw CMSError(.invalidParameter, "the signer certificate has no subjectKeyIdentifier")
            }
            self = .subjectKeyIdentifier(identifier)
        } else {
            self = .issuerAndSerialNumber(issuer: certificate.issuer.derBytes, serialNumber: certificate.serialNumber)
        }
    }

    func serialize(into coder: inout DER.Serializer) throws {
        switch self {
        case .issuerAndSerialNumber(let issuer, let serial):
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                coder.appendRawBytes(issuer)
                try coder.serialize(try ASN1Integer(twosComplementBytes: serial))
            }
        case .subjectKeyIdentifier(let identifier):
            try coder.serialize(
                ASN1OctetString(bytes: identifier), withIdentifier: .contextSpecific(0, constructed: false))
        }
    }
}

/// One SignerInfo (RFC 5652 §5.3), as encoded.
package struct SignerInfo: Sendable {
    /// 1 (issuerAndSerialNumber) or 3 (subjectKeyIdentifier).
    package let version: Int
    /// Which certificate signed.
    package let signerIdentifier: SignerIdentifier
    /// The digest algorithm.
    package let digestAlgorithm: AlgorithmIdentifier
    /// The signed attributes, or nil when absent (the signature is then over the content itself).
    package let signedAttributes: [CMSAttribute]?
    /// The DER encoding of the signed attributes with the SET OF tag: the bytes the signature covers.
    package let signedAttributesDER: [UInt8]?
    /// The signature algorithm.
    package let signatureAlgorithm: AlgorithmIdentifier
    /// The signature value.
    package let signature: ArraySlice<UInt8>
    /// The unsigned attributes (empty when absent).
    package let unsignedAttributes: [CMSAttribute]

    init(derEncoded node: ASN1Node) throws {
        var version = 0
        var identifier: SignerIdentifier?
        var digest: AlgorithmIdentifier?
        var signed: [CMSAttribute]?
        var signedDER: [UInt8]?
        var signatureAlgorithm: AlgorithmIdentifier?
        var signature: ArraySlice<UInt8> = []
        var unsigned: [CMSAttribute] = []
        try DER.sequence(node) { nodes in
            version = try Int(derEncoded: &nodes, withIdentifier: .integer)
            guard let sid = nodes.next() else { throw CMSError.malformed("SignerInfo without sid") }
            identifier = try SignerIdentifier(derEncoded: sid)
            guard let digestNode = nodes.next() else { throw CMSError.malformed("SignerInfo without digest") }
            digest = try AlgorithmIdentifier(derEncoded: digestNode)
            if let next = nodes.peekIdentifier(), next.tagClass == .contextSpecific, next.tagNumber == 0,
                let attributes = nodes.next()
            {
                signed = try SignerInfo.attributes(attributes)
                signedDER = try SignerInfo.signedBytes(attributes)
            }
            guard let algorithmNode = nodes.next() else { throw CMSError.malformed("SignerInfo without algorithm") }
            signatureAlgorithm = try AlgorithmIdentifier(derEncoded: algorithmNode)
            signature = try ASN1OctetString(derEncoded: &nodes, withIdentifier: .octetString).bytes
            if let next = nodes.peekIdentifier(), next.tagClass == .contextSpecific, next.tagNumber == 1,
                let attributes = nodes.next()
            {
                unsigned = try SignerInfo.attributes(attributes)
            }
        }
        guard let identifier, let digest, let signatureAlgorithm else { throw CMSError.malformed("SignerInfo") }
        guard (signed?.count ?? 0) + unsigned.count <= CMSLimits.maximumAttributeCount else {
            throw CMSError(.resourceLimit, "more than \(CMSLimits.maximumAttributeCount) attributes in a SignerInfo")
        }
        self.version = version
        self.signerIdentifier = identifier
        self.digestAlgorithm = digest
        self.signedAttributes = signed
        self.signedAttributesDER = signedDER
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
        self.unsignedAttributes = unsigned
    }

    init(
        signerIdentifier: SignerIdentifier, digestAlgorithm: AlgorithmIdentifier, signedAttributes: [CMSAttribute]?,
        signedAttributesDER: [UInt8]?, signatureAlgorithm: AlgorithmIdentifier, signature: [UInt8]
    ) {
        if case .subjectKeyIdentifier = signerIdentifier { version = 3 } else { version = 1 }
        self.signerIdentifier = signerIdentifier
        self.digestAlgorithm = digestAlgorithm
        self.signedAttributes = signedAttributes
        self.signedAttributesDER = signedAttributesDER
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature[...]
        self.unsignedAttributes = []
    }

    private static func attributes(_ node: ASN1Node) throws -> [CMSAttribute] {
        guard let children = node.children else { throw CMSError.malformed("attributes are not a SET") }
        try CMSLimits.check(children, maximum: CMSLimits.maximumAttributeCount, "attributes")
        var result: [CMSAttribute] = []
        for child in children {
            guard result.count < CMSLimits.maximumAttributeCount else {
                throw CMSError(.resourceLimit, "more than \(CMSLimits.maximumAttributeCount) attributes")
            }
            result.append(try CMSAttribute(derEncoded: child))
        }
        return result
    }

    /// The signed attributes as the signature covers them: the DER encoding with the EXPLICIT SET OF tag
    /// (RFC 5652 §5.4). The bytes as received when they were definite-length; BER is re-encoded with definite
    /// lengths (the encoder must have signed DER).
    private static func signedBytes(_ node: ASN1Node) throws -> [UInt8] {
        var bytes = [UInt8](node.encodedBytes)
        if bytes.count >= 2 && bytes[1] != 0x80 {
            bytes[0] = 0x31
            return bytes
        }
        guard let children = node.children else { throw CMSError.malformed("signed attributes are not a SET") }
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .set) { coder in
            for child in children { try child.serialize(into: &coder) }
        }
        return coder.serializedBytes
    }

    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(version)
            try signerIdentifier.serialize(into: &coder)
            try coder.serialize(digestAlgorithm)
            if let signedAttributesDER {
                // The same content under the IMPLICIT [0] tag.
                var tagged = signedAttributesDER
                tagged[0] = 0xA0
                coder.appendRawBytes(tagged)
            }
            try coder.serialize(signatureAlgorithm)
            try coder.serialize(ASN1OctetString(bytes: signature))
        }
    }

    // MARK: Attribute accessors

    /// The content-type attribute's OID, if present.
    package func contentTypeAttribute() throws(CMSError) -> ASN1ObjectIdentifier? {
        guard let attribute = try signedAttributes?.unique(CMSOID.contentType) else { return nil }
        let node = try attribute.singleValue()
        return try CMSError.decoding("content-type attribute") { try ASN1ObjectIdentifier(derEncoded: node) }
    }

    /// The message-digest attribute's value, if present.
    package func messageDigestAttribute() throws(CMSError) -> [UInt8]? {
        guard let attribute = try signedAttributes?.unique(CMSOID.messageDigest) else { return nil }
        let node = try attribute.singleValue()
        return try CMSError.decoding("message-digest attribute") {
            [UInt8](try ASN1OctetString(derEncoded: node).bytes)
        }
    }

    /// The signing-time attribute in seconds since 1970, if present.
    package func signingTime() throws(CMSError) -> Int64? {
        guard let attribute = try signedAttributes?.unique(CMSOID.signingTime) else { return nil }
        return try CMSTime.seconds(try attribute.singleValue())
    }
}
