import OSecASN1

/// One `PolicyInformation` of `certificatePolicies` (RFC 5280 §4.2.1.4); qualifiers are kept raw.
package struct PolicyInformation: Hashable, Sendable {
    package var policyIdentifier: ASN1ObjectIdentifier
    /// The encoded `policyQualifiers` SEQUENCE, if present.
    package var qualifiers: ArraySlice<UInt8>?

    package init(policyIdentifier: ASN1ObjectIdentifier, qualifiers: ArraySlice<UInt8>? = nil) {
        self.policyIdentifier = policyIdentifier
        self.qualifiers = qualifiers
    }

    static func decodeList(_ node: ASN1Node) throws -> [PolicyInformation] {
        var result: [PolicyInformation] = []
        for child in try Extensions.sequence(node) {
            result.append(try DER.sequence(child) { nodes in
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
        for (index, policy) in result.enumerated() where result[..<index].contains(where: { $0.policyIdentifier == policy.policyIdentifier }) {
            // RFC 5280 §4.2.1.4: a policy OID MUST NOT appear more than once.
            throw X509Error(.malformed, "duplicate policy \(policy.policyIdentifier.dotted)")
        }
        return result
    }

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

/// One pair of `policyMappings` (RFC 5280 §4.2.1.5).
package struct PolicyMapping: Hashable, Sendable {
    package var issuerDomainPolicy: ASN1ObjectIdentifier
    package var subjectDomainPolicy: ASN1ObjectIdentifier

    static func decodeList(_ node: ASN1Node) throws -> [PolicyMapping] {
        var result: [PolicyMapping] = []
        for child in try Extensions.sequence(node) {
            result.append(try DER.sequence(child) { nodes in
                PolicyMapping(
                    issuerDomainPolicy: try ASN1ObjectIdentifier(derEncoded: &nodes),
                    subjectDomainPolicy: try ASN1ObjectIdentifier(derEncoded: &nodes))
            })
        }
        guard !result.isEmpty else { throw X509Error(.malformed, "empty policyMappings") }
        return result
    }
}

/// `policyConstraints` (RFC 5280 §4.2.1.11).
package struct PolicyConstraints: Hashable, Sendable {
    package var requireExplicitPolicy: Int?
    package var inhibitPolicyMapping: Int?

    package init(requireExplicitPolicy: Int? = nil, inhibitPolicyMapping: Int? = nil) {
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
    }

    package init(derEncoded node: ASN1Node) throws {
        var require: Int? = nil
        var inhibit: Int? = nil
        var lastTag: UInt? = nil
        for child in try Extensions.sequence(node) {
            let id = child.identifier
            guard id.tagClass == .contextSpecific, !id.isConstructed, id.tagNumber <= 1, lastTag.map({ id.tagNumber > $0 }) ?? true else {
                throw X509Error(.malformed, "unexpected field in policyConstraints")
            }
            lastTag = id.tagNumber
            let value = try Int(derEncoded: child, withIdentifier: id)
            guard value >= 0 else { throw X509Error(.malformed, "negative policyConstraints value") }
            if id.tagNumber == 0 { require = value } else { inhibit = value }
        }
        // RFC 5280: at least one of the fields MUST be present.
        guard require != nil || inhibit != nil else { throw X509Error(.malformed, "empty policyConstraints") }
        self.requireExplicitPolicy = require
        self.inhibitPolicyMapping = inhibit
    }
}

/// One `DistributionPoint` of `cRLDistributionPoints` (RFC 5280 §4.2.1.13).
package struct DistributionPoint: Hashable, Sendable {
    package enum Name: Hashable, Sendable {
        case fullName([GeneralName])
        /// `nameRelativeToCRLIssuer`, raw encoding of the RDN.
        case nameRelativeToCRLIssuer(ArraySlice<UInt8>)
    }
    package var name: Name?
    /// The `reasons` BIT STRING content (unused-bits octet first), raw.
    package var reasons: ArraySlice<UInt8>?
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
                    guard let choice = nodes.next(), nodes.next() == nil, choice.identifier.tagClass == .contextSpecific else {
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

/// One `AccessDescription` of `authorityInfoAccess` (RFC 5280 §4.2.2.1).
package struct AccessDescription: Hashable, Sendable {
    package var method: ASN1ObjectIdentifier
    package var location: GeneralName

    static func decodeList(_ node: ASN1Node) throws -> [AccessDescription] {
        var result: [AccessDescription] = []
        for child in try Extensions.sequence(node) {
            result.append(try DER.sequence(child) { nodes in
                let method = try ASN1ObjectIdentifier(derEncoded: &nodes)
                guard let location = nodes.next() else { throw X509Error(.malformed, "AccessDescription without location") }
                return AccessDescription(method: method, location: try GeneralName(derEncoded: location))
            })
        }
        guard !result.isEmpty else { throw X509Error(.malformed, "empty authorityInfoAccess") }
        return result
    }
}
