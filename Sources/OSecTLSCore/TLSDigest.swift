internal import CLibSSL
import Foundation

/// SHA-256 from libcrypto for the identifiers that keep TLS sessions apart (certificate fingerprints, the scope of
/// a server's or a client's sessions). Nothing secret is hashed here.
package enum TLSDigest {
    /// libcrypto's SHA-256, fetched once (OpenSSL 3 otherwise looks the algorithm up on every call).
    private static let algorithm = FetchedSHA256()

    /// The SHA-256 of `parts`, each prefixed with its 4-byte length, so that different lists never hash alike
    /// by concatenation. Throws when libcrypto fails (the caller then must not rely on the identifier).
    package static func sha256(_ parts: [Data]) throws(TLSError) -> [UInt8] {
        guard let md = algorithm.raw, let context = EVP_MD_CTX_new() else { throw TLSError.failed("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, md, nil) == 1 else { throw TLSError.failed("EVP_DigestInit_ex") }
        for part in parts {
            let count = UInt32(truncatingIfNeeded: part.count)
            let length = [
                UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF),
            ]
            let ok =
                EVP_DigestUpdate(context, length, length.count) == 1
                && part.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
            guard ok else { throw TLSError.failed("EVP_DigestUpdate") }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var digestLength: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &digestLength) == 1, digestLength == 32 else {
            throw TLSError.failed("EVP_DigestFinal_ex")
        }
        return digest
    }

    /// The SHA-256 of one byte string (no length prefix): a certificate's fingerprint.
    package static func sha256(_ data: Data) throws(TLSError) -> [UInt8] {
        guard let md = algorithm.raw else { throw TLSError.failed("EVP_MD_fetch") }
        var digest = [UInt8](repeating: 0, count: 32)
        var digestLength: UInt32 = 0
        let ok = data.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &digestLength, md, nil) }
        guard ok == 1, digestLength == 32 else { throw TLSError.failed("EVP_Digest") }
        return digest
    }
}

/// Owns the fetched EVP_MD (immutable and shareable between threads, as OpenSSL documents fetched algorithms).
private final class FetchedSHA256: @unchecked Sendable {
    let raw: OpaquePointer?
    init() { raw = EVP_MD_fetch(nil, "SHA256", nil) }
    deinit { if let raw { EVP_MD_free(raw) } }
}
