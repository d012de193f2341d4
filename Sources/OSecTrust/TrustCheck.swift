/// One trust check, named as Apple names it in trust details and exceptions (`SecPolicyChecks.list`).
///
/// Each check belongs to a ``Category`` (used to rank several failures) and is either recoverable (a setting such as
/// the verify date, the anchors or an exception could change the verdict) or fatal. The OSStatus Apple reports for
/// a check is the facade's concern (`SecError.status(for:)` in `Security/Base/ErrorMapping.swift`).
package enum TrustCheck: String, Sendable, CaseIterable, Hashable {
    // Expired
    case temporalValidity = "TemporalValidity"
    // Name
    case sslHostname = "SSLHostname"
    case email = "Email"
    /// Apple's EAPTrustedServerNames: none of the leaf's DNS names is one of the EAP policy's trusted server names.
    case eapTrustedServerNames = "EAPTrustedServerNames"
    // Trust
    case anchorTrusted = "AnchorTrusted"
    case missingIntermediate = "MissingIntermediate"
    // Usage
    case extendedKeyUsage = "ExtendedKeyUsage"
    case serverAuthEKU = "ServerAuthEKU"
    case keyUsage = "KeyUsage"
    // KeySize
    case keySize = "KeySize"
    case weakKeySize = "WeakKeySize"
    // WeakHash
    case signatureHashAlgorithms = "SignatureHashAlgorithms"
    case weakSignature = "WeakSignature"
    // Compliance
    case validityPeriodMaximums = "ValidityPeriodMaximums"
    case basicConstraints = "BasicConstraints"
    case basicConstraintsCA = "BasicConstraintsCA"
    case basicConstraintsPathLen = "BasicConstraintsPathLen"
    case criticalExtensions = "CriticalExtensions"
    case idLinkage = "IdLinkage"
    case nonEmptySubject = "NonEmptySubject"
    case notCA = "NotCA"
    case duplicateExtension = "DuplicateExtension"
    case unparseableExtension = "UnparseableExtension"
    case nameConstraints = "NameConstraints"
    case policyConstraints = "PolicyConstraints"
    /// Not an Apple check name: the chain's signature does not verify (Apple's path builder drops such issuers;
    /// we report the reason). Also used for unsupported or mismatched signature algorithms.
    case signature = "Signature"
    /// Not an Apple check name: the certificate is malformed beyond one extension (e.g. version/extension rules).
    case malformed = "Malformed"
    /// Not an Apple check name: a caller-imposed constraint (allowed signature algorithms, maximum depth).
    case callerConstraint = "CallerConstraint"
    /// Not an Apple check name: the evaluation ran out of its work budget (``TrustLimits``) before finding a trusted
    /// path; fatal, since more tries of the same input cannot succeed.
    case workBudget = "WorkBudget"
    // Revoked
    case revocation = "Revocation"
    // Pinning
    case revocationResponseRequired = "RevocationResponseRequired"

    /// Apple's failure categories, most important first (`SecPolicyChecks.list` ranking).
    package enum Category: Int, Sendable, Comparable {
        case blocked = 0
        case revoked
        case keySize
        case weakHash
        case denied
        case compliance
        case pinning
        case trust
        case usage
        case name
        case expired
        /// More important first (Blocked is the smallest).
        package static func < (lhs: Category, rhs: Category) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The category that ranks this check among others (Apple's `SecPolicyChecks.list`).
    package var category: Category {
        switch self {
        case .temporalValidity: return .expired
        case .sslHostname, .email, .eapTrustedServerNames: return .name
        case .anchorTrusted, .missingIntermediate: return .trust
        case .extendedKeyUsage, .serverAuthEKU, .keyUsage: return .usage
        case .keySize, .weakKeySize: return .keySize
        case .signatureHashAlgorithms, .weakSignature: return .weakHash
        case .revocation: return .revoked
        case .revocationResponseRequired: return .pinning
        case .signature, .malformed, .callerConstraint, .workBudget, .validityPeriodMaximums, .basicConstraints,
            .basicConstraintsCA,
            .basicConstraintsPathLen, .criticalExtensions, .idLinkage, .nonEmptySubject, .notCA, .duplicateExtension,
            .unparseableExtension, .nameConstraints, .policyConstraints:
            return .compliance
        }
    }

    /// Whether Apple classifies a failure of this check as fatal (`kSecTrustResultFatalTrustFailure`).
    package var isFatal: Bool {
        switch self {
        case .weakKeySize, .weakSignature, .revocation, .nameConstraints, .policyConstraints, .signature, .malformed,
            .workBudget:
            return true
        default:
            return false
        }
    }

    /// Apple's per-certificate detail text (the `NSUnderlyingError` message fragments).
    package var detailText: String {
        switch self {
        case .temporalValidity: return "Certificate is not temporally valid"
        case .sslHostname: return "SSL hostname does not match name(s) in certificate"
        case .email: return "Email address does not match name(s) in certificate"
        case .eapTrustedServerNames: return "Certificate name does not match the trusted server names"
        case .anchorTrusted: return "Root is not trusted"
        case .missingIntermediate: return "Missing intermediate certificate"
        case .extendedKeyUsage: return "Extended key usage does not match certificate usage"
        case .serverAuthEKU: return "Extended key usage does not contain serverAuth"
        case .keyUsage: return "Key usage does not match certificate usage"
        case .keySize: return "Key size is not permitted for this use"
        case .weakKeySize: return "Certificate uses a weak key size"
        case .signatureHashAlgorithms: return "Signature hash algorithm is not permitted for this use"
        case .weakSignature: return "Certificate uses a weak signature algorithm"
        case .validityPeriodMaximums: return "Certificate validity period is too long"
        case .basicConstraints: return "Basic constraints are missing or invalid"
        case .basicConstraintsCA: return "Issuer is not a certificate authority"
        case .basicConstraintsPathLen: return "Path length constraint exceeded"
        case .criticalExtensions: return "Certificate has an unknown critical extension"
        case .idLinkage: return "Authority key identifier does not match issuer"
        case .nonEmptySubject: return "Certificate subject is empty"
        case .notCA: return "Certificate authority used as end entity"
        case .duplicateExtension: return "Certificate has a duplicate extension"
        case .unparseableExtension: return "Certificate has an unparseable extension"
        case .nameConstraints: return "Certificate name is not permitted by name constraints"
        case .policyConstraints: return "Certificate policy constraints are not satisfied"
        case .signature: return "Certificate signature is invalid"
        case .malformed: return "Certificate is malformed"
        case .callerConstraint: return "Certificate does not meet the caller's constraints"
        case .workBudget: return "Path building exceeded its work budget"
        case .revocation: return "Certificate has been revoked"
        case .revocationResponseRequired: return "Revocation status could not be determined"
        }
    }
}

/// One failed check on one certificate of a chain.
package struct TrustFailure: Sendable, Hashable, CustomStringConvertible {
    /// Index in the chain (0 = leaf).
    package let index: Int
    /// The failed check.
    package let check: TrustCheck
    /// A precise reason (what exactly failed), for messages and diagnostics.
    package let reason: String

    /// A failure of `check` on certificate `index` of the chain, with a precise reason.
    package init(_ index: Int, _ check: TrustCheck, _ reason: String) {
        self.index = index
        self.check = check
        self.reason = reason
    }

    /// `cert N: Check: reason`.
    package var description: String { "cert \(index): \(check.rawValue): \(reason)" }
}

extension Array where Element == TrustFailure {
    /// The failure that decides the reported status: highest category, then lowest certificate index.
    package var mostImportant: TrustFailure? {
        self.min { a, b in
            if a.check.category != b.check.category { return a.check.category < b.check.category }
            return a.index < b.index
        }
    }

    /// Whether any failure is fatal (Apple's `FatalTrustFailure`).
    package var hasFatal: Bool { contains { $0.check.isFatal } }
}
