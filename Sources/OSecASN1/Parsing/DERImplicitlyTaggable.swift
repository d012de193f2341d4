/// A type with a default tag that can also be decoded and encoded under an IMPLICIT tag.
///
/// Conformers implement the two `withIdentifier:` requirements; the untagged
/// `DERParseable`/`DERSerializable` requirements are derived from ``defaultIdentifier``.
package protocol DERImplicitlyTaggable: DERParseable, DERSerializable {
    /// The identifier used when the type is not implicitly tagged.
    static var defaultIdentifier: ASN1Identifier { get }

    /// Decodes the value from a node that must carry `identifier` (class and number).
    init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws

    /// Appends the encoding of `self` using `identifier` instead of the default tag.
    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws
}

extension DERImplicitlyTaggable {
    package init(derEncoded node: ASN1Node) throws {
        try self.init(derEncoded: node, withIdentifier: Self.defaultIdentifier)
    }

    package func serialize(into coder: inout DER.Serializer) throws {
        try serialize(into: &coder, withIdentifier: Self.defaultIdentifier)
    }

    /// Decodes the next child of a sequence under `identifier`; throws if there is none.
    package init(
        derEncoded iterator: inout ASN1NodeCollection.Iterator, withIdentifier identifier: ASN1Identifier
    ) throws {
        guard let node = iterator.next() else {
            throw ASN1Error(.invalidASN1Object, "missing required element \(Self.self)")
        }
        try self.init(derEncoded: node, withIdentifier: identifier)
    }
}

extension ASN1Node {
    /// The content octets of a primitive node with the expected tag; throws otherwise.
    package func primitiveContent(expecting identifier: ASN1Identifier) throws -> ArraySlice<UInt8> {
        guard self.identifier.hasSameTag(as: identifier) else {
            throw ASN1Error(.unexpectedTag, "expected \(identifier), got \(self.identifier)")
        }
        guard case .primitive(let bytes) = content else {
            throw ASN1Error(.invalidASN1Object, "\(identifier) must be primitive")
        }
        return bytes
    }

    /// The content of a string-like node (OCTET STRING, character strings) with the expected tag.
    ///
    /// Under rules that allow constructed strings, the primitive segments are concatenated
    /// (each segment must carry the universal tag of the string type, X.690 §8.7.3).
    package func stringContent(
        expecting identifier: ASN1Identifier, segmentTag: ASN1Identifier
    ) throws -> ArraySlice<UInt8> {
        guard self.identifier.hasSameTag(as: identifier) else {
            throw ASN1Error(.unexpectedTag, "expected \(identifier), got \(self.identifier)")
        }
        switch content {
        case .primitive(let bytes):
            return bytes
        case .constructed(let children):
            guard rules.allowsConstructedStrings else {
                throw ASN1Error(.invalidEncoding, "constructed \(identifier) is not allowed in DER")
            }
            var joined: [UInt8] = []
            try ASN1Node.appendSegments(children, segmentTag: segmentTag, into: &joined)
            return joined[...]
        }
    }

    private static func appendSegments(
        _ children: ASN1NodeCollection, segmentTag: ASN1Identifier, into joined: inout [UInt8]
    ) throws {
        for child in children {
            guard child.identifier.hasSameTag(as: segmentTag) else {
                throw ASN1Error(.unexpectedTag, "constructed string segment has tag \(child.identifier)")
            }
            switch child.content {
            case .primitive(let bytes): joined.append(contentsOf: bytes)
            case .constructed(let inner): try appendSegments(inner, segmentTag: segmentTag, into: &joined)
            }
        }
    }
}
