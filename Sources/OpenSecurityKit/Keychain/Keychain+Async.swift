import Dispatch
import Foundation
import Security

/// Runs `body` on a global dispatch queue and resumes the caller with its result: keychain calls take file locks
/// and decrypt, so they run off the caller's thread (the main thread, or a cooperative-pool thread that other
/// tasks need).
func offCallerThread<T: Sendable>(
    _ body: @escaping @Sendable () throws(SecurityKitError) -> T
) async throws(SecurityKitError) -> T {
    let result: Result<T, SecurityKitError> = await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(returning: Result<T, SecurityKitError>(catching: body))
        }
    }
    return try result.get()
}

// The same calls as the synchronous ones, run off the caller's thread. In an async context these are the ones
// Swift picks (`try await keychain.set(…)`).
extension Keychain {
    /// `set(_:forAccount:)`, off the caller's thread.
    public func set(_ password: String, forAccount account: String) async throws(SecurityKitError) {
        try await offCallerThread { () throws(SecurityKitError) in try self.set(password, forAccount: account) }
    }

    /// `set(_:forAccount:)`, off the caller's thread.
    public func set(_ data: Data, forAccount account: String) async throws(SecurityKitError) {
        try await offCallerThread { () throws(SecurityKitError) in try self.set(data, forAccount: account) }
    }

    /// `string(forAccount:)`, off the caller's thread.
    public func string(forAccount account: String) async throws(SecurityKitError) -> String? {
        try await offCallerThread { () throws(SecurityKitError) in try self.string(forAccount: account) }
    }

    /// `data(forAccount:)`, off the caller's thread.
    public func data(forAccount account: String) async throws(SecurityKitError) -> Data? {
        try await offCallerThread { () throws(SecurityKitError) in try self.data(forAccount: account) }
    }

    /// `delete(account:)`, off the caller's thread.
    @discardableResult
    public func delete(account: String) async throws(SecurityKitError) -> Bool {
        try await offCallerThread { () throws(SecurityKitError) in try self.delete(account: account) }
    }

    /// `deleteAll()`, off the caller's thread.
    @discardableResult
    public func deleteAll() async throws(SecurityKitError) -> Int {
        try await offCallerThread { () throws(SecurityKitError) in try self.deleteAll() }
    }

    /// `contains(account:)`, off the caller's thread.
    public func contains(account: String) async throws(SecurityKitError) -> Bool {
        try await offCallerThread { () throws(SecurityKitError) in try self.contains(account: account) }
    }

    /// `accounts()`, off the caller's thread.
    public func accounts() async throws(SecurityKitError) -> [String] {
        try await offCallerThread { () throws(SecurityKitError) in try self.accounts() }
    }

    /// `items()`, off the caller's thread.
    public func items() async throws(SecurityKitError) -> [KeychainItem] {
        try await offCallerThread { () throws(SecurityKitError) in try self.items() }
    }

    /// `set(_:forAccount:encoder:)`, off the caller's thread.
    public func set<Value: Encodable & Sendable>(
        _ value: Value, forAccount account: String, encoder: any KeychainValueEncoder = JSONEncoder()
    ) async throws(SecurityKitError) {
        try await offCallerThread { () throws(SecurityKitError) in
            try self.set(value, forAccount: account, encoder: encoder)
        }
    }

    /// `value(_:forAccount:decoder:)`, off the caller's thread.
    public func value<Value: Decodable & Sendable>(
        _ type: Value.Type, forAccount account: String, decoder: any KeychainValueDecoder = JSONDecoder()
    ) async throws(SecurityKitError) -> Value? {
        try await offCallerThread { () throws(SecurityKitError) in
            try self.value(Value.self, forAccount: account, decoder: decoder)
        }
    }
}
