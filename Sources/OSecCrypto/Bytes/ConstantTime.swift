internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Comparisons whose running time does not depend on where the inputs differ.
package enum ConstantTime {
    /// True when `a` and `b` have the same length and bytes (CRYPTO_memcmp; the length is not secret).
    package static func equals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                guard let l = left.baseAddress, let r = right.baseAddress else { return false }
                return CRYPTO_memcmp(l, r, left.count) == 0
            }
        }
    }
}
