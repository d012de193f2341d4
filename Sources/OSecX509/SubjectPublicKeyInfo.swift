import Foundation
import OSecASN1
import OSecCrypto

/// A `SubjectPublicKeyInfo`, kept as encoded.
package struct SubjectPublicKeyInfo: Hashable, Sendable {
    /// The full SPKI encoding.
    package let derBytes: ArraySlice<UInt8>
    /// The key algorithm and its parameters.
    package let algorithm: AlgorithmIdentifier
    /// The `subjectPublicKey` BIT STRING payload (without the unused-bits octet).
    package let keyBytes: ArraySlice<UInt8>

    /// The key kinds we recognise.
    package enum KeyKind: Hashable, Sendable {
        case rsa
        case ec(ECCurve)
        case ed25519
        case ed448
        /// An EC key on a curve we do not support, or another algorithm.
        case unsupported
    }

    /// Decodes `SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`, keeping the encoding.
    package init(derEncoded node: ASN1Node) throws {
        derBytes = node.encodedBytes
        var reader = try NodeReader(node, .sequence, "SubjectPublicKeyInfo")
        algorithm = try AlgorithmIdentifier(derEncoded: try reader.next("algorithm"))
        keyBytes = try NodeReader.octetAlignedBitString(try reader.next("subjectPublicKey"), "subjectPublicKey")
        try reader.finish("SubjectPublicKeyInfo")
    }

    /// Parses an encoded SPKI.
    package init(derEncoded bytes: [UInt8]) throws(X509Error) {
        self = try X509Error.wrapping("malformed SubjectPublicKeyInfo") {
            try SubjectPublicKeyInfo(derEncoded: try DER.parse(bytes))
        }
    }

    /// The key kind, from the algorithm OID and (for EC) the named-curve parameter.
    package var kind: KeyKind {
        let oid = algorithm.oid
        if oid == X509OID.rsaEncryption { return .rsa }
        if oid == X509OID.ed25519 { return .ed25519 }
        if oid == X509OID.ed448 { return .ed448 }
        if oid == X509OID.ecPublicKey, let parameters = algorithm.parameters,
            let node = try? DER.parse(parameters), let curve = try? ASN1ObjectIdentifier(derEncoded: node)
        {
            if curve == X509OID.p256 { return .ec(.p256) }
            if curve == X509OID.p384 { return .ec(.p384) }
            if curve == X509OID.p521 { return .ec(.p521) }
        }
        return .unsupported
    }

    /// Apple's `pkhh` / identity key id: SHA-1 of the BIT STRING payload.
    package var publicKeyHash: Data { Digest.hash(.sha1, Data(keyBytes)) }

    /// The key as a crypto-layer object (RSA, P-256/384/521 and Ed25519).
    package func makeKey() throws(X509Error) -> AsymmetricKey {
        do {
            return try AsymmetricKey(subjectPublicKeyInfo: Data(derBytes))
        } catch {
            throw X509Error(.unsupportedAlgorithm, "public key not usable: \(kind)", underlying: error)
        }
    }

    /// The SPKI of a crypto-layer key.
    package init(_ key: AsymmetricKey) throws(X509Error) {
        let der: Data
        do {
            der = try key.publicKey.subjectPublicKeyInfoDER
        } catch {
            throw X509Error(.invalidKey, "cannot encode public key", underlying: error)
        }
        try self.init(derEncoded: [UInt8](der))
    }
}

extension SubjectPublicKeyInfo: DERSerializable {
    /// Writes the original encoding.
    package func serialize(into coder: inout DER.Serializer) throws { coder.appendRawBytes(derBytes) }
}
