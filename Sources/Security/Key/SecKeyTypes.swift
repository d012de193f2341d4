import Foundation

/// Apple's `SecKeyOperationType`.
public enum SecKeyOperationType: Int, Sendable {
    case sign = 0
    case verify = 1
    case encrypt = 2
    case decrypt = 3
    case keyExchange = 4
}

/// Apple's `SecPadding` for the legacy `SecKeyEncrypt`/`SecKeyRawSign` family.
public struct SecPadding: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let PKCS1 = SecPadding(rawValue: 1)
    public static let OAEP = SecPadding(rawValue: 2)
    public static let sigRaw = SecPadding(rawValue: 0x4000)
    public static let PKCS1MD2 = SecPadding(rawValue: 0x8000)
    public static let PKCS1MD5 = SecPadding(rawValue: 0x8001)
    public static let PKCS1SHA1 = SecPadding(rawValue: 0x8002)
    public static let PKCS1SHA224 = SecPadding(rawValue: 0x8003)
    public static let PKCS1SHA256 = SecPadding(rawValue: 0x8004)
    public static let PKCS1SHA384 = SecPadding(rawValue: 0x8005)
    public static let PKCS1SHA512 = SecPadding(rawValue: 0x8006)
}

/// Apple's `SecKeyKeyExchangeParameter` (keys of the parameters dictionary of `SecKeyCopyKeyExchangeResult`).
public struct SecKeyKeyExchangeParameter: Hashable, RawRepresentable, Sendable {
    let name: String
    public init(rawValue: CFString) { name = rawValue as String }
    public var rawValue: CFString { NSString(string: name) }

    public static let requestedSize = SecKeyKeyExchangeParameter(rawValue: "requestedSize")
    public static let sharedInfo = SecKeyKeyExchangeParameter(rawValue: "sharedInfo")
}
