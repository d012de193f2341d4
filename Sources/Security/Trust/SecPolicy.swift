import Foundation
import OSecTrust

// Apple's SecPolicy API (Security/SecPolicy.h). A policy is an immutable value: which checks to run (basic X.509,
// SSL server/client with an optional host name, revocation) and their parameters.

/// Apple's `SecPolicy`.
public final class SecPolicy: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init.
    enum Kind: Equatable {
        case basicX509
        case ssl(server: Bool, hostname: String?)
        case revocation(flags: CFOptionFlags)
        /// Apple's EAP policy: basic X.509 checks, the serverAuth (server) or clientAuth (client) EKU when the leaf
        /// has the extension (anyExtendedKeyUsage allowed), and one of the trusted server names (none: any name).
        case eap(server: Bool, trustedServerNames: [String])
    }

    let kind: Kind
    /// The OID of a policy built on `kind` under another name: IPsec, whose `.ssl` kind carries the server flag
    /// and host name but is evaluated as Apple's IPsec policy (basic X.509 checks plus the host name); nil for
    /// the kind's own OID.
    let familyOID: String?

    init(_ kind: Kind, familyOID: String? = nil) {
        self.kind = kind
        self.familyOID = familyOID
    }

    /// The policy OID string (`kSecPolicyApple…` value).
    var oid: String {
        if let familyOID { return familyOID }
        switch kind {
        case .basicX509: return kSecPolicyAppleX509Basic as String
        case .ssl: return kSecPolicyAppleSSL as String
        case .revocation: return kSecPolicyAppleRevocation as String
        case .eap(let server, _): return (server ? kSecPolicyAppleEAPServer : kSecPolicyAppleEAPClient) as String
        }
    }

    public override var description: String {
        switch kind {
        case .basicX509: return "<SecPolicy: BasicX509>"
        case .ssl(let server, let hostname):
            return "<SecPolicy: \(server ? "sslServer" : "sslClient")\(hostname.map { " \($0)" } ?? "")>"
        case .revocation(let flags): return "<SecPolicy: revocation flags=\(flags)>"
        case .eap(let server, let names):
            return "<SecPolicy: \(server ? "eapServer" : "eapClient")\(names.isEmpty ? "" : " \(names)")>"
        }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecPolicy else { return false }
        return other.kind == kind && other.familyOID == familyOID
    }
    public override var hash: Int { oid.hashValue }
}

// MARK: Policy OIDs and property keys (values as on Apple platforms)

/// `1.2.840.113635.100.1.2`
nonisolated(unsafe) public let kSecPolicyAppleX509Basic: CFString = "1.2.840.113635.100.1.2"
/// `1.2.840.113635.100.1.3`
nonisolated(unsafe) public let kSecPolicyAppleSSL: CFString = "1.2.840.113635.100.1.3"
/// `1.2.840.113635.100.1.8`
nonisolated(unsafe) public let kSecPolicyAppleSMIME: CFString = "1.2.840.113635.100.1.8"
/// `1.2.840.113635.100.1.9`
nonisolated(unsafe) public let kSecPolicyAppleEAP: CFString = "1.2.840.113635.100.1.9"
/// `1.2.840.113635.100.1.11`
nonisolated(unsafe) public let kSecPolicyAppleIPsec: CFString = "1.2.840.113635.100.1.11"
/// `1.2.840.113635.100.1.16`
nonisolated(unsafe) public let kSecPolicyAppleCodeSigning: CFString = "1.2.840.113635.100.1.16"
/// `1.2.840.113635.100.1.20`
nonisolated(unsafe) public let kSecPolicyAppleTimeStamping: CFString = "1.2.840.113635.100.1.20"
/// `1.2.840.113635.100.1.21`
nonisolated(unsafe) public let kSecPolicyAppleRevocation: CFString = "1.2.840.113635.100.1.21"
/// `1.2.840.113635.100.1.22`
nonisolated(unsafe) public let kSecPolicyApplePassbookSigning: CFString = "1.2.840.113635.100.1.22"
/// `1.2.840.113635.100.1.3.1`: SSL, server certificates (`SecPolicyCreateWithProperties` makes the SSL server
/// policy).
nonisolated(unsafe) public let kSecPolicyAppleSSLServer: CFString = "1.2.840.113635.100.1.3.1"
/// `1.2.840.113635.100.1.3.2`: SSL, client certificates.
nonisolated(unsafe) public let kSecPolicyAppleSSLClient: CFString = "1.2.840.113635.100.1.3.2"
/// `1.2.840.113635.100.1.9.1`: EAP, server certificates.
nonisolated(unsafe) public let kSecPolicyAppleEAPServer: CFString = "1.2.840.113635.100.1.9.1"
/// `1.2.840.113635.100.1.9.2`: EAP, client certificates.
nonisolated(unsafe) public let kSecPolicyAppleEAPClient: CFString = "1.2.840.113635.100.1.9.2"
/// `1.2.840.113635.100.1.11.1`: IPsec, server certificates.
nonisolated(unsafe) public let kSecPolicyAppleIPSecServer: CFString = "1.2.840.113635.100.1.11.1"
/// `1.2.840.113635.100.1.11.2`: IPsec, client certificates.
nonisolated(unsafe) public let kSecPolicyAppleIPSecClient: CFString = "1.2.840.113635.100.1.11.2"

nonisolated(unsafe) public let kSecPolicyOid: CFString = "SecPolicyOid"
nonisolated(unsafe) public let kSecPolicyName: CFString = "SecPolicyName"
nonisolated(unsafe) public let kSecPolicyClient: CFString = "SecPolicyClient"
nonisolated(unsafe) public let kSecPolicyRevocationFlags: CFString = "SecPolicyRevocationFlags"
nonisolated(unsafe) public let kSecPolicyTeamIdentifier: CFString = "SecPolicyTeamIdentifier"

// MARK: Revocation flags

public var kSecRevocationOCSPMethod: CFOptionFlags { 1 }
public var kSecRevocationCRLMethod: CFOptionFlags { 2 }
public var kSecRevocationPreferCRL: CFOptionFlags { 4 }
public var kSecRevocationRequirePositiveResponse: CFOptionFlags { 8 }
public var kSecRevocationNetworkAccessDisabled: CFOptionFlags { 16 }
public var kSecRevocationUseAnyAvailableMethod: CFOptionFlags { 3 }

// MARK: Functions

/// Apple's `SecPolicyGetTypeID`.
public func SecPolicyGetTypeID() -> CFTypeID { 0x5EC0_0002 }

/// Apple's `SecPolicyCreateBasicX509`: chain, signatures, validity, basic constraints, critical extensions,
/// key size and weak hashes; no usage or name checks. Network fetch is disabled (we never fetch anyway).
public func SecPolicyCreateBasicX509() -> SecPolicy { SecPolicy(.basicX509) }

/// Apple's `SecPolicyCreateSSL`: `server` true checks a server certificate (serverAuth EKU, host name in SAN),
/// false a client certificate (clientAuth EKU). `hostname` nil skips the name check.
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(.ssl(server: server, hostname: hostname.map { $0 as String }))
}

/// Apple's `SecPolicyCreateRevocation`. `0` or unknown bits (≥ 32) → nil. We never use the network: revocation is
/// checked against the CRLs given with `SecTrustSetCRLs` (an OpenSecurity extra); see docs/trust.md.
public func SecPolicyCreateRevocation(_ revocationFlags: CFOptionFlags) -> SecPolicy? {
    guard revocationFlags != 0, revocationFlags < 32 else { return nil }
    return SecPolicy(.revocation(flags: revocationFlags))
}

/// Apple's `SecPolicyCreateWithProperties`: X509Basic, SSL and IPsec (and their server/client variants;
/// `kSecPolicyClient` selects the client form), Revocation. Other OIDs are not implemented → nil. A non-string
/// name → nil.
public func SecPolicyCreateWithProperties(_ policyIdentifier: CFTypeRef, _ properties: CFDictionary?) -> SecPolicy? {
    guard let oid = (policyIdentifier as? NSString) as String? else { return nil }
    let dict = properties as? [String: Any] ?? [:]
    let nameValue = dict[kSecPolicyName as String]
    let eapNames =
        (oid == kSecPolicyAppleEAP as String || oid == kSecPolicyAppleEAPServer as String
            || oid == kSecPolicyAppleEAPClient as String) ? eapTrustedServerNames(nameValue) : nil
    if nameValue != nil && !(nameValue is String || nameValue is NSString) && eapNames == nil { return nil }
    let name = nameValue as? String
    let basic = kSecPolicyAppleX509Basic as String
    let ssl = kSecPolicyAppleSSL as String
    let revocation = kSecPolicyAppleRevocation as String
    let sslServer = kSecPolicyAppleSSLServer as String
    let sslClient = kSecPolicyAppleSSLClient as String
    let ipsec = kSecPolicyAppleIPsec as String
    let ipsecServer = kSecPolicyAppleIPSecServer as String
    let ipsecClient = kSecPolicyAppleIPSecClient as String
    let eap = kSecPolicyAppleEAP as String
    let eapServer = kSecPolicyAppleEAPServer as String
    let eapClient = kSecPolicyAppleEAPClient as String
    func boolValue(_ value: Any?) -> Bool? { (value as? Bool) ?? (value as? NSNumber)?.boolValue }
    switch oid {
    case basic:
        return SecPolicyCreateBasicX509()
    case ssl, sslServer, sslClient:
        var client =
            (dict[kSecPolicyClient as String] as? Bool) ?? (dict[kSecPolicyClient as String] as? NSNumber)?.boolValue
            ?? false
        if oid == sslServer { client = false }
        if oid == sslClient { client = true }
        return SecPolicy(.ssl(server: !client, hostname: name))
    case ipsec, ipsecServer, ipsecClient:
        // IPsec: basic X.509 checks plus the host name, under the IPsec OID (server unless kSecPolicyClient or
        // the client OID).
        var client = boolValue(dict[kSecPolicyClient as String]) ?? false
        if oid == ipsecServer { client = false }
        if oid == ipsecClient { client = true }
        return SecPolicy(.ssl(server: !client, hostname: name), familyOID: ipsec)
    case eap, eapServer, eapClient:
        // EAP: kSecPolicyName is the trusted server names, one string or an array of them (Apple's rule).
        var client = boolValue(dict[kSecPolicyClient as String]) ?? false
        if oid == eapServer { client = false }
        if oid == eapClient { client = true }
        return SecPolicy(.eap(server: !client, trustedServerNames: eapNames ?? []))
    case revocation:
        let flags =
            (dict[kSecPolicyRevocationFlags as String] as? NSNumber)?.uintValue ?? kSecRevocationUseAnyAvailableMethod
        return SecPolicyCreateRevocation(flags)
    default:
        return nil
    }
}

/// Apple's `SecPolicyCopyProperties`: `kSecPolicyOid` (base OID), `kSecPolicyName` when a host name is set, and
/// `kSecPolicyClient` = true for the client SSL form (`kSecPolicyRevocationFlags` for revocation policies).
public func SecPolicyCopyProperties(_ policyRef: SecPolicy) -> CFDictionary? {
    var result: [String: Any] = [kSecPolicyOid as String: policyRef.oid]
    switch policyRef.kind {
    case .basicX509: break
    case .ssl(let server, let hostname):
        if let hostname { result[kSecPolicyName as String] = hostname }
        if !server { result[kSecPolicyClient as String] = true }
    case .revocation(let flags):
        result[kSecPolicyRevocationFlags as String] = NSNumber(value: flags)
    case .eap(let server, let names):
        result[kSecPolicyOid as String] = kSecPolicyAppleEAP as String
        if !names.isEmpty { result[kSecPolicyName as String] = names as NSArray }
        if !server { result[kSecPolicyClient as String] = true }
    }
    return result as NSDictionary
}

/// The trusted server names of an EAP policy's `kSecPolicyName`: absent → none (any name), a string → that one, an
/// array of strings → those; nil for anything else (Apple then creates no policy).
private func eapTrustedServerNames(_ value: Any?) -> [String]? {
    guard let value else { return [] }
    if let name = AttributeDictionary.stringValue(value) { return [name] }
    guard let array = value as? NSArray else { return nil }
    var names: [String] = []
    for element in array {
        guard let name = AttributeDictionary.stringValue(element) else { return nil }
        names.append(name)
    }
    return names
}
