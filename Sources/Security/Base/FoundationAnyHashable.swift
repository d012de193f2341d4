import Foundation

// On Apple platforms Foundation's overlay gives NSString and NSNumber a custom AnyHashable representation (their
// Swift value): `AnyHashable(someNSString) == AnyHashable(someString)` and `AnyHashable(NSNumber(value: true)) ==
// AnyHashable(true)`. swift-corelibs-foundation does not, so on Linux a `kSec…` constant (a CFString, i.e.
// NSString) wrapped in AnyHashable never equals the String keys of a bridged dictionary: every
// `[AnyHashable: Any]` lookup such as `attributes[kSecAttrAccount]` comes back nil, and
// `NSDictionary.isEqual(to:)` fails for a query dictionary compared with itself after bridging (its `true` and
// CFString values no longer equal the NSNumber and NSString they became).
//
// Giving both classes the representation Apple's overlay gives them fixes every access pattern at once: result
// dictionaries cast to `[String: Any]`, `[AnyHashable: Any]` or kept as NSDictionary, indexed with `kSec…` or
// `kSec… as String`, and round-tripped query dictionaries compared with `isEqual`.

extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The string's Swift `String` wrapped in AnyHashable, as on Apple platforms.
    public func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(self as String)
    }
}

extension NSNumber: @retroactive _HasCustomAnyHashableRepresentation {
    /// The number's Swift value wrapped in AnyHashable, as on Apple platforms: `Bool` for the boolean singletons,
    /// `Int` when the value is integral and fits (Swift's AnyHashable compares integers of every width by value),
    /// else `Double`.
    public func _toCustomAnyHashable() -> AnyHashable? {
        if type(of: self) == type(of: CFConstants.true) { return AnyHashable(boolValue) }
        let integer = intValue
        if NSNumber(value: integer).isEqual(self) { return AnyHashable(integer) }
        return AnyHashable(doubleValue)
    }
}
