import OSecASN1

/// One `PolicyInformation` of `certificatePolicies` (RFC 5280 §4.2.1.4); qualifiers are kept raw.
package struct PolicyInformation: Hashable, Sendable {
    /// The policy OID.
    package var policyIdentifier: ASN1ObjectIdentifier
    /// The encoded `policyQualifiers` SEQUENCE, if present.
    package var qualifiers: ArraySlice<UInt8>?

    /// Policy information with raw qualifiers (nil: none).
    package init(policyIdentifier: ASN1ObjectIdentifier, qualifiers: ArraySlice<UInt8>? = nil) {
        self.policyIdentifier = policyIdentifier
        self.qualifiers = qualifiers
    }

    static func decodeList(_ node: ASN1Node) throws -> [PolicyInformation] {
        var result: [PolicyInformation] = []
        for child in try Extensions.sequence(node) {
            result.append(
                try DER.sequence(child) { nodes in
                    let oid = try ASN1ObjectIdentifier(derEncoded: &nodes)
                    var qualifiers: ArraySlice<UInt8>? = nil
                    if let next = nodes.next() {
                        guard next.identifier == .sequence, next.children?.first != nil else {
                            throw X509Error(.malformed, "policyQualifiers must be a non-empty SEQUENCE")
                        }
                        qualifiers = next.encodedBytes
                    }
                    return PolicyInformation(policyIdentifier: oid, qualifiers: qualifiers)
                })
        }
        guard !result.isEmpty else { throw X509Error(.malformed, "empty certificatePolicies") }
        for (index, policy) in result.enumerated()
        where result[..<index].contains(where: { $0.policyIdentifier == policy.policyIdentifier }) {
            // RFC 5280 §4.2.1.4: a policy OID MUST NOT appear more than once.
            throw X509Error(.malformed, "duplicate policy \(policy.policyIdentifier.dotted)")
        }
        return result
    }

    /// The DER certificatePolicies value listing `policies`.
    package static func encodedValue(_ policies: [PolicyInformation]) throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            for policy in policies {
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(policy.policyIdentifier)
                    if let qualifiers = policy.qualifiers { coder.appendRawBytes(qualifiers) }
                }
            }
        }
        return coder.serializedBytes
    }
}
