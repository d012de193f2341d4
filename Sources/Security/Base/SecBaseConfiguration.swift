import Foundation

// SecBase.h's configuration macros and its remaining opaque type, as Swift imports them on Apple platforms.

/// Apple's `SEC_OS_IPHONE`: 0 — this framework offers macOS's API surface (the file keychain, trust settings).
public var SEC_OS_IPHONE: Int32 { 0 }
/// Apple's `SEC_OS_OSX`: 1, as on macOS.
public var SEC_OS_OSX: Int32 { 1 }
/// Apple's `SEC_OS_OSX_INCLUDES`: 1, as on macOS.
public var SEC_OS_OSX_INCLUDES: Int32 { 1 }
/// Apple's `SECURITY_TYPE_UNIFICATION`: 1 (SecKey, SecCertificate… are the same types on every platform).
public var SECURITY_TYPE_UNIFICATION: Int32 { 1 }

/// Apple's `SecPassword` (macOS): an opaque password-reference object no public function creates or takes.
public final class SecPassword: NSObject, @unchecked Sendable {
    // @unchecked: no state.
    override private init() { super.init() }
}
