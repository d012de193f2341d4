import Foundation

// Core Foundation names that Apple-platform Swift code uses with the Security framework, mapped to their
// Foundation counterparts on Linux (toll-free bridging does not exist here; Foundation's classes stand in).

/// Apple's `CFTypeRef`: any object reference.
public typealias CFTypeRef = AnyObject
/// Apple's `CFString`.
public typealias CFString = NSString
/// Apple's `CFData`.
public typealias CFData = NSData
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
/// Apple's `CFDate`.
public typealias CFDate = NSDate
/// Apple's `CFNumber`.
public typealias CFNumber = NSNumber
/// Apple's `CFBoolean`.
public typealias CFBoolean = NSNumber
/// Apple's `CFIndex`.
public typealias CFIndex = Int
/// Apple's `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// Apple's `CFTypeID`.
public typealias CFTypeID = UInt
/// Apple's `CFAllocator`: allocators do not exist here; the only value is `kCFAllocatorDefault` (nil).
public final class CFAllocator: Sendable {
    private init() {}
}
/// Apple's `CFAbsoluteTime`: seconds since 2001-01-01 00:00:00 UTC.
public typealias CFAbsoluteTime = Double
/// Apple's `CFTimeInterval`.
public typealias CFTimeInterval = Double

/// Apple's `kCFBooleanTrue`.
public let kCFBooleanTrue: CFBoolean = NSNumber(value: true)
/// Apple's `kCFBooleanFalse`.
public let kCFBooleanFalse: CFBoolean = NSNumber(value: false)
/// Apple's `kCFAllocatorDefault` (allocators are not used on Linux).
public let kCFAllocatorDefault: CFAllocator? = nil
/// Apple's `kCFAbsoluteTimeIntervalSince1970`.
public let kCFAbsoluteTimeIntervalSince1970: CFTimeInterval = 978_307_200.0

/// Apple's `CFAbsoluteTimeGetCurrent()`.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime {
    Date().timeIntervalSinceReferenceDate
}
