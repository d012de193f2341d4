import Foundation

/// Apple's `SecTask` (SecTask.h, macOS): the code-signing view of a running task — its entitlements and signing
/// identifier. Keychain wrappers ask it for `keychain-access-groups` or `application-identifier` to find their
/// access group. Linux processes carry no code signature and no entitlements, so a task here answers exactly as
/// Apple's SecTask answers for an unsigned process: no entitlement values, no signing identifier, no
/// code-signing status flags.
public final class SecTask: NSObject, @unchecked Sendable {  // immutable
    /// The type identifier `SecTaskGetTypeID` and `CFGetTypeID` report.
    static let typeID: CFTypeID = 0x5EC0_0040

    let processIdentifier: Int32

    init(processIdentifier: Int32) {
        self.processIdentifier = processIdentifier
    }

    public override var description: String { "<SecTask pid \(processIdentifier)>" }
}

/// Apple's `SecTaskGetTypeID`.
public func SecTaskGetTypeID() -> CFTypeID { SecTask.typeID }

/// Apple's `SecTaskCreateFromSelf`: the current process (never nil here; the allocator is ignored).
public func SecTaskCreateFromSelf(_ allocator: CFAllocator?) -> SecTask? {
    SecTask(processIdentifier: ProcessInfo.processInfo.processIdentifier)
}

/// Apple's `SecTaskCopyValueForEntitlement`: nil, and no error, because an unsigned process has no entitlements
/// (Apple reports an absent entitlement the same way; an error means the entitlements could not be read).
public func SecTaskCopyValueForEntitlement(
    _ task: SecTask, _ entitlement: CFString, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFTypeRef? {
    nil
}

/// Apple's `SecTaskCopyValuesForEntitlements`: an empty dictionary (none of the entitlements is present).
public func SecTaskCopyValuesForEntitlements(
    _ task: SecTask, _ entitlements: CFArray, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFDictionary? {
    NSDictionary()
}

/// Apple's `SecTaskCopySigningIdentifier`: nil, as for an unsigned process.
public func SecTaskCopySigningIdentifier(
    _ task: SecTask, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFString? {
    nil
}

/// Apple's `SecTaskGetCodeSignStatus`: the task's code-signing flags, none for an unsigned process.
public func SecTaskGetCodeSignStatus(_ task: SecTask) -> UInt32 { 0 }

/// Apple's `audit_token_t` (a Mach/BSM type Apple's SDK gives Security code): eight words identifying a process;
/// word 5 is its process identifier.
public struct audit_token_t: Sendable {
    public var val: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    public init() { val = (0, 0, 0, 0, 0, 0, 0, 0) }

    public init(val: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) { self.val = val }
}

/// Apple's `SecTaskCreateWithAuditToken`: the task the token names (word 5, the process identifier). Like every
/// task here it has no entitlements; there are no audit tokens on Linux, so the token is taken as given.
public func SecTaskCreateWithAuditToken(_ allocator: CFAllocator?, _ token: audit_token_t) -> SecTask? {
    SecTask(processIdentifier: Int32(bitPattern: token.val.5))
}
