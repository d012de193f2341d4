import OSecASN1
import OSecCrypto
import OSecX509

/// One `Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }` (RFC 5652 §5.3).
package struct CMSAttribute: Sendable, Hashable {
    /// The attribute type.
    package let type: ASN1ObjectIdentifier
    /// The values, each as an encoded node (tag, length, content).
    package let values: [ArraySlice<UInt8>]

    /// An attribute with already-encoded values.
    package init(type: ASN1ObjectIdentifier, values: [[UInt8]]) {
        self.type = type
        self.values = values.map { $0[...] }
    }

    init(derEncoded node: ASN1Node) throws {
        var type: ASN1ObjectIdentifier?
        var values: [ArraySlice<UInt8>] = []
        try DER.sequence(node) { nodes in
            type = try ASN1ObjectIdentifier(derEncoded: &nodes, withIdentifier: .objectIdentifier)
            guard let set = nodes.next(), set.identifier.hasSameTag(as: .set), let children = set.children else {
                throw CMSError.malformed("attribute without a SET of values")
            }
            for value in children { values.append(value.encodedBytes) }
        }
        guard let type, !values.isEmpty else { throw CMSError.malformed("attribute without values") }
        self.type = type
        self.values = values
    }

    /// The single value of an attribute that must have exactly one (content-type, message-digest, signing-time:
    /// RFC 5652 §11), parsed.
    func singleValue() throws(CMSError) -> ASN1Node {
        guard values.count == 1, let value = values.first else {
            throw CMSError.malformed("attribute \(type.dotted) must have exactly one value")
        }
        return try CMSError.decoding("attribute \(type.dotted)") { try DER.parse(value, rules: .basic) }
    }
}

extension CMSAttribute: DERSerializable {
    /// DER: the values as a SET OF, sorted.
    package func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(type)
            let sorted = values.sorted { $0.lexicographicallyPrecedes($1) }
            coder.appendConstructedNode(identifier: .set) { coder in
                for value in sorted { coder.appendRawBytes(value) }
            }
        }
    }
}

/// Reading the standard attributes out of a list.
extension Array where Element == CMSAttribute {
    /// The attribute of `type`; throws if it appears more than once (RFC 5652 §5.3: at most once for the signed
    /// attributes we read).
    func unique(_ type: ASN1ObjectIdentifier) throws(CMSError) -> CMSAttribute? {
        let matches = filter { $0.type == type }
        guard matches.count <= 1 else { throw CMSError.malformed("attribute \(type.dotted) appears twice") }
        return matches.first
    }
}

/// Signing-time values: UTCTime for 1950–2049, GeneralizedTime otherwise (RFC 5652 §11.3).
package enum CMSTime {
    /// Seconds since 1970 of a UTCTime or GeneralizedTime node.
    static func seconds(_ node: ASN1Node) throws(CMSError) -> Int64 {
        try CMSError.decoding("signing time") {
            if node.identifier.hasSameTag(as: .utcTime) { return try UTCTime(derEncoded: node).secondsSinceEpoch }
            return try GeneralizedTime(derEncoded: node).secondsSinceEpoch
        }
    }

    /// The DER encoding of a signing time.
    static func encoded(_ seconds: Int64) throws(CMSError) -> [UInt8] {
        try CMSError.converting({
            var coder = DER.Serializer()
            if let utc = try? UTCTime(secondsSinceEpoch: seconds) {
                try coder.serialize(utc)
            } else {
                try coder.serialize(try GeneralizedTime(secondsSinceEpoch: seconds))
            }
            return coder.serializedBytes
        }) { CMSError(.invalidParameter, "signing time out of range", underlying: $0) }
    }
}

/// Apple's code-signing signed attributes (hash agility V1 and V2, expiration time): building and reading them.
package enum AppleCMSAttributes {
    /// Hash agility (V1): `value` in an OCTET STRING.
    package static func hashAgility(_ value: [UInt8]) throws(CMSError) -> CMSAttribute {
        try CMSError.converting({
            CMSAttribute(type: CMSOID.appleHashAgility, values: [try ASN1OctetString(value).derEncoded()])
        }) {
            CMSError(.invalidParameter, "hash agility attribute does not encode", underlying: $0)
        }
    }

    /// Hash agility V2: one `SEQUENCE { digest OID, OCTET STRING }` value per digest.
    package static func hashAgilityV2(_ digests: [(DigestAlgorithm, [UInt8])]) throws(CMSError) -> CMSAttribute {
        try CMSError.converting({
            let values = try digests.map { (digest, value) -> [UInt8] in
                var coder = DER.Serializer()
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(CMSDigest.oid(digest))
                    try coder.serialize(ASN1OctetString(value))
                }
                return coder.serializedBytes
            }
            return CMSAttribute(type: CMSOID.appleHashAgilityV2, values: values)
        }) { CMSError(.invalidParameter, "hash agility V2 attribute does not encode", underlying: $0) }
    }

    /// The expiration time (seconds since 1970) as UTCTime or GeneralizedTime.
    package static func expirationTime(_ seconds: Int64) throws(CMSError) -> CMSAttribute {
        CMSAttribute(type: CMSOID.appleExpirationTime, values: [try CMSTime.encoded(seconds)])
    }
}

extension SignerInfo {
    /// Apple's hash agility (V1) value, if the signer has the attribute.
    package func appleHashAgility() throws(CMSError) -> [UInt8]? {
        guard let attribute = try signedAttributes?.unique(CMSOID.appleHashAgility) else { return nil }
        let node = try attribute.singleValue()
        return try CMSError.decoding("hash agility attribute") { [UInt8](try ASN1OctetString(derEncoded: node).bytes) }
    }

    /// Apple's hash agility V2 values (digest OID, digest), if the signer has the attribute.
    package func appleHashAgilityV2() throws(CMSError) -> [(ASN1ObjectIdentifier, [UInt8])]? {
        guard let attribute = try signedAttributes?.unique(CMSOID.appleHashAgilityV2) else { return nil }
        return try CMSError.decoding("hash agility V2 attribute") {
            try attribute.values.map { encoded in
                let node = try DER.parse(encoded, rules: .basic)
                return try DER.sequence(node) { nodes in
                    let oid = try ASN1ObjectIdentifier(derEncoded: &nodes, withIdentifier: .objectIdentifier)
                    guard let digest = nodes.next() else { throw CMSError.malformed("hash agility V2 without digest") }
                    return (oid, [UInt8](try ASN1OctetString(derEncoded: digest).bytes))
                }
            }
        }
    }

    /// Apple's expiration time in seconds since 1970, if the signer has the attribute.
    package func appleExpirationTime() throws(CMSError) -> Int64? {
        guard let attribute = try signedAttributes?.unique(CMSOID.appleExpirationTime) else { return nil }
        return try CMSTime.seconds(try attribute.singleValue())
    }
}
