import OSecASN1

/// One pair of `policyMappings` (RFC 5280 §4.2.1.5).
package struct PolicyMapping: Hashable, Sendable {
    /// The issuer's policy.
    package var issuerDomainPolicy: ASN1ObjectIdentifier
    /// The subject's equivalent policy.
    package var subjectDomainPolicy: ASN1ObjectIdentifier

    static func decodeList(_ node: ASN1Node) throws -> [PolicyMapping] {
        var result: [PolicyMapping] = []
        for child in try Extensions.sequence(node) {
            result.append(
                try DER.sequence(child) { nodes in
                    PolicyMapping(
                        issuerDomainPolicy: try ASN1ObjectIdentifier(derEncoded: &nodes),
                        subjectDomainPolicy: try ASN1ObjectIdentifier(derEncoded: &nodes))
                })
        }
        guard !result.isEmpty else { throw X509Error(.malformed, "empty policyMappings") }
        return result
    }
}
