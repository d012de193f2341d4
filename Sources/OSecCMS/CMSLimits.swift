/// Resource limits for every message we read. A CMS message is attacker-controlled input (a provisioning profile,
/// a receipt, an S/MIME mail): it chooses its size, its nesting and how many signers, certificates, attributes
/// and recipients it lists, so each of those is capped and exceeding a cap is a ``CMSError`` with code
/// `.resourceLimit` naming it.
package enum CMSLimits {
    /// Largest message accepted (the encoded ContentInfo). Provisioning profiles and receipts are a few KiB to a
    /// few hundred KiB; signed installers are larger, but are not read into memory whole by callers of this API.
    package static let maximumMessageSize = 64 * 1024 * 1024
    /// Largest number of SignerInfos. Real messages have one, rarely two or three.
    package static let maximumSignerCount = 64
    /// Largest number of certificates in the certificate set (a chain per signer, plus extras).
    package static let maximumCertificateCount = 512
    /// Largest number of attributes per SignerInfo (signed plus unsigned).
    package static let maximumAttributeCount = 128
    /// Largest number of RecipientInfos in an enveloped message.
    package static let maximumRecipientCount = 256
    /// Deepest BER nesting: the ASN.1 layer's own bound (`DER.maximumNestingDepth`, 64) applies to every parse.
    package static let maximumNestingDepth = 64
}

extension CMSLimits {
    /// Throws `.resourceLimit` when `node` has more than `maximum` children (counted before any is decoded, so a
    /// message over a limit is refused as such even when its elements are also malformed).
    static func check(_ children: some Sequence, maximum: Int, _ what: String) throws(CMSError) {
        var count = 0
        for _ in children {
            count += 1
            guard count <= maximum else { throw CMSError(.resourceLimit, "more than \(maximum) \(what)") }
        }
    }
}
