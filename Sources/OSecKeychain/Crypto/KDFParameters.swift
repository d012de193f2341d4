/// scrypt work factors for deriving the key that wraps the master key from the keychain password.
/// Stored in the keychain (so they can be raised later without breaking old keychains).
package struct KDFParameters: Hashable, Sendable {
    /// CPU/memory cost N (a power of two).
    package let n: UInt64
    /// Block size r.
    package let r: UInt32
    /// Parallelism p.
    package let p: UInt32

    package init(n: UInt64, r: UInt32, p: UInt32) throws(KeychainStoreError) {
        guard n >= 2, n & (n - 1) == 0, r >= 1, p >= 1 else {
            throw KeychainStoreError(.param, "scrypt needs N a power of two ≥ 2 and r, p ≥ 1")
        }
        self.n = n
        self.r = r
        self.p = p
    }

    private init(unchecked n: UInt64, _ r: UInt32, _ p: UInt32) {
        self.n = n
        self.r = r
        self.p = p
    }

    /// The default for new keychains: N = 2^17, r = 8, p = 1 (128 MiB, a few hundred ms; OWASP's scrypt
    /// recommendation). Paid once per unlock and per password change, never per item.
    package static let `default` = KDFParameters(unchecked: 1 << 17, 8, 1)

    /// Cheap parameters for tests only (N = 2^10): never use for real keychains.
    package static let testing = KDFParameters(unchecked: 1 << 10, 8, 1)
}
