import Foundation
import OSecASN1
import OSecCrypto
import OSecKeychain
import OSecPKCS12
import OSecSync
import OSecTrust
import OSecX509
import Security
import Testing

/// The facade's one error mapping (`Security/Base/ErrorMapping.swift`): each lower layer's condition becomes the
/// `errSec…` code Apple reports for it, with Apple's numbers written out here so that a renamed constant or a changed
/// case cannot pass unnoticed.
@Suite struct ErrorMappingTests {
    @Test func everyKeychainConditionHasApplesCode() {
        let expected: [(KeychainStoreError.Code, OSStatus)] = [
            (.duplicateItem, -25299), (.itemNotFound, -25300), (.authFailed, -25293),
            (.interactionNotAllowed, -25308), (.noSuchKeychain, -25294), (.invalidKeychain, -25295),
            (.keychainReplaced, -25295), (.duplicateKeychain, -25296), (.param, -50), (.noSuchAttribute, -25303),
            (.integrityCheckFailed, -26275), (.databaseBusy, -36), (.io, -36), (.internal, -26276),
        ]
        for (code, status) in expected {
            #expect(SecError.status(for: code) == status, "\(code)")
            let error = SecError(KeychainStoreError(code, "reason"))
            #expect(error.status == status && error.message == "reason")
            #expect((error.underlying as? KeychainStoreError)?.code == code)
        }
    }

    @Test func everyTrustCheckHasApplesCode() {
        let expected: [TrustCheck: OSStatus] = [
            .temporalValidity: -67818, .sslHostname: -67602, .email: -67623, .anchorTrusted: -67843,
            .missingIntermediate: -25318, .extendedKeyUsage: -67609, .serverAuthEKU: -67609, .keyUsage: -67608,
            .keySize: -67735, .weakKeySize: -67735, .signatureHashAlgorithms: -67815, .weakSignature: -67815,
            .validityPeriodMaximums: -67901, .basicConstraints: -67604, .basicConstraintsCA: -67605,
            .basicConstraintsPathLen: -67611, .criticalExtensions: -67603, .idLinkage: -67610,
            .nonEmptySubject: -67655, .notCA: -67902, .duplicateExtension: -67903, .unparseableExtension: -67618,
            .nameConstraints: -67689, .policyConstraints: -67835, .signature: -67688, .malformed: -26275,
            .callerConstraint: -67843, .workBudget: -67843, .revocation: -67820, .revocationResponseRequired: -67635,
            .eapTrustedServerNames: -67602,
        ]
        #expect(Set(expected.keys) == Set(TrustCheck.allCases), "a check without an expected code")
        for check in TrustCheck.allCases {
            #expect(SecError.status(for: check) == expected[check], "\(check)")
        }
    }

    @Test func pkcs12X509CryptoAndDERConditions() {
        let pkcs12: [(PKCS12Error.Code, OSStatus)] = [
            (.authenticationFailed, errSecAuthFailed), (.malformed, errSecDecode),
            (.unsupportedAlgorithm, errSecDecode),
            (.resourceLimit, errSecDecode), (.invalidParameter, errSecParam), (.internalError, errSecInternal),
        ]
        for (code, status) in pkcs12 {
            let error = SecError(PKCS12Error(code, "why"))
            #expect(error.status == status && error.message == "PKCS#12: why", "\(code)")
        }
        let x509: [(X509Error.Code, OSStatus)] = [
            (.malformed, errSecDecode), (.invalidPEM, errSecDecode), (.duplicateExtension, errSecParam),
            (.invalidValue, errSecParam), (.invalidKey, errSecParam), (.unsupportedAlgorithm, errSecUnimplemented),
            (.cryptoFailure, errSecInternal),
        ]
        for (code, status) in x509 { #expect(SecError(X509Error(code, "why")).status == status, "\(code)") }
        let crypto: [(CryptoError.Code, OSStatus)] = [
            (.invalidParameter, errSecParam), (.invalidKey, errSecParam), (.authenticationFailed, errSecParam),
            (.decryptionFailed, errSecParam), (.resourceLimit, errSecParam),
            (.unsupportedAlgorithm, errSecUnimplemented), (.internalError, errSecInternal),
        ]
        for (code, status) in crypto { #expect(SecError(CryptoError(code, "why")).status == status, "\(code)") }
        #expect(SecError(ASN1Error(.truncatedField, "short")).status == errSecDecode)
    }

    @Test func everySyncConditionHasApplesCode() {
        let expected: [(SyncError.Code, OSStatus)] = [
            (.authFailed, -25293), (.tamperedRow, -26275), (.replayedRow, -26275), (.serverUnavailable, -25291),
            (.serverIncompatible, -25295), (.notConfigured, -25291), (.param, -50), (.keychain, -26276),
            (.internal, -26276),
        ]
        for (code, status) in expected { #expect(SecError(SyncError(code, "why")).status == status, "\(code)") }
        let locked = SyncError(.keychain, "locked", underlying: KeychainStoreError(.interactionNotAllowed, "locked"))
        #expect(SecError(locked).status == errSecInteractionNotAllowed)
    }

    @Test func translationKeepsFacadeErrorsAndCarriesTheLowerOne() {
        let facade = SecError(errSecItemNotFound, "none")
        #expect(SecError(translating: facade).status == errSecItemNotFound)
        #expect(SecError(translating: facade).message == "none")

        let lower = CryptoError(.unsupportedAlgorithm, "no such padding")
        let translated = SecError(translating: lower, context: "algid:sign:RSA:raw")
        #expect(translated.status == errSecUnimplemented)
        #expect(translated.message == "algid:sign:RSA:raw: no such padding")
        #expect((translated.underlying as? CryptoError)?.code == .unsupportedAlgorithm)

        struct Unknown: Error {}
        #expect(SecError(translating: Unknown()).status == errSecInternal)
        #expect(SecError(translating: KeychainStoreError(.authFailed, "x")).nsError.code == Int(errSecAuthFailed))
        #expect(SecError(translating: KeychainStoreError(.authFailed, "x")).nsError.domain == NSOSStatusErrorDomain)
    }
}
