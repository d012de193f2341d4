import Foundation
import OSecASN1
import OSecTrust
import OSecX509

/// OpenSecurity extras for `SecTrust`: constraints Apple's API cannot express, applied on top of the trust's policies.
///
/// Apple's policies decide the purpose (serverAuth, clientAuth), the host name and the profile; these extras only add
/// requirements, so a chain trusted with an extra set is also trusted without it. Like Apple's setters, each one
/// invalidates the trust's cached result. `SecTrustSetCRLs` is the other extra (revocation input).
public enum OpenSecurityTrust {
    /// Key usage bits (RFC 5280 §4.2.1.3) the leaf must allow: the same option set certificates are built with
    /// (`contentCommitment` is `nonRepudiation`).
    public typealias KeyUsage = OpenSecurityCertificates.KeyUsage

    /// The most intermediates a chain may have between leaf and anchor (nil: the built-in maximum of 6, which an
    /// extra can lower but not raise). Negative → errSecParam.
    @discardableResult
    public static func setMaximumIntermediates(_ trust: SecTrust, _ maximum: Int?) -> OSStatus {
        if let maximum, maximum < 0 { return errSecParam }
        trust.mutate { $0.extras.maximumIntermediates = maximum }
        return errSecSuccess
    }

    /// Key usage bits the leaf must allow when it has a keyUsage extension (nil or empty: none).
    @discardableResult
    public static func setRequiredKeyUsage(_ trust: SecTrust, _ usage: KeyUsage?) -> OSStatus {
        trust.mutate { $0.extras.requiredKeyUsage = usage.flatMap { $0.isEmpty ? nil : $0 } }
        return errSecSuccess
    }

    /// Extended key usages (dotted OIDs, e.g. `1.3.6.1.5.5.7.3.3` for codeSigning) the leaf must allow, in addition
    /// to the SSL policy's serverAuth or clientAuth; a leaf without the extension allows every purpose (RFC 5280
    /// §4.2.1.12). A string that is not an OID → errSecParam.
    @discardableResult
    public static func setRequiredExtendedKeyUsages(_ trust: SecTrust, _ oids: [String]) -> OSStatus {
        var parsed: [ASN1ObjectIdentifier] = []
        for text in oids {
            guard let oid = try? ASN1ObjectIdentifier(dotted: text) else { return errSecParam }
            parsed.append(oid)
        }
        trust.mutate { $0.extras.requiredExtendedKeyUsages = parsed }
        return errSecSuccess
    }

    /// Email addresses the leaf's subjectAltName must name (rfc822Name), e.g. for TLS client certificates that identify
    /// a person. A string that is not a mailbox → errSecParam.
    @discardableResult
    public static func setEmailAddresses(_ trust: SecTrust, _ addresses: [String]) -> OSStatus {
        guard addresses.allSatisfy(NameSyntax.isMailbox) else { return errSecParam }
        trust.mutate { $0.extras.emailAddresses = addresses }
        return errSecSuccess
    }
}

/// The extras of one trust (state of ``OpenSecurityTrust``).
struct TrustExtras {
    var maximumIntermediates: Int? = nil
    var requiredKeyUsage: OpenSecurityTrust.KeyUsage? = nil
    var requiredExtendedKeyUsages: [ASN1ObjectIdentifier] = []
    var emailAddresses: [String] = []

    func apply(to options: inout ValidationOptions) {
        options.maximumIntermediates = maximumIntermediates
        options.requiredKeyUsage = requiredKeyUsage.map { OSecX509.KeyUsage(rawValue: $0.rawValue) }
        options.requiredExtendedKeyUsages = requiredExtendedKeyUsages
        options.peerNames.append(contentsOf: emailAddresses.map(PeerName.email))
    }
}
