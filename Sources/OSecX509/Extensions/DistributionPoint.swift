import OSecASN1

/// One `DistributionPoint` of `cRLDistributionPoints` (RFC 5280 §4.2.1.13).
package struct DistributionPoint: Hashable, Sendable {
    /// A DistributionPointName.
    package enum Name: Hashable, Sendable {
        case fullName([GeneralName])
        /// `nameRelativeToCRLIssuer`, raw encoding of the RDN.
        case nameRelativeToCRLIssuer(ArraySlice<UInt8>)
    }
    /// distributionPoint [0], if present.
    package var name: Name?
    /// The `reasons` BIT STRING content (unused-bits octet first), raw.
    package var reasons: ArraySlice<UInt8>?
    /// cRLIssuer [2], if present.
    package var crlIssuer: [GeneralName]?

    static func decodeList(_ node: ASN1Node) throws -> [DistributionPoint] {
        var result: [DistributionPoint] = []
        for child in try Extensions.sequence(node) {
            var point = DistributionPoint(name: nil, reasons: nil, crlIssuer: nil)
            var lastTag: UInt? = nil
            for field in try Extensions.sequence(child) {
                let id = field.identifier
                guard id.tagClass == .contextSpecific, lastTag.map({ id.tagNumber > $0 }) ?? true else {
                    throw X509Error(.malformed, "unexpected field in DistributionPoint")
                }
                lastTag = id.tagNumber
                switch (id.tagNumber, field.content) {
                case (0, .constructed(let inner)):
                    var nodes = inner.makeIterator()
                    guard let choice = nodes.next(), nodes.next() == nil, choice.identifier.tagClass == .contextSpecific
                    else {
                        throw X509Error(.malformed, "malformed DistributionPointName")
                    }
                    if choice.identifier.tagNumber == 0 {
                        point.name = .fullName(try GeneralName.decodeList(choice.children))
                    } else if choice.identifier.tagNumber == 1, choice.isConstructed {
                        point.name = .nameRelativeToCRLIssuer(choice.encodedBytes)
                    } else {
                        throw X509Error(.malformed, "malformed DistributionPointName")
                    }
                case (1, .primitive(let bytes)): point.reasons = bytes
                case (2, .constructed(let names)): point.crlIssuer = try GeneralName.decodeList(names)
                default: throw X509Error(.malformed, "unexpected field in DistributionPoint")
                }
            }
            result.append(point)
        }
        guard !result.isEmpty else { throw X509Error(.malformed, "empty cRLDistributionPoints") }
        return result
    }
}
