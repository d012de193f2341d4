import Foundation
import OSecSystem

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

// MARK: Element access through Apple's raw pointers

/// Apple's `CFArrayGetValueAtIndex`: the element's address, unretained and valid while the array lives (code turns
/// it back with `unsafeBitCast(…, to: SecCertificate.self)` or `Unmanaged.fromOpaque`). nil for an index out of
/// range (where Apple's CF stops the process).
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: CFIndex) -> UnsafeRawPointer! {
    guard let theArray, idx >= 0, idx < theArray.count else { return nil }
    return ObjectPointers.pointer(to: theArray.object(at: idx) as AnyObject, in: theArray, slot: idx)
}

/// The value of `key` (an object's address, as Apple's CF dictionaries take keys) in `dictionary`.
private func dictionaryValue(_ dictionary: CFDictionary, _ key: UnsafeRawPointer) -> (key: AnyObject, value: Any)? {
    let keyObject = ObjectPointers.object(at: key)
    guard let value = dictionary.object(forKey: keyObject) else { return nil }
    return (keyObject, value)
}

/// Apple's `CFDictionaryGetValue`: the value's address for the key object at `key`
/// (`Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque()`, `unsafeBitCast(kSecValueData, to:
/// UnsafeRawPointer.self)`), unretained and valid while the dictionary lives; nil when the key is absent.
public func CFDictionaryGetValue(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> UnsafeRawPointer! {
    guard let theDict, let key, let found = dictionaryValue(theDict, key) else { return nil }
    return ObjectPointers.pointer(to: found.value as AnyObject, in: theDict, slot: slot(found.key))
}

/// Apple's `CFDictionaryGetValueIfPresent`: whether the key is present, and its value's address in `value`.
public func CFDictionaryGetValueIfPresent(
    _ theDict: CFDictionary!, _ key: UnsafeRawPointer!, _ value: UnsafeMutablePointer<UnsafeRawPointer?>!
) -> Bool {
    guard let theDict, let key, let found = dictionaryValue(theDict, key) else { return false }
    value?.pointee = ObjectPointers.pointer(to: found.value as AnyObject, in: theDict, slot: slot(found.key))
    return true
}

/// Apple's `CFDictionaryContainsKey`.
public func CFDictionaryContainsKey(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> Bool {
    guard let theDict, let key else { return false }
    return dictionaryValue(theDict, key) != nil
}

/// The slot a dictionary value is kept under: its key, by value when the key is hashable.
private func slot(_ key: AnyObject) -> AnyHashable {
    (key as? NSObject).map { AnyHashable($0) } ?? AnyHashable(ObjectIdentifier(key))
}

/// Apple's `CFDataGetBytePtr`: the bytes, valid while the data object lives (nil for empty data).
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    guard let theData else { return nil }
    return ObjectPointers.bytes(at: theData.bytes, count: theData.length)
}

/// Apple's `CFStringGetLength`: the number of UTF-16 code units.
public func CFStringGetLength(_ theString: CFString!) -> CFIndex {
    theString?.length ?? 0
}
