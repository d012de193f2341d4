/// An ASN.1 BIT STRING: whole octets plus a count of unused bits in the last octet.
package struct ASN1BitString: Hashable, Sendable {
    /// The bit string's octets; the last octet's low `paddingBits` bits are unused.
    package var bytes: ArraySlice<UInt8>
    /// Unused bits in the last octet (0...7; 0 when `bytes` is empty).
    package var paddingBits: Int

    /// Creates a bit string. Throws if `paddingBits` is out of range or unused bits are set.
    package init(bytes: ArraySlice<UInt8>, paddingBits: Int = 0) throws {
        try ASN1BitString.validate(bytes, paddingBits: paddingBits, allowsNonZeroUnusedBits: false)
        self.bytes = bytes
        self.paddingBits = paddingBits
    }

    private init(unchecked bytes: ArraySlice<UInt8>, paddingBits: Int) {
        self.bytes = bytes
        self.paddingBits = paddingBits
    }

    private static func validate(_ bytes: ArraySlice<UInt8>, paddingBits: Int, allowsNonZeroUnusedBits: Bool) throws {
        guard (0...7).contains(paddingBits) else {
            throw ASN1Error(.invalidBitString, "unused-bits count \(paddingBits) out of range")
        }
        guard let last = bytes.last else {
            guard paddingBits == 0 else { throw ASN1Error(.invalidBitString, "empty BIT STRING with unused bits") }
            return
        }
        if !allowsNonZeroUnusedBits {
            let mask = UInt8(truncatingIfNeeded: (1 << paddingBits) - 1)
            guard last & mask == 0 else { throw ASN1Error(.invalidBitString, "unused bits must be zero in DER") }
        }
    }
}

extension ASN1BitString: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .bitString }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        guard node.identifier.hasSameTag(as: identifier) else {
            throw ASN1Error(.unexpectedTag, "expected \(identifier), got \(node.identifier)")
        }
        switch node.content {
        case .primitive(let content):
            guard let first = content.first else { throw ASN1Error(.invalidBitString, "BIT STRING has no content") }
            let bits = content.dropFirst()
            try ASN1BitString.validate(
                bits, paddingBits: Int(first), allowsNonZeroUnusedBits: node.rules.allowsNonZeroUnusedBits)
            self.init(unchecked: bits, paddingBits: Int(first))
        case .constructed(let children):
            // BER §8.6.4: segments are BIT STRINGs; only the last may have unused bits.
            guard node.rules.allowsConstructedStrings else {
                throw ASN1Error(.invalidEncoding, "constructed BIT STRING is not allowed in DER")
            }
            var joined: [UInt8] = []
            var padding = 0
            try ASN1BitString.appendSegments(children, into: &joined, padding: &padding)
            try ASN1BitString.validate(joined[...], paddingBits: padding, allowsNonZeroUnusedBits: true)
            self.init(unchecked: joined[...], paddingBits: padding)
        }
    }

    private static func appendSegments(
        _ children: ASN1NodeCollection, into joined: inout [UInt8], padding: inout Int
    ) throws {
        for child in children {
            guard padding == 0 else { throw ASN1Error(.invalidBitString, "unused bits in a non-final segment") }
            let segment = try ASN1BitString(derEncoded: child)
            joined.append(contentsOf: segment.bytes)
            padding = segment.paddingBits
        }
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) {
            $0.append(UInt8(truncatingIfNeeded: paddingBits))
            $0.append(contentsOf: bytes)
        }
    }
}
