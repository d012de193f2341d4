import OSecASN1

/// One `AccessDescription` of `authorityInfoAccess` (RFC 5280 §4.2.2.1).
package struct AccessDescription: Hashable, Sendable {
    /// accessMethod (``X509OID/ocsp``, ``X509OID/caIssuers``, …).
    package var method: ASN1ObjectIdentifier
    /// accessLocation (usually a URI).
    package var location: GeneralName

    static func decodeList(_ node: ASN1Node) throws -> [AccessDescription] {
        var result: [AccessDescription] = []
        for child in try Extensions.sequence(node) {
            result.append(
                try DER.sequence(child) { nodes in
                    let method = try ASN1ObjectIdentifier(derEncoded: &nodes)
                    guard let location = nodes.next() else {
                        throw X509Error(.malformed, "AccessDescription without location")
                    }
                    return AccessDescription(method: method, location: try GeneralName(derEncoded: location))
                })
        }
        guard !result.isEmpty else { throw X509Error(.malformed, "empty authorityInfoAccess") }
        return result
    }
}
