import Foundation

// The Core Foundation functions that Swift code written for the Security framework calls on its results:
// CFError accessors (`CFErrorGetCode(error)`, `CFErrorCopyDescription(error) as String`), `CFGetTypeID` to tell
// a SecKey from a SecCertificate, `CFEqual`/`CFHash`, `CFBooleanGetValue`. Signatures are Apple's (CF functions
// take and return implicitly unwrapped optionals). `CFRetain`/`CFRelease` are unavailable in Swift on Apple
// platforms too, so they are not here.

// MARK: CFError

/// Apple's `kCFErrorDomainOSStatus` (= `NSOSStatusErrorDomain`), the domain of every error the Security
/// functions return.
nonisolated(unsafe) public let kCFErrorDomainOSStatus: CFErrorDomain! = NSString(string: NSOSStatusErrorDomain)
/// Apple's `kCFErrorDomainPOSIX`.
nonisolated(unsafe) public let kCFErrorDomainPOSIX: CFErrorDomain! = NSString(string: NSPOSIXErrorDomain)
/// Apple's `kCFErrorDomainMach`.
nonisolated(unsafe) public let kCFErrorDomainMach: CFErrorDomain! = NSString(string: NSMachErrorDomain)
/// Apple's `kCFErrorDomainCocoa`.
nonisolated(unsafe) public let kCFErrorDomainCocoa: CFErrorDomain! = NSString(string: NSCocoaErrorDomain)
/// Apple's `kCFErrorLocalizedDescriptionKey` (= `NSLocalizedDescriptionKey`).
nonisolated(unsafe) public let kCFErrorLocalizedDescriptionKey: CFString! = NSString(string: NSLocalizedDescriptionKey)
/// Apple's `kCFErrorLocalizedFailureKey` (= `NSLocalizedFailureErrorKey`).
nonisolated(unsafe) public let kCFErrorLocalizedFailureKey: CFString! = NSString(string: "NSLocalizedFailure")
/// Apple's `kCFErrorLocalizedFailureReasonKey` (= `NSLocalizedFailureReasonErrorKey`).
nonisolated(unsafe) public let kCFErrorLocalizedFailureReasonKey: CFString! = NSString(
    string: NSLocalizedFailureReasonErrorKey)
/// Apple's `kCFErrorLocalizedRecoverySuggestionKey` (= `NSLocalizedRecoverySuggestionErrorKey`).
nonisolated(unsafe) public let kCFErrorLocalizedRecoverySuggestionKey: CFString! = NSString(
    string: NSLocalizedRecoverySuggestionErrorKey)
/// Apple's `kCFErrorDescriptionKey`.
nonisolated(unsafe) public let kCFErrorDescriptionKey: CFString! = NSString(string: "NSDescription")
/// Apple's `kCFErrorUnderlyingErrorKey` (= `NSUnderlyingErrorKey`).
nonisolated(unsafe) public let kCFErrorUnderlyingErrorKey: CFString! = NSString(string: NSUnderlyingErrorKey)

/// Apple's `CFErrorCreate`: a `CFError` (an `NSError`) with the domain, code and user info given.
public func CFErrorCreate(
    _ allocator: CFAllocator!, _ domain: CFErrorDomain!, _ code: CFIndex, _ userInfo: CFDictionary!
) -> CFError! {
    guard let domain else { return nil }
    var info: [String: Any] = [:]
    userInfo?.forEach { key, value in
        if let name = AttributeDictionary.stringValue(key) { info[name] = value }
    }
    return NSError(domain: domain as String, code: code, userInfo: info)
}

/// Apple's `CFErrorGetDomain`.
public func CFErrorGetDomain(_ err: CFError!) -> CFErrorDomain! {
    err.map { NSString(string: $0.domain) }
}

/// Apple's `CFErrorGetCode`: for the Security functions' errors, the `OSStatus`.
public func CFErrorGetCode(_ err: CFError!) -> CFIndex {
    err?.code ?? 0
}

/// Apple's `CFErrorCopyUserInfo` (an empty dictionary when the error has none).
public func CFErrorCopyUserInfo(_ err: CFError!) -> CFDictionary! {
    guard let err else { return nil }
    return err.userInfo as NSDictionary
}

/// Apple's `CFErrorCopyDescription`: the localized description.
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! {
    err.map { NSString(string: $0.localizedDescription) }
}

/// Apple's `CFErrorCopyFailureReason`: the `kCFErrorLocalizedFailureReasonKey` text, if any.
public func CFErrorCopyFailureReason(_ err: CFError!) -> CFString! {
    err?.localizedFailureReason.map { NSString(string: $0) }
}

/// Apple's `CFErrorCopyRecoverySuggestion`: the `kCFErrorLocalizedRecoverySuggestionKey` text, if any.
public func CFErrorCopyRecoverySuggestion(_ err: CFError!) -> CFString! {
    err?.localizedRecoverySuggestion.map { NSString(string: $0) }
}

// MARK: CFType

/// Apple's `CFGetTypeID`: the type of a Core Foundation or Security object (compare it with `SecKeyGetTypeID()`,
/// `CFDataGetTypeID()`, …). Swift values bridged to objects report their Foundation class's type.
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    guard let cf else { return CFTypeIdentifier.unknown }
    return CFTypeIdentifier.of(cf)
}

/// Apple's `CFEqual`: value equality (`isEqual`) for objects that define it, identity otherwise.
public func CFEqual(_ cf1: CFTypeRef!, _ cf2: CFTypeRef!) -> Bool {
    guard let cf1, let cf2 else { return cf1 == nil && cf2 == nil }
    if cf1 === cf2 { return true }
    if let object = cf1 as? NSObject { return object.isEqual(cf2) }
    return false
}

/// Apple's `CFHash`: a hash consistent with ``CFEqual(_:_:)``.
public func CFHash(_ cf: CFTypeRef!) -> CFHashCode {
    guard let cf else { return 0 }
    if let object = cf as? NSObject { return CFHashCode(bitPattern: object.hash) }
    return CFHashCode(bitPattern: ObjectIdentifier(cf).hashValue)
}

/// Apple's `CFCopyDescription`.
public func CFCopyDescription(_ cf: CFTypeRef!) -> CFString! {
    guard let cf else { return nil }
    return NSString(string: String(describing: cf))
}

/// Apple's `CFCopyTypeIDDescription`: the type's name (`"SecKey"`, `"CFData"`, …), nil for unknown IDs.
public func CFCopyTypeIDDescription(_ type_id: CFTypeID) -> CFString! {
    CFTypeIdentifier.names[type_id].map { NSString(string: $0) }
}

/// Apple's `CFStringGetTypeID`.
public func CFStringGetTypeID() -> CFTypeID { CFTypeIdentifier.string }
/// Apple's `CFDataGetTypeID`.
public func CFDataGetTypeID() -> CFTypeID { CFTypeIdentifier.data }
/// Apple's `CFDictionaryGetTypeID`.
public func CFDictionaryGetTypeID() -> CFTypeID { CFTypeIdentifier.dictionary }
/// Apple's `CFArrayGetTypeID`.
public func CFArrayGetTypeID() -> CFTypeID { CFTypeIdentifier.array }
/// Apple's `CFNumberGetTypeID`.
public func CFNumberGetTypeID() -> CFTypeID { CFTypeIdentifier.number }
/// Apple's `CFBooleanGetTypeID`.
public func CFBooleanGetTypeID() -> CFTypeID { CFTypeIdentifier.boolean }
/// Apple's `CFDateGetTypeID`.
public func CFDateGetTypeID() -> CFTypeID { CFTypeIdentifier.date }
/// Apple's `CFNullGetTypeID`.
public func CFNullGetTypeID() -> CFTypeID { CFTypeIdentifier.null }
/// Apple's `CFErrorGetTypeID`.
public func CFErrorGetTypeID() -> CFTypeID { CFTypeIdentifier.error }

// MARK: Values

/// Apple's `CFBooleanGetValue`.
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool {
    boolean?.boolValue ?? false
}

/// Apple's `CFDataGetLength`.
public func CFDataGetLength(_ theData: CFData!) -> CFIndex {
    theData?.length ?? 0
}

/// Apple's `CFDataCreate`: a copy of `length` bytes (nil when `length` is negative, or bytes are missing).
public func CFDataCreate(_ allocator: CFAllocator!, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex) -> CFData! {
    guard length >= 0 else { return nil }
    if length == 0 { return NSData() }
    guard let bytes else { return nil }
    return Data(bytes: bytes, count: length) as NSData
}

/// Apple's `CFArrayGetCount`.
public func CFArrayGetCount(_ theArray: CFArray!) -> CFIndex {
    theArray?.count ?? 0
}

/// Apple's `CFDictionaryGetCount`.
public func CFDictionaryGetCount(_ theDict: CFDictionary!) -> CFIndex {
    theDict?.count ?? 0
}
