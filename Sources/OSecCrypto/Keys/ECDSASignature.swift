internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Conversions between X9.62 DER ECDSA signatures and raw r‖s (IEEE P1363), and their size bounds.
enum ECDSASignature {
    /// Longest DER signature passed to OpenSSL (P-521's is at most 139 bytes; anything longer is not a
    /// signature of a supported curve, and the bound keeps OpenSSL's decoder away from huge inputs).
    static let maximumDERLength = 1024
    /// Longest pre-computed digest accepted for ECDSA without a named hash (OpenSSL truncates to the order size).
    static let maximumDigestLength = 1024

    /// DER → r‖s with each half left-padded to `fieldSize`.
    static func derToRaw<Output>(
        _ der: Data, fieldSize: Int, as output: CryptoOutput<Output>
    ) throws(CryptoError) -> Output {
        try der.withBytes { (bytes, count) throws(CryptoError) in
            var cursor: UnsafePointer<UInt8>? = bytes.assumingMemoryBound(to: UInt8.self)
            let sig = try ossl(d2i_ECDSA_SIG(nil, &cursor, count), "d2i_ECDSA_SIG")
            defer { ECDSA_SIG_free(sig) }
            guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig) else {
                throw CryptoError.failed("ECDSA_SIG_get0")
            }
            return try output.filling(capacity: 2 * fieldSize) { (out) throws(CryptoError) in
                let base = out.assumingMemoryBound(to: UInt8.self)
                guard BN_bn2binpad(r, base, Int32(fieldSize)) == Int32(fieldSize),
                    BN_bn2binpad(s, base + fieldSize, Int32(fieldSize)) == Int32(fieldSize)
                else { throw CryptoError.failed("BN_bn2binpad") }
                return 2 * fieldSize
            }
        }
    }

    /// r‖s → DER, or nil if the length is wrong or OpenSSL fails.
    static func rawToDER(_ raw: some CryptoInput, fieldSize: Int) -> Data? {
        guard raw.cryptoByteCount == 2 * fieldSize else { return nil }
        let result = try? raw.withCryptoBytes { (bytes, _) throws(CryptoError) -> Data? in
            let base = bytes.assumingMemoryBound(to: UInt8.self)
            guard let sig = ECDSA_SIG_new() else { return nil }
            defer { ECDSA_SIG_free(sig) }
            guard let r = BN_bin2bn(base, Int32(fieldSize), nil) else { return nil }
            guard let s = BN_bin2bn(base + fieldSize, Int32(fieldSize), nil) else {
                BN_free(r)
                return nil
            }
            guard ECDSA_SIG_set0(sig, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                return nil
            }
            return try? AsymmetricKey.encode("i2d_ECDSA_SIG") { out in i2d_ECDSA_SIG(sig, out) }
        }
        OpenSSLErrorQueue.clear()
        return result ?? nil
    }
}
