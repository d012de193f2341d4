import Foundation
import OSecASN1
import OSecCrypto

/// A PKCS#10 certification request (RFC 2986), kept with its exact bytes.
package struct CertificateSigningRequest: Sendable {
    /// The complete DER.
    package let derBytes: [UInt8]
    /// The signed `CertificationRequestInfo` bytes.
    package let infoBytes: ArraySlice<UInt8>
    /// The version (0 for v1, the only defined value).
    package let version: Int
    /// The requested subject.
    package let subject: DistinguishedName
    /// The requested key.
    package let publicKeyInfo: SubjectPublicKeyInfo
    /// The attributes as `(type, encoded SET of values)`, in encoding order.
    package let attributes: [(type: ASN1ObjectIdentifier, values: ArraySlice<UInt8>)]
    /// The algorithm of the proof-of-possession signature.
    package let signatureAlgorithm: SignatureAlgorithm
    /// The signature bits.
    package let signature: ArraySlice<UInt8>

    /// The PEM label (`-----BEGIN CERTIFICATE REQUEST-----`).
    package static let pemLabel = "CERTIFICATE REQUEST"

    /// Parses a DER CSR (exactly one structure, no trailing bytes).
    package init(derEncoded bytes: [UInt8]) throws(X509Error) {
        let node: ASN1Node
        do {
            node = try DER.parse(bytes)
        } catch {
            throw X509Error(.malformed, "CSR is not valid DER", underlying: error)
        }
        derBytes = bytes
        var info: ArraySlice<UInt8> = []
        var fields:
            (Int, DistinguishedName, SubjectPublicKeyInfo, [(type: ASN1ObjectIdentifier, values: ArraySlice<UInt8>)])?
        var algorithm: SignatureAlgorithm?
        var signatureBytes: ArraySlice<UInt8> = []
        try X509Error.wrapping("malformed CSR") {
            try DER.sequence(node) { nodes in
                guard let infoNode = nodes.next() else {
                    throw X509Error(.malformed, "missing CertificationRequestInfo")
                }
                info = infoNode.encodedBytes
                fields = try DER.sequence(infoNode) { nodes in
                    let version = try Int(derEncoded: &nodes)
                    guard version == 0 else { throw X509Error(.invalidValue, "unsupported CSR version \(version)") }
                    guard let subjectNode = nodes.next() else { throw X509Error(.malformed, "missing subject") }
                    let subject = try DistinguishedName(derEncoded: subjectNode)
                    guard let spkiNode = nodes.next() else { throw X509Error(.malformed, "missing public key") }
                    let spki = try SubjectPublicKeyInfo(derEncoded: spkiNode)
                    // attributes [0] IMPLICIT SET OF Attribute — required by RFC 2986, but some encoders omit it.
                    var attributes: [(type: ASN1ObjectIdentifier, values: ArraySlice<UInt8>)] = []
                    if let attributesNode = nodes.next() {
                        guard attributesNode.identifier == .contextSpecific(0, constructed: true),
                            let children = attributesNode.children
                        else {
                            throw X509Error(.malformed, "CSR attributes are not [0] SET OF")
                        }
                        for child in children {
                            attributes.append(
                                try DER.sequence(child) { nodes in
                                    let type = try ASN1ObjectIdentifier(derEncoded: &nodes)
                                    guard let values = nodes.next(), values.identifier == .set else {
                                        throw X509Error(.malformed, "attribute values are not a SET")
                                    }
                                    return (type, values.encodedBytes)
                                })
                        }
                    }
                    return (version, subject, spki, attributes)
                }
                algorithm = SignatureAlgorithm(identifier: try AlgorithmIdentifier(derEncoded: &nodes))
                let bits = try ASN1BitString(derEncoded: &nodes)
                guard bits.paddingBits == 0 else { throw X509Error(.malformed, "signature has unused bits") }
                signatureBytes = bits.bytes
            }
        }
        guard let fields, let algorithm else { throw X509Error(.malformed, "incomplete CSR") }
        infoBytes = info
        (version, subject, publicKeyInfo, attributes) = fields
        signatureAlgorithm = algorithm
        signature = signatureBytes
    }

    /// Parses exactly one `CERTIFICATE REQUEST` (or `NEW CERTIFICATE REQUEST`) PEM block.
    package init(pemEncoded string: String) throws(X509Error) {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(string: string)
        } catch {
            throw X509Error(.invalidPEM, "malformed PEM", underlying: error)
        }
        let requests = documents.filter {
            $0.type == CertificateSigningRequest.pemLabel || $0.type == "NEW CERTIFICATE REQUEST"
        }
        guard requests.count == 1, let document = requests.first else {
            throw X509Error(.invalidPEM, "expected one CERTIFICATE REQUEST block, found \(requests.count)")
        }
        try self.init(derEncoded: document.derBytes)
    }

    /// PEM text (`CERTIFICATE REQUEST`).
    package var pemString: String {
        PEMDocument(type: CertificateSigningRequest.pemLabel, derBytes: derBytes).pemString
    }

    /// The extensions of the PKCS#9 `extensionRequest` attribute (empty when absent).
    package var requestedExtensions: Extensions {
        get throws(X509Error) {
            guard let attribute = attributes.first(where: { $0.type == X509OID.pkcs9ExtensionRequest }) else {
                return .empty
            }
            return try X509Error.wrapping("malformed extensionRequest") {
                let set = try DER.parse(attribute.values)
                guard let children = set.children else { throw X509Error(.malformed, "extensionRequest is not a SET") }
                var iterator = children.makeIterator()
                guard let first = iterator.next(), iterator.next() == nil else {
                    throw X509Error(.malformed, "extensionRequest must hold exactly one value")
                }
                return try Extensions(derEncoded: first)
            }
        }
    }

    /// Whether the request is signed by the private key of its own public key (proof of possession).
    package var isSignatureValid: Bool {
        guard let key = try? publicKeyInfo.makeKey() else { return false }
        return signatureAlgorithm.verify(signature, over: infoBytes, with: key)
    }

    // MARK: Building

    /// Creates and signs a request. `privateKey` is the subject's key; the algorithm defaults by key type
    /// (RSA: PKCS#1 v1.5 SHA-256; EC: ECDSA SHA-256/384/512 by curve). Extensions go in an extensionRequest attribute.
    package static func create(
        subject: DistinguishedName, subjectAlternativeNames: [GeneralName]? = nil, extensions: [Extension] = [],
        privateKey: AsymmetricKey, signatureAlgorithm: SignatureAlgorithm? = nil
    ) throws(X509Error) -> CertificateSigningRequest {
        guard privateKey.isPrivate else { throw X509Error(.invalidKey, "signing a CSR needs the private key") }
        let spki = try SubjectPublicKeyInfo(privateKey)
        var list = extensions
        if let subjectAlternativeNames {
            let value: [UInt8] = try X509Error.wrapping("cannot encode subjectAltName") {
                var coder = DER.Serializer()
                try GeneralName.encodeList(subjectAlternativeNames, into: &coder)
                return coder.serializedBytes
            }
            list.insert(Extension(oid: X509OID.subjectAltName, critical: subject.isEmpty, value: value), at: 0)
        }
        _ = try Extensions(list)
        let algorithm = signatureAlgorithm ?? SignatureAlgorithm.defaultAlgorithm(for: privateKey)
        let info: [UInt8] = try X509Error.wrapping("cannot encode CertificationRequestInfo") {
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(0)
                try coder.serialize(subject)
                try coder.serialize(spki)
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                    guard !list.isEmpty else { return }
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(X509OID.pkcs9ExtensionRequest)
                        try coder.appendConstructedNode(identifier: .set) { coder in
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                for item in list { try item.serialize(into: &coder) }
                            }
                        }
                    }
                }
            }
            return coder.serializedBytes
        }
        let signature = try algorithm.sign(info, with: privateKey)
        let der: [UInt8] = try X509Error.wrapping("cannot encode CSR") {
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                coder.appendRawBytes(info)
                try coder.serialize(algorithm.identifier)
                try coder.serialize(ASN1BitString(bytes: signature[...]))
            }
            return coder.serializedBytes
        }
        return try CertificateSigningRequest(derEncoded: der)
    }
}

extension CertificateSigningRequest: Hashable {
    /// Requests are equal when their DER encodings are.
    package static func == (lhs: CertificateSigningRequest, rhs: CertificateSigningRequest) -> Bool {
        lhs.derBytes == rhs.derBytes
    }
    /// Hashes the DER encoding.
    package func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}
