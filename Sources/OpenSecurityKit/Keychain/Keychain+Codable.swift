import Foundation
import Security

/// What encodes ``Keychain`` values: `JSONEncoder` (the default) and `PropertyListEncoder` conform; conform your
/// own encoder to store another format.
public protocol KeychainValueEncoder: Sendable {
    /// The bytes to store for `value`.
    func encode<T: Encodable>(_ value: T) throws -> Data
}

/// What decodes ``Keychain`` values: `JSONDecoder` (the default) and `PropertyListDecoder` conform.
public protocol KeychainValueDecoder: Sendable {
    /// The value stored as `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONEncoder: KeychainValueEncoder {}
extension PropertyListEncoder: KeychainValueEncoder {}
extension JSONDecoder: KeychainValueDecoder {}
extension PropertyListDecoder: KeychainValueDecoder {}

extension Keychain {
    /// Stores `value` for `account`, encoded by `encoder` (JSON by default), with `set(_:forAccount:)`'s
    /// add-or-update.
    ///
    /// ```swift
    /// struct Token: Codable { var access: String; var expires: Date }
    /// try keychain.set(Token(access: "…", expires: .now), forAccount: "alice")
    /// let token = try keychain.value(Token.self, forAccount: "alice")
    /// ```
    ///
    /// - Throws: errSecParam when the encoder fails; Apple's codes for keychain failures.
    public func set<Value: Encodable>(
        _ value: Value, forAccount account: String, encoder: any KeychainValueEncoder = JSONEncoder()
    ) throws(SecurityKitError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw SecurityKitError(
                errSecParam, reason: "cannot encode the \(Value.self) for account \(account): \(error)")
        }
        try set(data, forAccount: account)
    }

    /// The value stored for `account`, decoded by `decoder` (JSON by default); nil when there is no item.
    ///
    /// - Throws: errSecDecode when the stored bytes do not decode as `Value`; Apple's codes for keychain failures.
    public func value<Value: Decodable>(
        _ type: Value.Type, forAccount account: String, decoder: any KeychainValueDecoder = JSONDecoder()
    ) throws(SecurityKitError) -> Value? {
        guard let data = try data(forAccount: account) else { return nil }
        do {
            return try decoder.decode(Value.self, from: data)
        } catch {
            throw SecurityKitError(
                errSecDecode, reason: "the item of account \(account) is not a \(Value.self): \(error)")
        }
    }
}
