import Foundation
import Security
import Testing

// In the style of keychain wrappers that find their access group from the process's entitlements on macOS:
// SecTaskCreateFromSelf(nil), SecTaskCopyValueForEntitlement with an `Unmanaged<CFError>?` (released when set),
// `value as? [String]`, and a fallback when the entitlement is absent — the unsigned-process answer.

enum EntitlementLookup {
    case present(Any)
    case absent
    case unknown

    static func value(_ key: String) -> EntitlementLookup {
        guard let task = SecTaskCreateFromSelf(kCFAllocatorDefault) else { return .unknown }
        var error: Unmanaged<CFError>?
        let value = SecTaskCopyValueForEntitlement(task, key as CFString, &error)
        if let error {
            error.release()
            return .unknown
        }
        guard let value else { return .absent }
        return .present(value)
    }

    static func accessGroup(matchingSuffix suffix: String) -> String? {
        guard let task = SecTaskCreateFromSelf(nil),
            let value = SecTaskCopyValueForEntitlement(task, "keychain-access-groups" as CFString, nil)
        else { return nil }
        return (value as? [String])?.first { $0.hasSuffix(suffix) }
    }
}

@Suite struct EntitlementLookupStyleTests {
    @Test func anUnsignedProcessHasNoEntitlementsAndNoError() throws {
        guard case .absent = EntitlementLookup.value("keychain-access-groups") else {
            Issue.record("expected an absent entitlement")
            return
        }
        #expect(EntitlementLookup.accessGroup(matchingSuffix: ".shared") == nil)
        let task = try #require(SecTaskCreateFromSelf(nil))
        #expect(CFGetTypeID(task) == SecTaskGetTypeID())
        var error: Unmanaged<CFError>?
        #expect(SecTaskCopySigningIdentifier(task, &error) == nil && error == nil)
        #expect(SecTaskGetCodeSignStatus(task) == 0)
        let values = SecTaskCopyValuesForEntitlements(
            task, ["application-identifier", "com.apple.security.app-sandbox"] as CFArray, &error)
        #expect(values.map(CFDictionaryGetCount) == 0)
        let other = try #require(SecTaskCreateWithAuditToken(nil, audit_token_t()))
        #expect(SecTaskCopyValueForEntitlement(other, "application-identifier" as CFString, nil) == nil)
    }
}
