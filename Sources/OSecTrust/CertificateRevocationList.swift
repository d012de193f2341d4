import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// An X.509 CRL (RFC 5280 §5), parsed from DER and kept with its signed bytes.
package struct CertificateRevocationList: Sendable {
    /// The DER encoding.
    package let derBytes: [UInt8]
    /// The signed TBSCertList bytes.
    package let tbsBytes: ArraySlice<UInt8>
    /// The version number (0 for v1, 1 for v2).
    package let version: Int
    /// The algorithm named inside the TBSCertList.
    package let tbsSignatureAlgorithm: SignatureAlgorithm
    /// The outer signature algorithm.
    package let signatureAlgorithm: SignatureAlgorithm
    /// The signature bits.
    package let signature: ArraySlice<UInt8>
    /// The CRL issuer.
    package let issuer: DistinguishedName
    /// When the CRL was issued.
    package let thisUpdate: X509Time
    /// When the next CRL is due, if stated.
    package let nextUpdate: X509Time?
    /// Revoked serial numbers (INTEGER content octets as encoded).
    package let revokedSerials: Set<ArraySlice<UInt8>>
    /// Critical CRL or entry extensions we do not process (such a CRL cannot be relied upon).
    package let unhandledCriticalExtensions: [String]
    /// Whether the CRL carries an issuingDistributionPoint (partitioned CRLs; not processed, so such a CRL is
    /// unusable).
    package let hasIssuingDistributionPoint: Bool

    static let crlNumber: ASN1ObjectIdentifier = [2, 5, 29, 20]
    static let deltaCRLIndicator: ASN1ObjectIdentifier = [2, 5, 29, 27]
    static let issuingDistributionPoint: ASN1ObjectIdentifier = [2, 5, 29, 28]
    static let reasonCode: ASN1ObjectIdentifier = [2, 5, 29, 21]
    static let invalidityDate: ASN1ObjectIdentifier = [2, 5, 29, 24]

    /// Parses a DER CRL (RFC 5280 §5).
    package init(derEncoded bytes: [UInt8]) throws {
        derBytes = bytes
        let root = try DER.parse(bytes)
        guard let outer = root.children else { throw X509Error(.malformed, "CRL is not a SEQUENCE") }
        var nodes = outer.makeIterator()
        guard let tbs = nodes.next(), let tbsChildren = tbs.children else {
            throw X509Error(.malformed, "missing TBSCertList")
        }
        tbsBytes = tbs.encodedBytes
        signatureAlgorithm = SignatureAlgorithm(identifier: try AlgorithmIdentifier(derEncoded: &nodes))
        let bits = try ASN1BitString(derEncoded: &nodes)
        signature = bits.bytes
        guard nodes.next() == nil else { throw X509Error(.malformed, "trailing data in CRL") }

        var fields = tbsChildren.makeIterator()
        var version = 0
        if fields.peekIdentifier() == .integer, let node = fields.next() { version = try Int(derEncoded: node) }
        guard version == 0 || version == 1 else { throw X509Error(.malformed, "unsupported CRL version") }
        self.version = version
        tbsSignatureAlgorithm = SignatureAlgorithm(identifier: try AlgorithmIdentifier(derEncoded: &fields))
        guard let issuerNode = fields.next() else { throw X509Error(.malformed, "missing CRL issuer") }
        issuer = try DistinguishedName(derEncoded: issuerNode)
        guard let thisNode = fields.next() else { throw X509Error(.malformed, "missing thisUpdate") }
        thisUpdate = try X509Time(derEncoded: thisNode)
        var next: X509Time? = nil
        if let id = fields.peekIdentifier(), id == .utcTime || id == .generalizedTime, let node = fields.next() {
            next = try X509Time(derEncoded: node)
        }
        nextUpdate = next
        var serials = Set<ArraySlice<UInt8>>()
        var unhandled: [String] = []
        var idp = false
        if fields.peekIdentifier() == .sequence, let list = fields.next(), let entries = list.children {
            for entry in entries {
                guard let parts = entry.children else { throw X509Error(.malformed, "bad CRL entry") }
                var items = parts.makeIterator()
                guard let serial = items.next(), serial.identifier == .integer, let content = serial.primitiveContent
                else { throw X509Error(.malformed, "bad CRL entry serial") }
                guard let date = items.next() else { throw X509Error(.malformed, "bad CRL entry date") }
                _ = try X509Time(derEncoded: date)
                if let extensionsNode = items.next() {
                    let extensions = try Extensions(derEncoded: extensionsNode)
                    for item in extensions.all where item.critical {
                        if item.oid != Self.reasonCode && item.oid != Self.invalidityDate {
                            unhandled.append(item.oid.dotted)
                        }
                    }
                }
                serials.insert(content)
            }
        }
        if let node = fields.next() {
            guard node.identifier == .contextSpecific(0, constructed: true), let inner = node.children?.first else {
                throw X509Error(.malformed, "bad crlExtensions")
            }
            let extensions = try Extensions(derEncoded: inner)
            for item in extensions.all {
                if item.oid == Self.issuingDistributionPoint { idp = true }
                if item.critical && item.oid != Self.crlNumber { unhandled.append(item.oid.dotted) }
                if item.oid == Self.deltaCRLIndicator { unhandled.append(item.oid.dotted) }
            }
        }
        revokedSerials = serials
        unhandledCriticalExtensions = unhandled
        hasIssuingDistributionPoint = idp
    }

    /// Parses every `X509 CRL` block of a PEM text.
    package static func crls(fromPEM text: String) throws -> [CertificateRevocationList] {
        let documents = try PEMDocument.parseMultiple(utf8: Array(text.utf8)[...])
        return try documents.filter { $0.type == "X509 CRL" }.map {
            try CertificateRevocationList(derEncoded: $0.derBytes)
        }
    }

    /// Whether the CRL's signature verifies under `key`.
    package func isSignature(validFor key: AsymmetricKey) -> Bool {
        guard tbsSignatureAlgorithm.identifier == signatureAlgorithm.identifier else { return false }
        return SignatureCheck.verify(signatureAlgorithm, signature: signature, over: tbsBytes, with: key)
    }
}
