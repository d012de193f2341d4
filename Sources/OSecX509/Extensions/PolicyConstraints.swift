import OSecASN1

/// `policyConstraints` (RFC 5280 §4.2.1.11).
package struct PolicyConstraints: Hashable, Sendable {
    /// requireExplicitPolicy [0] SkipCerts.
    package var requireExplicitPolicy: Int?
    /// inhibitPolicyMapping [1] SkipCerts.
    package var inhibitPolicyMapping: Int?

    /// Constraints with the given SkipCerts (nil: absent).
    package init(requireExplicitPolicy: Int? = nil, inhibitPolicyMapping: Int? = nil) {
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
    }

    /// Decodes the extension value; an empty sequence or a negative value throws.
    package init(derEncoded node: ASN1Node) throws {
        var require: Int? = nil
        var inhibit: Int? = nil
        var lastTag: UInt? = nil
        for child in try Extensions.sequence(node) {
            let id = child.identifier
            guard id.tagClass == .contextSpecific, !id.isConstructed, id.tagNumber <= 1,
                lastTag.map({ id.tagNumber > $0 }) ?? true
            else {
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
