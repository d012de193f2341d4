import Foundation

// Core Foundation names that Apple-platform Swift code uses with the Security framework, mapped to their
// Foundation counterparts on Linux (toll-free bridging does not exist here; Foundation's classes stand in).
// Types and optionality follow Apple's Swift overlay: the CF constants are implicitly unwrapped optionals
// (`kCFBooleanTrue: CFBoolean!`, so code writes `kCFBooleanTrue!`), the `…Ref` spellings are typealiases.

/// Apple's `CFTypeRef`: any object reference.
public typealias CFTypeRef = AnyObject
/// Apple's `CFString`.
public typealias CFString = NSString
/// Apple's `CFMutableString`.
public typealias CFMutableString = NSMutableString
/// Apple's `CFData`.
public typealias CFData = NSData
/// Apple's `CFMutableData`.
public typealias CFMutableData = NSMutableData
/// Apple's `CFDictionary`.
public typealias CFDictionary = NSDictionary
/// Apple's `CFMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// Apple's `CFArray`.
public typealias CFArray = NSArray
/// Apple's `CFMutableArray`.
public typealias CFMutableArray = NSMutableArray
/// Apple's `CFError`.
public typealias CFError = NSError
/// Apple's `CFErrorDomain`: the domain of a `CFError`, a string.
public typealias CFErrorDomain = CFString
/// Apple's `CFDate`.
public typealias CFDate = NSDate
/// Apple's `CFNumber`.
public typealias CFNumber = NSNumber
/// Apple's `CFBoolean` (Foundation's boolean `NSNumber`).
public typealias CFBoolean = NSNumber
/// Apple's `CFNull`.
public typealias CFNull = NSNull
/// Apple's `CFIndex`.
public typealias CFIndex = Int
/// Apple's `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// Apple's `CFTypeID`.
public typealias CFTypeID = UInt
/// Apple's `CFHashCode`.
public typealias CFHashCode = UInt
/// Apple's `CFAllocator`: allocators do not exist here; the only value is `kCFAllocatorDefault` (nil).
public final class CFAllocator: Sendable {
    private init() {}
}
/// Apple's `CFAbsoluteTime`: seconds since 2001-01-01 00:00:00 UTC.
public typealias CFAbsoluteTime = Double
/// Apple's `CFTimeInterval`.
public typealias CFTimeInterval = Double

// MARK: The …Ref spellings Swift code still uses (Apple's overlay imports them as typealiases)

/// Apple's `CFStringRef`.
public typealias CFStringRef = CFString
/// Apple's `CFMutableStringRef`.
public typealias CFMutableStringRef = CFMutableString
/// Apple's `CFDataRef`.
public typealias CFDataRef = CFData
/// Apple's `CFMutableDataRef`.
public typealias CFMutableDataRef = CFMutableData
/// Apple's `CFDictionaryRef`.
public typealias CFDictionaryRef = CFDictionary
/// Apple's `CFMutableDictionaryRef`.
public typealias CFMutableDictionaryRef = CFMutableDictionary
/// Apple's `CFArrayRef`.
public typealias CFArrayRef = CFArray
/// Apple's `CFMutableArrayRef`.
public typealias CFMutableArrayRef = CFMutableArray
/// Apple's `CFErrorRef`.
public typealias CFErrorRef = CFError
/// Apple's `CFDateRef`.
public typealias CFDateRef = CFDate
/// Apple's `CFNumberRef`.
public typealias CFNumberRef = CFNumber
/// Apple's `CFBooleanRef`.
public typealias CFBooleanRef = CFBoolean
/// Apple's `CFNullRef`.
public typealias CFNullRef = CFNull
/// Apple's `CFAllocatorRef`.
public typealias CFAllocatorRef = CFAllocator

// MARK: Constants

/// Apple's `kCFBooleanTrue` (`CFBoolean!` in Apple's overlay, hence `kCFBooleanTrue!` in Swift code).
public let kCFBooleanTrue: CFBoolean! = CFConstants.true
/// Apple's `kCFBooleanFalse` (`CFBoolean!`).
public let kCFBooleanFalse: CFBoolean! = CFConstants.false
/// Apple's `kCFNull` (`CFNull!`), e.g. `kSecMatchValidOnDate: kCFNull` for "now".
public let kCFNull: CFNull! = NSNull()
/// Apple's `kCFAllocatorDefault` (`CFAllocator!`; allocators are not used on Linux, so it is nil).
public let kCFAllocatorDefault: CFAllocator! = nil
/// Apple's `kCFAbsoluteTimeIntervalSince1970`.
public let kCFAbsoluteTimeIntervalSince1970: CFTimeInterval = 978_307_200.0

// MARK: CFBundle's info-dictionary keys (keychain wrappers read `infoDictionary?[kCFBundleIdentifierKey as String]`)

/// Apple's `kCFBundleIdentifierKey` (`CFString!`): the info-dictionary key of the bundle identifier.
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString! = "CFBundleIdentifier"
/// Apple's `kCFBundleNameKey` (`CFString!`).
nonisolated(unsafe) public let kCFBundleNameKey: CFString! = "CFBundleName"
/// Apple's `kCFBundleVersionKey` (`CFString!`).
nonisolated(unsafe) public let kCFBundleVersionKey: CFString! = "CFBundleVersion"
/// Apple's `kCFBundleExecutableKey` (`CFString!`).
nonisolated(unsafe) public let kCFBundleExecutableKey: CFString! = "CFBundleExecutable"
/// Apple's `kCFBundleInfoDictionaryVersionKey` (`CFString!`).
nonisolated(unsafe) public let kCFBundleInfoDictionaryVersionKey: CFString! = "CFBundleInfoDictionaryVersion"
/// Apple's `kCFBundleDevelopmentRegionKey` (`CFString!`).
nonisolated(unsafe) public let kCFBundleDevelopmentRegionKey: CFString! = "CFBundleDevelopmentRegion"
/// Apple's `kCFBundleLocalizationsKey` (`CFString!`).
nonisolated(unsafe) public let kCFBundleLocalizationsKey: CFString! = "CFBundleLocalizations"

/// Apple's `CFAbsoluteTimeGetCurrent()`.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime {
    Date().timeIntervalSinceReferenceDate
}

/// The CF boolean singletons as non-optional values, for the facade's own dictionaries.
enum CFConstants {
    static let `true`: CFBoolean = NSNumber(value: true)
    static let `false`: CFBoolean = NSNumber(value: false)

    static func boolean(_ value: Bool) -> CFBoolean { value ? `true` : `false` }
}
