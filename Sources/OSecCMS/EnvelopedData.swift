import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// An EnvelopedData (RFC 5652 §6) or AuthEnvelopedData (RFC 5083), as encoded.
package struct EnvelopedData: Sendable {
    /// Whether this is AuthEnvelopedData (AES-GCM).
    package let authenticated: Bool
    /// The RecipientInfos, each as an encoded node.
    package let recipientInfos: [ArraySlice<UInt8>]
    /// The encrypted content's type.
    package let contentType: ASN1ObjectIdentifier
    /// The content-encryption algorithm.
    package let contentEncryptionAlgorithm: AlgorithmIdentifier
    /// The encrypted content octets (nil when detached).
    package let encryptedContent: [UInt8]?
    /// The authenticated attributes (AuthEnvelopedData), DER with the SET OF tag, if any.
    package let authenticatedAttributesDER: [UInt8]?
    /// The GCM tag (AuthEnvelopedData).
    package let mac: [UInt8]?

    init(derEncoded node: ASN1Node, authenticated: Bool) throws {
        var recipients: [ArraySlice<UInt8>] = []
        var type: ASN1ObjectIdentifier = CMSOID.data
        var algorithm: AlgorithmIdentifier?
        var encrypted: [UInt8]?
        var authAttributes: [UInt8]?
        var mac: [UInt8]?
        try DER.sequence(node) { nodes in
            _ = try Int(derEncoded: &nodes, withIdentifier: .integer)
            if let next = nodes.peekIdentifier(), next.tagClass == .contextSpecific, next.tagNumber == 0 {
                _ = nodes.next()  // originatorInfo
            }
            guard let set = nodes.next(), set.identifier.hasSameTag(as: .set), let children = set.children else {
                throw CMSError.malformed("EnvelopedData without recipientInfos")
            }
            try CMSLimits.check(children, maximum: CMSLimits.maximumRecipientCount, "recipients")
            for child in children {
                guard recipients.count < CMSLimits.maximumRecipientCount else {
                    throw CMSError(.resourceLimit, "more than \(CMSLimits.maximumRecipientCount) recipients")
                }
                recipients.append(child.encodedBytes)
            }
            guard let info = nodes.next() else { throw CMSError.malformed("EnvelopedData without content") }
            try DER.sequence(info) { inner in
                type = try ASN1ObjectIdentifier(derEncoded: &inner, withIdentifier: .objectIdentifier)
                guard let algorithmNode = inner.next() else { throw CMSError.malformed("no content algorithm") }
                algorithm = try AlgorithmIdentifier(derEncoded: algorithmNode)
                encrypted = try DER.optionalImplicitlyTagged(&inner, ASN1OctetString.self, tagNumber: 0).map {
                    [UInt8]($0.bytes)
                }
            }
            if authenticated {
                if let next = nodes.peekIdentifier(), next.tagClass == .contextSpecific, next.tagNumber == 1,
                    let attributes = nodes.next()
                {
                    var bytes = [UInt8](attributes.encodedBytes)
                    if !bytes.isEmpty { bytes[0] = 0x31 }
                    authAttributes = bytes
                }
                mac = [UInt8](try ASN1OctetString(derEncoded: &nodes, withIdentifier: .octetString).bytes)
            }
            nodes.skipRemaining()  // unprotectedAttrs / unauthAttrs
        }
        guard let algorithm else { throw CMSError.malformed("EnvelopedData") }
        self.authenticated = authenticated
        self.recipientInfos = recipients
        self.contentType = type
        self.contentEncryptionAlgorithm = algorithm
        self.encryptedContent = encrypted
        self.authenticatedAttributesDER = authAttributes
        self.mac = mac
    }
}
