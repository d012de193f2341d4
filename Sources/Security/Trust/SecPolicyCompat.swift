import Foundation

// The policy identifiers and macOS key-usage names of Apple's SecPolicy.h that SecPolicy.swift does not declare,
// with Apple's values. Only the policies SecPolicy.swift lists can be created; these names identify the others.

/// `1.2.840.113635.100.1.14`
nonisolated(unsafe) public let kSecPolicyApplePKINITClient: CFString = "1.2.840.113635.100.1.14"
/// `1.2.840.113635.100.1.15`
nonisolated(unsafe) public let kSecPolicyApplePKINITServer: CFString = "1.2.840.113635.100.1.15"
/// `1.2.840.113635.100.1.18`
nonisolated(unsafe) public let kSecPolicyAppleIDValidation: CFString = "1.2.840.113635.100.1.18"
/// `1.2.840.113635.100.1.19`
nonisolated(unsafe) public let kSecPolicyMacAppStoreReceipt: CFString = "1.2.840.113635.100.1.19"
/// `1.2.840.113635.100.1.39`
nonisolated(unsafe) public let kSecPolicyApplePayIssuerEncryption: CFString = "1.2.840.113635.100.1.39"

// MARK: Key usage names (macOS, kSecPolicyKU_…)

nonisolated(unsafe) public let kSecPolicyKU_DigitalSignature: CFString = "CE_KU_DigitalSignature"
nonisolated(unsafe) public let kSecPolicyKU_NonRepudiation: CFString = "CE_KU_NonRepudiation"
nonisolated(unsafe) public let kSecPolicyKU_KeyEncipherment: CFString = "CE_KU_KeyEncipherment"
nonisolated(unsafe) public let kSecPolicyKU_DataEncipherment: CFString = "CE_KU_DataEncipherment"
nonisolated(unsafe) public let kSecPolicyKU_KeyAgreement: CFString = "CE_KU_KeyAgreement"
nonisolated(unsafe) public let kSecPolicyKU_KeyCertSign: CFString = "CE_KU_KeyCertSign"
nonisolated(unsafe) public let kSecPolicyKU_CRLSign: CFString = "CE_KU_CRLSign"
nonisolated(unsafe) public let kSecPolicyKU_EncipherOnly: CFString = "CE_KU_EncipherOnly"
nonisolated(unsafe) public let kSecPolicyKU_DecipherOnly: CFString = "CE_KU_DecipherOnly"
