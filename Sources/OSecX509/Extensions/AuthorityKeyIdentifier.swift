import OSecASN1

/// `authorityKeyIdentifier` (RFC 5280 §4.2.1.1).
package struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// keyIdentifier [0]: the issuer key's identifier (its SKI).
    package var keyIdentifier: ArraySlice<UInt8>?
    /// authorityCertIssuer [1]: the issuer's issuer names.
    package var authorityCertIssuer: [GeneralName]?
    /// authorityCertSerialNumber [2]: the issuer certificate's serial number.
    package var authorityCertSerialNumber: ArraySlice<UInt8>?

    /// An AKI with only a keyIdentifier (the form RFC 5280 and the BRs ask for).
    package init(keyIdentifier: [UInt8]) {
        self.keyIdentifier = keyIdentifier[...]
    }

    /// Decodes the extension value; fields out of order or of the wrong form throw.
    package init(derEncoded node: ASN1Node) throws {
        var keyIdentifier: ArraySlice<UInt8>? = nil
        var issuer: [GeneralName]? = nil
        var serial: ArraySlice<UInt8>? = nil
        var lastTag: UInt? = nil
        for child in try Extensions.sequence(node) {
            let id = child.identifier
            guard id.tagClass == .contextSpecific, lastTag.map({ id.tagNumber > $0 }) ?? true else {
                throw X509Error(.malformed, "unexpected field in authorityKeyIdentifier")
            }
            lastTag = id.tagNumber
            switch (id.tagNumber, child.content) {
            case (0, .primitive(let bytes)): keyIdentifier = bytes
            case (1, .constructed(let names)): issuer = try GeneralName.decodeList(names)
            case (2, .primitive(let bytes)):
                guard !bytes.isEmpty else { throw X509Error(.malformed, "empty authorityCertSerialNumber") }
                serial = bytes
            default: throw X509Error(.malformed, "unexpected field in authorityKeyIdentifier")
            }
        }
        self.keyIdentifier = keyIdentifier
        self.authorityCertIssuer = issuer
        self.authorityCertSerialNumber = serial
    }

    /// The DER extension value.
    package func encodedValue() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            if let keyIdentifier {
                coder.appendPrimitiveNode(identifier: .contextSpecific(0, constructed: false)) {
                    $0.append(contentsOf: keyIdentifier)
                }
            }
            if let authorityCertIssuer {
                try GeneralName.encodeList(
                    authorityCertIssuer, identifier: .contextSpecific(1, constructed: true), into: &coder)
            }
            if let authorityCertSerialNumber {
                coder.appendPrimitiveNode(identifier: .contextSpecific(2, constructed: false)) {
                    $0.append(contentsOf: authorityCertSerialNumber)
                }
            }
        }
        return coder.serializedBytes
    }
}
