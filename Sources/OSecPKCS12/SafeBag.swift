import Foundation
import OSecASN1

/// One decoded PKCS#12 safe bag (RFC 7292 §4.2), after decryption.
///
/// Shrouded key bags appear as ``privateKey(_:attributes:)`` once decrypted, with
/// ``PrivateKeyBag/wasEncrypted`` set. CRL, secret and unknown bags are kept only as their type so that
/// callers can see they were skipped.
package enum SafeBag: Sendable, Hashable {
    /// A PKCS#8 PrivateKeyInfo (from a KeyBag or a decrypted PKCS8ShroudedKeyBag).
    case privateKey(PrivateKeyBag, attributes: BagAttributes)
    /// An X.509 certificate (DER).
    case certificate(Data, attributes: BagAttributes)
    /// A CRL bag (ignored by import).
    case crl(attributes: BagAttributes)
    /// A secret bag (ignored by import); `typeOID` is the secret's type.
    case secret(typeOID: String, attributes: BagAttributes)
    /// A certificate bag of a non-X.509 type (ignored by import).
    case otherCertificate(typeOID: String, attributes: BagAttributes)
    /// A SafeContentsBag: bags nested one level deeper.
    case safeContents([SafeBag], attributes: BagAttributes)
    /// A bag type we do not know (ignored by import).
    case unknown(typeOID: String, attributes: BagAttributes)

    /// The bag's attributes.
    package var attributes: BagAttributes {
        switch self {
        case .privateKey(_, let attributes), .certificate(_, let attributes), .crl(let attributes),
            .secret(_, let attributes), .otherCertificate(_, let attributes), .safeContents(_, let attributes),
            .unknown(_, let attributes):
            attributes
        }
    }
}

/// A private key as PKCS#8 PrivateKeyInfo DER.
package struct PrivateKeyBag: Sendable, Hashable {
    /// PrivateKeyInfo DER (decrypted).
    package let pkcs8: Data
    /// True when it came from a PKCS8ShroudedKeyBag.
    package let wasEncrypted: Bool

    package init(pkcs8: Data, wasEncrypted: Bool) {
        self.pkcs8 = pkcs8
        self.wasEncrypted = wasEncrypted
    }
}

/// The PKCS#9 attributes PKCS#12 uses to label and pair bags.
package struct BagAttributes: Sendable, Hashable {
    /// `friendlyName` (a BMPString).
    package var friendlyName: String?
    /// `localKeyId` (an OCTET STRING), pairing a key with its certificate.
    package var localKeyID: Data?

    package init(friendlyName: String? = nil, localKeyID: Data? = nil) {
        self.friendlyName = friendlyName
        self.localKeyID = localKeyID
    }
}

// MARK: ASN1 helpers

/// `SafeBag ::= SEQUENCE { bagId OID, bagValue [0] EXPLICIT ANY, bagAttributes SET OF PKCS12Attribute OPTIONAL }`.
struct SafeBagValue {
    var bagID: ASN1ObjectIdentifier
    var value: ASN1Node
    var attributes: BagAttributes

    init(derEncoded node: ASN1Node) throws {
        (bagID, value, attributes) = try DER.sequence(node) { nodes in
            let bagID = try ASN1ObjectIdentifier(derEncoded: &nodes)
            guard let wrapper = nodes.next() else { throw PKCS12Error.malformed("SafeBag without a value") }
            let value = try DER.explicitlyTagged(wrapper, tagNumber: 0) { $0 }
            var attributes = BagAttributes()
            if let set = nodes.next() {
                attributes = try SafeBagValue.parseAttributes(set)
            }
            return (bagID, value, attributes)
        }
    }

    /// Reads friendlyName and localKeyId; other attributes are skipped. Under BER the SET need not be sorted.
    private static func parseAttributes(_ node: ASN1Node) throws -> BagAttributes {
        var result = BagAttributes()
        try DER.set(node) { attributes in
            while let attribute = attributes.next() {
                try DER.sequence(attribute) { fields in
                    let oid = try ASN1ObjectIdentifier(derEncoded: &fields)
                    guard let values = fields.next() else { throw PKCS12Error.malformed("attribute without values") }
                    let first = try DER.set(values) { items -> ASN1Node? in
                        let first = items.next()
                        items.skipRemaining()
                        return first
                    }
                    guard let first else { return }
                    switch oid {
                    case PKCS12OID.friendlyName:
                        // Some producers use UTF8String; BMPString is the standard.
                        if first.identifier.hasSameTag(as: .utf8String) {
                            result.friendlyName = try ASN1UTF8String(derEncoded: first).string
                        } else {
                            result.friendlyName = try ASN1BMPString(derEncoded: first).string
                        }
                    case PKCS12OID.localKeyID:
                        result.localKeyID = Data(try ASN1OctetString(derEncoded: first).bytes)
                    default:
                        break
                    }
                }
            }
        }
        return result
    }

    /// Appends a SafeBag with the given value and attributes.
    static func serialize(
        bagID: ASN1ObjectIdentifier, attributes: BagAttributes, into coder: inout DER.Serializer,
        value: (inout DER.Serializer) throws -> Void
    ) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(bagID)
            try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { try value(&$0) }
            guard attributes.friendlyName != nil || attributes.localKeyID != nil else { return }
            var encoded: [[UInt8]] = []
            if let name = attributes.friendlyName {
                var attribute = DER.Serializer()
                try attribute.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(PKCS12OID.friendlyName)
                    try coder.appendConstructedNode(identifier: .set) { try $0.serialize(try ASN1BMPString(name)) }
                }
                encoded.append(attribute.serializedBytes)
            }
            if let keyID = attributes.localKeyID {
                var attribute = DER.Serializer()
                try attribute.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(PKCS12OID.localKeyID)
                    try coder.appendConstructedNode(identifier: .set) {
                        try $0.serialize(ASN1OctetString([UInt8](keyID)))
                    }
                }
                encoded.append(attribute.serializedBytes)
            }
            encoded.sort { $0.lexicographicallyPrecedes($1) }  // DER SET OF order
            coder.appendConstructedNode(identifier: .set) { coder in
                for bytes in encoded { coder.appendRawBytes(bytes) }
            }
        }
    }
}
