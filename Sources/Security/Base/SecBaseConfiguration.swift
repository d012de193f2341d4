import Foundation

// SecBase.h's configuration macros, as Swift imports them (Int32 constants). OpenSecurity gives the macOS
// interfaces (the union of iOS and macOS), so the values are macOS's.

/// Apple's `SEC_OS_IPHONE`: 0, the macOS interfaces are declared.
public var SEC_OS_IPHONE: Int32 { 0 }
/// Apple's `SEC_OS_OSX`: 1.
public var SEC_OS_OSX: Int32 { 1 }
/// Apple's `SEC_OS_OSX_INCLUDES`: 1.
public var SEC_OS_OSX_INCLUDES: Int32 { 1 }
/// Apple's `SECURITY_TYPE_UNIFICATION`: 1 (SecKey, SecCertificate, … are the same types on every platform).
public var SECURITY_TYPE_UNIFICATION: Int32 { 1 }

/// Apple's `SecPassword` (SecBase.h's opaque password-reference type, created only by Apple's private API; no
/// public function takes or returns one).
public final class SecPassword: NSObject, Sendable {}

/// Apple's `SecPasswordRef`.
public typealias SecPasswordRef = SecPassword
