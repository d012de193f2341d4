import Foundation
import OSecASN1
import OSecCMS
import OSecCrypto
import OSecKeychain
import OSecPKCS12
import OSecSync
import OSecTrust
import OSecX509

// The one place where the errors of the layers below the facade become Apple's result codes.
//
// Each lower layer throws its own typed error with its own open set of codes (`CryptoError`, `ASN1Error`,
// `X509Error`, `PKCS12Error`, `KeychainStoreError`, `SyncError`) or reports a failed `TrustCheck`; none of them
// knows an OSStatus. This file decides, code by code, which `errSec…` constant Apple returns for that condition
// (reference §7 for PKCS#12, §8 for trust, §9 for the keychain). The facade's catch sites call these initializers
// instead of choosing numbers themselves, and `SecError` keeps the lower error as `underlying` for diagnostics.

extension SecError {
    /// Translates any error thrown at or below the facade: a `SecError` stays as it is, a lower layer's error is
    /// mapped by its layer's table below, anything else is `errSecInternal`.
    ///
    /// - Parameter context: what the facade was doing (e.g. an algorithm name), prefixed to the message.
    package init(translating error: any Error, context: String? = nil) {
        let mapped: SecError
        switch error {
        case let error as SecError: mapped = error
        case let error as KeychainStoreError: mapped = SecError(error)
        case let error as PKCS12Error: mapped = SecError(error)
        case let error as X509Error: mapped = SecError(error)
        case let error as CryptoError: mapped = SecError(error)
        case let error as ASN1Error: mapped = SecError(error)
        case let error as SyncError: mapped = SecError(error)
        case let error as CMSError: mapped = SecError(error)
        default: mapped = SecError(errSecInternal, "\(error)", underlying: error)
        }
        guard let context else {
            self = mapped
            return
        }
        self.init(mapped.status, "\(context): \(mapped.message)", underlying: mapped.underlying)
    }

    // MARK: Keychain (OSecKeychain)

    /// Apple's result code for a keychain storage condition (reference §9).
    package static func status(for code: KeychainStoreError.Code) -> OSStatus {
        switch code {
        case .duplicateItem: return errSecDuplicateItem
        case .itemNotFound: return errSecItemNotFound
        case .authFailed: return errSecAuthFailed
        case .interactionNotAllowed: return errSecInteractionNotAllowed
        case .noSuchKeychain: return errSecNoSuchKeychain
        case .invalidKeychain, .keychainReplaced: return errSecInvalidKeychain
        case .duplicateKeychain: return errSecDuplicateKeychain
        case .param: return errSecParam
        case .noSuchAttribute: return errSecNoSuchAttr
        case .integrityCheckFailed: return errSecDecode
        case .databaseBusy, .io: return errSecIO
        default: return errSecInternal
        }
    }

    /// A keychain storage error as Apple reports it; the store's reason is the message.
    package init(_ error: KeychainStoreError) {
        self.init(SecError.status(for: error.code), error.reason, underlying: error)
    }

    // MARK: PKCS#12 (OSecPKCS12)

    /// Apple's result code for a PKCS#12 condition (reference §7.1): a wrong password is errSecAuthFailed, a file
    /// that cannot be read (malformed, an algorithm we do not implement, over the work budget) is errSecDecode.
    package static func status(for code: PKCS12Error.Code) -> OSStatus {
        switch code {
        case .authenticationFailed: return errSecAuthFailed
        case .malformed, .unsupportedAlgorithm, .resourceLimit: return errSecDecode
        case .invalidParameter: return errSecParam
        default: return errSecInternal
        }
    }

    /// A PKCS#12 error as Apple reports it, its message prefixed with "PKCS#12: ".
    package init(_ error: PKCS12Error) {
        self.init(SecError.status(for: error.code), "PKCS#12: \(error.reason)", underlying: error)
    }

    // MARK: Certificates (OSecX509)

    /// Apple's result code for a certificate parsing or building condition.
    package static func status(for code: X509Error.Code) -> OSStatus {
        switch code {
        case .invalidKey, .invalidValue, .duplicateExtension: return errSecParam
        case .unsupportedAlgorithm: return errSecUnimplemented
        case .malformed, .invalidPEM: return errSecDecode
        default: return errSecInternal
        }
    }

    /// A certificate error as Apple reports it; the X.509 layer's reason is the message.
    package init(_ error: X509Error) {
        self.init(SecError.status(for: error.code), error.reason, underlying: error)
    }

    // MARK: DER (OSecASN1)

    /// Every DER or PEM failure is Apple's errSecDecode ("Unable to decode the provided data.").
    package init(_ error: ASN1Error) {
        self.init(errSecDecode, error.reason, underlying: error)
    }

    // MARK: Keys and ciphers (OSecCrypto)

    /// Apple's result code for a cryptographic condition: SecKey operations answer errSecParam for a key, input or
    /// signature they cannot use, errSecUnimplemented for an algorithm the key does not support.
    package static func status(for code: CryptoError.Code) -> OSStatus {
        switch code {
        case .internalError: return errSecInternal
        case .unsupportedAlgorithm: return errSecUnimplemented
        case .invalidParameter, .invalidKey, .authenticationFailed, .decryptionFailed, .resourceLimit:
            return errSecParam
        default: return errSecInternal
        }
    }

    /// A cryptographic error as Apple reports it; the crypto layer's reason is the message.
    package init(_ error: CryptoError) {
        self.init(SecError.status(for: error.code), error.reason, underlying: error)
    }

    // MARK: Sync (OSecSync)

    /// Apple's result code for a sync condition: a wrong circle passphrase is errSecAuthFailed like a wrong
    /// keychain password, a row that does not open (tampered, swapped, copied from another circle, replayed) is
    /// errSecDecode like a tampered keychain row, an unreachable or unconfigured server errSecNotAvailable.
    package static func status(for code: SyncError.Code) -> OSStatus {
        switch code {
        case .authFailed: return errSecAuthFailed
        case .tamperedRow, .replayedRow: return errSecDecode
        case .serverUnavailable, .notConfigured: return errSecNotAvailable
        case .serverIncompatible: return errSecInvalidKeychain
        case .param: return errSecParam
        default: return errSecInternal
        }
    }

    /// A sync error as Apple reports it: a refusal of the local keychain keeps the keychain's own code.
    package init(_ error: SyncError) {
        if error.code == .keychain, let keychain = error.underlying as? KeychainStoreError {
            self.init(SecError.status(for: keychain.code), error.reason, underlying: error)
            return
        }
        self.init(SecError.status(for: error.code), error.reason, underlying: error)
    }

    // MARK: Trust (OSecTrust)

    /// The OSStatus Apple reports when `check` decides a trust evaluation's outcome (the code of the `CFError` of
    /// `SecTrustEvaluateWithError` and the `StatusCodes` of `SecTrustCopyProperties`' details).
    package static func status(for check: TrustCheck) -> OSStatus {
        switch check {
        case .temporalValidity: return errSecCertificateExpired
        case .sslHostname, .eapTrustedServerNames: return errSecHostNameMismatch
        case .email: return errSecSMIMEEmailAddressesNotFound
        case .anchorTrusted, .callerConstraint, .workBudget: return errSecNotTrusted
        case .missingIntermediate: return errSecCreateChainFailed
        case .extendedKeyUsage, .serverAuthEKU: return errSecInvalidExtendedKeyUsage
        case .keyUsage: return errSecInvalidKeyUsageForPolicy
        case .keySize, .weakKeySize: return errSecUnsupportedKeySize
        case .signatureHashAlgorithms, .weakSignature: return errSecInvalidDigestAlgorithm
        case .validityPeriodMaximums: return errSecCertificateValidityPeriodTooLong
        case .basicConstraints: return errSecNoBasicConstraints
        case .basicConstraintsCA: return errSecNoBasicConstraintsCA
        case .basicConstraintsPathLen: return errSecPathLengthConstraintExceeded
        case .criticalExtensions: return errSecUnknownCriticalExtensionFlag
        case .idLinkage: return errSecInvalidIDLinkage
        case .nonEmptySubject: return errSecInvalidSubjectName
        case .notCA: return errSecCertificateIsCA
        case .duplicateExtension: return errSecCertificateDuplicateExtension
        case .unparseableExtension: return errSecUnknownCertExtension
        case .nameConstraints: return errSecInvalidName
        case .policyConstraints: return errSecInvalidPolicyIdentifiers
        case .signature: return errSecInvalidSignature
        case .malformed: return errSecDecode
        case .revocation: return errSecCertificateRevoked
        case .revocationResponseRequired: return errSecIncompleteCertRevocationCheck
        }
    }
}

// MARK: CMS (OSecCMS)

extension SecError {
    /// Apple's result code for a CMS condition: CMSDecoder reports every malformed, unsupported or oversized
    /// message as errSecUnknownFormat (Apple's documented code for FinalizeMessage).
    init(_ error: CMSError) {
        let status: OSStatus
        switch error.code {
        case .malformed, .resourceLimit, .unsupportedAlgorithm: status = errSecUnknownFormat
        case .invalidParameter: status = errSecParam
        case .noMatchingRecipient: status = errSecItemNotFound
        case .decryptionFailed: status = errSecDecode
        default:
            if let underlying = error.underlying {
                self.init(translating: underlying, context: error.reason)
                return
            }
            status = errSecInternal
        }
        self.init(status, error.description, underlying: error)
    }
}
