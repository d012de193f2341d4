import Foundation
import Security
import XCTest

// Swift 5 style, as error enums of keychain and crypto libraries are written: a switch that names every result code
// of Apple's SecBase.h (such code does not compile unless every one of them exists), the names printed for logs.

enum SecurityStatusName {
    static func name(of status: OSStatus) -> String? {
        switch status {
        case errSecSuccess: return "errSecSuccess"
        case errSecUnimplemented: return "errSecUnimplemented"
        case errSecDiskFull: return "errSecDiskFull"
        case errSecIO: return "errSecIO"
        case errSecOpWr: return "errSecOpWr"
        case errSecParam: return "errSecParam"
        case errSecWrPerm: return "errSecWrPerm"
        case errSecAllocate: return "errSecAllocate"
        case errSecUserCanceled: return "errSecUserCanceled"
        case errSecBadReq: return "errSecBadReq"
        case errSecInternalComponent: return "errSecInternalComponent"
        case errSecCoreFoundationUnknown: return "errSecCoreFoundationUnknown"
        case errSecMissingEntitlement: return "errSecMissingEntitlement"
        case errSecRestrictedAPI: return "errSecRestrictedAPI"
        case errSecNotAvailable: return "errSecNotAvailable"
        case errSecReadOnly: return "errSecReadOnly"
        case errSecAuthFailed: return "errSecAuthFailed"
        case errSecNoSuchKeychain: return "errSecNoSuchKeychain"
        case errSecInvalidKeychain: return "errSecInvalidKeychain"
        case errSecDuplicateKeychain: return "errSecDuplicateKeychain"
        case errSecDuplicateCallback: return "errSecDuplicateCallback"
        case errSecInvalidCallback: return "errSecInvalidCallback"
        case errSecDuplicateItem: return "errSecDuplicateItem"
        case errSecItemNotFound: return "errSecItemNotFound"
        case errSecBufferTooSmall: return "errSecBufferTooSmall"
        case errSecDataTooLarge: return "errSecDataTooLarge"
        case errSecNoSuchAttr: return "errSecNoSuchAttr"
        case errSecInvalidItemRef: return "errSecInvalidItemRef"
        case errSecInvalidSearchRef: return "errSecInvalidSearchRef"
        case errSecNoSuchClass: return "errSecNoSuchClass"
        case errSecNoDefaultKeychain: return "errSecNoDefaultKeychain"
        case errSecInteractionNotAllowed: return "errSecInteractionNotAllowed"
        case errSecReadOnlyAttr: return "errSecReadOnlyAttr"
        case errSecWrongSecVersion: return "errSecWrongSecVersion"
        case errSecKeySizeNotAllowed: return "errSecKeySizeNotAllowed"
        case errSecNoStorageModule: return "errSecNoStorageModule"
        case errSecNoCertificateModule: return "errSecNoCertificateModule"
        case errSecNoPolicyModule: return "errSecNoPolicyModule"
        case errSecInteractionRequired: return "errSecInteractionRequired"
        case errSecDataNotAvailable: return "errSecDataNotAvailable"
        case errSecDataNotModifiable: return "errSecDataNotModifiable"
        case errSecCreateChainFailed: return "errSecCreateChainFailed"
        case errSecInvalidPrefsDomain: return "errSecInvalidPrefsDomain"
        case errSecInDarkWake: return "errSecInDarkWake"
        case errSecACLNotSimple: return "errSecACLNotSimple"
        case errSecPolicyNotFound: return "errSecPolicyNotFound"
        case errSecInvalidTrustSetting: return "errSecInvalidTrustSetting"
        case errSecNoAccessForItem: return "errSecNoAccessForItem"
        case errSecInvalidOwnerEdit: return "errSecInvalidOwnerEdit"
        case errSecTrustNotAvailable: return "errSecTrustNotAvailable"
        case errSecUnsupportedFormat: return "errSecUnsupportedFormat"
        case errSecUnknownFormat: return "errSecUnknownFormat"
        case errSecKeyIsSensitive: return "errSecKeyIsSensitive"
        case errSecMultiplePrivKeys: return "errSecMultiplePrivKeys"
        case errSecPassphraseRequired: return "errSecPassphraseRequired"
        case errSecInvalidPasswordRef: return "errSecInvalidPasswordRef"
        case errSecInvalidTrustSettings: return "errSecInvalidTrustSettings"
        case errSecNoTrustSettings: return "errSecNoTrustSettings"
        case errSecPkcs12VerifyFailure: return "errSecPkcs12VerifyFailure"
        case errSecNotSigner: return "errSecNotSigner"
        case errSecDecode: return "errSecDecode"
        case errSecServiceNotAvailable: return "errSecServiceNotAvailable"
        case errSecInsufficientClientID: return "errSecInsufficientClientID"
        case errSecDeviceReset: return "errSecDeviceReset"
        case errSecDeviceFailed: return "errSecDeviceFailed"
        case errSecAppleAddAppACLSubject: return "errSecAppleAddAppACLSubject"
        case errSecApplePublicKeyIncomplete: return "errSecApplePublicKeyIncomplete"
        case errSecAppleSignatureMismatch: return "errSecAppleSignatureMismatch"
        case errSecAppleInvalidKeyStartDate: return "errSecAppleInvalidKeyStartDate"
        case errSecAppleInvalidKeyEndDate: return "errSecAppleInvalidKeyEndDate"
        case errSecConversionError: return "errSecConversionError"
        case errSecAppleSSLv2Rollback: return "errSecAppleSSLv2Rollback"
        case errSecQuotaExceeded: return "errSecQuotaExceeded"
        case errSecFileTooBig: return "errSecFileTooBig"
        case errSecInvalidDatabaseBlob: return "errSecInvalidDatabaseBlob"
        case errSecInvalidKeyBlob: return "errSecInvalidKeyBlob"
        case errSecIncompatibleDatabaseBlob: return "errSecIncompatibleDatabaseBlob"
        case errSecIncompatibleKeyBlob: return "errSecIncompatibleKeyBlob"
        case errSecHostNameMismatch: return "errSecHostNameMismatch"
        case errSecUnknownCriticalExtensionFlag: return "errSecUnknownCriticalExtensionFlag"
        case errSecNoBasicConstraints: return "errSecNoBasicConstraints"
        case errSecNoBasicConstraintsCA: return "errSecNoBasicConstraintsCA"
        case errSecInvalidAuthorityKeyID: return "errSecInvalidAuthorityKeyID"
        case errSecInvalidSubjectKeyID: return "errSecInvalidSubjectKeyID"
        case errSecInvalidKeyUsageForPolicy: return "errSecInvalidKeyUsageForPolicy"
        case errSecInvalidExtendedKeyUsage: return "errSecInvalidExtendedKeyUsage"
        case errSecInvalidIDLinkage: return "errSecInvalidIDLinkage"
        case errSecPathLengthConstraintExceeded: return "errSecPathLengthConstraintExceeded"
        case errSecInvalidRoot: return "errSecInvalidRoot"
        case errSecCRLExpired: return "errSecCRLExpired"
        case errSecCRLNotValidYet: return "errSecCRLNotValidYet"
        case errSecCRLNotFound: return "errSecCRLNotFound"
        case errSecCRLServerDown: return "errSecCRLServerDown"
        case errSecCRLBadURI: return "errSecCRLBadURI"
        case errSecUnknownCertExtension: return "errSecUnknownCertExtension"
        case errSecUnknownCRLExtension: return "errSecUnknownCRLExtension"
        case errSecCRLNotTrusted: return "errSecCRLNotTrusted"
        case errSecCRLPolicyFailed: return "errSecCRLPolicyFailed"
        case errSecIDPFailure: return "errSecIDPFailure"
        case errSecSMIMEEmailAddressesNotFound: return "errSecSMIMEEmailAddressesNotFound"
        case errSecSMIMEBadExtendedKeyUsage: return "errSecSMIMEBadExtendedKeyUsage"
        case errSecSMIMEBadKeyUsage: return "errSecSMIMEBadKeyUsage"
        case errSecSMIMEKeyUsageNotCritical: return "errSecSMIMEKeyUsageNotCritical"
        case errSecSMIMENoEmailAddress: return "errSecSMIMENoEmailAddress"
        case errSecSMIMESubjAltNameNotCritical: return "errSecSMIMESubjAltNameNotCritical"
        case errSecSSLBadExtendedKeyUsage: return "errSecSSLBadExtendedKeyUsage"
        case errSecOCSPBadResponse: return "errSecOCSPBadResponse"
        case errSecOCSPBadRequest: return "errSecOCSPBadRequest"
        case errSecOCSPUnavailable: return "errSecOCSPUnavailable"
        case errSecOCSPStatusUnrecognized: return "errSecOCSPStatusUnrecognized"
        case errSecEndOfData: return "errSecEndOfData"
        case errSecIncompleteCertRevocationCheck: return "errSecIncompleteCertRevocationCheck"
        case errSecNetworkFailure: return "errSecNetworkFailure"
        case errSecOCSPNotTrustedToAnchor: return "errSecOCSPNotTrustedToAnchor"
        case errSecRecordModified: return "errSecRecordModified"
        case errSecOCSPSignatureError: return "errSecOCSPSignatureError"
        case errSecOCSPNoSigner: return "errSecOCSPNoSigner"
        case errSecOCSPResponderMalformedReq: return "errSecOCSPResponderMalformedReq"
        case errSecOCSPResponderInternalError: return "errSecOCSPResponderInternalError"
        case errSecOCSPResponderTryLater: return "errSecOCSPResponderTryLater"
        case errSecOCSPResponderSignatureRequired: return "errSecOCSPResponderSignatureRequired"
        case errSecOCSPResponderUnauthorized: return "errSecOCSPResponderUnauthorized"
        case errSecOCSPResponseNonceMismatch: return "errSecOCSPResponseNonceMismatch"
        case errSecCodeSigningBadCertChainLength: return "errSecCodeSigningBadCertChainLength"
        case errSecCodeSigningNoBasicConstraints: return "errSecCodeSigningNoBasicConstraints"
        case errSecCodeSigningBadPathLengthConstraint: return "errSecCodeSigningBadPathLengthConstraint"
        case errSecCodeSigningNoExtendedKeyUsage: return "errSecCodeSigningNoExtendedKeyUsage"
        case errSecCodeSigningDevelopment: return "errSecCodeSigningDevelopment"
        case errSecResourceSignBadCertChainLength: return "errSecResourceSignBadCertChainLength"
        case errSecResourceSignBadExtKeyUsage: return "errSecResourceSignBadExtKeyUsage"
        case errSecTrustSettingDeny: return "errSecTrustSettingDeny"
        case errSecInvalidSubjectName: return "errSecInvalidSubjectName"
        case errSecUnknownQualifiedCertStatement: return "errSecUnknownQualifiedCertStatement"
        case errSecMobileMeRequestQueued: return "errSecMobileMeRequestQueued"
        case errSecMobileMeRequestRedirected: return "errSecMobileMeRequestRedirected"
        case errSecMobileMeServerError: return "errSecMobileMeServerError"
        case errSecMobileMeServerNotAvailable: return "errSecMobileMeServerNotAvailable"
        case errSecMobileMeServerAlreadyExists: return "errSecMobileMeServerAlreadyExists"
        case errSecMobileMeServerServiceErr: return "errSecMobileMeServerServiceErr"
        case errSecMobileMeRequestAlreadyPending: return "errSecMobileMeRequestAlreadyPending"
        case errSecMobileMeNoRequestPending: return "errSecMobileMeNoRequestPending"
        case errSecMobileMeCSRVerifyFailure: return "errSecMobileMeCSRVerifyFailure"
        case errSecMobileMeFailedConsistencyCheck: return "errSecMobileMeFailedConsistencyCheck"
        case errSecNotInitialized: return "errSecNotInitialized"
        case errSecInvalidHandleUsage: return "errSecInvalidHandleUsage"
        case errSecPVCReferentNotFound: return "errSecPVCReferentNotFound"
        case errSecFunctionIntegrityFail: return "errSecFunctionIntegrityFail"
        case errSecInternalError: return "errSecInternalError"
        case errSecMemoryError: return "errSecMemoryError"
        case errSecInvalidData: return "errSecInvalidData"
        case errSecMDSError: return "errSecMDSError"
        case errSecInvalidPointer: return "errSecInvalidPointer"
        case errSecSelfCheckFailed: return "errSecSelfCheckFailed"
        case errSecFunctionFailed: return "errSecFunctionFailed"
        case errSecModuleManifestVerifyFailed: return "errSecModuleManifestVerifyFailed"
        case errSecInvalidGUID: return "errSecInvalidGUID"
        case errSecInvalidHandle: return "errSecInvalidHandle"
        case errSecInvalidDBList: return "errSecInvalidDBList"
        case errSecInvalidPassthroughID: return "errSecInvalidPassthroughID"
        case errSecInvalidNetworkAddress: return "errSecInvalidNetworkAddress"
        case errSecCRLAlreadySigned: return "errSecCRLAlreadySigned"
        case errSecInvalidNumberOfFields: return "errSecInvalidNumberOfFields"
        case errSecVerificationFailure: return "errSecVerificationFailure"
        case errSecUnknownTag: return "errSecUnknownTag"
        case errSecInvalidSignature: return "errSecInvalidSignature"
        case errSecInvalidName: return "errSecInvalidName"
        case errSecInvalidCertificateRef: return "errSecInvalidCertificateRef"
        case errSecInvalidCertificateGroup: return "errSecInvalidCertificateGroup"
        case errSecTagNotFound: return "errSecTagNotFound"
        case errSecInvalidQuery: return "errSecInvalidQuery"
        case errSecInvalidValue: return "errSecInvalidValue"
        case errSecCallbackFailed: return "errSecCallbackFailed"
        case errSecACLDeleteFailed: return "errSecACLDeleteFailed"
        case errSecACLReplaceFailed: return "errSecACLReplaceFailed"
        case errSecACLAddFailed: return "errSecACLAddFailed"
        case errSecACLChangeFailed: return "errSecACLChangeFailed"
        case errSecInvalidAccessCredentials: return "errSecInvalidAccessCredentials"
        case errSecInvalidRecord: return "errSecInvalidRecord"
        case errSecInvalidACL: return "errSecInvalidACL"
        case errSecInvalidSampleValue: return "errSecInvalidSampleValue"
        case errSecIncompatibleVersion: return "errSecIncompatibleVersion"
        case errSecPrivilegeNotGranted: return "errSecPrivilegeNotGranted"
        case errSecInvalidScope: return "errSecInvalidScope"
        case errSecPVCAlreadyConfigured: return "errSecPVCAlreadyConfigured"
        case errSecInvalidPVC: return "errSecInvalidPVC"
        case errSecEMMLoadFailed: return "errSecEMMLoadFailed"
        case errSecEMMUnloadFailed: return "errSecEMMUnloadFailed"
        case errSecAddinLoadFailed: return "errSecAddinLoadFailed"
        case errSecInvalidKeyRef: return "errSecInvalidKeyRef"
        case errSecInvalidKeyHierarchy: return "errSecInvalidKeyHierarchy"
        case errSecAddinUnloadFailed: return "errSecAddinUnloadFailed"
        case errSecLibraryReferenceNotFound: return "errSecLibraryReferenceNotFound"
        case errSecInvalidAddinFunctionTable: return "errSecInvalidAddinFunctionTable"
        case errSecInvalidServiceMask: return "errSecInvalidServiceMask"
        case errSecModuleNotLoaded: return "errSecModuleNotLoaded"
        case errSecInvalidSubServiceID: return "errSecInvalidSubServiceID"
        case errSecAttributeNotInContext: return "errSecAttributeNotInContext"
        case errSecModuleManagerInitializeFailed: return "errSecModuleManagerInitializeFailed"
        case errSecModuleManagerNotFound: return "errSecModuleManagerNotFound"
        case errSecEventNotificationCallbackNotFound: return "errSecEventNotificationCallbackNotFound"
        case errSecInputLengthError: return "errSecInputLengthError"
        case errSecOutputLengthError: return "errSecOutputLengthError"
        case errSecPrivilegeNotSupported: return "errSecPrivilegeNotSupported"
        case errSecDeviceError: return "errSecDeviceError"
        case errSecAttachHandleBusy: return "errSecAttachHandleBusy"
        case errSecNotLoggedIn: return "errSecNotLoggedIn"
        case errSecAlgorithmMismatch: return "errSecAlgorithmMismatch"
        case errSecKeyUsageIncorrect: return "errSecKeyUsageIncorrect"
        case errSecKeyBlobTypeIncorrect: return "errSecKeyBlobTypeIncorrect"
        case errSecKeyHeaderInconsistent: return "errSecKeyHeaderInconsistent"
        case errSecUnsupportedKeyFormat: return "errSecUnsupportedKeyFormat"
        case errSecUnsupportedKeySize: return "errSecUnsupportedKeySize"
        case errSecInvalidKeyUsageMask: return "errSecInvalidKeyUsageMask"
        case errSecUnsupportedKeyUsageMask: return "errSecUnsupportedKeyUsageMask"
        case errSecInvalidKeyAttributeMask: return "errSecInvalidKeyAttributeMask"
        case errSecUnsupportedKeyAttributeMask: return "errSecUnsupportedKeyAttributeMask"
        case errSecInvalidKeyLabel: return "errSecInvalidKeyLabel"
        case errSecUnsupportedKeyLabel: return "errSecUnsupportedKeyLabel"
        case errSecInvalidKeyFormat: return "errSecInvalidKeyFormat"
        case errSecUnsupportedVectorOfBuffers: return "errSecUnsupportedVectorOfBuffers"
        case errSecInvalidInputVector: return "errSecInvalidInputVector"
        case errSecInvalidOutputVector: return "errSecInvalidOutputVector"
        case errSecInvalidContext: return "errSecInvalidContext"
        case errSecInvalidAlgorithm: return "errSecInvalidAlgorithm"
        case errSecInvalidAttributeKey: return "errSecInvalidAttributeKey"
        case errSecMissingAttributeKey: return "errSecMissingAttributeKey"
        case errSecInvalidAttributeInitVector: return "errSecInvalidAttributeInitVector"
        case errSecMissingAttributeInitVector: return "errSecMissingAttributeInitVector"
        case errSecInvalidAttributeSalt: return "errSecInvalidAttributeSalt"
        case errSecMissingAttributeSalt: return "errSecMissingAttributeSalt"
        case errSecInvalidAttributePadding: return "errSecInvalidAttributePadding"
        case errSecMissingAttributePadding: return "errSecMissingAttributePadding"
        case errSecInvalidAttributeRandom: return "errSecInvalidAttributeRandom"
        case errSecMissingAttributeRandom: return "errSecMissingAttributeRandom"
        case errSecInvalidAttributeSeed: return "errSecInvalidAttributeSeed"
        case errSecMissingAttributeSeed: return "errSecMissingAttributeSeed"
        case errSecInvalidAttributePassphrase: return "errSecInvalidAttributePassphrase"
        case errSecMissingAttributePassphrase: return "errSecMissingAttributePassphrase"
        case errSecInvalidAttributeKeyLength: return "errSecInvalidAttributeKeyLength"
        case errSecMissingAttributeKeyLength: return "errSecMissingAttributeKeyLength"
        case errSecInvalidAttributeBlockSize: return "errSecInvalidAttributeBlockSize"
        case errSecMissingAttributeBlockSize: return "errSecMissingAttributeBlockSize"
        case errSecInvalidAttributeOutputSize: return "errSecInvalidAttributeOutputSize"
        case errSecMissingAttributeOutputSize: return "errSecMissingAttributeOutputSize"
        case errSecInvalidAttributeRounds: return "errSecInvalidAttributeRounds"
        case errSecMissingAttributeRounds: return "errSecMissingAttributeRounds"
        case errSecInvalidAlgorithmParms: return "errSecInvalidAlgorithmParms"
        case errSecMissingAlgorithmParms: return "errSecMissingAlgorithmParms"
        case errSecInvalidAttributeLabel: return "errSecInvalidAttributeLabel"
        case errSecMissingAttributeLabel: return "errSecMissingAttributeLabel"
        case errSecInvalidAttributeKeyType: return "errSecInvalidAttributeKeyType"
        case errSecMissingAttributeKeyType: return "errSecMissingAttributeKeyType"
        case errSecInvalidAttributeMode: return "errSecInvalidAttributeMode"
        case errSecMissingAttributeMode: return "errSecMissingAttributeMode"
        case errSecInvalidAttributeEffectiveBits: return "errSecInvalidAttributeEffectiveBits"
        case errSecMissingAttributeEffectiveBits: return "errSecMissingAttributeEffectiveBits"
        case errSecInvalidAttributeStartDate: return "errSecInvalidAttributeStartDate"
        case errSecMissingAttributeStartDate: return "errSecMissingAttributeStartDate"
        case errSecInvalidAttributeEndDate: return "errSecInvalidAttributeEndDate"
        case errSecMissingAttributeEndDate: return "errSecMissingAttributeEndDate"
        case errSecInvalidAttributeVersion: return "errSecInvalidAttributeVersion"
        case errSecMissingAttributeVersion: return "errSecMissingAttributeVersion"
        case errSecInvalidAttributePrime: return "errSecInvalidAttributePrime"
        case errSecMissingAttributePrime: return "errSecMissingAttributePrime"
        case errSecInvalidAttributeBase: return "errSecInvalidAttributeBase"
        case errSecMissingAttributeBase: return "errSecMissingAttributeBase"
        case errSecInvalidAttributeSubprime: return "errSecInvalidAttributeSubprime"
        case errSecMissingAttributeSubprime: return "errSecMissingAttributeSubprime"
        case errSecInvalidAttributeIterationCount: return "errSecInvalidAttributeIterationCount"
        case errSecMissingAttributeIterationCount: return "errSecMissingAttributeIterationCount"
        case errSecInvalidAttributeDLDBHandle: return "errSecInvalidAttributeDLDBHandle"
        case errSecMissingAttributeDLDBHandle: return "errSecMissingAttributeDLDBHandle"
        case errSecInvalidAttributeAccessCredentials: return "errSecInvalidAttributeAccessCredentials"
        case errSecMissingAttributeAccessCredentials: return "errSecMissingAttributeAccessCredentials"
        case errSecInvalidAttributePublicKeyFormat: return "errSecInvalidAttributePublicKeyFormat"
        case errSecMissingAttributePublicKeyFormat: return "errSecMissingAttributePublicKeyFormat"
        case errSecInvalidAttributePrivateKeyFormat: return "errSecInvalidAttributePrivateKeyFormat"
        case errSecMissingAttributePrivateKeyFormat: return "errSecMissingAttributePrivateKeyFormat"
        case errSecInvalidAttributeSymmetricKeyFormat: return "errSecInvalidAttributeSymmetricKeyFormat"
        case errSecMissingAttributeSymmetricKeyFormat: return "errSecMissingAttributeSymmetricKeyFormat"
        case errSecInvalidAttributeWrappedKeyFormat: return "errSecInvalidAttributeWrappedKeyFormat"
        case errSecMissingAttributeWrappedKeyFormat: return "errSecMissingAttributeWrappedKeyFormat"
        case errSecStagedOperationInProgress: return "errSecStagedOperationInProgress"
        case errSecStagedOperationNotStarted: return "errSecStagedOperationNotStarted"
        case errSecVerifyFailed: return "errSecVerifyFailed"
        case errSecQuerySizeUnknown: return "errSecQuerySizeUnknown"
        case errSecBlockSizeMismatch: return "errSecBlockSizeMismatch"
        case errSecPublicKeyInconsistent: return "errSecPublicKeyInconsistent"
        case errSecDeviceVerifyFailed: return "errSecDeviceVerifyFailed"
        case errSecInvalidLoginName: return "errSecInvalidLoginName"
        case errSecAlreadyLoggedIn: return "errSecAlreadyLoggedIn"
        case errSecInvalidDigestAlgorithm: return "errSecInvalidDigestAlgorithm"
        case errSecInvalidCRLGroup: return "errSecInvalidCRLGroup"
        case errSecCertificateCannotOperate: return "errSecCertificateCannotOperate"
        case errSecCertificateExpired: return "errSecCertificateExpired"
        case errSecCertificateNotValidYet: return "errSecCertificateNotValidYet"
        case errSecCertificateRevoked: return "errSecCertificateRevoked"
        case errSecCertificateSuspended: return "errSecCertificateSuspended"
        case errSecInsufficientCredentials: return "errSecInsufficientCredentials"
        case errSecInvalidAction: return "errSecInvalidAction"
        case errSecInvalidAuthority: return "errSecInvalidAuthority"
        case errSecVerifyActionFailed: return "errSecVerifyActionFailed"
        case errSecInvalidCertAuthority: return "errSecInvalidCertAuthority"
        case errSecInvaldCRLAuthority: return "errSecInvaldCRLAuthority"
        case errSecInvalidCRLAuthority: return "errSecInvalidCRLAuthority"
        case errSecInvalidCRLEncoding: return "errSecInvalidCRLEncoding"
        case errSecInvalidCRLType: return "errSecInvalidCRLType"
        case errSecInvalidCRL: return "errSecInvalidCRL"
        case errSecInvalidFormType: return "errSecInvalidFormType"
        case errSecInvalidID: return "errSecInvalidID"
        case errSecInvalidIdentifier: return "errSecInvalidIdentifier"
        case errSecInvalidIndex: return "errSecInvalidIndex"
        case errSecInvalidPolicyIdentifiers: return "errSecInvalidPolicyIdentifiers"
        case errSecInvalidTimeString: return "errSecInvalidTimeString"
        case errSecInvalidReason: return "errSecInvalidReason"
        case errSecInvalidRequestInputs: return "errSecInvalidRequestInputs"
        case errSecInvalidResponseVector: return "errSecInvalidResponseVector"
        case errSecInvalidStopOnPolicy: return "errSecInvalidStopOnPolicy"
        case errSecInvalidTuple: return "errSecInvalidTuple"
        case errSecMultipleValuesUnsupported: return "errSecMultipleValuesUnsupported"
        case errSecNotTrusted: return "errSecNotTrusted"
        case errSecNoDefaultAuthority: return "errSecNoDefaultAuthority"
        case errSecRejectedForm: return "errSecRejectedForm"
        case errSecRequestLost: return "errSecRequestLost"
        case errSecRequestRejected: return "errSecRequestRejected"
        case errSecUnsupportedAddressType: return "errSecUnsupportedAddressType"
        case errSecUnsupportedService: return "errSecUnsupportedService"
        case errSecInvalidTupleGroup: return "errSecInvalidTupleGroup"
        case errSecInvalidBaseACLs: return "errSecInvalidBaseACLs"
        case errSecInvalidTupleCredendtials: return "errSecInvalidTupleCredendtials"
        case errSecInvalidTupleCredentials: return "errSecInvalidTupleCredentials"
        case errSecInvalidEncoding: return "errSecInvalidEncoding"
        case errSecInvalidValidityPeriod: return "errSecInvalidValidityPeriod"
        case errSecInvalidRequestor: return "errSecInvalidRequestor"
        case errSecRequestDescriptor: return "errSecRequestDescriptor"
        case errSecInvalidBundleInfo: return "errSecInvalidBundleInfo"
        case errSecInvalidCRLIndex: return "errSecInvalidCRLIndex"
        case errSecNoFieldValues: return "errSecNoFieldValues"
        case errSecUnsupportedFieldFormat: return "errSecUnsupportedFieldFormat"
        case errSecUnsupportedIndexInfo: return "errSecUnsupportedIndexInfo"
        case errSecUnsupportedLocality: return "errSecUnsupportedLocality"
        case errSecUnsupportedNumAttributes: return "errSecUnsupportedNumAttributes"
        case errSecUnsupportedNumIndexes: return "errSecUnsupportedNumIndexes"
        case errSecUnsupportedNumRecordTypes: return "errSecUnsupportedNumRecordTypes"
        case errSecFieldSpecifiedMultiple: return "errSecFieldSpecifiedMultiple"
        case errSecIncompatibleFieldFormat: return "errSecIncompatibleFieldFormat"
        case errSecInvalidParsingModule: return "errSecInvalidParsingModule"
        case errSecDatabaseLocked: return "errSecDatabaseLocked"
        case errSecDatastoreIsOpen: return "errSecDatastoreIsOpen"
        case errSecMissingValue: return "errSecMissingValue"
        case errSecUnsupportedQueryLimits: return "errSecUnsupportedQueryLimits"
        case errSecUnsupportedNumSelectionPreds: return "errSecUnsupportedNumSelectionPreds"
        case errSecUnsupportedOperator: return "errSecUnsupportedOperator"
        case errSecInvalidDBLocation: return "errSecInvalidDBLocation"
        case errSecInvalidAccessRequest: return "errSecInvalidAccessRequest"
        case errSecInvalidIndexInfo: return "errSecInvalidIndexInfo"
        case errSecInvalidNewOwner: return "errSecInvalidNewOwner"
        case errSecInvalidModifyMode: return "errSecInvalidModifyMode"
        case errSecMissingRequiredExtension: return "errSecMissingRequiredExtension"
        case errSecExtendedKeyUsageNotCritical: return "errSecExtendedKeyUsageNotCritical"
        case errSecTimestampMissing: return "errSecTimestampMissing"
        case errSecTimestampInvalid: return "errSecTimestampInvalid"
        case errSecTimestampNotTrusted: return "errSecTimestampNotTrusted"
        case errSecTimestampServiceNotAvailable: return "errSecTimestampServiceNotAvailable"
        case errSecTimestampBadAlg: return "errSecTimestampBadAlg"
        case errSecTimestampBadRequest: return "errSecTimestampBadRequest"
        case errSecTimestampBadDataFormat: return "errSecTimestampBadDataFormat"
        case errSecTimestampTimeNotAvailable: return "errSecTimestampTimeNotAvailable"
        case errSecTimestampUnacceptedPolicy: return "errSecTimestampUnacceptedPolicy"
        case errSecTimestampUnacceptedExtension: return "errSecTimestampUnacceptedExtension"
        case errSecTimestampAddInfoNotAvailable: return "errSecTimestampAddInfoNotAvailable"
        case errSecTimestampSystemFailure: return "errSecTimestampSystemFailure"
        case errSecSigningTimeMissing: return "errSecSigningTimeMissing"
        case errSecTimestampRejection: return "errSecTimestampRejection"
        case errSecTimestampWaiting: return "errSecTimestampWaiting"
        case errSecTimestampRevocationWarning: return "errSecTimestampRevocationWarning"
        case errSecTimestampRevocationNotification: return "errSecTimestampRevocationNotification"
        case errSecCertificatePolicyNotAllowed: return "errSecCertificatePolicyNotAllowed"
        case errSecCertificateNameNotAllowed: return "errSecCertificateNameNotAllowed"
        case errSecCertificateValidityPeriodTooLong: return "errSecCertificateValidityPeriodTooLong"
        case errSecCertificateIsCA: return "errSecCertificateIsCA"
        case errSecCertificateDuplicateExtension: return "errSecCertificateDuplicateExtension"
        case errSecMissingQualifiedCertStatement: return "errSecMissingQualifiedCertStatement"
        default: return nil
        }
    }

    /// Every name the switch knows, with its code (in the header's order).
    static let all: [(name: String, status: OSStatus)] = [
        ("errSecSuccess", errSecSuccess),
        ("errSecUnimplemented", errSecUnimplemented),
        ("errSecDiskFull", errSecDiskFull),
        ("errSecIO", errSecIO),
        ("errSecOpWr", errSecOpWr),
        ("errSecParam", errSecParam),
        ("errSecWrPerm", errSecWrPerm),
        ("errSecAllocate", errSecAllocate),
        ("errSecUserCanceled", errSecUserCanceled),
        ("errSecBadReq", errSecBadReq),
        ("errSecInternalComponent", errSecInternalComponent),
        ("errSecCoreFoundationUnknown", errSecCoreFoundationUnknown),
        ("errSecMissingEntitlement", errSecMissingEntitlement),
        ("errSecRestrictedAPI", errSecRestrictedAPI),
        ("errSecNotAvailable", errSecNotAvailable),
        ("errSecReadOnly", errSecReadOnly),
        ("errSecAuthFailed", errSecAuthFailed),
        ("errSecNoSuchKeychain", errSecNoSuchKeychain),
        ("errSecInvalidKeychain", errSecInvalidKeychain),
        ("errSecDuplicateKeychain", errSecDuplicateKeychain),
        ("errSecDuplicateCallback", errSecDuplicateCallback),
        ("errSecInvalidCallback", errSecInvalidCallback),
        ("errSecDuplicateItem", errSecDuplicateItem),
        ("errSecItemNotFound", errSecItemNotFound),
        ("errSecBufferTooSmall", errSecBufferTooSmall),
        ("errSecDataTooLarge", errSecDataTooLarge),
        ("errSecNoSuchAttr", errSecNoSuchAttr),
        ("errSecInvalidItemRef", errSecInvalidItemRef),
        ("errSecInvalidSearchRef", errSecInvalidSearchRef),
        ("errSecNoSuchClass", errSecNoSuchClass),
        ("errSecNoDefaultKeychain", errSecNoDefaultKeychain),
        ("errSecInteractionNotAllowed", errSecInteractionNotAllowed),
        ("errSecReadOnlyAttr", errSecReadOnlyAttr),
        ("errSecWrongSecVersion", errSecWrongSecVersion),
        ("errSecKeySizeNotAllowed", errSecKeySizeNotAllowed),
        ("errSecNoStorageModule", errSecNoStorageModule),
        ("errSecNoCertificateModule", errSecNoCertificateModule),
        ("errSecNoPolicyModule", errSecNoPolicyModule),
        ("errSecInteractionRequired", errSecInteractionRequired),
        ("errSecDataNotAvailable", errSecDataNotAvailable),
        ("errSecDataNotModifiable", errSecDataNotModifiable),
        ("errSecCreateChainFailed", errSecCreateChainFailed),
        ("errSecInvalidPrefsDomain", errSecInvalidPrefsDomain),
        ("errSecInDarkWake", errSecInDarkWake),
        ("errSecACLNotSimple", errSecACLNotSimple),
        ("errSecPolicyNotFound", errSecPolicyNotFound),
        ("errSecInvalidTrustSetting", errSecInvalidTrustSetting),
        ("errSecNoAccessForItem", errSecNoAccessForItem),
        ("errSecInvalidOwnerEdit", errSecInvalidOwnerEdit),
        ("errSecTrustNotAvailable", errSecTrustNotAvailable),
        ("errSecUnsupportedFormat", errSecUnsupportedFormat),
        ("errSecUnknownFormat", errSecUnknownFormat),
        ("errSecKeyIsSensitive", errSecKeyIsSensitive),
        ("errSecMultiplePrivKeys", errSecMultiplePrivKeys),
        ("errSecPassphraseRequired", errSecPassphraseRequired),
        ("errSecInvalidPasswordRef", errSecInvalidPasswordRef),
        ("errSecInvalidTrustSettings", errSecInvalidTrustSettings),
        ("errSecNoTrustSettings", errSecNoTrustSettings),
        ("errSecPkcs12VerifyFailure", errSecPkcs12VerifyFailure),
        ("errSecNotSigner", errSecNotSigner),
        ("errSecDecode", errSecDecode),
        ("errSecServiceNotAvailable", errSecServiceNotAvailable),
        ("errSecInsufficientClientID", errSecInsufficientClientID),
        ("errSecDeviceReset", errSecDeviceReset),
        ("errSecDeviceFailed", errSecDeviceFailed),
        ("errSecAppleAddAppACLSubject", errSecAppleAddAppACLSubject),
        ("errSecApplePublicKeyIncomplete", errSecApplePublicKeyIncomplete),
        ("errSecAppleSignatureMismatch", errSecAppleSignatureMismatch),
        ("errSecAppleInvalidKeyStartDate", errSecAppleInvalidKeyStartDate),
        ("errSecAppleInvalidKeyEndDate", errSecAppleInvalidKeyEndDate),
        ("errSecConversionError", errSecConversionError),
        ("errSecAppleSSLv2Rollback", errSecAppleSSLv2Rollback),
        ("errSecQuotaExceeded", errSecQuotaExceeded),
        ("errSecFileTooBig", errSecFileTooBig),
        ("errSecInvalidDatabaseBlob", errSecInvalidDatabaseBlob),
        ("errSecInvalidKeyBlob", errSecInvalidKeyBlob),
        ("errSecIncompatibleDatabaseBlob", errSecIncompatibleDatabaseBlob),
        ("errSecIncompatibleKeyBlob", errSecIncompatibleKeyBlob),
        ("errSecHostNameMismatch", errSecHostNameMismatch),
        ("errSecUnknownCriticalExtensionFlag", errSecUnknownCriticalExtensionFlag),
        ("errSecNoBasicConstraints", errSecNoBasicConstraints),
        ("errSecNoBasicConstraintsCA", errSecNoBasicConstraintsCA),
        ("errSecInvalidAuthorityKeyID", errSecInvalidAuthorityKeyID),
        ("errSecInvalidSubjectKeyID", errSecInvalidSubjectKeyID),
        ("errSecInvalidKeyUsageForPolicy", errSecInvalidKeyUsageForPolicy),
        ("errSecInvalidExtendedKeyUsage", errSecInvalidExtendedKeyUsage),
        ("errSecInvalidIDLinkage", errSecInvalidIDLinkage),
        ("errSecPathLengthConstraintExceeded", errSecPathLengthConstraintExceeded),
        ("errSecInvalidRoot", errSecInvalidRoot),
        ("errSecCRLExpired", errSecCRLExpired),
        ("errSecCRLNotValidYet", errSecCRLNotValidYet),
        ("errSecCRLNotFound", errSecCRLNotFound),
        ("errSecCRLServerDown", errSecCRLServerDown),
        ("errSecCRLBadURI", errSecCRLBadURI),
        ("errSecUnknownCertExtension", errSecUnknownCertExtension),
        ("errSecUnknownCRLExtension", errSecUnknownCRLExtension),
        ("errSecCRLNotTrusted", errSecCRLNotTrusted),
        ("errSecCRLPolicyFailed", errSecCRLPolicyFailed),
        ("errSecIDPFailure", errSecIDPFailure),
        ("errSecSMIMEEmailAddressesNotFound", errSecSMIMEEmailAddressesNotFound),
        ("errSecSMIMEBadExtendedKeyUsage", errSecSMIMEBadExtendedKeyUsage),
        ("errSecSMIMEBadKeyUsage", errSecSMIMEBadKeyUsage),
        ("errSecSMIMEKeyUsageNotCritical", errSecSMIMEKeyUsageNotCritical),
        ("errSecSMIMENoEmailAddress", errSecSMIMENoEmailAddress),
        ("errSecSMIMESubjAltNameNotCritical", errSecSMIMESubjAltNameNotCritical),
        ("errSecSSLBadExtendedKeyUsage", errSecSSLBadExtendedKeyUsage),
        ("errSecOCSPBadResponse", errSecOCSPBadResponse),
        ("errSecOCSPBadRequest", errSecOCSPBadRequest),
        ("errSecOCSPUnavailable", errSecOCSPUnavailable),
        ("errSecOCSPStatusUnrecognized", errSecOCSPStatusUnrecognized),
        ("errSecEndOfData", errSecEndOfData),
        ("errSecIncompleteCertRevocationCheck", errSecIncompleteCertRevocationCheck),
        ("errSecNetworkFailure", errSecNetworkFailure),
        ("errSecOCSPNotTrustedToAnchor", errSecOCSPNotTrustedToAnchor),
        ("errSecRecordModified", errSecRecordModified),
        ("errSecOCSPSignatureError", errSecOCSPSignatureError),
        ("errSecOCSPNoSigner", errSecOCSPNoSigner),
        ("errSecOCSPResponderMalformedReq", errSecOCSPResponderMalformedReq),
        ("errSecOCSPResponderInternalError", errSecOCSPResponderInternalError),
        ("errSecOCSPResponderTryLater", errSecOCSPResponderTryLater),
        ("errSecOCSPResponderSignatureRequired", errSecOCSPResponderSignatureRequired),
        ("errSecOCSPResponderUnauthorized", errSecOCSPResponderUnauthorized),
        ("errSecOCSPResponseNonceMismatch", errSecOCSPResponseNonceMismatch),
        ("errSecCodeSigningBadCertChainLength", errSecCodeSigningBadCertChainLength),
        ("errSecCodeSigningNoBasicConstraints", errSecCodeSigningNoBasicConstraints),
        ("errSecCodeSigningBadPathLengthConstraint", errSecCodeSigningBadPathLengthConstraint),
        ("errSecCodeSigningNoExtendedKeyUsage", errSecCodeSigningNoExtendedKeyUsage),
        ("errSecCodeSigningDevelopment", errSecCodeSigningDevelopment),
        ("errSecResourceSignBadCertChainLength", errSecResourceSignBadCertChainLength),
        ("errSecResourceSignBadExtKeyUsage", errSecResourceSignBadExtKeyUsage),
        ("errSecTrustSettingDeny", errSecTrustSettingDeny),
        ("errSecInvalidSubjectName", errSecInvalidSubjectName),
        ("errSecUnknownQualifiedCertStatement", errSecUnknownQualifiedCertStatement),
        ("errSecMobileMeRequestQueued", errSecMobileMeRequestQueued),
        ("errSecMobileMeRequestRedirected", errSecMobileMeRequestRedirected),
        ("errSecMobileMeServerError", errSecMobileMeServerError),
        ("errSecMobileMeServerNotAvailable", errSecMobileMeServerNotAvailable),
        ("errSecMobileMeServerAlreadyExists", errSecMobileMeServerAlreadyExists),
        ("errSecMobileMeServerServiceErr", errSecMobileMeServerServiceErr),
        ("errSecMobileMeRequestAlreadyPending", errSecMobileMeRequestAlreadyPending),
        ("errSecMobileMeNoRequestPending", errSecMobileMeNoRequestPending),
        ("errSecMobileMeCSRVerifyFailure", errSecMobileMeCSRVerifyFailure),
        ("errSecMobileMeFailedConsistencyCheck", errSecMobileMeFailedConsistencyCheck),
        ("errSecNotInitialized", errSecNotInitialized),
        ("errSecInvalidHandleUsage", errSecInvalidHandleUsage),
        ("errSecPVCReferentNotFound", errSecPVCReferentNotFound),
        ("errSecFunctionIntegrityFail", errSecFunctionIntegrityFail),
        ("errSecInternalError", errSecInternalError),
        ("errSecMemoryError", errSecMemoryError),
        ("errSecInvalidData", errSecInvalidData),
        ("errSecMDSError", errSecMDSError),
        ("errSecInvalidPointer", errSecInvalidPointer),
        ("errSecSelfCheckFailed", errSecSelfCheckFailed),
        ("errSecFunctionFailed", errSecFunctionFailed),
        ("errSecModuleManifestVerifyFailed", errSecModuleManifestVerifyFailed),
        ("errSecInvalidGUID", errSecInvalidGUID),
        ("errSecInvalidHandle", errSecInvalidHandle),
        ("errSecInvalidDBList", errSecInvalidDBList),
        ("errSecInvalidPassthroughID", errSecInvalidPassthroughID),
        ("errSecInvalidNetworkAddress", errSecInvalidNetworkAddress),
        ("errSecCRLAlreadySigned", errSecCRLAlreadySigned),
        ("errSecInvalidNumberOfFields", errSecInvalidNumberOfFields),
        ("errSecVerificationFailure", errSecVerificationFailure),
        ("errSecUnknownTag", errSecUnknownTag),
        ("errSecInvalidSignature", errSecInvalidSignature),
        ("errSecInvalidName", errSecInvalidName),
        ("errSecInvalidCertificateRef", errSecInvalidCertificateRef),
        ("errSecInvalidCertificateGroup", errSecInvalidCertificateGroup),
        ("errSecTagNotFound", errSecTagNotFound),
        ("errSecInvalidQuery", errSecInvalidQuery),
        ("errSecInvalidValue", errSecInvalidValue),
        ("errSecCallbackFailed", errSecCallbackFailed),
        ("errSecACLDeleteFailed", errSecACLDeleteFailed),
        ("errSecACLReplaceFailed", errSecACLReplaceFailed),
        ("errSecACLAddFailed", errSecACLAddFailed),
        ("errSecACLChangeFailed", errSecACLChangeFailed),
        ("errSecInvalidAccessCredentials", errSecInvalidAccessCredentials),
        ("errSecInvalidRecord", errSecInvalidRecord),
        ("errSecInvalidACL", errSecInvalidACL),
        ("errSecInvalidSampleValue", errSecInvalidSampleValue),
        ("errSecIncompatibleVersion", errSecIncompatibleVersion),
        ("errSecPrivilegeNotGranted", errSecPrivilegeNotGranted),
        ("errSecInvalidScope", errSecInvalidScope),
        ("errSecPVCAlreadyConfigured", errSecPVCAlreadyConfigured),
        ("errSecInvalidPVC", errSecInvalidPVC),
        ("errSecEMMLoadFailed", errSecEMMLoadFailed),
        ("errSecEMMUnloadFailed", errSecEMMUnloadFailed),
        ("errSecAddinLoadFailed", errSecAddinLoadFailed),
        ("errSecInvalidKeyRef", errSecInvalidKeyRef),
        ("errSecInvalidKeyHierarchy", errSecInvalidKeyHierarchy),
        ("errSecAddinUnloadFailed", errSecAddinUnloadFailed),
        ("errSecLibraryReferenceNotFound", errSecLibraryReferenceNotFound),
        ("errSecInvalidAddinFunctionTable", errSecInvalidAddinFunctionTable),
        ("errSecInvalidServiceMask", errSecInvalidServiceMask),
        ("errSecModuleNotLoaded", errSecModuleNotLoaded),
        ("errSecInvalidSubServiceID", errSecInvalidSubServiceID),
        ("errSecAttributeNotInContext", errSecAttributeNotInContext),
        ("errSecModuleManagerInitializeFailed", errSecModuleManagerInitializeFailed),
        ("errSecModuleManagerNotFound", errSecModuleManagerNotFound),
        ("errSecEventNotificationCallbackNotFound", errSecEventNotificationCallbackNotFound),
        ("errSecInputLengthError", errSecInputLengthError),
        ("errSecOutputLengthError", errSecOutputLengthError),
        ("errSecPrivilegeNotSupported", errSecPrivilegeNotSupported),
        ("errSecDeviceError", errSecDeviceError),
        ("errSecAttachHandleBusy", errSecAttachHandleBusy),
        ("errSecNotLoggedIn", errSecNotLoggedIn),
        ("errSecAlgorithmMismatch", errSecAlgorithmMismatch),
        ("errSecKeyUsageIncorrect", errSecKeyUsageIncorrect),
        ("errSecKeyBlobTypeIncorrect", errSecKeyBlobTypeIncorrect),
        ("errSecKeyHeaderInconsistent", errSecKeyHeaderInconsistent),
        ("errSecUnsupportedKeyFormat", errSecUnsupportedKeyFormat),
        ("errSecUnsupportedKeySize", errSecUnsupportedKeySize),
        ("errSecInvalidKeyUsageMask", errSecInvalidKeyUsageMask),
        ("errSecUnsupportedKeyUsageMask", errSecUnsupportedKeyUsageMask),
        ("errSecInvalidKeyAttributeMask", errSecInvalidKeyAttributeMask),
        ("errSecUnsupportedKeyAttributeMask", errSecUnsupportedKeyAttributeMask),
        ("errSecInvalidKeyLabel", errSecInvalidKeyLabel),
        ("errSecUnsupportedKeyLabel", errSecUnsupportedKeyLabel),
        ("errSecInvalidKeyFormat", errSecInvalidKeyFormat),
        ("errSecUnsupportedVectorOfBuffers", errSecUnsupportedVectorOfBuffers),
        ("errSecInvalidInputVector", errSecInvalidInputVector),
        ("errSecInvalidOutputVector", errSecInvalidOutputVector),
        ("errSecInvalidContext", errSecInvalidContext),
        ("errSecInvalidAlgorithm", errSecInvalidAlgorithm),
        ("errSecInvalidAttributeKey", errSecInvalidAttributeKey),
        ("errSecMissingAttributeKey", errSecMissingAttributeKey),
        ("errSecInvalidAttributeInitVector", errSecInvalidAttributeInitVector),
        ("errSecMissingAttributeInitVector", errSecMissingAttributeInitVector),
        ("errSecInvalidAttributeSalt", errSecInvalidAttributeSalt),
        ("errSecMissingAttributeSalt", errSecMissingAttributeSalt),
        ("errSecInvalidAttributePadding", errSecInvalidAttributePadding),
        ("errSecMissingAttributePadding", errSecMissingAttributePadding),
        ("errSecInvalidAttributeRandom", errSecInvalidAttributeRandom),
        ("errSecMissingAttributeRandom", errSecMissingAttributeRandom),
        ("errSecInvalidAttributeSeed", errSecInvalidAttributeSeed),
        ("errSecMissingAttributeSeed", errSecMissingAttributeSeed),
        ("errSecInvalidAttributePassphrase", errSecInvalidAttributePassphrase),
        ("errSecMissingAttributePassphrase", errSecMissingAttributePassphrase),
        ("errSecInvalidAttributeKeyLength", errSecInvalidAttributeKeyLength),
        ("errSecMissingAttributeKeyLength", errSecMissingAttributeKeyLength),
        ("errSecInvalidAttributeBlockSize", errSecInvalidAttributeBlockSize),
        ("errSecMissingAttributeBlockSize", errSecMissingAttributeBlockSize),
        ("errSecInvalidAttributeOutputSize", errSecInvalidAttributeOutputSize),
        ("errSecMissingAttributeOutputSize", errSecMissingAttributeOutputSize),
        ("errSecInvalidAttributeRounds", errSecInvalidAttributeRounds),
        ("errSecMissingAttributeRounds", errSecMissingAttributeRounds),
        ("errSecInvalidAlgorithmParms", errSecInvalidAlgorithmParms),
        ("errSecMissingAlgorithmParms", errSecMissingAlgorithmParms),
        ("errSecInvalidAttributeLabel", errSecInvalidAttributeLabel),
        ("errSecMissingAttributeLabel", errSecMissingAttributeLabel),
        ("errSecInvalidAttributeKeyType", errSecInvalidAttributeKeyType),
        ("errSecMissingAttributeKeyType", errSecMissingAttributeKeyType),
        ("errSecInvalidAttributeMode", errSecInvalidAttributeMode),
        ("errSecMissingAttributeMode", errSecMissingAttributeMode),
        ("errSecInvalidAttributeEffectiveBits", errSecInvalidAttributeEffectiveBits),
        ("errSecMissingAttributeEffectiveBits", errSecMissingAttributeEffectiveBits),
        ("errSecInvalidAttributeStartDate", errSecInvalidAttributeStartDate),
        ("errSecMissingAttributeStartDate", errSecMissingAttributeStartDate),
        ("errSecInvalidAttributeEndDate", errSecInvalidAttributeEndDate),
        ("errSecMissingAttributeEndDate", errSecMissingAttributeEndDate),
        ("errSecInvalidAttributeVersion", errSecInvalidAttributeVersion),
        ("errSecMissingAttributeVersion", errSecMissingAttributeVersion),
        ("errSecInvalidAttributePrime", errSecInvalidAttributePrime),
        ("errSecMissingAttributePrime", errSecMissingAttributePrime),
        ("errSecInvalidAttributeBase", errSecInvalidAttributeBase),
        ("errSecMissingAttributeBase", errSecMissingAttributeBase),
        ("errSecInvalidAttributeSubprime", errSecInvalidAttributeSubprime),
        ("errSecMissingAttributeSubprime", errSecMissingAttributeSubprime),
        ("errSecInvalidAttributeIterationCount", errSecInvalidAttributeIterationCount),
        ("errSecMissingAttributeIterationCount", errSecMissingAttributeIterationCount),
        ("errSecInvalidAttributeDLDBHandle", errSecInvalidAttributeDLDBHandle),
        ("errSecMissingAttributeDLDBHandle", errSecMissingAttributeDLDBHandle),
        ("errSecInvalidAttributeAccessCredentials", errSecInvalidAttributeAccessCredentials),
        ("errSecMissingAttributeAccessCredentials", errSecMissingAttributeAccessCredentials),
        ("errSecInvalidAttributePublicKeyFormat", errSecInvalidAttributePublicKeyFormat),
        ("errSecMissingAttributePublicKeyFormat", errSecMissingAttributePublicKeyFormat),
        ("errSecInvalidAttributePrivateKeyFormat", errSecInvalidAttributePrivateKeyFormat),
        ("errSecMissingAttributePrivateKeyFormat", errSecMissingAttributePrivateKeyFormat),
        ("errSecInvalidAttributeSymmetricKeyFormat", errSecInvalidAttributeSymmetricKeyFormat),
        ("errSecMissingAttributeSymmetricKeyFormat", errSecMissingAttributeSymmetricKeyFormat),
        ("errSecInvalidAttributeWrappedKeyFormat", errSecInvalidAttributeWrappedKeyFormat),
        ("errSecMissingAttributeWrappedKeyFormat", errSecMissingAttributeWrappedKeyFormat),
        ("errSecStagedOperationInProgress", errSecStagedOperationInProgress),
        ("errSecStagedOperationNotStarted", errSecStagedOperationNotStarted),
        ("errSecVerifyFailed", errSecVerifyFailed),
        ("errSecQuerySizeUnknown", errSecQuerySizeUnknown),
        ("errSecBlockSizeMismatch", errSecBlockSizeMismatch),
        ("errSecPublicKeyInconsistent", errSecPublicKeyInconsistent),
        ("errSecDeviceVerifyFailed", errSecDeviceVerifyFailed),
        ("errSecInvalidLoginName", errSecInvalidLoginName),
        ("errSecAlreadyLoggedIn", errSecAlreadyLoggedIn),
        ("errSecInvalidDigestAlgorithm", errSecInvalidDigestAlgorithm),
        ("errSecInvalidCRLGroup", errSecInvalidCRLGroup),
        ("errSecCertificateCannotOperate", errSecCertificateCannotOperate),
        ("errSecCertificateExpired", errSecCertificateExpired),
        ("errSecCertificateNotValidYet", errSecCertificateNotValidYet),
        ("errSecCertificateRevoked", errSecCertificateRevoked),
        ("errSecCertificateSuspended", errSecCertificateSuspended),
        ("errSecInsufficientCredentials", errSecInsufficientCredentials),
        ("errSecInvalidAction", errSecInvalidAction),
        ("errSecInvalidAuthority", errSecInvalidAuthority),
        ("errSecVerifyActionFailed", errSecVerifyActionFailed),
        ("errSecInvalidCertAuthority", errSecInvalidCertAuthority),
        ("errSecInvaldCRLAuthority", errSecInvaldCRLAuthority),
        ("errSecInvalidCRLAuthority", errSecInvalidCRLAuthority),
        ("errSecInvalidCRLEncoding", errSecInvalidCRLEncoding),
        ("errSecInvalidCRLType", errSecInvalidCRLType),
        ("errSecInvalidCRL", errSecInvalidCRL),
        ("errSecInvalidFormType", errSecInvalidFormType),
        ("errSecInvalidID", errSecInvalidID),
        ("errSecInvalidIdentifier", errSecInvalidIdentifier),
        ("errSecInvalidIndex", errSecInvalidIndex),
        ("errSecInvalidPolicyIdentifiers", errSecInvalidPolicyIdentifiers),
        ("errSecInvalidTimeString", errSecInvalidTimeString),
        ("errSecInvalidReason", errSecInvalidReason),
        ("errSecInvalidRequestInputs", errSecInvalidRequestInputs),
        ("errSecInvalidResponseVector", errSecInvalidResponseVector),
        ("errSecInvalidStopOnPolicy", errSecInvalidStopOnPolicy),
        ("errSecInvalidTuple", errSecInvalidTuple),
        ("errSecMultipleValuesUnsupported", errSecMultipleValuesUnsupported),
        ("errSecNotTrusted", errSecNotTrusted),
        ("errSecNoDefaultAuthority", errSecNoDefaultAuthority),
        ("errSecRejectedForm", errSecRejectedForm),
        ("errSecRequestLost", errSecRequestLost),
        ("errSecRequestRejected", errSecRequestRejected),
        ("errSecUnsupportedAddressType", errSecUnsupportedAddressType),
        ("errSecUnsupportedService", errSecUnsupportedService),
        ("errSecInvalidTupleGroup", errSecInvalidTupleGroup),
        ("errSecInvalidBaseACLs", errSecInvalidBaseACLs),
        ("errSecInvalidTupleCredendtials", errSecInvalidTupleCredendtials),
        ("errSecInvalidTupleCredentials", errSecInvalidTupleCredentials),
        ("errSecInvalidEncoding", errSecInvalidEncoding),
        ("errSecInvalidValidityPeriod", errSecInvalidValidityPeriod),
        ("errSecInvalidRequestor", errSecInvalidRequestor),
        ("errSecRequestDescriptor", errSecRequestDescriptor),
        ("errSecInvalidBundleInfo", errSecInvalidBundleInfo),
        ("errSecInvalidCRLIndex", errSecInvalidCRLIndex),
        ("errSecNoFieldValues", errSecNoFieldValues),
        ("errSecUnsupportedFieldFormat", errSecUnsupportedFieldFormat),
        ("errSecUnsupportedIndexInfo", errSecUnsupportedIndexInfo),
        ("errSecUnsupportedLocality", errSecUnsupportedLocality),
        ("errSecUnsupportedNumAttributes", errSecUnsupportedNumAttributes),
        ("errSecUnsupportedNumIndexes", errSecUnsupportedNumIndexes),
        ("errSecUnsupportedNumRecordTypes", errSecUnsupportedNumRecordTypes),
        ("errSecFieldSpecifiedMultiple", errSecFieldSpecifiedMultiple),
        ("errSecIncompatibleFieldFormat", errSecIncompatibleFieldFormat),
        ("errSecInvalidParsingModule", errSecInvalidParsingModule),
        ("errSecDatabaseLocked", errSecDatabaseLocked),
        ("errSecDatastoreIsOpen", errSecDatastoreIsOpen),
        ("errSecMissingValue", errSecMissingValue),
        ("errSecUnsupportedQueryLimits", errSecUnsupportedQueryLimits),
        ("errSecUnsupportedNumSelectionPreds", errSecUnsupportedNumSelectionPreds),
        ("errSecUnsupportedOperator", errSecUnsupportedOperator),
        ("errSecInvalidDBLocation", errSecInvalidDBLocation),
        ("errSecInvalidAccessRequest", errSecInvalidAccessRequest),
        ("errSecInvalidIndexInfo", errSecInvalidIndexInfo),
        ("errSecInvalidNewOwner", errSecInvalidNewOwner),
        ("errSecInvalidModifyMode", errSecInvalidModifyMode),
        ("errSecMissingRequiredExtension", errSecMissingRequiredExtension),
        ("errSecExtendedKeyUsageNotCritical", errSecExtendedKeyUsageNotCritical),
        ("errSecTimestampMissing", errSecTimestampMissing),
        ("errSecTimestampInvalid", errSecTimestampInvalid),
        ("errSecTimestampNotTrusted", errSecTimestampNotTrusted),
        ("errSecTimestampServiceNotAvailable", errSecTimestampServiceNotAvailable),
        ("errSecTimestampBadAlg", errSecTimestampBadAlg),
        ("errSecTimestampBadRequest", errSecTimestampBadRequest),
        ("errSecTimestampBadDataFormat", errSecTimestampBadDataFormat),
        ("errSecTimestampTimeNotAvailable", errSecTimestampTimeNotAvailable),
        ("errSecTimestampUnacceptedPolicy", errSecTimestampUnacceptedPolicy),
        ("errSecTimestampUnacceptedExtension", errSecTimestampUnacceptedExtension),
        ("errSecTimestampAddInfoNotAvailable", errSecTimestampAddInfoNotAvailable),
        ("errSecTimestampSystemFailure", errSecTimestampSystemFailure),
        ("errSecSigningTimeMissing", errSecSigningTimeMissing),
        ("errSecTimestampRejection", errSecTimestampRejection),
        ("errSecTimestampWaiting", errSecTimestampWaiting),
        ("errSecTimestampRevocationWarning", errSecTimestampRevocationWarning),
        ("errSecTimestampRevocationNotification", errSecTimestampRevocationNotification),
        ("errSecCertificatePolicyNotAllowed", errSecCertificatePolicyNotAllowed),
        ("errSecCertificateNameNotAllowed", errSecCertificateNameNotAllowed),
        ("errSecCertificateValidityPeriodTooLong", errSecCertificateValidityPeriodTooLong),
        ("errSecCertificateIsCA", errSecCertificateIsCA),
        ("errSecCertificateDuplicateExtension", errSecCertificateDuplicateExtension),
        ("errSecMissingQualifiedCertStatement", errSecMissingQualifiedCertStatement),
    ]
}
