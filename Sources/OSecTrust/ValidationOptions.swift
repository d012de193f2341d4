import OSecASN1
import OSecX509

/// The name a peer must prove (`SecPolicyCreateSSL`'s hostname, an email for S/MIME-like checks).
package enum PeerName: Sendable, Hashable, CustomStringConvertible {
    /// A DNS host name (trailing dot allowed), matched against SAN dNSName.
    case dns(String)
    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address, matched against SAN iPAddress.
    case ip([UInt8])
    /// An email address, matched against SAN rfc822Name.
    case email(String)

    /// Parses a host string: an IP literal becomes ``PeerName/ip(_:)``, anything else ``PeerName/dns(_:)``
    /// (Apple's SSLHostname behaviour).
    package static func host(_ text: String) -> PeerName {
        var host = text
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // Only strings made of hex digits, dots and colons can be IP literals (skip the parser for names).
        if host.utf8.allSatisfy({
            $0 == 0x2E || $0 == 0x3A || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66)
        }),
            let bytes = IPAddressText.parse(host)
        {
            return .ip(bytes)
        }
        return .dns(text)
    }

    /// The name as text (an address in its canonical form).
    package var description: String {
        switch self {
        case .dns(let name): return name
        case .ip(let bytes): return IPAddressText.format(bytes[...])
        case .email(let address): return address
        }
    }
}

/// Which usage the leaf must be fit for.
package enum LeafPurpose: Sendable, Hashable {
    /// No usage constraint (Apple's BasicX509 policy).
    case any
    /// TLS server (serverAuth EKU).
    case serverAuth
    /// TLS client (clientAuth EKU).
    case clientAuth
}

/// Revocation checking (`SecPolicyCreateRevocation` flags, reduced to what we can do without a network).
package struct RevocationMode: Sendable, Hashable {
    /// Check revocation of every non-anchor certificate against the supplied CRLs / OCSP responses.
    package var enabled: Bool
    /// Fail when no CRL or OCSP response covers a certificate (`kSecRevocationRequirePositiveResponse`).
    package var requirePositiveResponse: Bool

    /// Revocation checking as `SecPolicyCreateRevocation` flags ask.
    package init(enabled: Bool = false, requirePositiveResponse: Bool = false) {
        self.enabled = enabled
        self.requirePositiveResponse = requirePositiveResponse
    }
}

/// Everything the validator needs besides the certificates. Time is injected: the core never reads the clock.
package struct ValidationOptions: Sendable {
    /// The verify time, seconds since 1970-01-01 UTC.
    package var time: Int64
    /// The name to match (nil: no name check).
    package var peerNames: [PeerName] = []
    /// The leaf usage (drives the EKU check).
    package var purpose: LeafPurpose = .any
    /// Apple's SSL policy rules: RSA ≥ 2048 / EC ≥ 256 on every certificate, SHA-1 rejected, leaf lifetime
    /// maximums (825 days with custom anchors) and the ServerAuthEKU presence rule.
    package var sslRules: Bool = false
    /// The smallest RSA modulus accepted on any certificate of the chain (Apple: 1024 in general, fatal below;
    /// 2048 under the SSL policy). Smaller keys fail `KeySize` (below 1024: `WeakKeySize`).
    package var minimumRSABits: Int = 1024
    /// Extra EKUs the leaf must allow (harness `extended_key_usage`); the leaf passes if it has no EKU extension,
    /// or an EKU listing every one of them.
    package var requiredExtendedKeyUsages: [ASN1ObjectIdentifier] = []
    /// Key usage bits the leaf must allow (harness `key_usage`); nil: none required.
    package var requiredKeyUsage: KeyUsage? = nil
    /// Signature algorithms permitted on non-anchor certificates (nil: any supported one).
    package var allowedSignatureAlgorithms: Set<AlgorithmIdentifier>? = nil
    /// The most intermediates allowed between leaf and anchor (nil: ``TrustLimits/maximumIntermediates``).
    package var maximumIntermediates: Int? = nil
    /// Revocation checking.
    package var revocation = RevocationMode()
    /// CRLs supplied by the caller.
    package var crls: [CertificateRevocationList] = []
    /// DER OCSP responses supplied by the caller (`SecTrustSetOCSPResponse`); unparseable ones are ignored.
    package var ocspResponses: [[UInt8]] = [] {
        didSet { parsedOCSPResponses = ocspResponses.compactMap { try? OCSPResponse(derEncoded: $0) } }
    }
    /// The responses of ``ocspResponses`` that parse.
    package private(set) var parsedOCSPResponses: [OCSPResponse] = []
    /// Reject `anyExtendedKeyUsage` in place of the required purpose, and any extendedKeyUsage on a trust anchor
    /// (webpki / CA/B Forum; Apple accepts both).
    package var rejectAnyExtendedKeyUsage: Bool = false
    /// Require a serverAuth extendedKeyUsage on server leaves (Apple's ServerAuthEKU, which Apple applies only to
    /// leaves issued after 2019-07-01; RFC 5280 allows a leaf without the extension).
    package var requireServerAuthEKU: Bool = false
    /// The CA/Browser Forum baseline profile checks on top of RFC 5280: subject CN must copy a SAN entry, SAN
    /// critical only with an empty subject, AKI without issuer/serial and matching SKI on self-signed certificates,
    /// RSA moduli a multiple of 8 bits.
    package var cabfProfile: Bool = false
    /// Accept a nameConstraints extension that is not marked critical. RFC 5280 §4.2.1.10 says it MUST be critical;
    /// the CA/Browser Forum's BR 7.1.2.10.8 allows non-critical "if compatibility with certain legacy applications that
    /// do not support Name Constraints is necessary". On for the SSL server policy alone; a Basic X.509 policy in the
    /// same evaluation keeps RFC 5280's rule (every policy must be satisfied).
    package var nameConstraintsMayBeNonCritical: Bool = false
    /// Apple's EAP policy's trusted server names: when not empty, one of the leaf's DNS names (subjectAltName
    /// dNSNames, else its subject common names) must match one of them (wildcards in either, as Apple's SecDNSMatch
    /// allows in the certificate's name). Empty: any name.
    package var eapTrustedServerNames: [String] = []

    /// Options for an evaluation at `time` (seconds since 1970-01-01 UTC), with no purpose, name or caller constraint.
    package init(time: Int64) { self.time = time }
}
