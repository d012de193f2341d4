/// An item's accessibility (`kSecAttrAccessible`, stored as `pdmn`), which decides its ``ProtectionClass``.
package struct Accessibility: Hashable, Sendable, CustomStringConvertible {
    /// Apple's value string: `ak`, `ck`, `dk`, `aku`, `cku`, `dku` or `akpu`.
    package let rawValue: String

    /// Accepts only Apple's seven values.
    package init?(rawValue: String) {
        guard Accessibility.protectionClass(of: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    package static let whenUnlocked = Accessibility(known: "ak")
    package static let afterFirstUnlock = Accessibility(known: "ck")
    package static let always = Accessibility(known: "dk")
    package static let whenUnlockedThisDeviceOnly = Accessibility(known: "aku")
    package static let afterFirstUnlockThisDeviceOnly = Accessibility(known: "cku")
    package static let alwaysThisDeviceOnly = Accessibility(known: "dku")
    package static let whenPasscodeSetThisDeviceOnly = Accessibility(known: "akpu")

    /// Apple's default: `dk` for certificates, `ak` for every other class.
    package static func `default`(for itemClass: ItemClass) -> Accessibility {
        itemClass == .certificate ? .always : .whenUnlocked
    }

    /// The key that seals secrets of items with this accessibility.
    package var protectionClass: ProtectionClass {
        Accessibility.protectionClass(of: rawValue) ?? .whenUnlocked
    }

    private static func protectionClass(of value: String) -> ProtectionClass? {
        switch value {
        case "ak", "aku", "akpu": .whenUnlocked
        case "ck", "cku": .afterFirstUnlock
        case "dk", "dku": .always
        default: nil
        }
    }

    package var description: String { rawValue }
}

/// The three secret-sealing keys of a keychain (Apple's data-protection classes A, C and D).
package enum ProtectionClass: String, Sendable, CaseIterable {
    /// Class A: readable only while the keychain is unlocked. Wrapped by the master key; dropped on lock.
    case whenUnlocked = "A"
    /// Class C: readable once the keychain was unlocked in this process. Wrapped by the master key; kept on lock.
    case afterFirstUnlock = "C"
    /// Class D: always readable. Wrapped by the device key, so no password is needed.
    case always = "D"
}
